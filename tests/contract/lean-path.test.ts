// Why this file exists: the in-process handlers answer plain requests by the lean path (server/pipeline/
// lean-path.ts) and the rest by the Express app (issue 26 item 6). The lean path claims to answer exactly as
// the Express app would; the contract suite is the widest set of requests we have (every named check, every
// check derived from openapi.yaml: near-miss paths, parameter bounds, keys in the wrong place, Prefer), so it
// runs here, whole, against that pipeline behind a real socket. Against our own mock every precondition
// holds, so a skip fails too. byte-equality.test.ts compares the two paths' bytes on a sample; this holds
// every answer to the contract.
import { runSuite } from '../../contract-suite/cli';
import { API_KEY, startLeanTestServer, type TestServer } from '../support/servers';

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
