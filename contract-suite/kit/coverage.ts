// The provider side of the coverage report (contract/coverage-report.ts, the
// format the mock's consumer side writes too): which operations, documented
// statuses and parameters the run exercised, fed by every exchange of the run
// (checks and generated requests alike) through the target's onExchange hook,
// and which sentences of the document in use it enforced (sentences.ts).
import { CoverageTally, type CoverageReport } from '../../contract/coverage-report';
import { headerOf } from '../../contract/judge';
import { operationPathname, type Exchange } from '../../contract/exchange';
import { sentenceCoverage } from '../../contract/judge/sentences';
import type { SpecContract } from '../../contract/spec-contract';

export type { CoverageReport };

export class CoverageRecorder {
  private readonly tally = new CoverageTally();

  constructor(private readonly contract: SpecContract) {}

  get requests(): number {
    return this.tally.requests;
  }

  record(exchange: Exchange): void {
    const found = this.contract.findOperation(operationPathname(exchange));
    const parameters: string[] = [...new URL(exchange.url).searchParams.keys()];
    for (const parameter of found?.operation.parameters ?? []) {
      if (parameter.in === 'path') parameters.push(parameter.name);
      if (parameter.in === 'header' && headerOf(exchange.request.headers ?? {}, parameter.name) !== undefined)
        parameters.push(parameter.name);
    }
    this.tally.record(found?.operation.operationId, exchange.status, parameters);
  }

  /** The report: `exercised` holds the rule ids applied in the run (the judge's and those of the checks that ran). */
  report(meta: { source: string; exercised: ReadonlySet<string>; run?: Record<string, unknown> }): CoverageReport {
    return this.tally.report(this.contract.spec, {
      side: 'provider',
      source: meta.source,
      sentences: sentenceCoverage(this.contract.spec, meta.exercised),
      run: meta.run,
    });
  }
}

/** The report as readable lines: totals, per operation what was not reached, then (`sentences`) every sentence not enforced with its reason. */
export function describeCoverage(report: CoverageReport, sentences = true): string {
  const t = report.totals;
  const lines = [
    `coverage: ${t.operationsReached}/${t.operations} operations, ${t.statusesReached}/${t.statuses} documented statuses, ${t.parametersExercised}/${t.parameters} parameters` +
      (report.sentences ? `; ${report.sentences.enforced} of ${report.sentences.total} sentences enforced` : ''),
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
  if (report.sentences && report.sentences.unenforced.length > 0 && !sentences)
    lines.push(`  ${report.sentences.unenforced.length} sentences not enforced, each with why: --verbose or --coverage-out FILE`);
  else if (report.sentences && report.sentences.unenforced.length > 0) {
    lines.push(`  sentences not enforced (${report.sentences.unenforced.length}):`);
    for (const sentence of report.sentences.unenforced) lines.push(`    - ${sentence.id}: "${sentence.text}" — ${sentence.reason}`);
  }
  return lines.join('\n');
}
