// How a violation reaches people: one readable log line (operation, rule,
// expected, actual, a curl line that reproduces it against the upstream with
// the key as $API_KEY), the X-Proxy-Violations header of the offending answer
// (proxy.openapi.yaml states its format), and at the stop the JUnit file and
// the JSON report, in the contract suite's shapes: JUnit through
// junit-report-builder with one suite per operation and one case per cause,
// the JSON with the suite's coverage (contract-suite/kit/coverage.ts) inside.
import fs from 'node:fs';
import path from 'node:path';
import type { components } from '../generated/proxy';
import { coverageToJson, type CoverageReport } from '../contract/coverage-report';
import { junitXml, type JunitCase, type JunitSuite } from '../contract/junit-xml';
import type { Side, Violation } from '../contract/judge';
import { cut, MAX_CAUSES, type Cause, type Journal, type JournalEntry } from './journal';
import type { FailOn } from './settings';

export type ProxyReport = components['schemas']['ProxyReport'];

const SIDE_WORD: Record<Side, string> = { request: 'caller', response: 'upstream' };

function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** Headers a curl line leaves out: the connection's own, what curl sets itself, and a browser's noise. */
const NOT_REPRODUCED = new Set([
  'host',
  'content-length',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'te',
  'upgrade',
  'proxy-connection',
  'via',
  'accept-encoding',
  'user-agent',
  'accept-language',
  'referer',
  'dnt',
  'priority',
  'pragma',
  'x-proxy-key',
]);
/** Secrets: printed as shell variables, never as their values. */
const SECRETS: Record<string, string> = { 'x-api-key': '$API_KEY', authorization: '$AUTHORIZATION', cookie: '$COOKIE' };

/** The request as a curl line against the upstream; X-Api-Key, Authorization and Cookie as $API_KEY, $AUTHORIZATION, $COOKIE. */
export function curlLine(upstream: string, method: string, target: string, rawHeaders: readonly string[]): string {
  const parts = ['curl', '-i', '--globoff'];
  if (method !== 'GET') parts.push('-X', method);
  let compressed = false;
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]!;
    const lower = name.toLowerCase();
    if (lower === 'accept-encoding') compressed = true;
    if (NOT_REPRODUCED.has(lower) || lower.startsWith('sec-')) continue;
    const secret = SECRETS[lower];
    parts.push('-H', secret ? `"${name}: ${secret}"` : shellQuote(`${name}: ${rawHeaders[i + 1]!}`));
  }
  if (compressed) parts.push('--compressed');
  parts.push(shellQuote(upstream + target));
  return parts.join(' ');
}

/** RFC 9651 List of Tokens, one per rule and side, the upstream's first: `response.schema;side=response;count=2, …`. */
export function violationsHeader(violations: readonly Violation[]): string | undefined {
  if (violations.length === 0) return undefined;
  const counts = new Map<string, { rule: string; side: Side; count: number }>();
  for (const v of violations) {
    const key = `${v.side} ${v.rule}`;
    const known = counts.get(key);
    if (known) known.count += 1;
    else counts.set(key, { rule: v.rule, side: v.side, count: 1 });
  }
  const members = [...counts.values()]
    .sort((a, b) => (a.side === b.side ? 0 : a.side === 'response' ? -1 : 1))
    .map(({ rule, side, count }) => `${rule};side=${side};count=${count}`);
  let header = '';
  // proxy.openapi.yaml: at most 4096 characters; members past that are left out (the journal has them all).
  for (const member of members) {
    const next = header === '' ? member : `${header}, ${member}`;
    if (next.length > 4096) break;
    header = next;
  }
  return header;
}

/** What a line says when no more lines of its cause (or of the causes past the tally's bound) will follow. */
export type LastLine = 'cause' | 'more causes' | undefined;

/** One readable line for one violation. */
export function logLine(entry: JournalEntry, notJudged: string | undefined, last: LastLine): string {
  const status =
    entry.status !== null
      ? `upstream answered ${entry.status}`
      : entry.kind === 'transport'
        ? 'no answer from the upstream'
        : 'not forwarded';
  const unjudged = notJudged === undefined ? '' : ` (${notJudged}: status and headers judged only)`;
  const lastWords =
    last === 'cause'
      ? ' [the last line of this cause: later ones are counted, see the journal]'
      : last === 'more causes'
        ? ` [the last line of the causes past the first ${MAX_CAUSES}: later ones are counted, see the journal]`
        : '';
  return (
    `proxy: ✗ ${SIDE_WORD[entry.side]} ${entry.operation} ${entry.rule}: expected ${entry.expected}; actual ${entry.actual}` +
    ` — ${entry.method} ${cut(entry.target, 200)}, ${status}${unjudged} (exchange ${entry.exchange})${lastWords}\n    reproduce: ${entry.curl}`
  );
}

/** The violation lines a run logs at most (proxy.openapi.yaml, ProxyReport.bounds.logBytes). */
export const LOG_MAX_BYTES = 8 * 1024 * 1024;

/**
 * Which violations get a log line: `--log-repeats` lines per cause (0: every
 * one), as many for all the causes past the tally's MAX_CAUSES together (the
 * tally cannot tell them apart), and LOG_MAX_BYTES in all, after which one
 * line says so and nothing more is logged. A flood of causes, however varied,
 * writes at most LOG_MAX_BYTES and that line.
 */
export class LogGate {
  private bytes = 0;
  private moreCauseLines = 0;
  /** Violations seen and not logged (over a limit above). */
  withheld = 0;
  full = false;

  constructor(
    private readonly repeats: number,
    private readonly write: (line: string) => void,
  ) {}

  /** Logs the line of a violation whose cause has now been seen `seen` times (0: a cause past MAX_CAUSES). */
  offer(seen: number, line: (last: LastLine) => string): void {
    let last: LastLine;
    if (this.full) return void this.withheld++;
    if (this.repeats > 0) {
      if (seen === 0) {
        if (this.moreCauseLines >= this.repeats) return void this.withheld++;
        this.moreCauseLines += 1;
        if (this.moreCauseLines === this.repeats) last = 'more causes';
      } else {
        if (seen > this.repeats) return void this.withheld++;
        if (seen === this.repeats) last = 'cause';
      }
    }
    const text = line(last);
    const bytes = Buffer.byteLength(text) + 1;
    if (this.bytes + bytes > LOG_MAX_BYTES) {
      this.full = true;
      this.withheld += 1;
      this.write(
        `proxy: the log holds its ${LOG_MAX_BYTES / 1024 / 1024} MB of violation lines: later violations are journaled and counted, not logged (the report and the summary count them all)`,
      );
      return;
    }
    this.bytes += bytes;
    this.write(text);
  }
}

export interface ReportInput {
  upstream: string;
  startedAt: Date;
  failOn: FailOn;
  exchanges: number;
  bodiesOverCap: number;
  inFlight: number;
  answeredBy: ReadonlyMap<string, number>;
  journal: Journal;
  coverage: CoverageReport;
  bounds: ProxyReport['bounds'];
}

export function buildReport(input: ReportInput): ProxyReport {
  const { journal } = input;
  return {
    format: 'client-records-proxy/1',
    target: input.upstream,
    startedAt: input.startedAt.toISOString(),
    generatedAt: new Date().toISOString(),
    failOn: input.failOn,
    exchanges: { total: input.exchanges, bodiesOverCap: input.bodiesOverCap, inFlight: input.inFlight },
    answeredBy: Object.fromEntries(input.answeredBy),
    violations: {
      request: journal.totals.request,
      response: journal.totals.response,
      transport: journal.totals.transport,
      counted: journal.counted,
    },
    causes: journal.causeList(),
    causesDropped: journal.causesDropped,
    coverage: input.coverage as unknown as ProxyReport['coverage'],
    bounds: input.bounds,
  };
}

function writeFile(file: string, text: string): void {
  fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  fs.writeFileSync(file, text);
}

export function writeJsonReport(file: string, report: ProxyReport): void {
  writeFile(file, `${JSON.stringify(report, null, 2)}\n`);
}

/** The coverage alone, as the contract suite's --coverage-out writes it (mergeCoverage takes it with the mock's). */
export function writeCoverage(file: string, report: ProxyReport): void {
  writeFile(file, coverageToJson(report.coverage as unknown as CoverageReport));
}

function causeTitle(cause: Cause): string {
  return `${cause.rule}: ${cause.first.expected} (${cause.count}×)`;
}

function causeDetail(cause: Cause): string {
  const first = cause.first;
  return [
    `${SIDE_WORD[cause.side]} ${cause.operation} ${cause.rule}, ${cause.count} violation(s) of this cause`,
    `expected: ${first.expected}`,
    `actual: ${first.actual}`,
    `first seen: ${first.at}, exchange ${first.exchange}: ${first.method} ${first.target} → ${first.status ?? 'not forwarded'}`,
    `reproduce: ${first.curl}`,
  ].join('\n');
}

/**
 * JUnit XML in the contract suite's shape, through its writer: a suite per
 * operation and side (`proxy upstream: getClientsSimple`), a case per cause,
 * failed with the first violation's line and the detail as its output. A
 * caller's cause is a skipped case with its reason unless
 * --fail-on-violation=all counts it; every operation the traffic reached gets
 * a passing case.
 */
export function junitReport(report: ProxyReport): string {
  const suites = new Map<string, JunitSuite>();
  const suiteOf = (side: Side, operation: string) => {
    const name = `proxy ${SIDE_WORD[side]}: ${operation}`;
    let suite = suites.get(name);
    if (!suite) {
      suite = { name, properties: { target: report.target }, cases: [] };
      suites.set(name, suite);
    }
    return suite;
  };
  for (const cause of report.causes) {
    // The upstream's answers are what the run checks: always failures. A caller's request fails the run only with =all.
    const failing = cause.side === 'response' || report.failOn === 'all';
    const testCase: JunitCase = {
      name: causeTitle(cause),
      className: `proxy.${SIDE_WORD[cause.side]}.${cause.operation}`,
      outcome: failing ? 'fail' : 'skip',
      message: failing
        ? `${cause.rule}: expected ${cause.first.expected}; actual ${cause.first.actual}`
        : "a caller's request, not the upstream's answer: only --fail-on-violation=all counts it",
      detail: causeDetail(cause),
    };
    suiteOf(cause.side, cause.operation).cases.push(testCase);
  }
  const operations = (report.coverage as unknown as CoverageReport).operations.filter((o) => o.requests > 0);
  for (const operation of operations) {
    const broken = report.causes.filter((cause) => cause.side === 'response' && cause.operation === operation.operationId).length;
    suiteOf('response', operation.operationId).cases.push({
      name: `${operation.requests} exchanges judged; statuses ${operation.statuses.reached.join(' ') || 'none'} of ${operation.statuses.documented.join(' ')}; ${broken === 0 ? 'no upstream violation' : `${broken} cause(s) above`}`,
      className: `proxy.upstream.${operation.operationId}`,
      outcome: 'pass',
    });
  }
  return junitXml([...suites.values()]);
}

export function writeJunitReport(file: string, report: ProxyReport): void {
  writeFile(file, junitReport(report));
}

/** The closing summary line. */
export function summaryLine(
  report: ProxyReport,
  files: { junit?: string; report?: string },
  /** Violations not logged (LogGate.withheld), and the report files that could not be written. */
  notes: { withheld?: number; unwritten?: readonly string[] } = {},
): string {
  const answered = Object.entries(report.answeredBy)
    .map(([who, count]) => `${who} ${count}`)
    .join(', ');
  const causes = report.causes.filter((c) => c.side === 'response').length;
  return (
    `proxy: ${report.exchanges.total} exchanges (${answered || 'none answered'}); ` +
    `${report.violations.response} upstream violations (${causes} causes; ${report.violations.transport} transport faults), ${report.violations.request} caller violations; ` +
    `counted by --fail-on-violation=${report.failOn}: ${report.failOn === 'off' ? 'none' : report.violations.counted}` +
    (notes.withheld ? `; ${notes.withheld} not logged (over --log-repeats or the log's cap; in the report)` : '') +
    (files.junit ? `; JUnit: ${files.junit}` : '') +
    (files.report ? `; report: ${files.report}` : '') +
    (notes.unwritten?.length ? `; NOT WRITTEN: ${notes.unwritten.join('; ')}` : '')
  );
}
