// docs/browser.md's Storybook set-up is the example app's (issue 39): a block marked `<!-- file: PATH -->` is that
// file of the repository, byte for byte, and one marked `<!-- excerpt: PATH -->` is pieces of it, in order, with
// a `// …` line between pieces. So the page shows what examples/frontend/ runs, and CI builds that Storybook and
// opens every story in Chromium (npm run test:storybook).
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from '../support/servers';

const PAGE = fs.readFileSync(path.join(ROOT, 'docs', 'browser.md'), 'utf8');
const MARKED = [...PAGE.matchAll(/<!-- (file|excerpt): (\S+) -->\n```\w*\n([\s\S]*?)\n```/g)].map(([, kind, file, code]) => ({
  kind: kind!,
  file: file!,
  code: code!,
}));
const source = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');

describe('docs/browser.md, the Storybook set-up', () => {
  test('the page shows the worker script, the preview and the stories of examples/frontend', () => {
    expect(MARKED.map(({ kind, file }) => `${kind} ${file}`)).toEqual([
      'excerpt examples/frontend/.storybook/main.ts',
      'file examples/frontend/.storybook/preview.ts',
      'excerpt examples/frontend/src/ClientList.stories.tsx',
    ]);
  });

  test.each(MARKED.filter(({ kind }) => kind === 'file'))('the block of $file → equals that file', ({ file, code }) => {
    expect(code).toBe(source(file).replace(/\n$/, ''));
  });

  test.each(MARKED.filter(({ kind }) => kind === 'excerpt'))('the excerpt of $file → its pieces, in that order', ({ file, code }) => {
    const text = source(file);
    let from = 0;
    for (const piece of code.split('\n// …\n')) {
      const at = text.indexOf(piece, from);
      expect({ piece, found: at >= 0 }).toEqual({ piece, found: true });
      from = at + piece.length;
    }
  });
});
