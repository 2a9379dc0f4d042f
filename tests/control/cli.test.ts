// The control settings of the built CLI: --control off, --scenario at start,
// the reserved /__control/ prefix, and the coverage report written at a clean
// stop with --coverage-min turning the exit code to 1. Bad values are one line
// and exit 2.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import YAML from 'yaml';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { COVERAGE_REPORT_SCHEMA } from '../../contract/coverage-report';
import { SPEC_PATH } from '../../contract/spec';
import { API_KEY, MAIN_JS, spawnServer } from '../support/servers';

jest.setTimeout(90_000);

const KEY = { 'X-Api-Key': API_KEY };
let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'control-cli-'));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function runToExit(args: string[]): { status: number | null; stderr: string } {
  const result = spawnSync(process.execPath, [MAIN_JS, '--port', '0', ...args], {
    encoding: 'utf8',
    env: { ...process.env, LOG_LEVEL: 'silent' },
    timeout: 60_000,
  });
  return { status: result.status, stderr: result.stderr };
}

describe('bad control settings → one line on stderr, exit 2', () => {
  test.each([
    [
      ['--coverage-min', 'operations=120'],
      /^client-records-mock: invalid --coverage-min="operations=120": must be comma-separated name=percent pairs/,
    ],
    [['--coverage-min', 'lines=50'], /^client-records-mock: invalid --coverage-min="lines=50"/],
    [['--journal-size', '-1'], /^client-records-mock: invalid --journal-size="-1": must be a whole number from 0 to 100000/],
    [['--control', 'maybe'], /^client-records-mock: invalid --control="maybe": must be on or off/],
    [['--scenario', 'dwon', '--clients', '10'], /^client-records-mock: --scenario is 'dwon', which is no scenario; known: normal, typical/],
    [['--scenario', 'slow;speed=2', '--clients', '10'], /^client-records-mock: --scenario parameter 'speed' is not one a scenario takes/],
  ])('%j', (args, line) => {
    const { status, stderr } = runToExit(args);

    expect(status).toBe(2);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(line);
  });

  test('a served spec with a path under /__control/ → refused: the control API reserves it (and --control off serves it)', async () => {
    const spec = YAML.parse(fs.readFileSync(SPEC_PATH, 'utf8')) as { paths: Record<string, unknown> };
    spec.paths['/__control/health'] = spec.paths['/api/v1/Diagnostics/Ping'];
    const file = path.join(dir, 'colliding.yaml');
    fs.writeFileSync(file, YAML.stringify(spec));

    const { status, stderr } = runToExit(['--spec', file, '--clients', '10']);
    const off = await spawnServer(['--spec', file, '--clients', '10', '--control', 'off']);
    const served = await fetch(`${off.baseUrl}/__control/health`);
    await off.stop();

    expect(status).toBe(2);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr.trim()).toMatch(
      /has paths under \/__control\/, which the control API reserves \(\/__control\/health\): rename them, or set --control off$/,
    );
    expect(served.status).toBe(200);
  });
});

describe('--control off', () => {
  test('→ the control paths are unknown paths (404), scenario headers change nothing, the docs page offers one document', async () => {
    const server = await spawnServer(['--control', 'off', '--clients', '50']);
    const scenarios = await fetch(`${server.baseUrl}/__control/scenarios`);
    const down = await fetch(`${server.baseUrl}/api/v1/Client/Simple`, { headers: { ...KEY, 'X-Mock-Scenario': 'down' } });
    const init = await (await fetch(`${server.baseUrl}/docs/init.js`)).text();
    await server.stop();

    expect(scenarios.status).toBe(404);
    expect(await scenarios.json()).toEqual({ Code: 'NOT_FOUND', Message: 'No route GET /__control/scenarios' });
    expect(down.status).toBe(200);
    expect(init).not.toContain('/__control/openapi.json');
  });
});

test('--scenario down → the server starts in down (Client 500, the control API says so)', async () => {
  const server = await spawnServer(['--scenario', 'down', '--clients', '50']);
  const simple = await fetch(`${server.baseUrl}/api/v1/Client/Simple`, { headers: KEY });
  const state = (await (await fetch(`${server.baseUrl}/__control/scenario`)).json()) as { scenario: { scenario: string } };
  await server.stop();

  expect(simple.status).toBe(500);
  expect(state.scenario.scenario).toBe('down');
});

describe('--coverage-out and --coverage-min at a clean stop', () => {
  const ajv = new Ajv2020({ strict: false });
  addFormats(ajv);
  const validReport = ajv.compile(COVERAGE_REPORT_SCHEMA);

  async function runWithTraffic(min: string): Promise<{ code: number | null; stderr: string; out: string }> {
    const out = path.join(dir, `coverage-${min.replace(/\W/g, '_')}.json`);
    const server = await spawnServer(['--clients', '50', '--coverage-out', out, '--coverage-min', min]);
    await fetch(`${server.baseUrl}/api/v1/Client/Simple?pageSize=2`, { headers: KEY });
    await fetch(`${server.baseUrl}/api/v1/Client/Simple`, { headers: { ...KEY, 'X-Mock-Scenario': 'down' } });
    await fetch(`${server.baseUrl}/api/v1/Diagnostics/Ping`);
    const code = await server.stop('SIGTERM');
    return { code, stderr: server.stderr(), out };
  }

  test('operations=100 with 2 of 5 operations exercised → the three files, a line below the minimum, exit 1', async () => {
    const { code, stderr, out } = await runWithTraffic('operations=100,statuses=10');

    const report = JSON.parse(fs.readFileSync(out, 'utf8')) as { side: string; totals: { operationsReached: number; requests: number } };
    expect(validReport(report)).toBe(true);
    expect(report).toMatchObject({ side: 'consumer', totals: { operationsReached: 2, requests: 3 } });
    expect(fs.readFileSync(out.replace(/\.json$/, '.junit.xml'), 'utf8')).toContain('<testsuites');
    expect(fs.readFileSync(out.replace(/\.json$/, '.html'), 'utf8')).toContain('<table>');
    expect(stderr).toMatch(
      /client-records-mock: coverage: operations 2\/5, statuses \d+\/\d+, parameters \d+\/\d+, scenarios \d+\/\d+; written to /,
    );
    expect(stderr).toContain('client-records-mock: coverage below --coverage-min: operations 40% (2 of 5) < 100%');
    expect(stderr).not.toContain('below --coverage-min: statuses');
    expect(code).toBe(1);
  });

  test('operations=40 met → the report, exit 0', async () => {
    const { code, stderr } = await runWithTraffic('operations=40');

    expect(stderr).not.toContain('below --coverage-min');
    expect(code).toBe(0);
  });
});
