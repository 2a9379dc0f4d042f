// The provider side of the coverage report (contract/coverage-report.ts, the
// format the mock's consumer side writes too): which operations, documented
// statuses and parameters the run exercised and the classes of request it sent
// (request-classes.ts), fed by every exchange of the run (checks and generated
// requests alike) through the target's onExchange hook, and which sentences of
// the document in use it enforced (sentences.ts).
import { CoverageTally, requestClassLines, type CoverageReport, type SentenceCoverage } from '../../contract/coverage-report';
import { headerOf } from '../../contract/judge';
import { operationPathname, type Exchange } from '../../contract/exchange';
import { SENTENCE_MAP, type SentenceEntry } from '../../contract/judge/sentence-map';
import { specSentences } from '../../contract/judge/sentences';
import type { OpenApiDocument } from '../../contract/spec';
import type { SpecContract } from '../../contract/spec-contract';
import { requestLines, type Target } from './http';
import { classify, expectedClasses, ValidatorsSeen, withoutEntityTags } from './request-classes';

export type { CoverageReport };

export class CoverageRecorder {
  private readonly tally = new CoverageTally();
  private readonly validators = new ValidatorsSeen();

  /** `target`: the deployment the requests went to (a request's lines carry its key). */
  constructor(
    private readonly contract: SpecContract,
    private readonly target: Target,
  ) {
    this.tally.expectClasses(expectedClasses(contract));
  }

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
    this.tally.recordClasses(classify(this.contract, exchange.request, requestLines(this.target, exchange.request), this.validators));
    this.validators.note(exchange.headers);
  }

  /** The report: `exercised` holds the rule ids applied in the run (the judge's and those of the checks that ran). */
  report(meta: { source: string; exercised: ReadonlySet<string>; run?: Record<string, unknown> }): CoverageReport {
    if (!this.validators.entityTags)
      for (const c of withoutEntityTags()) this.tally.notApplicable(c.dimension, c.class, 'the target sent no ETag to compare');
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
  if (report.requestClasses && sentences) {
    lines.push('  classes of request sent (requests each; 0: never asked):');
    lines.push(...requestClassLines(report.requestClasses).map((line) => `  ${line}`));
  } else if (report.requestClasses) {
    // A CI log gets the gaps, not the whole table (--verbose and --coverage-out have it): a class never asked is visible.
    const never = report.requestClasses.filter((c) => c.requests === 0 && !c.notApplicable);
    const inapplicable = report.requestClasses.filter((c) => c.notApplicable);
    const named = (classes: typeof never) =>
      classes.map((c) => `${c.dimension} ${c.class}${c.notApplicable ? ` (${c.notApplicable})` : ''}`);
    lines.push(
      `  classes of request sent: ${report.requestClasses.length - never.length - inapplicable.length} of ${report.requestClasses.length - inapplicable.length} asked` +
        (never.length > 0 ? `; never asked: ${named(never).join(', ')}` : '') +
        (inapplicable.length > 0 ? `; not applicable here: ${named(inapplicable).join(', ')}` : '') +
        ' (the table: --verbose or --coverage-out FILE)',
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

/**
 * The sentences of the document in use, enforced or not in this run: a
 * sentence counts as enforced when a rule the table maps it to was applied
 * (by the judge to an exchange, or by a check that ran to its end or failed).
 * A sentence the table does not know (another version of the document, --spec)
 * is reported as such.
 */
export function sentenceCoverage(document: OpenApiDocument, exercised: ReadonlySet<string>): SentenceCoverage {
  const sentences = specSentences(document);
  const unenforced = sentences.flatMap((sentence) => {
    const entry: SentenceEntry | undefined = SENTENCE_MAP[sentence.id];
    if (!entry)
      return [
        {
          id: sentence.id,
          text: sentence.text,
          reason: "not in this suite's sentence table: a sentence this version of the suite does not know",
        },
      ];
    if (entry.reason !== undefined) return [{ id: sentence.id, text: sentence.text, reason: entry.reason }];
    const rules = entry.rules ?? [];
    if (rules.some((rule) => exercised.has(rule))) return [];
    return [
      {
        id: sentence.id,
        text: sentence.text,
        reason: `its rules (${rules.join(', ')}) were not applied in this run (checks skipped or failed to start)`,
      },
    ];
  });
  return { enforced: sentences.length - unenforced.length, total: sentences.length, unenforced };
}
