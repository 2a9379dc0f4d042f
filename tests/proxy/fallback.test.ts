// Issue 24, "Fallback to the mock": per cause, chosen with --fallback. The
// answer then comes from the mock in-process, the same bytes as `npm start`
// gives (compared with the built CLI started as its own process), with
// X-Proxy-Answered-By naming the cause. Statuses negative tests expect stay the
// upstream's: a real 404 CLIENT_NOT_FOUND is forwarded whatever the setting.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { startProxy, type RunningProxy } from '../../proxy/proxy';
import { spawnServer, type SpawnedServer } from '../support/servers';
import { scriptedUpstream } from './upstreams';
import type { Listening } from '../../tools/loopback';

const UNKNOWN_ID = 'c0ffee00-dead-4bad-8bad-0123456789ab';
const KEY = { 'X-Api-Key': 'dev-key', 'X-Request-Id': 'fallback-test-1' };

let started: SpawnedServer;
let upstream: Listening;
/** What the scripted upstream answers, by path. */
let answer: (req: IncomingMessage, res: ServerResponse) => void;
const proxies: RunningProxy[] = [];

beforeAll(async () => {
  // `npm start` is this process: the built CLI with its defaults (seed 1, 1,000 clients).
  started = await spawnServer();
  upstream = await scriptedUpstream((req, res) => answer(req, res));
}, 60_000);
afterAll(async () => {
  await Promise.all(proxies.map((proxy) => proxy.close()));
  await upstream.stop();
  await started.stop();
});

async function proxy(fallback: string): Promise<RunningProxy> {
  const running = await startProxy({ upstream: upstream.baseUrl, fallback });
  proxies.push(running);
  return running;
}

const json =
  (status: number, body: unknown, headers: Record<string, string> = {}) =>
  (_req: IncomingMessage, res: ServerResponse) => {
    res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', ...headers }).end(JSON.stringify(body));
  };

/** Status, headers (less the connection's own and the clock) and body bytes. */
async function observed(response: Response) {
  const headers = Object.fromEntries(
    [...response.headers].filter(
      ([name]) => !['date', 'connection', 'keep-alive', 'x-proxy-exchange', 'x-proxy-answered-by'].includes(name),
    ),
  );
  return { status: response.status, headers, body: Buffer.from(await response.arrayBuffer()).toString('base64') };
}

describe('--fallback per cause: the mock answers, byte for byte what `npm start` answers', () => {
  test.each([
    ['501', json(501, { error: 'not implemented yet' })],
    ['502', json(502, { error: 'bad gateway' })],
    ['503', (_req: IncomingMessage, res: ServerResponse) => res.writeHead(503, { 'Content-Type': 'text/html' }).end('<h1>down</h1>')],
    ['504', json(504, { error: 'gateway timeout' })],
    ['404-undeployed', json(404, { Code: 'NOT_FOUND', Message: 'No route GET /api/v1/Client/Extended' })],
  ])('upstream answers for cause %s → the mock’s answer, X-Proxy-Answered-By mock;cause', async (cause, script) => {
    answer = script;
    const running = await proxy(cause);

    for (const path of [
      '/api/v1/Client/Extended?pageSize=3&filter=an',
      `/api/v1/Client/Detail/${UNKNOWN_ID}`,
      '/api/v1/Client/Simple?pageSize=0',
    ]) {
      const viaProxy = await fetch(running.url + path, { headers: KEY });
      const direct = await fetch(started.baseUrl + path, { headers: KEY });

      expect(viaProxy.headers.get('x-proxy-answered-by')).toBe(`mock;cause="${cause}"`);
      expect(await observed(viaProxy)).toEqual(await observed(direct));
    }
  });

  test('an undeployed path answered by a gateway’s HTML 404 → the mock (404-undeployed)', async () => {
    answer = (_req, res) => res.writeHead(404, { 'Content-Type': 'text/html' }).end('<html>404 Not Found</html>');
    const running = await proxy('404-undeployed');

    const response = await fetch(`${running.url}/api/v1/Client/Simple?pageSize=1`, { headers: KEY });

    expect(response.status).toBe(200);
    expect(response.headers.get('x-proxy-answered-by')).toBe('mock;cause="404-undeployed"');
  });
});

describe('statuses negative tests expect stay the upstream’s', () => {
  test('a real 404 CLIENT_NOT_FOUND with --fallback all → forwarded unchanged, X-Proxy-Answered-By upstream', async () => {
    const body = { Code: 'CLIENT_NOT_FOUND', Message: `No client with IdClient ${UNKNOWN_ID} exists` };
    answer = json(404, body, { 'X-Request-Id': 'fallback-test-1' });
    const running = await proxy('all');

    const response = await fetch(`${running.url}/api/v1/Client/Detail/${UNKNOWN_ID}`, { headers: KEY });

    expect(response.status).toBe(404);
    expect(await response.json()).toEqual(body);
    expect(response.headers.get('x-proxy-answered-by')).toBe('upstream');
  });

  test('a 404 NOT_FOUND for a path openapi.yaml does not document → forwarded unchanged (not "undeployed")', async () => {
    answer = json(404, { Code: 'NOT_FOUND', Message: 'No route GET /api/v1/client/simple' }, { 'X-Request-Id': 'fallback-test-1' });
    const running = await proxy('all');

    const response = await fetch(`${running.url}/api/v1/client/simple`, { headers: KEY });

    expect(response.status).toBe(404);
    expect(response.headers.get('x-proxy-answered-by')).toBe('upstream');
  });

  test.each(['400', '401', '500'])('a %s with --fallback all → forwarded unchanged', async (status) => {
    answer = json(Number(status), { Code: 'X', Message: 'upstream said so' });
    const running = await proxy('all');

    const response = await fetch(`${running.url}/api/v1/Client/Simple`, { headers: KEY });

    expect(response.status).toBe(Number(status));
    expect(response.headers.get('x-proxy-answered-by')).toBe('upstream');
  });

  test('fallback off (the default) → a 501 is forwarded unchanged', async () => {
    answer = json(501, { error: 'not implemented yet' });
    const running = await proxy('off');

    const response = await fetch(`${running.url}/api/v1/Client/Simple`, { headers: KEY });

    expect(response.status).toBe(501);
    expect(await response.json()).toEqual({ error: 'not implemented yet' });
    expect(response.headers.get('x-proxy-answered-by')).toBe('upstream');
  });
});
