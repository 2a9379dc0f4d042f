// Why this file exists: the in-process handlers answer plain requests by the lean path (server/pipeline/
// lean-path.ts) and the rest by the Express app (issue 26 item 6). The lean path claims to answer exactly as
// the Express app would; the contract suite is the widest set of requests we have (every named check, every
// check derived from openapi.yaml: near-miss paths, parameter bounds, keys in the wrong place, Prefer), so it
// runs here, whole, against that pipeline behind a real socket. Against our own mock every precondition
// holds, so a skip fails too. byte-equality.test.ts compares the two paths' bytes on a sample; this holds
// every answer to the contract.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import YAML from 'yaml';
import { runSuite } from '../../contract-suite/cli/main';
import { SPEC_PATH, type OpenApiDocument } from '../../contract/spec';
import { API_KEY, get, startLeanTestServer, startTestServer, type TestServer } from '../support/servers';

let server: TestServer;
beforeAll(async () => {
  server = await startLeanTestServer({ clients: 300 });
});
afterAll(async () => {
  await server?.stop();
});

test('the whole contract suite passes against the lean path with the Express app behind it, no check skipped', async () => {
  const lines: string[] = [];
  const run = await runSuite(
    { baseUrl: server.baseUrl, apiKey: API_KEY },
    { runs: 30, seed: 20261128, origin: 'https://example.org', log: (line) => lines.push(line) },
  );

  const broken = run.results.filter((r) => r.outcome !== 'pass');
  expect(broken.map((r) => `${r.outcome} ${r.operation} ${r.name}\n${(r.error ?? r.reason ?? '').split('\n')[0]}`)).toEqual([]);
  expect(run.results.length).toBeGreaterThan(100);
}, 180_000);

describe('a served spec the lean path must read as the Express app does (SPEC_FILE)', () => {
  // PageSize renamed `size` (default 10): the lean path's proof is derived from the served parameters, so `size=7`
  // is plain and `pageSize=7` is not. Pong's schema allows only "Ping": the mock's "Pong" breaks it, so both paths
  // must answer Ping 500 INTERNAL_ERROR (the response check), never the body that breaks the served spec. (The
  // Express app never answered that Ping until 2026-11-28: the validator reported the bad body after its step had
  // settled, and the error was dropped. This test found it.)
  let http: TestServer;
  let lean: TestServer;
  beforeAll(async () => {
    const spec = YAML.parse(fs.readFileSync(SPEC_PATH, 'utf8')) as OpenApiDocument;
    const pageSize = (spec.components.parameters as Record<string, { name: string; schema: { default: number }; example: number }>)
      .PageSize!;
    Object.assign(pageSize, { name: 'size', example: 10 });
    pageSize.schema.default = 10;
    (spec.components.schemas as Record<string, { enum: string[] }>).Pong!.enum = ['Ping'];
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'lean-spec-')), 'openapi.yaml');
    fs.writeFileSync(file, YAML.stringify(spec));
    http = await startTestServer({ specFile: file, clients: 60 });
    lean = await startLeanTestServer({ specFile: file, clients: 60 });
  });
  afterAll(async () => {
    await http?.stop();
    await lean?.stop();
  });

  test.each([
    '/api/v1/Client/Simple?size=7&page=2',
    '/api/v1/Client/Simple?pageSize=7',
    '/api/v1/Client/Simple',
    '/api/v1/Diagnostics/Ping',
    '/api/v1/Diagnostics/Exception',
  ])('GET %s → the same status, body and paging headers on both paths', async (url) => {
    const answers = await Promise.all(
      [http, lean].map(async (server) => {
        const response = await get(server.baseUrl, url);
        return [response.status, await response.text(), response.headers.get('link'), response.headers.get('x-total-count')];
      }),
    );

    expect(answers[1]).toEqual(answers[0]);
    if (url.includes('Ping')) expect(answers[0]![0]).toBe(500);
  });
});
