// Failed checks grouped by cause, so one fault of the deployment is reported once, whatever number of checks,
// operations and statuses showed it: a backend that never sends three headers has three causes, not one per
// operation and status. A cause is the judge's (its rule and place: a header, a schema's field, a parameter) or a
// check's own rule; a check that names no rule is a cause of its own.
import { sentencesFor } from '../../contract/judge';
import type { RunResult } from './results';

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

/** Failed checks grouped by cause, most checks first; a cause keeps the first failure's expected, actual and curl. */
export function groupCauses(results: readonly RunResult[]): Cause[] {
  const causes = new Map<string, Cause>();
  const seenOn = new Map<string, Map<string, Set<number>>>();
  const add = (key: string, fill: () => Omit<Cause, 'key' | 'checks' | 'seen'>, result: RunResult) => {
    let cause = causes.get(key);
    if (!cause) {
      cause = { key, ...fill(), seen: [], checks: [] };
      causes.set(key, cause);
      seenOn.set(key, new Map());
    }
    if (!cause.checks.includes(result.name)) cause.checks.push(result.name);
    const operation = result.where?.operation ?? result.operation;
    const statuses = seenOn.get(key)!;
    const set = statuses.get(operation) ?? new Set<number>();
    if (result.where) set.add(result.where.status);
    statuses.set(operation, set);
  };
  for (const result of results.filter((r) => r.outcome === 'fail')) {
    if (result.violations.length > 0) {
      for (const violation of result.violations)
        add(
          violation.cause,
          () => ({
            headline: violation.cause,
            rule: violation.rule,
            expected: violation.expected,
            actual: violation.actual,
            sentences: violation.sentences,
            curl: result.curl,
          }),
          result,
        );
      continue;
    }
    const ruled = result.rule === undefined ? undefined : `${result.rule}${result.place ? ` ${result.place}` : ''}`;
    const key = ruled ?? `${result.operation} ${result.name}: ${firstLine(result.error)}`;
    add(
      key,
      () => ({
        headline:
          ruled ?? `${result.where ? `${result.where.operation} ${result.where.status}` : result.operation}: ${firstLine(result.error)}`,
        rule: result.rule,
        actual: firstLine(result.error),
        sentences: [...new Set((result.rule ? [result.rule] : (result.checkRules ?? [])).flatMap((rule) => sentencesFor(rule)))],
        curl: result.curl,
      }),
      result,
    );
  }
  for (const [key, cause] of causes)
    cause.seen = [...seenOn.get(key)!].map(([operation, statuses]) => [operation, ...[...statuses].sort((a, b) => a - b)].join(' '));
  return [...causes.values()].sort((a, b) => b.checks.length - a.checks.length);
}
