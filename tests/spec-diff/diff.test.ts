// Why: `client-records-mock diff` is only useful if its verdicts are right for
// clients. Each realistic edit of edits.ts (the table docs/spec-diff.md
// compares libraries on) is applied to a copy of openapi.yaml and the diff's
// verdict and findings are checked against the edit's right answer; then the
// command itself: output, --json, exit codes and one-line errors.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { diffSpecTexts, type DiffReport } from '../../spec-diff/diff';
import { runDiffCli } from '../../spec-diff/cli';
import { watchVerdict } from '../../spec-diff/format';
import { parseSpec } from '../../contract/spec';
import { MAIN_JS, ROOT } from '../support/servers';
import { EDITS, applyEdit, editBase } from './edits';

const SPEC = fs.readFileSync(path.join(ROOT, 'openapi.yaml'), 'utf8');

function diffOf(id: string): DiffReport {
  const edit = EDITS.find((candidate) => candidate.id === id)!;
  return diffSpecTexts({ path: 'old.yaml', text: editBase(SPEC, edit) }, { path: 'new.yaml', text: applyEdit(SPEC, edit) });
}

describe('the edits table', () => {
  test('has at least 15 edits, breaking and not, each with a reason', () => {
    expect(EDITS.length).toBeGreaterThanOrEqual(15);
    expect(EDITS.filter((edit) => edit.breaking).length).toBeGreaterThanOrEqual(5);
    expect(EDITS.filter((edit) => !edit.breaking).length).toBeGreaterThanOrEqual(5);
    for (const edit of EDITS) expect(edit.why).not.toBe('');
  });

  test.each(EDITS.map((edit) => [edit.id, edit.title, edit] as const))(
    '%s %s: applies to openapi.yaml and changes it',
    (_id, _title, edit) => {
      expect(applyEdit(SPEC, edit)).not.toBe(editBase(SPEC, edit));
      // The edited spec still loads: the diff judges realistic edits, not broken files.
      expect(() => parseSpec(applyEdit(SPEC, edit), 'edited.yaml')).not.toThrow();
    },
  );
});

describe('diff verdicts on the edits table', () => {
  test.each(EDITS.map((edit) => [edit.id, edit.title, edit] as const))('%s %s', (id, _title, edit) => {
    const report = diffOf(id);
    const messages = report.changes.map((change) => `${change.breaking ? 'breaking' : 'not breaking'}: ${change.message}`);

    expect({ breaking: report.breaking, messages }).toEqual({ breaking: edit.breaking, messages: expect.any(Array) });
    for (const expected of edit.reports) expect(messages).toContainEqual(expect.stringMatching(expected));
    // A non-breaking edit reports nothing breaking; a breaking one reports the change it is breaking for.
    if (!edit.breaking) expect(report.changes.filter((change) => change.breaking)).toEqual([]);
    else
      expect(report.changes.some((change) => change.breaking && edit.reports.some((expected) => expected.test(change.message)))).toBe(true);
  });

  test('the same spec → no change at all', () => {
    expect(diffSpecTexts({ path: 'a', text: SPEC }, { path: 'b', text: SPEC })).toEqual({ breaking: false, changes: [] });
  });

  test('each edit undone is judged from the other side: a widened request undone narrows it (N07 reversed is breaking)', () => {
    const edit = EDITS.find((candidate) => candidate.id === 'N07')!;
    const reversed = diffSpecTexts({ path: 'new', text: applyEdit(SPEC, edit) }, { path: 'old', text: SPEC });
    expect(reversed.breaking).toBe(true);
    expect(reversed.changes.map((change) => change.message)).toEqual(['query parameter filter: maxLength lowered 500 → 200']);
  });

  test('a refactor that changes no request or answer (an inline schema replaced by a $ref to the same constraints) → no change', () => {
    const inline =
      '          schema:\n            type: string\n            format: uuid\n            maxLength: 36\n          example: af9b5699';
    expect(SPEC).toContain(inline);
    const refactored = SPEC.replace(
      inline,
      "          schema:\n            $ref: '#/components/schemas/Uuid'\n          example: af9b5699",
    );

    expect(diffSpecTexts({ path: 'a', text: SPEC }, { path: 'b', text: refactored }).changes).toEqual([]);
  });

  test('a default added to a request parameter is not breaking, one removed is', () => {
    const withDefault = SPEC.replace('            maxLength: 200\n', '            maxLength: 200\n            default: ""\n');
    const added = diffSpecTexts({ path: 'a', text: SPEC }, { path: 'b', text: withDefault });
    const removed = diffSpecTexts({ path: 'b', text: withDefault }, { path: 'a', text: SPEC });

    expect(added.changes.map((change) => [change.message, change.breaking])).toEqual([['query parameter filter: default "" added', false]]);
    expect(removed.changes.map((change) => [change.message, change.breaking])).toEqual([
      ['query parameter filter: default removed (was "")', true],
    ]);
  });

  test('a change to a shared component is listed once, with every operation it reaches', () => {
    const [change, ...others] = diffOf('B14').changes.filter((candidate) => candidate.kind === 'parameter.removed');
    expect(others).toEqual([]);
    expect(change!.operations.sort()).toEqual(['getClientsExtended', 'getClientsSimple']);
    expect(change!.pointer).toBe('/components/parameters/PageSize');
  });

  test('the direction follows the data, not the schema: the same maxLength raise breaks a response (B09) and not a request (N07)', () => {
    const response = diffOf('B09').changes.find((change) => change.kind.startsWith('schema.maxLength'))!;
    const request = diffOf('N07').changes.find((change) => change.kind.startsWith('schema.maxLength'))!;
    expect([response.side, response.breaking, request.side, request.breaking]).toEqual(['response', true, 'request', false]);
  });
});

/** Runs the command in-process and returns its exit code and what it wrote. */
async function run(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runDiffCli(args, { write: (text: string) => (out += text) }, { write: (text: string) => (err += text) });
  return { code, out, err };
}

describe('client-records-mock diff OLD NEW', () => {
  let dir: string;
  const file = (name: string, text: string) => {
    const target = path.join(dir, name);
    fs.writeFileSync(target, text);
    return target;
  };
  const edited = (id: string) =>
    applyEdit(
      SPEC,
      EDITS.find((edit) => edit.id === id)!,
    );

  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crm-diff-'));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  test('a breaking edit → exit 1, the verdict first, then each breaking change with where it is', async () => {
    const result = await run(file('old.yaml', SPEC), file('b02.yaml', edited('B02')));

    expect(result.code).toBe(1);
    expect(result.err).toBe('');
    const lines = result.out.split('\n');
    expect(lines[0]).toMatch(/old\.yaml → .*b02\.yaml: BREAKING for clients: 1 breaking change/);
    expect(result.out).toContain('Breaking for clients:\n  ✗ query parameter pageSize: maximum lowered 100 → 50\n');
    expect(result.out).toMatch(
      /getClients\w+ query parameter pageSize \(also getClients\w+\) {2}#\/components\/parameters\/PageSize\/schema\/maximum/,
    );
  });

  test('an edit that breaks no client → exit 0, its changes listed as not breaking', async () => {
    const result = await run(file('old.yaml', SPEC), file('n04.yaml', edited('N04')));

    expect(result.code).toBe(0);
    expect(result.out.split('\n')[0]).toMatch(/not breaking for clients: 1 change, none breaking/);
    expect(result.out).toContain('  ✓ Results[].PreferredName: optional property added');
  });

  test('--json → the report as JSON with the verdict, the counts and each change', async () => {
    const result = await run(file('old.yaml', SPEC), file('b04.yaml', edited('B04')), '--json');

    expect(result.code).toBe(1);
    const report = JSON.parse(result.out) as {
      format: string;
      breaking: boolean;
      summary: object;
      changes: { kind: string; breaking: boolean; operations: string[] }[];
    };
    expect(report).toMatchObject({ format: 'client-records-spec-diff/1', breaking: true, summary: { breaking: 1, notBreaking: 1 } });
    expect(report.changes.map((change) => [change.kind, change.breaking, change.operations])).toEqual([
      ['response.removed', true, ['getClientDetail']],
      ['response.added', false, ['getClientDetail']],
    ]);
  });

  test('YAML that does not parse → exit 2, one line naming the file, the line and the column', async () => {
    const result = await run(file('old.yaml', SPEC), file('broken.yaml', SPEC.replace('paths:\n', 'paths:\n  [unclosed\n')));

    expect(result.code).toBe(2);
    expect(result.out).toBe('');
    expect(result.err).toMatch(/^client-records-mock diff: .*broken\.yaml is not valid YAML: line \d+, column \d+: .+\n$/);
  });

  test('a $ref to a missing schema → exit 2, one line naming the reference and where it is', async () => {
    const text = SPEC.replace("$ref: '#/components/schemas/ClientSimplePage'", "$ref: '#/components/schemas/ClientSimplePages'");
    const rows = text.split('\n');
    const line = rows.findIndex((row) => row.includes('ClientSimplePages')) + 1;
    const column = rows[line - 1]!.indexOf("'#/components") + 1;
    const result = await run(file('old.yaml', SPEC), file('dangling.yaml', text));

    expect(result.code).toBe(2);
    expect(result.err).toBe(
      `client-records-mock diff: ${path.join(dir, 'dangling.yaml')}: $ref '#/components/schemas/ClientSimplePages' at line ${line}, column ${column} points to nothing\n`,
    );
  });

  test('a missing file, a missing argument, an unknown option → exit 2 and one line', async () => {
    const missing = await run(file('old.yaml', SPEC), path.join(dir, 'nope.yaml'));
    const one = await run(file('old.yaml', SPEC));
    const unknown = await run('--strict', 'a', 'b');

    expect([missing.code, one.code, unknown.code]).toEqual([2, 2, 2]);
    expect(missing.err).toMatch(/^client-records-mock diff: cannot read .*nope\.yaml \(ENOENT\)\n$/);
    expect(one.err).toMatch(/^client-records-mock diff: give two spec files, OLD and NEW.*\n$/);
    expect(unknown.err).toMatch(/^client-records-mock diff: unknown option --strict \(client-records-mock diff --help\)\n$/);
  });

  test('the bin dispatches `diff` (built CLI): exit code and output as in-process', () => {
    const result = spawnSync(process.execPath, [MAIN_JS, 'diff', file('old.yaml', SPEC), file('b12.yaml', edited('B12'))], {
      encoding: 'utf8',
    });

    expect(result.status).toBe(1);
    expect(result.stdout).toContain('✗ GET /api/v1/Diagnostics/Exception: operation removed');
    expect(result.stderr).toBe('');
  });
});

describe('the --watch verdict', () => {
  const documentOf = (text: string) => parseSpec(text, 'spec.yaml').document;

  test('breaking edit → the verdict, then the changes with the operations they reach', () => {
    expect(watchVerdict(documentOf(SPEC), documentOf(edited('B08')))).toEqual([
      'spec against the last good version: BREAKING for clients: 1 breaking change, 0 not breaking',
      '  ✗ query parameter filter: maxLength lowered 200 → 100 (getClientsExtended)',
    ]);
  });

  test('no change to the API (a comment, another YAML style) → nothing to say', () => {
    const restyled = `# the same API\n${SPEC.replace('tags: [Diagnostics]', 'tags:\n        - Diagnostics')}`;
    expect(restyled).not.toBe(SPEC);
    expect(watchVerdict(documentOf(SPEC), documentOf(restyled))).toEqual([]);
  });

  test('many changes → at most five, the rest counted', () => {
    const lines = watchVerdict(documentOf(SPEC), documentOf(edited('B05')));
    expect(lines.length).toBeLessThanOrEqual(7);
    expect(lines[0]).toMatch(/BREAKING/);
    expect(lines[1]).toMatch(/✗ Code: enum value CLIENT_UNKNOWN added/);
  });

  function edited(id: string): string {
    return applyEdit(
      SPEC,
      EDITS.find((edit) => edit.id === id)!,
    );
  }
});
