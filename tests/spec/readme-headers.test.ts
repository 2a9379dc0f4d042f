// The README's API section is where a backend team reads what its answers must carry (issue 38): a
// backend missing the security headers was failed by the contract suite for headers the README never
// named. Its header table is held to openapi.yaml: every header a response of the document requires is
// named there, nothing the document does not define is, and a header the document requires on every
// answer is said to be on every answer.
import fs from 'node:fs';
import path from 'node:path';
import { loadSpec } from '../../contract/spec';
import { ROOT } from '../support/servers';

type Json = Record<string, unknown>;
const spec = loadSpec();
const README = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');

/** Follows a local `#/components/...` reference. */
function deref(node: Json): Json {
  const ref = node.$ref;
  if (typeof ref !== 'string') return node;
  return ref
    .slice(2)
    .split('/')
    .reduce<Json>((at, key) => at[key] as Json, spec as unknown as Json);
}

/** Each header of each response of each operation, with whether that response requires it. */
function responseHeaders(): { name: string; required: boolean }[][] {
  const answers: { name: string; required: boolean }[][] = [];
  for (const item of Object.values(spec.paths)) {
    for (const operation of Object.values(item as Json)) {
      const responses = (operation as Json | undefined)?.responses as Json | undefined;
      if (!responses) continue;
      for (const response of Object.values(responses)) {
        const headers = (deref(response as Json).headers ?? {}) as Json;
        answers.push(Object.entries(headers).map(([name, header]) => ({ name, required: deref(header as Json).required === true })));
      }
    }
  }
  return answers;
}

/** The README API section's header table: `| \`Name\` | on | value |` rows. */
function readmeRows(): { name: string; on: string }[] {
  const section = README.slice(README.indexOf('## The API in short'));
  return section
    .slice(0, section.indexOf('\n## ', 3))
    .split('\n')
    .filter((line) => /^\| `[A-Z][\w-]+` \|/.test(line))
    .map((line) => {
      const [name, on] = line
        .split('|')
        .slice(1, 3)
        .map((cell) => cell.trim());
      return { name: name!.replace(/`/g, ''), on: on! };
    });
}

describe("README's API section", () => {
  const answers = responseHeaders();
  const rows = readmeRows();

  test('the header table → names every header a response of openapi.yaml requires', () => {
    const required = new Set(
      answers
        .flat()
        .filter((header) => header.required)
        .map((header) => header.name),
    );

    expect([...required].filter((name) => !rows.some((row) => row.name === name))).toEqual([]);
    expect(required.size).toBeGreaterThanOrEqual(8);
  });

  test('the header table → names no header openapi.yaml does not define on a response', () => {
    const defined = new Set(answers.flat().map((header) => header.name));

    expect(rows.map((row) => row.name).filter((name) => !defined.has(name))).toEqual([]);
  });

  test('a header required on every answer → said to be on "every answer"', () => {
    const everywhere = [...new Set(answers.flat().map((header) => header.name))].filter((name) =>
      answers.every((headers) => headers.some((header) => header.name === name && header.required)),
    );

    expect(everywhere).toEqual(
      expect.arrayContaining(['X-Request-Id', 'Cache-Control', 'X-Content-Type-Options', 'Content-Security-Policy', 'X-Frame-Options']),
    );
    expect(rows.filter((row) => everywhere.includes(row.name)).map((row) => row.on)).toEqual(everywhere.map(() => 'every answer'));
  });
});
