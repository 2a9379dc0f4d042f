// The coverage report, one format for both sides of the contract (issues 23
// and 25): what a contract run made a deployment answer (provider side, the
// contract suite) and what a frontend's traffic made the mock answer (consumer
// side, the mock's control room) — per operation, documented statuses reached
// and parameters exercised, optionally scenarios, and on the provider side the
// spec sentences enforced, and the classes of request sent (method on a path
// of the document or not, preflights, preconditions, header forms, …) with
// how many of each, a 0 for a class never asked. The same type, JSON Schema,
// merge and writers (JSON, JUnit, a small self-contained HTML page) serve
// both, so a team can merge the two reports and see what neither side ever tried.
import { junitXml, type JunitCase, type JunitSuite } from './junit-xml';
import type { OpenApiDocument } from './spec';

export const COVERAGE_FORMAT = 'client-records-coverage/1';

/** Who produced the report: a contract run against a deployment, the mock's tally of the traffic it served, or a merge of both. */
export type CoverageSide = 'provider' | 'consumer' | 'merged';

/** Documented items and which of them were seen; `notReached`/`notExercised` is documented minus seen, in documented order. */
export interface StatusCoverage {
  documented: string[];
  reached: string[];
  notReached: string[];
}

export interface ParameterCoverage {
  documented: string[];
  exercised: string[];
  notExercised: string[];
}

export interface OperationCoverage {
  operationId: string;
  /** Requests that reached this operation. */
  requests: number;
  /** Statuses as openapi.yaml writes them (`200`, `4XX`, `default`). */
  statuses: StatusCoverage;
  /** Parameters by name (query, path and header). */
  parameters: ParameterCoverage;
  /** Scenarios (consumer side: the mock's named states) that served this operation. */
  scenarios?: ParameterCoverage;
}

export interface UnenforcedSentence {
  id: string;
  text: string;
  reason: string;
}

export interface SentenceCoverage {
  enforced: number;
  total: number;
  unenforced: UnenforcedSentence[];
}

/** How many requests of one class were sent: `dimension` groups classes (`method · path`, `CORS`, `header X-Api-Key`). */
export interface RequestClassCount {
  dimension: string;
  /** A class of the dimension; `row · column` where the dimension is a matrix (`POST · a path it does not have`). */
  class: string;
  requests: number;
  /** Why no request of this class could be sent to this target (the class needs something it never sent): no gap. */
  notApplicable?: string;
}

export interface CoverageTotals {
  requests: number;
  operations: number;
  operationsReached: number;
  statuses: number;
  statusesReached: number;
  parameters: number;
  parametersExercised: number;
  sentences?: number;
  sentencesEnforced?: number;
}

export interface CoverageReport {
  format: typeof COVERAGE_FORMAT;
  side: CoverageSide;
  /** What was measured: the deployment's URL, `mock 127.0.0.1:4000`, or both joined by ` + ` after a merge. */
  source: string;
  /** ISO 8601. */
  generatedAt: string;
  operations: OperationCoverage[];
  sentences?: SentenceCoverage;
  /** The classes of request sent, every expected class included (0 when never sent), in the producer's order. */
  requestClasses?: RequestClassCount[];
  totals: CoverageTotals;
  /** Free-form facts of the producing run (seed, runs, spec file…). */
  run?: Record<string, unknown>;
}

const trio = { type: 'array', items: { type: 'string' } } as const;
const seen = (reached: string, notReached: string) =>
  ({
    type: 'object',
    additionalProperties: false,
    required: ['documented', reached, notReached],
    properties: { documented: trio, [reached]: trio, [notReached]: trio },
  }) as const;

/** The JSON Schema (2020-12) of a CoverageReport. */
export const COVERAGE_REPORT_SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://example.com/client-records/coverage-report-1.json',
  title: 'client-records coverage report',
  type: 'object',
  additionalProperties: false,
  required: ['format', 'side', 'source', 'generatedAt', 'operations', 'totals'],
  properties: {
    format: { const: COVERAGE_FORMAT },
    side: { enum: ['provider', 'consumer', 'merged'] },
    source: { type: 'string' },
    generatedAt: { type: 'string', format: 'date-time' },
    operations: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['operationId', 'requests', 'statuses', 'parameters'],
        properties: {
          operationId: { type: 'string' },
          requests: { type: 'integer', minimum: 0 },
          statuses: seen('reached', 'notReached'),
          parameters: seen('exercised', 'notExercised'),
          scenarios: seen('exercised', 'notExercised'),
        },
      },
    },
    sentences: {
      type: 'object',
      additionalProperties: false,
      required: ['enforced', 'total', 'unenforced'],
      properties: {
        enforced: { type: 'integer', minimum: 0 },
        total: { type: 'integer', minimum: 0 },
        unenforced: {
          type: 'array',
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['id', 'text', 'reason'],
            properties: { id: { type: 'string' }, text: { type: 'string' }, reason: { type: 'string' } },
          },
        },
      },
    },
    requestClasses: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['dimension', 'class', 'requests'],
        properties: {
          dimension: { type: 'string' },
          class: { type: 'string' },
          requests: { type: 'integer', minimum: 0 },
          notApplicable: { type: 'string' },
        },
      },
    },
    totals: {
      type: 'object',
      additionalProperties: false,
      required: ['requests', 'operations', 'operationsReached', 'statuses', 'statusesReached', 'parameters', 'parametersExercised'],
      properties: Object.fromEntries(
        [
          'requests',
          'operations',
          'operationsReached',
          'statuses',
          'statusesReached',
          'parameters',
          'parametersExercised',
          'sentences',
          'sentencesEnforced',
        ].map((name) => [name, { type: 'integer', minimum: 0 }]),
      ),
    },
    run: { type: 'object' },
  },
} as const;

/** documented minus seen, in documented order. */
function missing(documented: readonly string[], reached: readonly string[]): string[] {
  const got = new Set(reached);
  return documented.filter((item) => !got.has(item));
}

/** Documented items, those seen (in documented order, then any seen that were not documented), and the rest. */
export function coverageOf(
  documented: readonly string[],
  seenItems: Iterable<string>,
): { documented: string[]; seen: string[]; missing: string[] } {
  const got = new Set(seenItems);
  const seenList = [...documented.filter((item) => got.has(item)), ...[...got].filter((item) => !documented.includes(item))];
  return { documented: [...documented], seen: seenList, missing: missing(documented, seenList) };
}

export function coverageTotals(operations: readonly OperationCoverage[], sentences?: SentenceCoverage, requests?: number): CoverageTotals {
  const sum = (f: (o: OperationCoverage) => number) => operations.reduce((total, o) => total + f(o), 0);
  const totals: CoverageTotals = {
    requests: requests ?? sum((o) => o.requests),
    operations: operations.length,
    operationsReached: operations.filter((o) => o.requests > 0).length,
    statuses: sum((o) => o.statuses.documented.length),
    statusesReached: sum((o) => o.statuses.documented.length - o.statuses.notReached.length),
    parameters: sum((o) => o.parameters.documented.length),
    parametersExercised: sum((o) => o.parameters.documented.length - o.parameters.notExercised.length),
  };
  if (sentences) {
    totals.sentences = sentences.total;
    totals.sentencesEnforced = sentences.enforced;
  }
  return totals;
}

interface Parameterish {
  name?: string;
  $ref?: string;
}

/** Each GET operation of a document with its documented statuses and parameters ($refs to components/parameters resolved). */
export function documentedOperations(
  document: OpenApiDocument,
): { operationId: string; template: string; statuses: string[]; parameters: string[] }[] {
  const shared = (document.components.parameters ?? {}) as Record<string, Parameterish>;
  return Object.entries(document.paths).flatMap(([template, item]) => {
    const get = item.get as { operationId?: string; responses?: Record<string, unknown>; parameters?: Parameterish[] } | undefined;
    if (!get?.operationId) return [];
    const parameters = (get.parameters ?? []).map(
      (p) => (p.$ref ? shared[p.$ref.replace('#/components/parameters/', '')]?.name : p.name) ?? '?',
    );
    return [{ operationId: get.operationId, template, statuses: Object.keys(get.responses ?? {}), parameters }];
  });
}

/**
 * A running tally, fed one served or received exchange at a time (either
 * side), turned into a report against a document's operations.
 */
export class CoverageTally {
  private readonly byOperation = new Map<
    string,
    { requests: number; statuses: Set<string>; parameters: Set<string>; scenarios: Set<string> }
  >();
  /** Every request counted, including those that reached no operation. */
  requests = 0;
  /** Requests per class, keyed by dimension and class; insertion order is the report's. */
  private readonly classes = new Map<string, RequestClassCount>();

  /** Classes the report lists even when no request reached them (a 0 shows the gap). */
  expectClasses(classes: Iterable<{ dimension: string; class: string }>): void {
    for (const c of classes)
      if (!this.classes.has(`${c.dimension}\u0000${c.class}`)) this.classes.set(`${c.dimension}\u0000${c.class}`, { ...c, requests: 0 });
  }

  /** A class no request of this run could reach, and why: listed as not applicable rather than as never asked. */
  notApplicable(dimension: string, name: string, why: string): void {
    const count = this.classes.get(`${dimension}\u0000${name}`);
    if (count && count.requests === 0) count.notApplicable = why;
  }

  /** One request's classes. */
  recordClasses(classes: Iterable<{ dimension: string; class: string }>): void {
    for (const c of classes) {
      const key = `${c.dimension}\u0000${c.class}`;
      const count = this.classes.get(key) ?? { dimension: c.dimension, class: c.class, requests: 0 };
      count.requests += 1;
      this.classes.set(key, count);
    }
  }

  /** One exchange: the operation it reached (undefined: no operation), the status, the parameters it carried, the scenario it was served in. */
  record(operationId: string | undefined, status: number | string, parameters: Iterable<string> = [], scenario?: string): void {
    this.requests += 1;
    if (operationId === undefined) return;
    const tally = this.of(operationId);
    tally.requests += 1;
    tally.statuses.add(String(status));
    for (const name of parameters) tally.parameters.add(name);
    if (scenario !== undefined) tally.scenarios.add(scenario);
  }

  private of(operationId: string): { requests: number; statuses: Set<string>; parameters: Set<string>; scenarios: Set<string> } {
    let tally = this.byOperation.get(operationId);
    if (!tally) {
      tally = { requests: 0, statuses: new Set(), parameters: new Set(), scenarios: new Set() };
      this.byOperation.set(operationId, tally);
    }
    return tally;
  }

  /** The counts per operation reached, as plain data (a store that keeps them elsewhere writes these). */
  operations(): { operationId: string; requests: number; statuses: string[]; parameters: string[]; scenarios: string[] }[] {
    return [...this.byOperation].map(([operationId, tally]) => ({
      operationId,
      requests: tally.requests,
      statuses: [...tally.statuses],
      parameters: [...tally.parameters],
      scenarios: [...tally.scenarios],
    }));
  }

  /** Adds counts made elsewhere: `requests` of `operationId` (undefined: requests that reached none), and what they were seen with. */
  add(
    operationId: string | undefined,
    requests: number,
    seen: { statuses?: Iterable<string>; parameters?: Iterable<string>; scenarios?: Iterable<string> } = {},
  ): void {
    this.requests += requests;
    if (operationId === undefined) return;
    const tally = this.of(operationId);
    tally.requests += requests;
    for (const status of seen.statuses ?? []) tally.statuses.add(status);
    for (const name of seen.parameters ?? []) tally.parameters.add(name);
    for (const scenario of seen.scenarios ?? []) tally.scenarios.add(scenario);
  }

  /** The report against the document's operations; `scenarios` lists the documented scenarios (consumer side). */
  report(
    document: OpenApiDocument,
    meta: {
      side: CoverageSide;
      source: string;
      generatedAt?: string;
      scenarios?: readonly string[];
      sentences?: SentenceCoverage;
      run?: Record<string, unknown>;
    },
  ): CoverageReport {
    const operations = documentedOperations(document).map((operation): OperationCoverage => {
      const tally = this.byOperation.get(operation.operationId);
      // A status matches its documented key exactly, or a range key (`4XX`) or `default` when that is what is documented.
      const reachedKeys = new Set<string>();
      for (const status of tally?.statuses ?? []) {
        const key = [status, `${status[0]}XX`, 'default'].find((candidate) => operation.statuses.includes(candidate));
        if (key) reachedKeys.add(key);
      }
      const statuses = coverageOf(operation.statuses, reachedKeys);
      const parameters = coverageOf(
        operation.parameters,
        [...(tally?.parameters ?? [])].filter((name) => operation.parameters.includes(name)),
      );
      const coverage: OperationCoverage = {
        operationId: operation.operationId,
        requests: tally?.requests ?? 0,
        statuses: { documented: statuses.documented, reached: statuses.seen, notReached: statuses.missing },
        parameters: { documented: parameters.documented, exercised: parameters.seen, notExercised: parameters.missing },
      };
      if (meta.scenarios) {
        const scenarios = coverageOf(meta.scenarios, tally?.scenarios ?? []);
        coverage.scenarios = { documented: scenarios.documented, exercised: scenarios.seen, notExercised: scenarios.missing };
      }
      return coverage;
    });
    return {
      format: COVERAGE_FORMAT,
      side: meta.side,
      source: meta.source,
      generatedAt: meta.generatedAt ?? new Date().toISOString(),
      operations,
      ...(meta.sentences ? { sentences: meta.sentences } : {}),
      ...(this.classes.size > 0 ? { requestClasses: byDimension([...this.classes.values()].map((c) => ({ ...c }))) } : {}),
      totals: coverageTotals(operations, meta.sentences, this.requests),
      ...(meta.run ? { run: meta.run } : {}),
    };
  }
}

/** The counts grouped by dimension, dimensions in order of first appearance, classes in order within each. */
function byDimension(counts: readonly RequestClassCount[]): RequestClassCount[] {
  const dimensions = [...new Set(counts.map((c) => c.dimension))];
  return dimensions.flatMap((dimension) => counts.filter((c) => c.dimension === dimension));
}

/** Two reports' class counts as one: added class by class. */
function mergeClasses(a: readonly RequestClassCount[] = [], b: readonly RequestClassCount[] = []): RequestClassCount[] | undefined {
  if (a.length === 0 && b.length === 0) return undefined;
  const merged = new Map<string, RequestClassCount>();
  for (const c of [...a, ...b]) {
    const key = `${c.dimension}\u0000${c.class}`;
    const requests = (merged.get(key)?.requests ?? 0) + c.requests;
    // Not applicable only while no report of the merge reached the class.
    const notApplicable = requests === 0 ? (c.notApplicable ?? merged.get(key)?.notApplicable) : undefined;
    merged.set(key, { dimension: c.dimension, class: c.class, requests, ...(notApplicable ? { notApplicable } : {}) });
  }
  return byDimension([...merged.values()]);
}

/**
 * The class counts as text, one block per dimension: a dimension whose classes are all `row · column` as a matrix
 * (rows down, columns across), any other as one line per class. A 0 is a class no request reached; `n/a` one this
 * target gave no way to reach.
 */
export function requestClassLines(classes: readonly RequestClassCount[]): string[] {
  const lines: string[] = [];
  for (const dimension of [...new Set(classes.map((c) => c.dimension))]) {
    const own = classes.filter((c) => c.dimension === dimension);
    const cells = own.map((c) => c.class.split(' · '));
    if (cells.every((parts) => parts.length === 2)) {
      const rows = [...new Set(cells.map(([row]) => row!))];
      const columns = [...new Set(cells.map(([, column]) => column!))];
      const width = Math.max(dimension.length, ...rows.map((row) => row.length)) + 2;
      lines.push(`  ${dimension.padEnd(width)}${columns.map((column) => column.padStart(Math.max(column.length, 6) + 2)).join('')}`);
      for (const row of rows)
        lines.push(
          `  ${`  ${row}`.padEnd(width)}${columns
            .map((column) => shownCount(own.find((c) => c.class === `${row} · ${column}`)).padStart(Math.max(column.length, 6) + 2))
            .join('')}`,
        );
    } else {
      lines.push(`  ${dimension}`);
      const width = Math.max(...own.map((c) => c.class.length)) + 2;
      for (const c of own) lines.push(`    ${c.class.padEnd(width)}${shownCount(c).padStart(7)}`);
    }
  }
  return lines;
}

/** A class's count as the tables show it: `n/a` when the target gave no way to reach it. */
function shownCount(count: RequestClassCount | undefined): string {
  return count?.notApplicable ? 'n/a' : String(count?.requests ?? 0);
}

function mergeSeen<K extends 'reached' | 'exercised', M extends 'notReached' | 'notExercised'>(
  a: ({ documented: string[] } & Record<K | M, string[]>) | undefined,
  b: ({ documented: string[] } & Record<K | M, string[]>) | undefined,
  seenKey: K,
  missingKey: M,
): ({ documented: string[] } & Record<K | M, string[]>) | undefined {
  if (!a && !b) return undefined;
  const documented = [...new Set([...(a?.documented ?? []), ...(b?.documented ?? [])])];
  const merged = coverageOf(documented, [...(a?.[seenKey] ?? []), ...(b?.[seenKey] ?? [])]);
  return { documented, [seenKey]: merged.seen, [missingKey]: merged.missing } as { documented: string[] } & Record<K | M, string[]>;
}

/**
 * Two reports of the same format as one: per operation the union of what
 * either reached, requests added; sentences unenforced only when neither
 * enforced them. Sides that differ give `merged`.
 */
export function mergeCoverage(a: CoverageReport, b: CoverageReport): CoverageReport {
  if (a.format !== COVERAGE_FORMAT || b.format !== COVERAGE_FORMAT)
    throw new Error(`mergeCoverage: both reports must be ${COVERAGE_FORMAT}`);
  const ids = [...new Set([...a.operations, ...b.operations].map((o) => o.operationId))];
  const operations = ids.map((operationId): OperationCoverage => {
    const x = a.operations.find((o) => o.operationId === operationId);
    const y = b.operations.find((o) => o.operationId === operationId);
    const merged: OperationCoverage = {
      operationId,
      requests: (x?.requests ?? 0) + (y?.requests ?? 0),
      statuses: mergeSeen(x?.statuses, y?.statuses, 'reached', 'notReached')!,
      parameters: mergeSeen(x?.parameters, y?.parameters, 'exercised', 'notExercised')!,
    };
    const scenarios = mergeSeen(x?.scenarios, y?.scenarios, 'exercised', 'notExercised');
    if (scenarios) merged.scenarios = scenarios;
    return merged;
  });
  let sentences: SentenceCoverage | undefined = a.sentences ?? b.sentences;
  if (a.sentences && b.sentences) {
    const stillOpen = new Set(b.sentences.unenforced.map((s) => s.id));
    const unenforced = a.sentences.unenforced.filter((s) => stillOpen.has(s.id));
    const total = Math.max(a.sentences.total, b.sentences.total);
    sentences = { enforced: total - unenforced.length, total, unenforced };
  }
  return {
    format: COVERAGE_FORMAT,
    side: a.side === b.side ? a.side : 'merged',
    source: `${a.source} + ${b.source}`,
    generatedAt: a.generatedAt > b.generatedAt ? a.generatedAt : b.generatedAt,
    operations,
    ...(sentences ? { sentences } : {}),
    ...(mergeClasses(a.requestClasses, b.requestClasses) ? { requestClasses: mergeClasses(a.requestClasses, b.requestClasses) } : {}),
    totals: coverageTotals(operations, sentences, a.totals.requests + b.totals.requests),
  };
}

/** The report as JSON text (two-space indent, final newline). */
export function coverageToJson(report: CoverageReport): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}

/**
 * The report as JUnit XML: one suite per operation, one case per documented
 * status and parameter (passed when reached, skipped "not reached" when not),
 * and a suite of the unenforced sentences (skipped, with the reason). With
 * `failUnreached`, what was not reached is a failure instead (a gate).
 */
export function coverageToJunit(report: CoverageReport, options: { failUnreached?: boolean } = {}): string {
  const miss = options.failUnreached ? 'fail' : 'skip';
  const suites: JunitSuite[] = report.operations.map((operation) => ({
    name: `coverage (${report.side}): ${operation.operationId}`,
    properties: { source: report.source, requests: String(operation.requests) },
    cases: [
      ...operation.statuses.documented.map((status): JunitCase => ({
        name: `status ${status}`,
        className: `coverage.${operation.operationId}.statuses`,
        outcome: operation.statuses.notReached.includes(status) ? miss : 'pass',
        message: operation.statuses.notReached.includes(status) ? 'not reached' : undefined,
      })),
      ...operation.parameters.documented.map((parameter): JunitCase => ({
        name: `parameter ${parameter}`,
        className: `coverage.${operation.operationId}.parameters`,
        outcome: operation.parameters.notExercised.includes(parameter) ? miss : 'pass',
        message: operation.parameters.notExercised.includes(parameter) ? 'not exercised' : undefined,
      })),
      ...(operation.scenarios?.documented ?? []).map((scenario): JunitCase => ({
        name: `scenario ${scenario}`,
        className: `coverage.${operation.operationId}.scenarios`,
        outcome: operation.scenarios!.notExercised.includes(scenario) ? miss : 'pass',
        message: operation.scenarios!.notExercised.includes(scenario) ? 'not exercised' : undefined,
      })),
    ],
  }));
  if (report.sentences) {
    suites.push({
      name: `coverage (${report.side}): spec sentences, ${report.sentences.enforced} of ${report.sentences.total} enforced`,
      cases: report.sentences.unenforced.map((sentence) => ({
        name: `${sentence.id}: ${sentence.text}`,
        className: 'coverage.sentences',
        outcome: 'skip',
        message: sentence.reason,
      })),
    });
  }
  return junitXml(suites);
}

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function percent(part: number, whole: number): string {
  return whole === 0 ? '–' : `${Math.round((100 * part) / whole)}%`;
}

/** The report as one self-contained HTML page (inline style, no script, nothing fetched). */
export function coverageToHtml(report: CoverageReport): string {
  const t = report.totals;
  const chips = (all: readonly string[], missingItems: readonly string[]) =>
    all.map((item) => `<span class="${missingItems.includes(item) ? 'miss' : 'hit'}">${escapeHtml(item)}</span>`).join(' ') ||
    '<span class="none">none documented</span>';
  const rows = report.operations
    .map(
      (o) =>
        `<tr><th scope="row">${escapeHtml(o.operationId)}</th><td class="num">${o.requests}</td><td>${chips(o.statuses.documented, o.statuses.notReached)}</td><td>${chips(o.parameters.documented, o.parameters.notExercised)}</td>${report.operations.some((x) => x.scenarios) ? `<td>${o.scenarios ? chips(o.scenarios.documented, o.scenarios.notExercised) : ''}</td>` : ''}</tr>`,
    )
    .join('\n');
  const classes = report.requestClasses
    ? `<h2>Classes of request sent (0: never asked)</h2>
<table><thead><tr><th>dimension</th><th>class</th><th>requests</th></tr></thead><tbody>
${report.requestClasses.map((c) => `<tr${c.requests === 0 && !c.notApplicable ? ' class="zero"' : ''}><td>${escapeHtml(c.dimension)}</td><td>${escapeHtml(c.class)}</td><td class="num"${c.notApplicable ? ` title="${escapeHtml(c.notApplicable)}"` : ''}>${shownCount(c)}</td></tr>`).join('\n')}
</tbody></table>`
    : '';
  const sentences = report.sentences
    ? `<h2>Spec sentences: ${report.sentences.enforced} of ${report.sentences.total} enforced</h2>
<table><thead><tr><th>id</th><th>sentence</th><th>why not enforced</th></tr></thead><tbody>
${report.sentences.unenforced.map((s) => `<tr><td><code>${escapeHtml(s.id)}</code></td><td>${escapeHtml(s.text)}</td><td>${escapeHtml(s.reason)}</td></tr>`).join('\n')}
</tbody></table>`
    : '';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Coverage (${escapeHtml(report.side)}): ${escapeHtml(report.source)}</title>
<style>
body{font:14px/1.4 system-ui,sans-serif;margin:2em;color:#222}
table{border-collapse:collapse;margin:1em 0;width:100%}
th,td{border:1px solid #ccc;padding:.3em .5em;text-align:left;vertical-align:top}
thead th{background:#f2f2f2}
.num{text-align:right}
.hit,.miss,.none{display:inline-block;padding:0 .4em;margin:.1em;border-radius:3px}
.hit{background:#d7f5dd}.miss{background:#fbdada;text-decoration:line-through}.none{color:#888}
.totals span{margin-right:1.5em}
tr.zero td{background:#fbdada}
</style></head><body>
<h1>Contract coverage: ${escapeHtml(report.side)} side</h1>
<p>${escapeHtml(report.source)} · generated ${escapeHtml(report.generatedAt)} · format ${escapeHtml(report.format)}</p>
<p class="totals"><span>operations ${t.operationsReached}/${t.operations} (${percent(t.operationsReached, t.operations)})</span><span>statuses ${t.statusesReached}/${t.statuses} (${percent(t.statusesReached, t.statuses)})</span><span>parameters ${t.parametersExercised}/${t.parameters} (${percent(t.parametersExercised, t.parameters)})</span><span>requests ${t.requests}</span>${t.sentences !== undefined ? `<span>sentences ${t.sentencesEnforced}/${t.sentences} enforced</span>` : ''}</p>
<table><thead><tr><th>operation</th><th>requests</th><th>statuses (struck: not reached)</th><th>parameters (struck: not exercised)</th>${report.operations.some((x) => x.scenarios) ? '<th>scenarios</th>' : ''}</tr></thead><tbody>
${rows}
</tbody></table>
${classes}
${sentences}
</body></html>
`;
}
