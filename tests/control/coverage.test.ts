// Consumer-side coverage (server/control/coverage.ts): the traffic counted per
// operation in the shared format (its JSON Schema holds), scenarios per
// operation, and the --coverage-min thresholds. The counts are the in-memory
// store's (memory-state.ts), as a process without --state keeps them.
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { COVERAGE_REPORT_SCHEMA, CoverageTally } from '../../contract/coverage-report';
import { bundledSpec } from '../../contract/spec';
import { ConsumerCoverage, coverageFigures, coverageShortfalls, parseCoverageMin, queryNames } from '../../server/control/coverage';
import { MemoryState } from '../../server/control/memory-state';
import { ScenarioTable } from '../../server/control/scenarios';

const spec = bundledSpec().document;
const table = new ScenarioTable(spec, 1);
const ajv = new Ajv2020({ strict: false });
addFormats(ajv);
const validReport = ajv.compile(COVERAGE_REPORT_SCHEMA);

/** The spec's side (names, report) over counts kept as the in-memory store keeps them. */
function tally() {
  const coverage = new ConsumerCoverage(spec, table.definitions, 'mock seed 1', { seed: 1 });
  const counts = new CoverageTally();
  return {
    record: (operationId: string | undefined, status: number, query: string, headers: Record<string, string>, scenario: string) =>
      counts.record(operationId, status, coverage.names(operationId, query, headers), scenario),
    report: () => coverage.report(counts),
  };
}

describe('ConsumerCoverage', () => {
  test('no traffic → every operation documented, none reached, the report valid against the shared JSON Schema', () => {
    const report = tally().report();

    expect(validReport(report)).toBe(true);
    expect(report).toMatchObject({ format: 'client-records-coverage/1', side: 'consumer', source: 'mock seed 1' });
    expect(report.totals).toMatchObject({ operations: 5, operationsReached: 0, requests: 0 });
  });

  test('traffic → statuses reached, documented parameters exercised (query, path, header), undocumented ones ignored', () => {
    const coverage = tally();

    coverage.record('getClientsExtended', 200, 'page=2&filter=berg&bogus=1', {}, 'normal');
    coverage.record('getClientsExtended', 400, 'pageSize=0', { prefer: 'code=400' }, 'normal');
    coverage.record('getClientDetail', 404, '', {}, 'normal');
    coverage.record(undefined, 404, '', {}, 'normal');
    const report = coverage.report();

    const extended = report.operations.find((o) => o.operationId === 'getClientsExtended')!;
    expect(extended.requests).toBe(2);
    expect(extended.statuses.reached).toEqual(['200', '400']);
    expect(extended.parameters.exercised).toEqual(['page', 'pageSize', 'filter', 'Prefer']);
    expect(report.operations.find((o) => o.operationId === 'getClientDetail')!.parameters.exercised).toEqual(['idClient']);
    expect(report.totals).toMatchObject({ requests: 4, operationsReached: 2 });
    expect(validReport(report)).toBe(true);
  });

  test('scenarios → per operation, only those that change it (and normal) are documented', () => {
    const coverage = tally();

    coverage.record('getClientsSimple', 200, '', {}, 'empty');
    coverage.record('getClientDetail', 500, '', {}, 'down');
    const report = coverage.report();

    const simple = report.operations.find((o) => o.operationId === 'getClientsSimple')!.scenarios!;
    expect(simple.documented).toEqual(['normal', 'typical', 'empty', 'single', 'longest', 'down', 'slow', 'flaky', 'unauthorised']);
    expect(simple.exercised).toEqual(['empty']);
    expect(report.operations.find((o) => o.operationId === 'getClientDetail')!.scenarios!.documented).toContain('nullSections');
    expect(report.operations.find((o) => o.operationId === 'ping')!.scenarios!.documented).toEqual(['normal']);
  });

  test('the in-memory store reset → counting starts again', async () => {
    const store = new MemoryState(10, { host: 'h', pid: 1 });
    store.count('ping', 200, [], 'normal');

    await store.resetCoverage();

    expect((await store.tally()).requests).toBe(0);
  });
});

describe('--coverage-min', () => {
  test.each([
    ['operations=100,statuses=80', { operations: 100, statuses: 80 }],
    [' parameters = 50% ', { parameters: 50 }],
    ['scenarios=12.5', { scenarios: 12.5 }],
    ['', {}],
  ])('%j → %j', (raw, min) => {
    expect(parseCoverageMin(raw)).toEqual(min);
  });

  test.each(['operations', 'operations=101', 'lines=50', 'statuses=80,statuses=90', 'operations=-1', 'operations=abc'])(
    '%j → an Error with one line',
    (raw) => {
      expect(() => parseCoverageMin(raw)).toThrow(/^(must be comma-separated|names statuses twice)/);
    },
  );

  test('a report below a minimum → one line per figure below it; at or above → none', () => {
    const coverage = tally();
    coverage.record('ping', 200, '', {}, 'normal');
    const report = coverage.report();

    expect(coverageFigures(report).operations).toEqual({ part: 1, whole: 5, percent: 20 });
    expect(coverageShortfalls(report, { operations: 100, statuses: 1 })).toEqual(['operations 20% (1 of 5) < 100%']);
    expect(coverageShortfalls(report, { operations: 20 })).toEqual([]);
  });
});

test('queryNames → names of a raw query, decoded, once each', () => {
  expect(queryNames('a=1&b&a=2&%70age=3&x+y=1&=z')).toEqual(['a', 'b', 'page', 'x y']);
});
