// How each check of a run ended, and the verdict the outcomes call for (the exit code CI acts on).
import type { Violation } from '../../contract/judge';
import type { Outcome } from '../registry';

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
