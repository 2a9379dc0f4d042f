// The property-based run (fast-check, seeded): requests generated from the
// parameter schemas of openapi.yaml, valid and invalid, each answer held to
// the documented invariants (generators.ts verify). Plain function: the runner
// and the jest wrapper call it alike. A failure is shrunk and reported as a
// curl line; `seed` replays a run.
import fc from 'fast-check';
import { ContractViolation, type CheckContext, type Sample } from '../kit/context';
import { requestArbitrary, type GeneratedRequest } from './generators';
import { toCurl, TransportError } from '../kit/http';
import { judgeResponse, type Violation } from '../../contract/judge';

export const DEFAULT_SEED = 20260101;
export const DEFAULT_RUNS = 1200;

/** What one generated request may take at most on average, when no rate is set (a slow remote answers in well under this). */
const BUDGET_PER_REQUEST_MS = 100;
/** A fixed margin on top, for shrinking and a slow start. */
const TIME_MARGIN_MS = 60_000;

/**
 * How long the property run may take: the margin plus, per run, twice the
 * interval --max-rate imposes (or BUDGET_PER_REQUEST_MS when no rate is set).
 * A run that reaches it stops early and is reported as a shorter run, not a
 * failure: a slow but correct deployment must not fail for being slow.
 */
export function propertyTimeLimitMs(runs: number, maxRate?: number): number {
  const perRequest = maxRate ? Math.max(BUDGET_PER_REQUEST_MS, (2 * 1000) / maxRate) : BUDGET_PER_REQUEST_MS;
  return TIME_MARGIN_MS + Math.ceil(runs * perRequest);
}

export interface PropertyOutcome {
  seed: number;
  runs: number;
  requests: number;
  valid: number;
  invalid: number;
  /** Status → count, ascending. */
  statuses: [number, number][];
  /** Set when the time limit stopped the run early (a shorter run, not a failure): the limit in ms. */
  interruptedAfterMs?: number;
  /** Set when the property failed: why, the shrunk request and a curl line. */
  failure?: string;
  /** The judge's violations of the shrunk request's answer, when the property failed. */
  violations?: Violation[];
  /** Set when the generator and the judge disagreed on whether a request is valid: a bug of the suite, not of the deployment. */
  suiteBug?: string;
  /** Set when the target stopped taking connections during the run. */
  unreachable?: string;
}

export async function runProperties(
  context: CheckContext,
  seed = DEFAULT_SEED,
  runs = DEFAULT_RUNS,
  limitMs = propertyTimeLimitMs(runs, context.target.maxRate),
): Promise<PropertyOutcome> {
  let sample: Sample;
  try {
    sample = await context.sample();
  } catch (thrown) {
    // The lists the values come from broke the contract (or could not be read): the run cannot start, and says why.
    const outcome: PropertyOutcome = { seed, runs: 0, requests: 0, valid: 0, invalid: 0, statuses: [] };
    if (thrown instanceof ContractViolation) {
      outcome.failure = `the property run could not start: discovering the deployment's lists failed:\n${thrown.message}`;
      outcome.violations = thrown.violations;
    } else if (thrown instanceof TransportError && thrown.unreachable) outcome.unreachable = thrown.message;
    else if (thrown instanceof TransportError && thrown.answerFailed)
      outcome.failure = `the property run could not start: no HTTP answer: ${thrown.message}`;
    else outcome.suiteBug = `discovering the deployment's lists threw ${thrown instanceof Error ? thrown.message : String(thrown)}`;
    return outcome;
  }
  const arbitrary = requestArbitrary(context.contract, sample);
  let requests = 0;
  let valid = 0;
  const statuses = new Map<number, number>();

  let suiteBug: string | undefined;

  const details = await fc.check(
    fc.asyncProperty(arbitrary, async (generated: GeneratedRequest) => {
      // The judge decides what the answer must be (the same rules as context.call); the generator's own verdict is cross-checked.
      const exchange = await context.send(generated.request);
      requests += 1;
      if (generated.valid) valid += 1;
      statuses.set(exchange.status, (statuses.get(exchange.status) ?? 0) + 1);
      const judged = context.judge(generated.request, exchange.url);
      const judgedValid = judged.violations.every((v) => v.rule === 'request.key-missing' || v.rule === 'request.key-unknown');
      if (judgedValid !== generated.valid && suiteBug === undefined)
        suiteBug =
          `the generator calls ${generated.request.method} ${generated.request.path} ${generated.valid ? 'valid' : `invalid (${generated.reasons.join('; ')})`}, ` +
          `the judge ${judgedValid ? 'valid' : `invalid (${judged.violations.map((v) => v.actual).join('; ')})`}`;
      const violations = judgeResponse(context.contract, judged, exchange, context.memory, { applied: context.applied });
      if (violations.length > 0) {
        const error = new ContractViolation(
          `${violations.map((v) => `${v.rule}: expected ${v.expected}; got ${v.actual}`).join('\n')}\n→ ${exchange.status} ${exchange.text.slice(0, 300)}`,
        );
        error.violations = violations;
        error.exchange = exchange;
        error.curl = toCurl(context.target, generated.request);
        throw error;
      }
    }),
    { seed, numRuns: runs, plugins: [fc.interruptAfterTimeLimit(limitMs, { failOnInterrupt: false })] },
  );

  const outcome: PropertyOutcome = {
    seed: details.seed,
    runs: details.numRuns,
    requests,
    valid,
    invalid: requests - valid,
    statuses: [...statuses].sort(([a], [b]) => a - b),
  };
  if (details.interrupted && !details.failed) outcome.interruptedAfterMs = limitMs;
  if (suiteBug !== undefined) outcome.suiteBug = suiteBug;
  if (details.failed) {
    const shrunk = (details.counterexample as [GeneratedRequest] | null)?.[0];
    const reproduce = shrunk ? toCurl(context.target, shrunk.request) : '(no counterexample)';
    const why = details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance ?? 'interrupted');
    if (details.errorInstance instanceof ContractViolation) outcome.violations = details.errorInstance.violations;
    else if (details.errorInstance instanceof TransportError && details.errorInstance.unreachable) outcome.unreachable = why;
    else if (
      details.errorInstance !== undefined &&
      !(details.errorInstance instanceof TransportError && details.errorInstance.answerFailed)
    )
      outcome.suiteBug ??= `the property run threw ${why.split('\n')[0]}`;
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
  const shorter =
    outcome.interruptedAfterMs === undefined
      ? ''
      : ` — stopped by the time limit of ${Math.round(outcome.interruptedAfterMs / 1000)} s after ${outcome.requests} requests: a shorter run, not a failure`;
  return `property run: seed ${outcome.seed}, ${outcome.runs} runs, ${outcome.requests} requests (${outcome.valid} valid, ${outcome.invalid} invalid; shrinking included), statuses ${statuses}${shorter}`;
}
