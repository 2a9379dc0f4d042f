// Property-based requests (contract-suite/properties.ts): at least 1,000 per
// run, generated from the parameter schemas of openapi.yaml. Reproduce a run
// with CONTRACT_FC_SEED=<seed>; CONTRACT_FC_RUNS changes the number of requests.
import { CheckContext } from '../../contract-suite/checks';
import { DEFAULT_RUNS, DEFAULT_SEED, describeOutcome, runProperties } from '../../contract-suite/properties';
import { openTarget, type OpenTarget } from './local-target';

const SEED = Number(process.env.CONTRACT_FC_SEED ?? DEFAULT_SEED);
const RUNS = Number(process.env.CONTRACT_FC_RUNS ?? DEFAULT_RUNS);

let opened: OpenTarget;
beforeAll(async () => {
  opened = await openTarget();
});
afterAll(() => opened.close());

describe('generated requests over every operation', () => {
  test(`${RUNS} generated requests (seed ${SEED}): no 5xx but Exception, documented statuses, conforming bodies, 400 for invalid and 2xx for valid input`, async () => {
    const outcome = await runProperties(new CheckContext(opened.target), SEED, RUNS);

    console.log(`${describeOutcome(outcome)}, against ${opened.description}`);
    if (outcome.failure) throw new Error(outcome.failure);
    expect(outcome.requests).toBeGreaterThanOrEqual(Math.min(RUNS, 1000));
  }, 120_000);
});
