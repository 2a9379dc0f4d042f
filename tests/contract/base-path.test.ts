// A deployment behind a gateway that serves the API under a path prefix
// (`--base-url http://gw/records`): operations are matched below the prefix,
// and Link targets, resolved against the request URL, are followed below it too.
import http from 'node:http';
import { runSuite } from '../../contract-suite/cli/main';
import { operationPathname } from '../../contract/exchange';
import { pathBelowBase } from '../../contract-suite/kit/http';
import { startSecondImplementation, type SecondImplementation } from './second-implementation';
import { listenOnLoopback } from '../../tools/loopback';

const PREFIX = '/records';

/** A gateway: `PREFIX/…` goes to the upstream as `/…`; anything else is a 404 of its own. */
function startGateway(upstream: string): Promise<{ baseUrl: string; stop(): Promise<void> }> {
  const target = new URL(upstream);
  const server = http.createServer((req, res) => {
    const url = req.url ?? '/';
    if (!url.startsWith(`${PREFIX}/`)) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('gateway: no such route');
      return;
    }
    const forwarded = http.request(
      { host: target.hostname, port: target.port, method: req.method, path: url.slice(PREFIX.length), headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.rawHeaders);
        answer.pipe(res);
      },
    );
    forwarded.on('error', () => res.writeHead(502).end());
    req.pipe(forwarded);
  });
  return listenOnLoopback(server).then((listening) => ({ ...listening, baseUrl: `${listening.baseUrl}${PREFIX}` }));
}

describe('a base URL with a path prefix', () => {
  test('operations are matched below the prefix; Link targets are followed below it', () => {
    expect(operationPathname({ request: { method: 'GET', path: '/api/v1/Client/Simple?page=2', key: 'valid' } })).toBe(
      '/api/v1/Client/Simple',
    );
    const base = { baseUrl: 'https://gw.example/records' };
    expect(pathBelowBase(base, new URL('https://gw.example/records/api/v1/Client/Simple?page=2&pageSize=3'))).toBe(
      '/api/v1/Client/Simple?page=2&pageSize=3',
    );
    expect(pathBelowBase({ baseUrl: 'https://gw.example' }, new URL('https://gw.example/api/v1/Client/Simple?page=2'))).toBe(
      '/api/v1/Client/Simple?page=2',
    );
  });

  let second: SecondImplementation;
  let gateway: { baseUrl: string; stop(): Promise<void> };
  beforeAll(async () => {
    second = await startSecondImplementation();
    gateway = await startGateway(second.baseUrl);
  });
  afterAll(async () => {
    await gateway.stop();
    await second.stop();
  });

  test('the whole suite passes against a correct deployment behind the prefix', async () => {
    const run = await runSuite({ baseUrl: gateway.baseUrl, apiKey: second.apiKey }, { runs: 50, seed: 7, origin: 'https://example.org' });

    expect(run.results.filter((result) => !result.passed).map((result) => `${result.name}\n${result.error}`)).toEqual([]);
    expect(run.coverage.totals.operationsReached).toBe(run.coverage.totals.operations);
  }, 120_000);
});
