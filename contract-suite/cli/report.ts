// What a run reports: its failures grouped by cause, the JUnit file (one case per check) and the summary the
// terminal and a CI log show, the causes first.
import { junitXml, type JunitCase, type JunitSuite } from '../../contract/junit-xml';
import { describeCoverage } from '../kit/coverage';
import { firstLine } from './causes';
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

/** The summary after the per-check lines: the causes first (each with its curl), suite errors, skipped checks, coverage; the last line counts the causes. */
export function summaryOf(
  run: SuiteRun,
  seconds: number,
  options: { seed: number; runs: number; junit?: string; coverageOut?: string[] },
): string[] {
  const lines: string[] = [];
  const failed = run.results.filter((r) => r.outcome === 'fail');
  const errors = run.results.filter((r) => r.outcome === 'error' || r.outcome === 'unreachable');
  const skipped = run.results.filter((r) => r.outcome === 'skip');
  const passed = run.results.filter((r) => r.outcome === 'pass');
  if (run.causes.length > 0) {
    lines.push(
      `CAUSES: ${run.causes.length} distinct cause${run.causes.length === 1 ? '' : 's'} behind ${failed.length} failed check${failed.length === 1 ? '' : 's'}`,
    );
    run.causes.forEach((cause, i) => {
      lines.push(`${i + 1}. ${cause.headline} (${cause.checks.length} check${cause.checks.length === 1 ? '' : 's'})`);
      if (cause.expected !== undefined) lines.push(`   expected: ${cause.expected}`);
      if (cause.actual !== undefined) lines.push(`   got:      ${cause.actual}`);
      if (cause.sentences.length > 0)
        lines.push(`   spec:     ${cause.sentences.slice(0, 3).join(', ')}${cause.sentences.length > 3 ? ', …' : ''}`);
      if (cause.curl) lines.push(`   reproduce: ${cause.curl}`);
      lines.push(
        `   checks:   ${cause.checks.slice(0, 3).join(' | ')}${cause.checks.length > 3 ? ` | … (+${cause.checks.length - 3})` : ''}`,
      );
    });
    lines.push('');
  }
  if (errors.length > 0) {
    lines.push(
      `SUITE ERRORS: ${errors.length} (not the deployment's fault${errors.some((e) => e.outcome === 'unreachable') ? '; or the target stopped answering' : ''})`,
    );
    for (const result of errors) lines.push(`  ! ${result.name}: ${firstLine(result.error)}`);
    lines.push('');
  }
  if (skipped.length > 0) {
    lines.push(`SKIPPED: ${skipped.length} check${skipped.length === 1 ? '' : 's'} not run to the end, each with why (not failures)`);
    for (const result of skipped) lines.push(`  - ${result.name}: ${result.reason}`);
    lines.push('');
  }
  lines.push(describeCoverage(run.coverage), '');
  const code = exitCodeOf(run.results);
  const verdict = code === EXIT.pass ? 'PASS' : code === EXIT.violation ? 'FAIL' : code === EXIT.suite ? 'SUITE ERROR' : 'UNREACHABLE';
  lines.push(
    `${verdict}: ${passed.length}/${run.results.length - skipped.length} checks passed, ${run.requests} requests in ${seconds.toFixed(1)} s ` +
      `(seed ${options.seed}, ${options.runs} generated); ${skipped.length} skipped; ${errors.length} suite errors` +
      (options.junit ? `; JUnit: ${options.junit}` : '') +
      (options.coverageOut && options.coverageOut.length > 0 ? `; coverage: ${options.coverageOut.join(', ')}` : '') +
      `; ${run.causes.length} distinct cause${run.causes.length === 1 ? '' : 's'} of failure`,
  );
  return lines;
}
