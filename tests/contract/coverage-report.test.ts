// The coverage format both sides write (contract/coverage-report.ts): a tally
// fed real exchanges from our server becomes a report that keeps the format's
// JSON Schema; a provider and a consumer report merge into the union of what
// either reached; the JUnit and HTML writers show what was not reached.
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { loadSpec } from '../../contract/spec';
import {
  COVERAGE_REPORT_SCHEMA,
  CoverageTally,
  coverageToHtml,
  coverageToJson,
  coverageToJunit,
  mergeCoverage,
  type CoverageReport,
} from '../../contract/coverage-report';
import { specContract } from '../../contract/spec-contract';
import { API_KEY, startTestServer, type TestServer } from '../support/servers';

const document = loadSpec();
const ajv = new Ajv2020({ allErrors: true });
addFormats(ajv);
const validate = ajv.compile(COVERAGE_REPORT_SCHEMA);

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.stop());

/** Sends the requests to our server and tallies what came back, as either side would. */
async function tallied(paths: string[]): Promise<CoverageTally> {
  const tally = new CoverageTally();
  for (const path of paths) {
    const response = await fetch(server.baseUrl + path, { headers: { 'X-Api-Key': API_KEY } });
    await response.arrayBuffer();
    const url = new URL(path, 'http://x');
    const found = specContract().findOperation(url.pathname);
    tally.record(found?.operation.operationId, response.status, [...url.searchParams.keys(), ...Object.keys(found?.params ?? {})]);
  }
  return tally;
}

describe('the coverage report (contract/coverage-report.ts)', () => {
  let provider: CoverageReport;
  let consumer: CoverageReport;
  beforeAll(async () => {
    provider = (await tallied(['/api/v1/Client/Simple?pageSize=101', '/api/v1/Diagnostics/Ping', '/api/v1/nothing'])).report(document, {
      side: 'provider',
      source: 'contract run',
      sentences: { enforced: 2, total: 3, unenforced: [{ id: 's.1', text: 'A <b> sentence', reason: 'not visible from outside' }] },
    });
    consumer = (await tallied(['/api/v1/Client/Simple?page=2', '/api/v1/Client/Detail/c0ffee00-dead-4bad-8bad-0123456789ab'])).report(
      document,
      { side: 'consumer', source: 'mock', scenarios: ['default', 'empty'] },
    );
  });

  test('a report from real exchanges keeps the JSON Schema, on either side', () => {
    for (const report of [provider, consumer]) expect(validate(JSON.parse(coverageToJson(report)))).toBe(true);
    expect(provider.totals).toMatchObject({ requests: 3, operationsReached: 2, operations: 5, sentences: 3, sentencesEnforced: 2 });
    const simple = provider.operations.find((o) => o.operationId === 'getClientsSimple')!;
    expect(simple.statuses.reached).toEqual(['400']);
    expect(simple.parameters).toEqual({
      documented: ['page', 'pageSize', 'Prefer'],
      exercised: ['pageSize'],
      notExercised: ['page', 'Prefer'],
    });
  });

  test('mergeCoverage: the union of both sides, requests added, side "merged"', () => {
    const merged = mergeCoverage(provider, consumer);

    expect(validate(merged)).toBe(true);
    expect(merged.side).toBe('merged');
    const simple = merged.operations.find((o) => o.operationId === 'getClientsSimple')!;
    expect(simple.statuses.reached).toEqual(['200', '400']);
    expect(simple.parameters.exercised).toEqual(['page', 'pageSize']);
    expect(simple.requests).toBe(2);
    expect(merged.operations.find((o) => o.operationId === 'getClientDetail')!.statuses.reached).toEqual(['404']);
    expect(merged.totals.requests).toBe(5);
    expect(merged.sentences).toEqual(provider.sentences);
  });

  test('JUnit: a case per documented status and parameter, what was not reached skipped with why (or failed as a gate)', () => {
    const xml = coverageToJunit(provider);

    expect(xml).toContain('<testcase classname="coverage.getClientsSimple.statuses" name="status 400" time="0.000"/>');
    expect(xml).toMatch(/name="status 200" time="0.000">\n\s+<skipped message="not reached"\/>/);
    expect(xml).toContain('<skipped message="not visible from outside"/>');
    expect(xml).toContain('A &lt;b&gt; sentence');
    expect(coverageToJunit(provider, { failUnreached: true })).toMatch(/<failure message="not reached"/);
  });

  test('HTML: one self-contained page (nothing fetched, no script), text escaped', () => {
    const html = coverageToHtml(mergeCoverage(provider, consumer));

    expect(html).toMatch(/^<!doctype html>/);
    expect(html).not.toMatch(/<script|<link|src=|href=/i);
    expect(html).toContain('A &lt;b&gt; sentence');
    expect(html).toContain('<span class="miss">Prefer</span>');
  });
});
