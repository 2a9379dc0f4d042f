// Coverage from the consumer's side (control.openapi.yaml, "Coverage"): which
// operations, documented statuses, documented parameters and scenarios the
// traffic a frontend's tests sent actually exercised, against what the served
// openapi.yaml documents. The tally and the report are the contract's shared
// ones (contract/coverage-report.ts: one format, one JSON Schema, one merge,
// the same JSON / JUnit / HTML writers as the contract suite's provider side),
// so a team merges the two reports and sees what neither side ever tried.
// Thresholds (--coverage-min operations=100,statuses=80) are checked here.
// The counts live in the state store (state.ts), shared by every process of
// it; this file reads the spec's side: which parameters an exchange sent, and
// the report. It imports no Node built-in (the in-memory store runs in a
// browser too); coverage-files.ts writes the report at exit.
import { readOperations } from '../../contract/operations';
import { coverageOf, type CoverageReport, type CoverageTally } from '../../contract/coverage-report';
import type { OpenApiDocument } from '../../contract/spec';
import type { ScenarioDefinition } from './scenarios';

export { COVERAGE_METRICS, parseCoverageMin, type CoverageMetric, type CoverageMin } from './coverage-min';
import { COVERAGE_METRICS, type CoverageMetric, type CoverageMin } from './coverage-min';

/** A report's figures as percentages (a figure with nothing documented is 100). */
export function coverageFigures(report: CoverageReport): Record<CoverageMetric, { part: number; whole: number; percent: number }> {
  const figure = (part: number, whole: number) => ({ part, whole, percent: whole === 0 ? 100 : (100 * part) / whole });
  const t = report.totals;
  let scenarios = 0;
  let exercised = 0;
  for (const operation of report.operations) {
    scenarios += operation.scenarios?.documented.length ?? 0;
    exercised += (operation.scenarios?.documented.length ?? 0) - (operation.scenarios?.notExercised.length ?? 0);
  }
  return {
    operations: figure(t.operationsReached, t.operations),
    statuses: figure(t.statusesReached, t.statuses),
    parameters: figure(t.parametersExercised, t.parameters),
    scenarios: figure(exercised, scenarios),
  };
}

/** One line per figure below its minimum, e.g. `statuses 45% (9 of 20) < 80%`; empty when every minimum is met. */
export function coverageShortfalls(report: CoverageReport, min: CoverageMin): string[] {
  const figures = coverageFigures(report);
  return COVERAGE_METRICS.filter((metric) => min[metric] !== undefined && figures[metric].percent < min[metric]!).map((metric) => {
    const { part, whole, percent } = figures[metric];
    return `${metric} ${Math.floor(percent)}% (${part} of ${whole}) < ${min[metric]}%`;
  });
}

/** One line with every figure, for the exit line. */
export function coverageSummary(report: CoverageReport): string {
  const figures = coverageFigures(report);
  return COVERAGE_METRICS.map((metric) => `${metric} ${figures[metric].part}/${figures[metric].whole}`).join(', ');
}

interface OperationParameters {
  query: ReadonlySet<string>;
  path: readonly string[];
  /** Documented header parameters: their name as documented and in lower case. */
  header: readonly (readonly [string, string])[];
}

interface ParameterObject {
  name?: string;
  in?: string;
  $ref?: string;
}

/** The served spec's parameters per operation, by where they travel. */
function parametersByOperation(spec: OpenApiDocument): Map<string, OperationParameters> {
  const shared = (spec.components.parameters ?? {}) as Record<string, ParameterObject>;
  const byOperation = new Map<string, OperationParameters>();
  for (const item of Object.values(spec.paths)) {
    const get = item.get as { operationId?: string; parameters?: ParameterObject[] } | undefined;
    if (!get?.operationId) continue;
    const all = [...((item.parameters as ParameterObject[] | undefined) ?? []), ...(get.parameters ?? [])].map((p) =>
      p.$ref ? (shared[p.$ref.replace('#/components/parameters/', '')] ?? {}) : p,
    );
    byOperation.set(get.operationId, {
      query: new Set(all.filter((p) => p.in === 'query').map((p) => p.name!)),
      path: all.filter((p) => p.in === 'path').map((p) => p.name!),
      header: all.filter((p) => p.in === 'header').map((p) => [p.name!, p.name!.toLowerCase()] as const),
    });
  }
  return byOperation;
}

/** The names of a raw query string's parameters (`a=1&b&a=2` → a, b); undecodable names are kept as sent. */
export function queryNames(query: string): string[] {
  if (query === '') return [];
  const names: string[] = [];
  for (const pair of query.split('&')) {
    const equals = pair.indexOf('=');
    const raw = (equals < 0 ? pair : pair.slice(0, equals)).replace(/\+/g, ' ');
    if (raw === '') continue;
    let name = raw;
    try {
      name = decodeURIComponent(raw);
    } catch {
      // Kept as sent: it is no documented name anyway.
    }
    if (!names.includes(name)) names.push(name);
  }
  return names;
}

const NO_NAMES: string[] = [];
/** Distinct (operation, query) pairs whose parameter names are kept found. */
const NAMES_KEPT = 1_000;

/** What the traffic exercised, against the served spec: the parameters of one exchange, and the report of the counts. */
export class ConsumerCoverage {
  private parameters: Map<string, OperationParameters>;
  private readonly namesOf = new Map<string, string[]>();

  constructor(
    private spec: OpenApiDocument,
    private scenarios: readonly ScenarioDefinition[],
    private readonly source: string,
    private readonly run: Record<string, string | number | boolean>,
  ) {
    this.parameters = parametersByOperation(spec);
  }

  /** A --watch reload serves another document: the report is made against it from now on (the counts stay). */
  useSpec(spec: OpenApiDocument, scenarios: readonly ScenarioDefinition[]): void {
    this.spec = spec;
    this.scenarios = scenarios;
    this.parameters = parametersByOperation(spec);
    this.namesOf.clear();
  }

  /** The documented parameters one exchange sent: its operation (undefined: none), raw query and request headers. */
  names(
    operationId: string | undefined,
    query: string,
    headers: Readonly<Record<string, string | string[] | undefined>>,
  ): readonly string[] {
    const documented = operationId === undefined ? undefined : this.parameters.get(operationId);
    if (!documented) return NO_NAMES;
    // The same URLs come again and again (a page polled, a test re-run): their parameters are found once.
    const key = `${operationId}\u0000${query}`;
    let names = this.namesOf.get(key);
    if (!names) {
      names = [...queryNames(query).filter((name) => documented.query.has(name)), ...documented.path];
      if (this.namesOf.size >= NAMES_KEPT) this.namesOf.clear();
      this.namesOf.set(key, names);
    }
    for (const [name, lower] of documented.header) {
      if (headers[lower] !== undefined) {
        names = [...names, name];
      }
    }
    return names;
  }

  /** The report of `tally` (the store's counts) against the served spec. */
  report(tally: CoverageTally, generatedAt?: string): CoverageReport {
    const report = tally.report(this.spec, {
      side: 'consumer',
      source: this.source,
      ...(generatedAt ? { generatedAt } : {}),
      scenarios: this.scenarios.map((row) => row.name),
      run: this.run,
    });
    return withOperationScenarios(report, this.spec, this.scenarios);
  }
}

/**
 * Scenarios per operation: an operation documents `normal` and the scenarios
 * that change its answers (a list example scenario is not Detail's; no
 * scenario changes Ping), so its figure is not diluted by states it has none of.
 */
function withOperationScenarios(report: CoverageReport, spec: OpenApiDocument, scenarios: readonly ScenarioDefinition[]): CoverageReport {
  const templates = new Map(readOperations(spec).map((operation) => [operation.operationId as string, operation]));
  return {
    ...report,
    operations: report.operations.map((operation) => {
      if (!templates.has(operation.operationId) || !operation.scenarios) return operation;
      const documented = scenarios
        .filter((row) => row.kind === 'normal' || row.operations.includes(operation.operationId))
        .map((row) => row.name);
      const seen = coverageOf(documented, operation.scenarios.exercised);
      return { ...operation, scenarios: { documented: seen.documented, exercised: seen.seen, notExercised: seen.missing } };
    }),
  };
}
