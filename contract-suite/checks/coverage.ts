// Runs last: every documented status of every operation was reached by the
// checks before it. A status left unreached because checks were skipped (an
// empty deployment never answers Detail 200) or failed (their causes are
// reported already) is a skip naming why, not a failure of its own.
import type { Define } from '../kit/context';

export function coverageChecks(check: Define): void {
  // ---------------------------------------------------------------- coverage (runs last)

  check(
    'coverage',
    'every documented status of every operation was reached by the checks above',
    async (context) => {
      const missing: string[] = [];
      for (const operation of context.contract.operations) {
        const seen = context.seen.get(operation.operationId) ?? new Set<number>();
        for (const status of operation.statuses.map(Number)) {
          // A real deployment may ignore Prefer; then its 500 cannot be reached on purpose.
          if (status === 500 && context.preferIgnored.has(operation.operationId)) continue;
          if (!seen.has(status)) missing.push(`${operation.operationId} ${status}`);
        }
      }
      // A status left unreached because the checks that reach it failed is their consequence, reported under their causes.
      if (missing.length > 0 && context.failed.length > 0)
        context.skip(
          `documented statuses not reached: ${missing.join(', ')}, since ${context.failed.length} check(s) failed before reaching them`,
        );
      if (missing.length > 0 && context.skipped.length > 0)
        context.skip(
          `documented statuses not reached: ${missing.join(', ')}, since ${context.skipped.length} check(s) that would reach them were skipped for the deployment's data`,
        );
      context.expectOfRun(missing.length === 0, `documented statuses never reached: ${missing.join(', ')}`, 'check.statuses-reached');
    },
    ['check.statuses-reached'],
  );
}
