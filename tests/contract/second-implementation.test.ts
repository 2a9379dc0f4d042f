// The whole contract suite (every check and a property run) against the second
// implementation (second-implementation.ts): a correct backend that makes other
// legitimate choices than ours must pass, or the suite raises false alarms.
import { runSuite } from '../../contract-suite/cli/main';
import { startSecondImplementation, type SecondImplementation } from './second-implementation';

// Fewer generated requests than the default: this file proves freedom from false alarms, not depth (properties.test.ts does).
const RUNS = 300;

let second: SecondImplementation;
beforeAll(async () => {
  second = await startSecondImplementation();
});
afterAll(() => second.stop());

describe('the contract suite against a second, independent implementation of openapi.yaml', () => {
  test('every check and the property run pass (no false alarm)', async () => {
    const run = await runSuite(
      { baseUrl: second.baseUrl, apiKey: second.apiKey },
      { runs: RUNS, seed: 20260101, origin: 'https://example.org' },
    );

    const failed = run.results.filter((result) => !result.passed);
    console.log(
      `second implementation: ${run.results.length - failed.length}/${run.results.length} checks passed, ${run.requests} requests`,
    );
    expect(failed.map((result) => `${result.name}\n${result.error}`)).toEqual([]);
    expect(run.results.length).toBeGreaterThan(100);
  }, 120_000);
});
