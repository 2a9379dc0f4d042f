// The property-based run (fast-check, seeded): requests generated from the
// parameter schemas of openapi.yaml, valid and invalid, each answer held to
// the documented invariants (generators.ts verify). Plain function: the runner
// and the jest wrapper call it alike. A failure is shrunk and reported as a
// curl line; `seed` replays a run.
import fc from 'fast-check';
import type { CheckContext } from './context';
import { requestArbitrary, verify, type GeneratedRequest } from './generators';
import { toCurl } from './http';

export const DEFAULT_SEED = 20260101;
export const DEFAULT_RUNS = 1200;
const TIME_LIMIT_MS = 90_000;

export interface PropertyOutcome {
  seed: number;
  runs: number;
  requests: number;
  valid: number;
  invalid: number;
  /** Status → count, ascending. */
  statuses: [number, number][];
  /** Set when the property failed: why, the shrunk request and a curl line. */
  failure?: string;
}

export async function runProperties(context: CheckContext, seed = DEFAULT_SEED, runs = DEFAULT_RUNS): Promise<PropertyOutcome> {
  const sample = await context.sample();
  const arbitrary = requestArbitrary(context.contract, sample);
  let requests = 0;
  let valid = 0;
  const statuses = new Map<number, number>();

  const details = await fc.check(
    fc.asyncProperty(arbitrary, async (generated: GeneratedRequest) => {
      // Through context.call's sender, not context.call: the generated answers are held to verify(), which knows valid from invalid.
      const exchange = await context.send(generated.request);
      requests += 1;
      if (generated.valid) valid += 1;
      statuses.set(exchange.status, (statuses.get(exchange.status) ?? 0) + 1);
      const problems = verify(generated, exchange, context.contract);
      if (problems.length > 0) throw new Error(`${problems.join('\n')}\n→ ${exchange.status} ${exchange.text.slice(0, 300)}`);
    }),
    { seed, numRuns: runs, plugins: [fc.interruptAfterTimeLimit(TIME_LIMIT_MS, { failOnInterrupt: true })] },
  );

  const outcome: PropertyOutcome = {
    seed: details.seed,
    runs: details.numRuns,
    requests,
    valid,
    invalid: requests - valid,
    statuses: [...statuses].sort(([a], [b]) => a - b),
  };
  if (details.failed) {
    const shrunk = (details.counterexample as [GeneratedRequest] | null)?.[0];
    const reproduce = shrunk ? toCurl(context.target, shrunk.request) : '(no counterexample)';
    const why = details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance ?? 'interrupted');
    outcome.failure =
      `property failed after ${details.numRuns} runs and ${details.numShrinks} shrinks (seed ${details.seed}, path ${details.counterexamplePath})\n` +
      `shrunk request: ${shrunk ? JSON.stringify({ operation: shrunk.operationId, valid: shrunk.valid, reasons: shrunk.reasons }) : ''}\n` +
      `reproduce: ${reproduce}\n${why}`;
  }
  return outcome;
}

/** One line: seed, runs, requests, statuses. */
export function describeOutcome(outcome: PropertyOutcome): string {
  const statuses = outcome.statuses.map(([status, count]) => `${status}×${count}`).join(' ');
  return `property run: seed ${outcome.seed}, ${outcome.runs} runs, ${outcome.requests} requests (${outcome.valid} valid, ${outcome.invalid} invalid; shrinking included), statuses ${statuses}`;
}
