// Runs last: every documented status of every operation was reached by the
// checks before it. A status left unreached because checks were skipped (an
// empty deployment never answers Detail 200) is a skip naming them, not a failure.
import { ContractViolation, type Define } from '../context';

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
      if (missing.length === 0) return;
      if (context.skipped.length > 0)
        context.skip(
          `documented statuses not reached: ${missing.join(', ')}, after ${context.skipped.length} skipped check(s) (${context.skipped[0]!.reason}${context.skipped.length > 1 ? '; …' : ''})`,
        );
      const error = new ContractViolation(`documented statuses never reached: ${missing.join(', ')}`);
      error.rule = 'check.statuses-reached';
      throw error;
    },
    ['check.statuses-reached'],
  );
}
