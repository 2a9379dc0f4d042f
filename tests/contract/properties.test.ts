// Property-based requests (fast-check, seeded): at least 1,000 requests per
// run, generated from the parameter schemas of openapi.yaml, valid and
// invalid. A failure prints the shrunk request as a curl line. Reproduce a run
// with CONTRACT_FC_SEED=<seed>; CONTRACT_FC_RUNS changes the number of requests.
import fc from 'fast-check';
import { CheckContext } from '../../contract-suite/checks';
import { requestArbitrary, verify, type GeneratedRequest } from '../../contract-suite/generators';
import { send, toCurl } from '../../contract-suite/http';
import { openTarget, type OpenTarget } from './local-target';

const SEED = Number(process.env.CONTRACT_FC_SEED ?? 20260101);
const RUNS = Number(process.env.CONTRACT_FC_RUNS ?? 1200);
const TIME_LIMIT_MS = 90_000;

let opened: OpenTarget;
beforeAll(async () => {
  opened = await openTarget();
});
afterAll(() => opened.close());

describe('generated requests over every operation', () => {
  test(`${RUNS} generated requests (seed ${SEED}): no 5xx but Exception, documented statuses, conforming bodies, 400 for invalid and 2xx for valid input`, async () => {
    const context = new CheckContext(opened.target);
    const sample = await context.sample();
    const arbitrary = requestArbitrary(context.contract, sample);
    let requests = 0;
    const tally = { valid: 0, invalid: 0, statuses: new Map<number, number>() };

    const details = await fc.check(
      fc.asyncProperty(arbitrary, async (generated: GeneratedRequest) => {
        const exchange = await send(opened.target, generated.request);
        requests += 1;
        tally[generated.valid ? 'valid' : 'invalid'] += 1;
        tally.statuses.set(exchange.status, (tally.statuses.get(exchange.status) ?? 0) + 1);
        const problems = verify(generated, exchange, context.contract);
        if (problems.length > 0) throw new Error(`${problems.join('\n')}\n→ ${exchange.status} ${exchange.text.slice(0, 300)}`);
      }),
      { seed: SEED, numRuns: RUNS, plugins: [fc.interruptAfterTimeLimit(TIME_LIMIT_MS, { failOnInterrupt: true })] },
    );

    const statuses = [...tally.statuses]
      .sort(([a], [b]) => a - b)
      .map(([status, count]) => `${status}×${count}`)
      .join(' ');
    console.log(
      `property run: seed ${details.seed}, ${details.numRuns} runs, ${requests} HTTP requests (${tally.valid} valid, ${tally.invalid} invalid; shrinking included), statuses ${statuses}, against ${opened.description}`,
    );
    if (details.failed) {
      const shrunk = (details.counterexample as [GeneratedRequest] | null)?.[0];
      const reproduce = shrunk ? toCurl(opened.target, shrunk.request) : '(no counterexample)';
      const why = details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance ?? 'interrupted');
      throw new Error(
        `property failed after ${details.numRuns} runs and ${details.numShrinks} shrinks (seed ${details.seed}, path ${details.counterexamplePath})\n` +
          `shrunk request: ${shrunk ? JSON.stringify({ operation: shrunk.operationId, valid: shrunk.valid, reasons: shrunk.reasons }) : ''}\n` +
          `reproduce: ${reproduce}\n${why}`,
      );
    }
    expect(requests).toBeGreaterThanOrEqual(1000);
  }, 120_000);
});
