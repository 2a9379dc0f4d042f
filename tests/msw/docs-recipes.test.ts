// docs/frontend.md promises that its recipes are the exact code the example
// frontend runs: every code block marked `<!-- example: PATH -->` must equal
// that file of the repository, byte for byte.
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from '../support/servers';

const DOC = fs.readFileSync(path.join(ROOT, 'docs/frontend.md'), 'utf8');
const MARKED = [...DOC.matchAll(/<!-- example: (\S+) -->\n```\w*\n([\s\S]*?)\n```/g)].map(([, file, code]) => ({
  file: file!,
  code: code!,
}));

describe('docs/frontend.md recipes', () => {
  test('the page embeds the example files of the three set-ups', () => {
    expect(MARKED.map(({ file }) => file)).toEqual(
      expect.arrayContaining([
        'examples/frontend/src/api.ts',
        'examples/frontend/tests/api.test.ts',
        'examples/frontend/playwright.config.ts',
        'examples/frontend/global-setup.ts',
        'examples/frontend/e2e/clients.spec.ts',
      ]),
    );
  });

  test.each(MARKED)('the block marked $file → equals that file', ({ file, code }) => {
    expect(code).toBe(fs.readFileSync(path.join(ROOT, file), 'utf8').replace(/\n$/, ''));
  });
});
