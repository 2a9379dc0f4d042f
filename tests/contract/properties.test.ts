// Property-based requests (contract-suite/property/properties.ts): at least 1,000 per
// run, generated from the parameter schemas of openapi.yaml. Reproduce a run
// with CONTRACT_FC_SEED=<seed>; CONTRACT_FC_RUNS changes the number of requests.
import { CheckContext } from '../../contract-suite/registry';
import { DEFAULT_RUNS, DEFAULT_SEED, describeOutcome, propertyTimeLimitMs, runProperties } from '../../contract-suite/property/properties';
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
    // The generator and the judge read the same schemas: they must agree on every request's validity.
    expect(outcome.suiteBug).toBeUndefined();
    expect(outcome.requests).toBeGreaterThanOrEqual(Math.min(RUNS, 1000));
  }, 120_000);
});

describe('a slow but correct deployment', () => {
  test('the time limit grows with the runs and with a lower --max-rate', () => {
    expect(propertyTimeLimitMs(1200)).toBeGreaterThan(90_000);
    // 1,200 requests at 10 per second take 120 s: the limit leaves room for them.
    expect(propertyTimeLimitMs(1200, 10)).toBeGreaterThan(120_000 + 60_000);
    expect(propertyTimeLimitMs(5000, 1)).toBeGreaterThan(propertyTimeLimitMs(5000, 10));
  });

  test('a run stopped by the time limit is a shorter run, not a failure, and says how many requests ran', async () => {
    const context = new CheckContext({ ...opened.target, maxRate: 20 });

    const outcome = await runProperties(context, SEED, 200, 1_500);

    expect(outcome.failure).toBeUndefined();
    expect(outcome.interruptedAfterMs).toBe(1_500);
    expect(outcome.requests).toBeGreaterThan(0);
    expect(outcome.requests).toBeLessThan(200);
    expect(describeOutcome(outcome)).toContain(`after ${outcome.requests} requests: a shorter run, not a failure`);
  }, 30_000);
});
