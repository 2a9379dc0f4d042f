// docs/frontend.md is a Vite app (issue 38): every code block is a whole file of it, named by the
// `<!-- file: PATH -->` line above the block, and each must equal that file of the repository's app,
// examples/frontend/, byte for byte. scripts/vite-app.ts pastes the same blocks into an app made from
// Vite's template and runs it; a block without a file to go to could not be pasted, so there is none.
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from '../support/servers';

const DOC = fs.readFileSync(path.join(ROOT, 'docs/frontend.md'), 'utf8');
const BLOCKS = [...DOC.matchAll(/(?:<!-- file: (\S+) -->\n)?```(\w*)\n([\s\S]*?)\n```/g)].map(([, file, lang, code]) => ({
  file,
  lang: lang!,
  code: code!,
}));
const MARKED = BLOCKS.filter((block): block is { file: string; lang: string; code: string } => block.file !== undefined);

describe('docs/frontend.md, the app', () => {
  test('every code block but shell lines and sample output → names the file of the app it is', () => {
    const unnamed = BLOCKS.filter((block) => block.file === undefined && !['sh', 'text'].includes(block.lang));

    expect(unnamed.map((block) => block.code.split('\n')[0])).toEqual([]);
  });

  test('the page holds the app: its data layer, components, unit tests, configs and Playwright set-up', () => {
    expect(MARKED.map(({ file }) => file)).toEqual(
      expect.arrayContaining([
        'src/api.ts',
        'src/App.tsx',
        'src/ClientList.tsx',
        'src/main.tsx',
        'tests/api.test.ts',
        'vite.config.ts',
        'vitest.config.ts',
        'playwright.config.ts',
        'e2e/global-setup.ts',
        'e2e/clients.spec.ts',
        'e2e/scenarios.spec.ts',
      ]),
    );
  });

  test.each(MARKED)('the block of $file → equals examples/frontend/$file', ({ file, code }) => {
    expect(code).toBe(fs.readFileSync(path.join(ROOT, 'examples/frontend', file), 'utf8').replace(/\n$/, ''));
  });
});
