// The contract suite's --control checks (contract-suite/checks/control.ts)
// against real servers: our mock passes them (with clients and with none); a
// deployment without the control API skips them with the reason; and they
// fail a mock whose scenarios do nothing — our real mock behind a forwarder
// that drops the scenario headers, the deployment a team would get if a
// gateway stripped them (its bad headers then pass as 200 too, as the
// response cache once answered them) and allowed only GET to a preflight.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { runSuite, type SuiteRun } from '../../contract-suite/cli/main';
import { startServer, type RunningMock } from '../../server/index';

const API_KEY = 'dev-key';

/** The control checks alone (no other group), judged as the CLI's --control runs them. */
function controlRun(baseUrl: string): Promise<SuiteRun> {
  return runSuite({ baseUrl, apiKey: API_KEY }, { runs: 0, seed: 1, groups: [], control: true, origin: 'https://example.org' });
}

const outcomes = (run: SuiteRun) => run.results.filter((r) => r.operation === 'control').map((r) => r.outcome);

/**
 * A forwarder to `upstream` that drops X-Mock-Scenario and X-Mock-Session (a front that strips headers it does not
 * know) and allows only GET to preflights.
 */
async function stripping(upstream: string): Promise<{ url: string; close(): Promise<void> }> {
  const target = new URL(upstream);
  const server = http.createServer((req, res) => {
    const headers = { ...req.headers };
    delete headers['x-mock-scenario'];
    delete headers['x-mock-session'];
    const forwarded = http.request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers }, (answer) => {
      // Its own CORS allows GET alone, as a front configured for the API only would.
      const headers = answer.headers['access-control-allow-methods']
        ? { ...answer.headers, 'access-control-allow-methods': 'GET' }
        : answer.headers;
      res.writeHead(answer.statusCode ?? 502, headers);
      answer.pipe(res);
    });
    req.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

let mock: RunningMock;
let empty: RunningMock;
let off: RunningMock;
let failing: RunningMock;
beforeAll(async () => {
  [mock, empty, off, failing] = await Promise.all([
    startServer({ clients: 200 }),
    startServer({ clients: 0 }),
    startServer({ clients: 20, control: 'off' }),
    // `normal` keeps the server's own faults: the checks must not take them for a scenario's.
    // Seed 0: the first draws of its ERROR_RATE sequence fail (seed 1's do not), so the checks' first requests meet a failure.
    startServer({ clients: 50, errorRate: 0.3, latencyMs: '0-2', seed: 0 }),
  ]);
});
afterAll(async () => {
  await Promise.all([mock?.close(), empty?.close(), off?.close(), failing?.close()]);
});

test('our mock passes every control check: with clients, with none, and with ERROR_RATE 0.3 and LATENCY_MS set', async () => {
  for (const target of [mock, empty, failing]) {
    const run = await controlRun(target.url);
    expect(run.results.filter((r) => r.outcome !== 'pass').map((r) => `${r.name}: ${r.error ?? r.reason}`)).toEqual([]);
    expect(outcomes(run)).toHaveLength(8);
  }
});

test('a deployment without the control API: every control check skipped, naming why', async () => {
  const run = await controlRun(off.url);
  expect(outcomes(run)).toEqual(Array(8).fill('skip'));
  expect(run.results.find((r) => r.operation === 'control')?.reason).toMatch(
    /has no control API \(GET \/__control\/scenarios answered 404\)/,
  );
});

test('a front that drops the scenario headers and allows only GET fails every check but the table check, each naming what it expected', async () => {
  const front = await stripping(mock.url);
  try {
    const run = await controlRun(front.url);
    const byName = (pattern: RegExp) => run.results.find((r) => pattern.test(r.name))!;
    // The table is still served (the control paths need no header): only what the scenarios do fails.
    expect(byName(/GET \/__control\/scenarios/).outcome).toBe('pass');
    expect(byName(/each example scenario/).error).toMatch(/should answer as Prefer: example=/);
    expect(byName(/down →/).error).toMatch(/should answer 500 INTERNAL_ERROR; got 200/);
    // Judged as the answer to a key that is not accepted: the judge's rule says it first.
    expect(byName(/unauthorised →/).error).toMatch(/expected 401 for request.key-unknown: a key it does not accept; got 200/);
    expect(byName(/slow;/).error).toMatch(/at least 120 ms late/);
    expect(byName(/flaky;/).error).toMatch(/0 of 48 Client requests failed/);
    expect(byName(/a bad X-Mock-Session/).error).toMatch(/should be 400 VALIDATION_ERROR naming X-Mock-Session; got 200/);
    expect(byName(/OPTIONS every path/).error).toMatch(/a preflight for PUT \/__control\/scenario should be allowed/);
    expect(run.results.filter((r) => r.outcome === 'fail')).toHaveLength(7);
  } finally {
    await front.close();
  }
});
