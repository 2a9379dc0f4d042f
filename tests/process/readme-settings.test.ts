// The README's settings table is documentation of server/process/config.ts's table:
// every setting appears there with its flag, its variable and its default, and
// nothing else does, so the two cannot drift apart.
import fs from 'node:fs';
import path from 'node:path';
import { describeSettings } from '../../server/process/config';

const README = fs.readFileSync(path.join(__dirname, '../../README.md'), 'utf8');

/** Rows of the README table whose first cell is a flag: `| \\`--port\\` | \\`PORT\\` | \\`4000\\` | … |`. */
function readmeRows(): { flag: string; env: string; fallback: string }[] {
  return README.split('\n')
    .filter((line) => /^\| `--/.test(line))
    .map((line) => {
      const [flag, env, fallback] = line
        .split('|')
        .slice(1, 4)
        .map((cell) => cell.trim().replace(/`/g, ''));
      return { flag: flag!, env: env!, fallback: fallback === 'none' ? '' : fallback! };
    });
}

describe('README settings table', () => {
  test('README → lists every setting of server/process/config.ts with its flag, variable and default, and no other', () => {
    const documented = readmeRows();

    expect(documented).toEqual(describeSettings());
  });
});
