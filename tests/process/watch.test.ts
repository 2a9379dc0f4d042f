// --watch: the built CLI serves copies of the spec and a data file in a temp
// folder (--spec, --data); the test edits both under the running server, sees
// the new answers and the verdict of each spec edit for clients, then breaks
// each and sees one report line (a YAML error's line and column, a missing
// $ref's target) and the last good version still answering.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { writeDataFile } from '../../seeds/data-file';
import { get, ROOT, spawnServer, type SpawnedServer } from '../support/servers';

/** Bounded wait for a reload: polling 250 ms + settling 150 ms + building the app (about 1 s on a quiet machine). */
const RELOAD_WAIT_MS = 20_000;

let dir: string;
let specFile: string;
let dataFile: string;
let server: SpawnedServer;
/** The last good spec (after the edit), restored before the data file is broken. */
let editedSpec: string;

async function total(): Promise<number> {
  const response = await get(server.baseUrl, '/api/v1/Client/Simple?pageSize=1');
  return Number(response.headers.get('x-total-count'));
}

async function pageSizeTenStatus(): Promise<number> {
  return (await get(server.baseUrl, '/api/v1/Client/Simple?pageSize=10')).status;
}

/** Waits until the server's stderr holds `count` report lines, and returns the new ones. */
async function reportLines(count: number): Promise<string[]> {
  const lines = () =>
    server
      .stderr()
      .split('\n')
      .filter((line) => /reload/.test(line));
  for (const started = Date.now(); Date.now() - started < RELOAD_WAIT_MS && lines().length < count;) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return lines();
}

/** The lines that follow a spec reload: the verdict against the last good version and the changes. */
function verdictLines(): string[] {
  return server
    .stderr()
    .split('\n')
    .filter((line) => /^client-records-mock: ( {2}[✗✓…]|spec against)/.test(line));
}

/** Rewrites a file so the poll sees a change even within the file system's mtime granularity. */
function rewrite(file: string, text: string): void {
  fs.writeFileSync(file, text);
  const later = new Date(Date.now() + 2_000);
  fs.utimesSync(file, later, later);
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crm-watch-'));
  specFile = path.join(dir, 'openapi.yaml');
  dataFile = path.join(dir, 'clients.json');
  fs.copyFileSync(path.join(ROOT, 'openapi.yaml'), specFile);
  await writeDataFile(dataFile, 1, 5);
  server = await spawnServer(['--watch', '--spec', specFile, '--data', dataFile]);
}, 60_000);

afterAll(async () => {
  await server?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('client-records-mock --watch', () => {
  test('start → serves the data file under the copied spec', async () => {
    expect(await total()).toBe(5);
    expect(await pageSizeTenStatus()).toBe(200);
  });

  test('a new data file → the new data is served', async () => {
    await writeDataFile(dataFile, 2, 8);
    rewrite(dataFile, fs.readFileSync(dataFile, 'utf8'));

    const lines = await reportLines(1);

    expect(lines).toEqual([expect.stringMatching(/reloaded/)]);
    expect(await total()).toBe(8);
  }, 30_000);

  test('a spec edit (pageSize maximum 100 → 5) → the validator applies the new limit', async () => {
    const spec = fs.readFileSync(specFile, 'utf8');
    const edited = spec.replace(/(PageSize:\n(?:.*\n)*?\s+maximum: )100/, '$15');
    expect(edited).not.toBe(spec);
    rewrite(specFile, edited);
    editedSpec = edited;

    const lines = await reportLines(2);

    expect(lines[1]).toMatch(/reloaded/);
    expect(await pageSizeTenStatus()).toBe(400);
    // The verdict against the last good version follows the reload line (written just after it, read maybe later).
    for (const started = Date.now(); Date.now() - started < RELOAD_WAIT_MS && verdictLines().length < 2;) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(verdictLines()).toEqual([
      'client-records-mock: spec against the last good version: BREAKING for clients: 1 breaking change, 0 not breaking',
      'client-records-mock:   ✗ query parameter pageSize: maximum lowered 100 → 5 (getClientsSimple, getClientsExtended)',
    ]);
  }, 30_000);

  test('a spec that does not parse → one report line, and the last good spec keeps serving', async () => {
    rewrite(specFile, 'openapi: 3.1.0\npaths: [unclosed\n');

    const lines = await reportLines(3);

    expect(lines[2]).toMatch(
      /^client-records-mock: reload failed, still serving the last good version: .*openapi\.yaml is not valid YAML: line 3, column 1: /,
    );
    expect(server.stderr()).not.toMatch(/^\s+at /m);
    expect(await pageSizeTenStatus()).toBe(400);
    expect(await total()).toBe(8);
  }, 30_000);

  test('a $ref to a missing schema → one line naming it, no stack trace, and the last good spec keeps serving', async () => {
    rewrite(
      specFile,
      editedSpec.replace("$ref: '#/components/schemas/ClientSimplePage'", "$ref: '#/components/schemas/ClientSimplePages'"),
    );

    const lines = await reportLines(4);

    expect(lines[3]).toMatch(
      /^client-records-mock: reload failed, still serving the last good version: .*openapi\.yaml: \$ref '#\/components\/schemas\/ClientSimplePages' at line \d+, column \d+ points to nothing$/,
    );
    expect(server.stderr()).not.toMatch(/^\s+at /m);
    expect(await pageSizeTenStatus()).toBe(400);
  }, 30_000);

  test('a data file that fails validation → one report line, and the last good data keeps serving', async () => {
    rewrite(specFile, editedSpec);
    expect((await reportLines(5))[4]).toMatch(/reloaded/);
    // The same spec as the last good one: nothing changed for clients, nothing more said.
    expect(verdictLines()).toHaveLength(2);
    rewrite(dataFile, '[{"IdClient": "not-a-uuid"}]\n');

    const lines = await reportLines(6);

    expect(lines[5]).toMatch(/^client-records-mock: reload failed, still serving the last good version: .*clients\.json/);
    expect(lines).toHaveLength(6);
    expect(await total()).toBe(8);
    expect(await pageSizeTenStatus()).toBe(400);
  }, 30_000);
});
