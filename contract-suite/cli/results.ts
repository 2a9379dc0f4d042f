// How each check of a run ended, the run as a whole, its causes, the verdict the outcomes call for (the exit code
// CI acts on), and how much of it a report prints.
import type { Violation } from '../../contract/judge';
import type { CoverageReport } from '../../contract/coverage-report';
import type { CheckContext, Outcome } from '../kit/context';
import type { PropertyOutcome } from '../property/properties';

export const EXIT = { pass: 0, violation: 1, usage: 2, suite: 3 } as const;

export interface RunResult {
  name: string;
  operation: string;
  /** True unless the check failed or erred: a skipped check raised no alarm. */
  passed: boolean;
  outcome: Outcome;
  ms: number;
  error?: string;
  /** Why the check was skipped. */
  reason?: string;
  /** The judge's violations behind a failure. */
  violations: Violation[];
  /** The check's own rule, when its own assertion failed. */
  rule?: string;
  /** Where the check's own rule broke (a header, a field). */
  place?: string;
  /** The rules the check declares it enforces (their sentences stand behind a failure that names no rule). */
  checkRules?: readonly string[];
  /** The failing exchange, as a curl line. */
  curl?: string;
  /** The failing exchange's operation and status (for the cause of a check's own assertion). */
  where?: { operation: string; status: number };
}

/** The exit code of a run: 2 when the target stopped answering, else 3 for a suite error, else 1 for a violation, else 0. */
export function exitCodeOf(results: readonly Pick<RunResult, 'outcome'>[]): number {
  if (results.some((r) => r.outcome === 'unreachable')) return EXIT.usage;
  if (results.some((r) => r.outcome === 'error')) return EXIT.suite;
  if (results.some((r) => r.outcome === 'fail')) return EXIT.violation;
  return EXIT.pass;
}

export interface SuiteRun {
  results: RunResult[];
  property: PropertyOutcome;
  requests: number;
  coverage: CoverageReport;
  causes: Cause[];
  context: CheckContext;
}

/** One cause: what broke, where it was seen, the checks it failed, and how to see it. */
export interface Cause {
  key: string;
  /** The rule and the place: `response.header Content-Security-Policy`. */
  headline: string;
  /** The rule id (the judge's or a check's), when one is known. */
  rule?: string;
  expected?: string;
  actual?: string;
  /** The sentences of openapi.yaml behind the rule that failed, nearest first. */
  sentences: string[];
  /** The first failing request, as a curl line. */
  curl?: string;
  /** Where it was seen: each operation with the statuses of its failing answers (`getClientsSimple 200 400`). */
  seen: string[];
  checks: string[];
}

export const firstLine = (text: string | undefined) => (text ?? '').split('\n')[0]!.trim();

/**
 * How much a run prints. `summary`: every cause and the verdict, nothing else (what an agent or a glance wants).
 * `default`: what a CI log can carry — progress, the causes (each at most CAUSE_LINES lines, at most MAX_CAUSES of
 * them), suite errors, skipped checks, the coverage totals and the verdict; the JUnit file holds every check's
 * detail. `verbose`: every check's line as it runs, every cause, every sentence not enforced.
 */
export type Detail = 'summary' | 'default' | 'verbose';

/** The causes printed in full outside --verbose; the rest are counted, and every one is in the JUnit file. */
export const MAX_CAUSES = 40;
/** The lines one cause takes at most. */
export const CAUSE_LINES = 7;
