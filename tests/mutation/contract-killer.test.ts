// The one "test" Stryker runs against each mutant of the server (issue 23, item 6; docs/mutation.md):
// our real app, in-process behind the real HTTP server on port 0, over a small deterministic data set,
// checked by the whole contract suite (every check and a short property run). It fails when any check
// fails, errors, skips or finds the target unreachable: a mutant survives only if the contract suite cannot
// tell it from the real server. Not part of `npm test` (jest.config.js ignores tests/mutation/);
// `npm run mutation` runs it through jest.mutation.config.js.
import { runSuite } from '../../contract-suite/cli';
import { generateClients } from '../../seeds/client';
import { API_KEY, startTestServer, type TestServer } from '../support/servers';

/** Small enough for one mutant in ~2 s, large enough for several pages at the default page size (25) and at 100. */
const CLIENTS = Number(process.env.MUTATION_CLIENTS ?? 120);
const RUNS = Number(process.env.MUTATION_RUNS ?? 20);
const SEED = 20260101;

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({}, generateClients(1, CLIENTS));
});
afterAll(async () => {
  await server?.stop();
});

test(`the contract suite passes against the server (${CLIENTS} clients, ${RUNS} generated requests)`, async () => {
  // The first failing check ends the run (a mutant is killed by one failure; the rest would only cost time).
  const stopAtFirstFailure = (line: string) => {
    if (/^ {2}[✗!]/.test(line)) throw new Error(`the contract suite failed:\n${line}`);
  };
  const run = await runSuite(
    { baseUrl: server.baseUrl, apiKey: API_KEY },
    { runs: RUNS, seed: SEED, origin: 'https://example.org', log: stopAtFirstFailure },
  );

  // A skip is a failure here too: against our own mock every precondition holds (its data has staff, locations
  // and inactive clients; it honours Prefer), so a check that skips means the mutant broke what it needs. Against
  // another deployment a skip stays a skip (docs/contract.md); only this killer knows the target is ours.
  const broken = run.results.filter((r) => r.outcome !== 'pass');
  expect(broken.map((r) => `${r.outcome} ${r.operation} ${r.name}\n${(r.error ?? r.reason ?? '').split('\n')[0]}`)).toEqual([]);
});
