// Failed checks grouped by cause, so one fault of the deployment is reported once, whatever number of checks
// it failed.
import type { RunResult } from './results';

/** One cause: what broke, where, the checks it failed, and how to see it. */
export interface Cause {
  key: string;
  /** `getClientDetail 200 response.schema /` */
  headline: string;
  expected?: string;
  actual?: string;
  sentences: string[];
  curl?: string;
  checks: string[];
}

export const firstLine = (text: string | undefined) => (text ?? '').split('\n')[0]!.trim();

/** Failed checks grouped by cause: the judge's cause keys, or the check's own rule at the operation and status it failed on. */
export function groupCauses(results: readonly RunResult[]): Cause[] {
  const causes = new Map<string, Cause>();
  const add = (key: string, fill: () => Omit<Cause, 'key' | 'checks'>, check: string) => {
    let cause = causes.get(key);
    if (!cause) {
      cause = { key, ...fill(), checks: [] };
      causes.set(key, cause);
    }
    if (!cause.checks.includes(check)) cause.checks.push(check);
  };
  for (const result of results.filter((r) => r.outcome === 'fail')) {
    if (result.violations.length > 0) {
      for (const violation of result.violations)
        add(
          violation.cause,
          () => ({
            headline: violation.cause,
            expected: violation.expected,
            actual: violation.actual,
            sentences: violation.sentences,
            curl: result.curl,
          }),
          result.name,
        );
      continue;
    }
    const where = result.where ? `${result.where.operation} ${result.where.status}` : result.operation;
    const key = result.rule ? `${where} ${result.rule}` : `${where} ${result.name}: ${firstLine(result.error)}`;
    add(
      key,
      () => ({
        headline: result.rule ? key : `${where}: ${firstLine(result.error)}`,
        actual: firstLine(result.error),
        sentences: [],
        curl: result.curl,
      }),
      result.name,
    );
  }
  return [...causes.values()].sort((a, b) => b.checks.length - a.checks.length);
}
