// The coverage summary: which operations, which documented statuses per
// operation, which parameters and which spec rules (rules.ts) the run
// exercised, and which it did not. Fed by every exchange of the run (checks
// and generated requests alike) through the target's onExchange hook.
import { operationPathname, type Exchange } from './http';
import { ruleStatuses, type RuleStatus } from './rules';
import type { SpecContract } from './spec-contract';

interface OperationTally {
  statuses: Set<number>;
  parameters: Set<string>;
  requests: number;
}

export interface CoverageReport {
  operations: {
    operationId: string;
    requests: number;
    statuses: { documented: string[]; reached: string[]; notReached: string[] };
    parameters: { documented: string[]; exercised: string[]; notExercised: string[] };
  }[];
  rules: { id: string; where: string; rule: string; status: RuleStatus['status']; checks: number; reason?: string }[];
  totals: { requests: number; operationsReached: number; operations: number; rulesEnforced: number; rules: number };
}

export class CoverageRecorder {
  private readonly tallies = new Map<string, OperationTally>();
  requests = 0;

  constructor(private readonly contract: SpecContract) {}

  record(exchange: Exchange): void {
    this.requests += 1;
    const url = new URL(exchange.url);
    const found = this.contract.findOperation(operationPathname(exchange));
    if (!found) return;
    let tally = this.tallies.get(found.operation.operationId);
    if (!tally) {
      tally = { statuses: new Set(), parameters: new Set(), requests: 0 };
      this.tallies.set(found.operation.operationId, tally);
    }
    tally.requests += 1;
    tally.statuses.add(exchange.status);
    for (const name of url.searchParams.keys()) tally.parameters.add(name);
    for (const parameter of found.operation.parameters) {
      if (parameter.in === 'path') tally.parameters.add(parameter.name);
      if (parameter.in === 'header' && exchange.request.headers && parameter.name in exchange.request.headers)
        tally.parameters.add(parameter.name);
    }
  }

  report(results: readonly { name: string; passed: boolean }[]): CoverageReport {
    const operations = this.contract.operations.map((operation) => {
      const tally = this.tallies.get(operation.operationId);
      const reached = operation.statuses.filter((status) => tally?.statuses.has(Number(status)));
      const documented = operation.parameters.map((p) => p.name);
      const exercised = documented.filter((name) => tally?.parameters.has(name));
      return {
        operationId: operation.operationId,
        requests: tally?.requests ?? 0,
        statuses: { documented: [...operation.statuses], reached, notReached: operation.statuses.filter((s) => !reached.includes(s)) },
        parameters: { documented, exercised, notExercised: documented.filter((name) => !exercised.includes(name)) },
      };
    });
    const rules = ruleStatuses(results).map((status) => ({
      id: status.rule.id,
      where: status.rule.where,
      rule: status.rule.rule,
      status: status.status,
      checks: status.checks.length,
      ...(status.rule.unchecked ? { reason: status.rule.unchecked } : {}),
    }));
    return {
      operations,
      rules,
      totals: {
        requests: this.requests,
        operationsReached: operations.filter((o) => o.requests > 0).length,
        operations: operations.length,
        rulesEnforced: rules.filter((r) => r.status === 'enforced').length,
        rules: rules.length,
      },
    };
  }
}

/** The report as a few readable lines. */
export function describeCoverage(report: CoverageReport): string {
  const lines = [
    `coverage: ${report.totals.operationsReached}/${report.totals.operations} operations, ${report.totals.rulesEnforced}/${report.totals.rules} spec rules enforced`,
  ];
  for (const operation of report.operations) {
    const missing = [
      ...operation.statuses.notReached.map((s) => `status ${s}`),
      ...operation.parameters.notExercised.map((p) => `parameter ${p}`),
    ];
    lines.push(
      `  ${operation.operationId}: statuses ${operation.statuses.reached.join(' ')} of ${operation.statuses.documented.join(' ')}; parameters ${operation.parameters.exercised.length}/${operation.parameters.documented.length}${missing.length > 0 ? `; not exercised: ${missing.join(', ')}` : ''}`,
    );
  }
  for (const rule of report.rules.filter((r) => r.status !== 'enforced')) {
    lines.push(`  rule ${rule.id} ${rule.status}${rule.reason ? `: ${rule.reason}` : ''}`);
  }
  return lines.join('\n');
}
