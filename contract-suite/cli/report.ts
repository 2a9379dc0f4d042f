// What a run reports: its failures grouped by cause, the JUnit file (one case per check) and the summary the
// terminal and a CI log show, the causes first.
import { junitXml, type JunitCase, type JunitSuite } from '../../contract/junit-xml';
import { describeCoverage } from '../kit/coverage';
import { firstLine, type Cause } from './causes';
import { EXIT, exitCodeOf } from './results';
import type { SuiteRun } from './run';

/** The run as JUnit XML: one suite per operation, one case per check; a failure names its causes, a skip its reason. */
export function junitOf(run: Pick<SuiteRun, 'results' | 'causes'>, target: string): string {
  const suites = new Map<string, JunitSuite>();
  for (const result of run.results) {
    let suite = suites.get(result.operation);
    if (!suite) {
      suite = { name: `contract: ${result.operation}`, properties: { target }, cases: [] };
      suites.set(result.operation, suite);
    }
    const causes = run.causes.filter((cause) => cause.checks.includes(result.name)).map((cause) => cause.headline);
    const junitCase: JunitCase = {
      name: result.name,
      className: `contract.${result.operation}`,
      time: result.ms / 1000,
      outcome: result.outcome === 'unreachable' ? 'error' : result.outcome,
      message:
        result.outcome === 'skip'
          ? result.reason
          : result.outcome === 'fail'
            ? causes.join('; ') || firstLine(result.error)
            : result.outcome === 'pass'
              ? undefined
              : `suite error: ${firstLine(result.error)}`,
      detail: result.outcome === 'pass' || result.outcome === 'skip' ? undefined : result.error,
    };
    suite.cases.push(junitCase);
  }
  return junitXml([...suites.values()]);
}

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

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** One cause in at most CAUSE_LINES lines: what broke, where it was seen, the sentence behind it, how to reproduce it. */
export function causeLines(cause: Cause, index: number): string[] {
  const lines = [`${index}. ${cause.headline} (${plural(cause.checks.length, 'check')})`];
  if (cause.expected !== undefined) lines.push(`   expected: ${cause.expected}`);
  if (cause.actual !== undefined) lines.push(`   got:      ${cause.actual}`);
  if (cause.seen.length > 0)
    lines.push(`   seen on:  ${cause.seen.slice(0, 6).join('; ')}${cause.seen.length > 6 ? `; … (+${cause.seen.length - 6})` : ''}`);
  if (cause.sentences.length > 0)
    lines.push(
      `   spec:     ${cause.sentences.slice(0, 2).join(', ')}${cause.sentences.length > 2 ? `, … (+${cause.sentences.length - 2})` : ''}`,
    );
  if (cause.curl) lines.push(`   reproduce: ${cause.curl}`);
  lines.push(`   checks:   ${cause.checks[0]}${cause.checks.length > 1 ? ` | … (+${cause.checks.length - 1})` : ''}`);
  return lines.map((line) => (line.length > 400 ? `${line.slice(0, 399)}…` : line));
}

/** The causes, most checks first: all of them with --verbose and --summary, else the first MAX_CAUSES and a count of the rest. */
export function causesSection(causes: readonly Cause[], failedChecks: number, detail: Detail, junit?: string): string[] {
  if (causes.length === 0) return [];
  const shown = detail === 'default' ? causes.slice(0, MAX_CAUSES) : causes;
  const lines = [`CAUSES: ${plural(causes.length, 'distinct cause')} behind ${plural(failedChecks, 'failed check')}`];
  shown.forEach((cause, i) => lines.push(...causeLines(cause, i + 1)));
  if (shown.length < causes.length)
    lines.push(
      `… ${plural(causes.length - shown.length, 'more cause')}: --verbose prints them${junit ? `; every failed check is in ${junit}` : ''}`,
    );
  return [...lines, ''];
}

/** The last line: the verdict CI acts on, with the counts. */
export function verdictLine(
  run: SuiteRun,
  seconds: number,
  options: { seed: number; runs: number; junit?: string; coverageOut?: string[] },
): string {
  const skipped = run.results.filter((r) => r.outcome === 'skip').length;
  const passed = run.results.filter((r) => r.outcome === 'pass').length;
  const errors = run.results.filter((r) => r.outcome === 'error' || r.outcome === 'unreachable').length;
  const code = exitCodeOf(run.results);
  const verdict = code === EXIT.pass ? 'PASS' : code === EXIT.violation ? 'FAIL' : code === EXIT.suite ? 'SUITE ERROR' : 'UNREACHABLE';
  return (
    `${verdict}: ${passed}/${run.results.length - skipped} checks passed, ${run.requests} requests in ${seconds.toFixed(1)} s ` +
    `(seed ${options.seed}, ${options.runs} generated); ${skipped} skipped; ${errors} suite errors` +
    (options.junit ? `; JUnit: ${options.junit}` : '') +
    (options.coverageOut && options.coverageOut.length > 0 ? `; coverage: ${options.coverageOut.join(', ')}` : '') +
    `; ${plural(run.causes.length, 'distinct cause')} of failure`
  );
}

/** The summary after the run: the causes first (each with its curl), suite errors, skipped checks, coverage; the last line is the verdict. */
export function summaryOf(
  run: SuiteRun,
  seconds: number,
  options: { seed: number; runs: number; junit?: string; coverageOut?: string[]; detail?: Detail },
): string[] {
  const detail = options.detail ?? 'default';
  const failed = run.results.filter((r) => r.outcome === 'fail');
  const lines = causesSection(run.causes, failed.length, detail, options.junit);
  if (detail !== 'summary') {
    const errors = run.results.filter((r) => r.outcome === 'error' || r.outcome === 'unreachable');
    const skipped = run.results.filter((r) => r.outcome === 'skip');
    if (errors.length > 0) {
      lines.push(
        `SUITE ERRORS: ${errors.length} (not the deployment's fault${errors.some((e) => e.outcome === 'unreachable') ? '; or the target stopped answering' : ''})`,
      );
      for (const result of errors) lines.push(`  ! ${result.name}: ${firstLine(result.error)}`);
      lines.push('');
    }
    if (skipped.length > 0) {
      lines.push(`SKIPPED: ${plural(skipped.length, 'check')} not run to the end, each with why (not failures)`);
      for (const result of skipped) lines.push(`  - ${result.name}: ${result.reason}`);
      lines.push('');
    }
    lines.push(describeCoverage(run.coverage, detail === 'verbose'), '');
  }
  lines.push(verdictLine(run, seconds, options));
  return lines;
}
