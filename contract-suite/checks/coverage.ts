// Runs last: every documented status of every operation was reached by the checks before it.
import { ContractViolation, type Define } from '../context';

export function coverageChecks(check: Define): void {
  // ---------------------------------------------------------------- coverage (runs last)

  check('coverage', 'every documented status of every operation was reached by the checks above', async (context) => {
    const missing: string[] = [];
    for (const operation of context.contract.operations) {
      const seen = context.seen.get(operation.operationId) ?? new Set<number>();
      for (const status of operation.statuses.map(Number)) {
        // A real deployment may ignore Prefer; then its 500 cannot be reached on purpose.
        if (status === 500 && context.preferIgnored.has(operation.operationId)) continue;
        if (!seen.has(status)) missing.push(`${operation.operationId} ${status}`);
      }
    }
    if (missing.length > 0) throw new ContractViolation(`documented statuses never reached: ${missing.join(', ')}`);
  });
}
