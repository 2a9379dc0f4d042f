// docs/proxy.md's table of options is documentation of proxy/settings.ts's
// table: every setting with its flag, variable and default, and nothing else,
// so the two cannot drift apart (as the README's table is held to the mock's).
import fs from 'node:fs';
import path from 'node:path';
import { describeProxySettings } from '../../proxy/settings';

const DOC = fs.readFileSync(path.join(__dirname, '../../docs/proxy.md'), 'utf8');

/** Rows of the options table: `| \`--port\` | \`PORT\` | \`4010\` | … |`. */
function documentedRows(): { flag: string; env: string; fallback: string }[] {
  const table = DOC.slice(DOC.indexOf('## Options'), DOC.indexOf('## Memory'));
  return table
    .split('\n')
    .filter((line) => /^\| `--/.test(line))
    .map((line) => {
      const [flag, env, fallback] = line
        .split('|')
        .slice(1, 4)
        .map((cell) => cell.trim().replace(/`/g, ''));
      return { flag: flag!, env: env!, fallback: fallback === 'none' ? '' : fallback! };
    });
}

describe('docs/proxy.md options table', () => {
  test('docs/proxy.md → lists every setting of proxy/settings.ts with its flag, variable and default, and no other', () => {
    expect(documentedRows()).toEqual(describeProxySettings());
  });
});
