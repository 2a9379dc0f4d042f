// The mutation check: our real server behind a proxy that injects one fault at
// a time. The contract checks (contract-suite/registry.ts, the very functions the contract
// suite runs) must fail against every mutant, and pass against the unchanged
// proxy. Prints each mutant, the checks that caught it, and the kill ratio.
import { runChecks } from '../../contract-suite/registry';
import { MUTANTS, startMutantProxy, type Mutant } from '../../tools/mutants';
import { API_KEY, startTestServer, type TestServer } from '../support/servers';

let server: TestServer;
const outcomes: { mutant: string; killedBy: string[] }[] = [];

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.stop());

async function runAgainst(mutant?: Mutant): Promise<{ failed: { name: string; error: Error }[]; passed: number; requests: number }> {
  const proxy = await startMutantProxy(server.baseUrl, mutant);
  try {
    // Our server accepts any Origin: named explicitly, a missing Access-Control-Allow-Origin is a failure, not a skip.
    const { results, context } = await runChecks({ baseUrl: proxy.baseUrl, apiKey: API_KEY }, undefined, {
      origin: 'https://contract-suite.example',
    });
    const failed = results.filter((result) => result.error).map((result) => ({ name: result.check.name, error: result.error! }));
    return { failed, passed: results.length - failed.length, requests: context.requestCount };
  } finally {
    await proxy.stop();
  }
}

describe('mutation check: the contract checks fail against every deliberate fault', () => {
  test('the unchanged proxy passes every check (control)', async () => {
    const { failed, passed, requests } = await runAgainst();

    console.log(`control: ${passed} checks passed through the unchanged proxy (${requests} requests)`);
    expect(failed.map((f) => `${f.name}\n${f.error.message}`)).toEqual([]);
  });

  test.each(MUTANTS.map((mutant) => [mutant.name, mutant] as const))('mutant "%s" is killed', async (_name, mutant) => {
    const { failed } = await runAgainst(mutant);

    outcomes.push({ mutant: mutant.name, killedBy: failed.map((f) => f.name) });
    expect(failed.length).toBeGreaterThan(0);
  });

  test('kill ratio is 100%', () => {
    const killed = outcomes.filter((outcome) => outcome.killedBy.length > 0);
    const lines = outcomes.map(
      (outcome) =>
        `${outcome.killedBy.length > 0 ? 'KILLED  ' : 'SURVIVED'} ${outcome.mutant}` +
        (outcome.killedBy.length > 0 ? `  (by ${outcome.killedBy.length} checks, e.g. "${outcome.killedBy[0]}")` : ''),
    );
    const ratio = `${killed.length}/${MUTANTS.length} (${Math.round((100 * killed.length) / MUTANTS.length)}%)`;
    console.log(`mutation kill ratio ${ratio}\n${lines.join('\n')}`);

    expect(outcomes).toHaveLength(MUTANTS.length);
    expect(killed.length).toBe(MUTANTS.length);
  });
});
