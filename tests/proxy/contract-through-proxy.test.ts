// Issue 24, "tested against real upstreams": the whole contract suite (every
// check and a property run) run THROUGH the proxy against the second
// implementation, a correct upstream that makes other legitimate choices than
// ours. The proxy must report no upstream violation (no false alarm), and the
// suite must see exactly what it sees in a direct run, check by check.
import { runSuite, type RunResult } from '../../contract-suite/cli/main';
import { startProxy, type RunningProxy } from '../../proxy/proxy';
import { startSecondImplementation, type SecondImplementation } from '../contract/second-implementation';

const RUNS = 300;
const SEED = 20260101;
const ORIGIN = 'https://example.org';

let second: SecondImplementation;
let proxy: RunningProxy;
beforeAll(async () => {
  second = await startSecondImplementation();
  proxy = await startProxy({ upstream: second.baseUrl });
});
afterAll(async () => {
  await proxy.close();
  await second.stop();
});

const outcome = (result: RunResult) => `${result.passed ? 'PASS' : 'FAIL'} ${result.operation} ${result.name}`;

describe('the contract suite through the proxy, against the second implementation', () => {
  test('PASS through the proxy, 0 upstream violations reported, the same outcome as a direct run for every check', async () => {
    const direct = await runSuite({ baseUrl: second.baseUrl, apiKey: second.apiKey }, { runs: RUNS, seed: SEED, origin: ORIGIN });
    const through = await runSuite({ baseUrl: proxy.url, apiKey: second.apiKey }, { runs: RUNS, seed: SEED, origin: ORIGIN });

    const report = proxy.report();
    const failed = through.results.filter((result) => !result.passed);
    const upstream = proxy.violations({ side: 'response' });
    console.log(
      `${failed.length === 0 ? 'PASS' : 'FAIL'}: ${through.results.length - failed.length}/${through.results.length} checks passed through the proxy, ` +
        `${through.requests} requests; proxy: ${report.exchanges.total} exchanges, ${report.violations.response} upstream violations, ` +
        `${report.violations.request} caller violations (the suite's deliberate negative requests) in ${report.causes.filter((c) => c.side === 'request').length} causes; ` +
        `answered by ${JSON.stringify(report.answeredBy)}`,
    );
    expect(upstream.map((entry) => `${entry.rule}: expected ${entry.expected}; actual ${entry.actual}\n  ${entry.curl}`)).toEqual([]);
    expect(failed.map((result) => `${result.name}\n${result.error}`)).toEqual([]);
    expect(through.results.map(outcome)).toEqual(direct.results.map(outcome));
    expect(through.property.statuses).toEqual(direct.property.statuses);
    expect(through.requests).toBe(direct.requests);
    expect(report.exchanges.total).toBe(through.requests);
    // What no HTTP client can forward as it came, answered by the proxy as the mock answers it: a CONNECT asks for a
    // tunnel, a method no parser knows (BREW) is refused by Node's before any route, and the framing checks break
    // HTTP/1.1 itself (derived/framing.ts). Counted from the run's own classes of request (kit/request-classes.ts).
    const classes = through.coverage.requestClasses ?? [];
    const sent = (dimension: string, kind: RegExp) =>
      classes.filter((c) => c.dimension === dimension && kind.test(c.class)).reduce((sum, c) => sum + c.requests, 0);
    const unforwardable = sent('method · path', /^(CONNECT|BREW) · /) + sent('framing', /./);
    expect(report.answeredBy).toEqual({ upstream: through.requests - unforwardable, 'proxy;cause="unforwardable"': unforwardable });
  }, 240_000);
});
