// The property-based run (fast-check, seeded): requests generated from the
// parameter schemas of openapi.yaml, valid and invalid, each answer held to
// the documented invariants (generators.ts verify). Plain function: the runner
// and the jest wrapper call it alike. A failure is shrunk and reported as a
// curl line; `seed` replays a run.
import fc from 'fast-check';
import { ContractViolation, type CheckContext, type Sample } from '../kit/context';
import { LISTED_RECORD_WEIGHT, operationWeight, recordOperations, requestArbitrary, type GeneratedRequest } from './generators';
import type { SpecContract } from '../../contract/spec-contract';
import { toCurl, TransportError } from '../kit/http';
import { judgeResponse, type Violation } from '../../contract/judge';
import { DEFAULT_SEED } from '../kit/sampling';

export { DEFAULT_SEED };
/**
 * The default run's size. Besides every operation's requests it asks for the Detail of listed clients, drawn
 * uniformly from the full walk's (requestArbitrary's listed records): with the weights of generators.ts a request
 * is one of those with probability s = 3/17 (the five operations weigh 1 + 1 + 3 + 7 + 2 = 14, the listed records
 * 3), so a Detail that disagrees with its list row for a share f = 1/30 of the clients escapes all 1,200 requests
 * with probability (1 - s·f)^1200 = (1 - 1/170)^1200 ≈ e^-7.08 ≈ 0.08 %: it is found with probability 99.92 %
 * (detectionProbability; tests/contract/sampling.test.ts holds it to 99 % and shows it on a backend).
 */
export const DEFAULT_RUNS = 1200;

/** The share of a run's requests that ask for the Detail of one listed client (a lower bound: the Detail operation's own known ids are not counted). */
export function listedRecordShare(contract: SpecContract): number {
  const operations = contract.operations.reduce((sum, operation) => sum + operationWeight(operation), 0);
  const records = recordOperations(contract).length;
  return records === 0 ? 0 : LISTED_RECORD_WEIGHT / (operations + records * LISTED_RECORD_WEIGHT);
}

/**
 * The probability that `runs` generated requests find a Detail that disagrees with its list row for a share
 * `faulty` of the clients (each listed Detail is one independent uniform draw): 1 - (1 - share · faulty)^runs.
 */
export function detectionProbability(contract: SpecContract, faulty: number, runs = DEFAULT_RUNS): number {
  return 1 - (1 - listedRecordShare(contract) * faulty) ** runs;
}

/**
 * The ids of the full walk's clients whose Extended row the judge remembers: the records a generated Detail is
 * held to (up to the full walk's bound; its pages are already read when the checks ran before).
 */
async function listedIds(context: CheckContext): Promise<string[]> {
  const walk = await context.fullWalk(context.paths.getClientsExtended);
  return walk.pages
    .flatMap((page) => page.items.map((client) => client.IdClient))
    .filter((id) => context.memory.recall(id)?.extended !== undefined);
}

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
  let listed: string[];
  try {
    sample = await context.sample();
    listed = await listedIds(context);
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
  const arbitrary = requestArbitrary(context.contract, sample, listed);
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
