// Three replicas of the built CLI behind a real load balancer (Debian's nginx,
// round-robin) sharing their state through a real Redis (Debian's
// redis-server), both started here (tools/services.ts): a switch made
// through any replica holds on all three at once, a read through any replica
// holds every exchange answered before it, the example frontend's Playwright
// run (a session per test) passes through the balancer, Redis killed and
// brought back mid-run, a replica restarted. control.openapi.yaml, "More than
// one process"; docs/control.md. Without redis-server or nginx the tests skip
// with one line saying which is missing.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { API_KEY, ROOT, spawnServer, type SpawnedServer } from '../support/servers';
import { missing, NGINX, REDIS_SERVER, startNginx, startRedis, until, type Nginx, type RedisServer } from '../../tools/services';

jest.setTimeout(300_000);

const skip = missing(REDIS_SERVER, NGINX);
const PREFIX = `crm-test-${process.pid}:`;
// The example frontend's tests expect its data: seed 1, 1,000 clients.
const REPLICA_ARGS = ['--seed', '1', '--clients', '1000', '--log-format', 'json'];

let redis: RedisServer | undefined;
let nginx: Nginx | undefined;
const replicas: SpawnedServer[] = [];

const startReplica = (redisUrl: string, extra: string[] = []) =>
  spawnServer(['--state', redisUrl, '--state-prefix', PREFIX, ...REPLICA_ARGS, ...extra], { LOG_LEVEL: 'info' });
const hostPort = (replica: SpawnedServer) => replica.baseUrl.replace('http://', '');

beforeAll(async () => {
  if (skip) return;
  redis = await startRedis();
  replicas.push(...(await Promise.all([0, 1, 2].map(() => startReplica(redis!.url)))));
  nginx = await startNginx(replicas.map(hostPort));
});

afterAll(async () => {
  await nginx?.stop();
  await Promise.all(replicas.map((replica) => replica.stop('SIGKILL')));
  await redis?.stop();
});

interface Answer {
  status: number;
  body: string;
  json: () => Record<string, unknown>;
}

async function call(
  baseUrl: string,
  target: string,
  init: { method?: string; headers?: Record<string, string>; body?: unknown } = {},
): Promise<Answer> {
  const response = await fetch(baseUrl + target, {
    method: init.method ?? 'GET',
    headers: { ...(init.body === undefined ? {} : { 'Content-Type': 'application/json' }), ...init.headers },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    signal: AbortSignal.timeout(10_000),
  });
  const body = await response.text();
  return { status: response.status, body, json: () => JSON.parse(body) as Record<string, unknown> };
}

const api = (baseUrl: string, headers: Record<string, string> = {}, target = '/api/v1/Client/Simple?page=1&pageSize=5') =>
  call(baseUrl, target, { headers: { 'X-Api-Key': API_KEY, ...headers } });

/** `count` requests one after the other through the balancer: round-robin hands them to every replica in turn. */
async function statuses(count: number, headers: Record<string, string>): Promise<number[]> {
  const seen: number[] = [];
  for (let i = 0; i < count; i++) seen.push((await api(nginx!.url, headers)).status);
  return seen;
}

interface Page {
  entries: { status: number; scenario: string; session: string | null; process: { pid: number } }[];
  matching: number;
  processes: { pid: number }[];
}
const journal = async (baseUrl: string, query: string) => (await call(baseUrl, `/__control/journal?${query}`)).json() as unknown as Page;

const suite = skip ? describe.skip : describe;
if (skip) test.skip(skip, () => undefined);

suite('three replicas behind nginx, sharing their state through Redis', () => {
  test('a session switched through the balancer → every replica answers it in that scenario, another session normal; the journal names all three', async () => {
    await call(nginx!.url, '/__control/sessions/s1/scenario', { method: 'PUT', body: { scenario: 'down' } });

    const mine = await statuses(12, { 'X-Mock-Session': 's1' });
    const other = await statuses(6, { 'X-Mock-Session': 's2' });
    const page = await journal(nginx!.url, 'session=s1&limit=100');

    expect(new Set(mine)).toEqual(new Set([500]));
    expect(new Set(other)).toEqual(new Set([200]));
    expect(page.matching).toBe(12);
    expect(new Set(page.entries.map((entry) => entry.process.pid))).toEqual(new Set(replicas.map((replica) => replica.child.pid)));
  });

  test('the server scenario switched through one replica → the other two answer in it at once; reset through a third → all normal', async () => {
    await call(replicas[0]!.baseUrl, '/__control/scenario', { method: 'PUT', body: { scenario: 'unauthorised' } });
    const during = await Promise.all(replicas.map(async (replica) => (await api(replica.baseUrl)).status));
    await call(replicas[2]!.baseUrl, '/__control/scenario', { method: 'DELETE' });
    const after = await Promise.all(replicas.map(async (replica) => (await api(replica.baseUrl)).status));

    expect(during).toEqual([401, 401, 401]);
    expect(after).toEqual([200, 200, 200]);
  });

  test('the journal and the coverage read through each replica right after the answers → every exchange, whichever replica answered it', async () => {
    await call(nginx!.url, '/__control/coverage', { method: 'DELETE' });

    await statuses(30, { 'X-Mock-Session': 'j1' });
    const pages = await Promise.all(replicas.map((replica) => journal(replica.baseUrl, 'session=j1&limit=100')));
    const coverages = await Promise.all(replicas.map(async (replica) => (await call(replica.baseUrl, '/__control/coverage')).json()));

    expect(pages.map((page) => page.matching)).toEqual([30, 30, 30]);
    expect(pages.map((page) => page.processes.length)).toEqual([3, 3, 3]);
    expect(coverages.map((report) => (report.totals as { requests: number }).requests)).toEqual([30, 30, 30]);
  });

  test("the example frontend's Playwright tests through the balancer → pass, each test in its own session whichever replica answers", async () => {
    const chromium = missing(process.env.CHROMIUM_PATH || '/usr/bin/chromium');
    if (chromium) return console.log(chromium);
    const cli = path.join(ROOT, 'node_modules/@playwright/test/cli.js');
    // As npm run test:frontend runs them: in the app's folder, whose npm run dev is the app's dev server.
    const args = [cli, 'test', '--tsconfig', 'tsconfig.repo.json', '--reporter', 'line'];
    // Playwright refuses to run under Jest's worker variables.
    const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('JEST')));
    const child = spawn(process.execPath, args, {
      cwd: path.join(ROOT, 'examples', 'frontend'),
      env: { ...env, MOCK_URL: nginx!.url, CI: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 240_000);
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    clearTimeout(timer);
    const page = await journal(replicas[1]!.baseUrl, 'operation=getClientsExtended&limit=10000');
    // The run's summary, for the report that reads this test's output.
    console.log(
      output
        .split('\n')
        .filter((line) => /passed|failed|flaky|skipped/.test(line))
        .join('\n'),
    );

    expect({ code, output: code === 0 ? '' : output }).toEqual({ code: 0, output: '' });
    expect(new Set(page.entries.map((entry) => entry.process.pid)).size).toBe(3);
  });

  test('Redis killed → the API answers in the last known scenarios, the control API 503 naming the store, a log line; Redis back → all of it again, nothing lost', async () => {
    await call(nginx!.url, '/__control/scenario', { method: 'PUT', body: { scenario: 'empty' } });
    await call(nginx!.url, '/__control/sessions/k1/scenario', { method: 'PUT', body: { scenario: 'down' } });

    await redis!.kill();
    const plain = await Promise.all(replicas.map((replica) => api(replica.baseUrl)));
    const session = await statuses(6, { 'X-Mock-Session': 'k1' });
    const control = await Promise.all(replicas.map((replica) => call(replica.baseUrl, '/__control/scenario')));
    await until(
      () => replicas.every((replica) => replica.stdout().includes('state store unreachable')),
      'a log line in every replica',
      5_000,
    );
    await redis!.restart();
    await until(
      async () =>
        (await Promise.all(replicas.map((replica) => call(replica.baseUrl, '/__control/scenario')))).every((a) => a.status === 200),
      'the control API back on every replica',
      15_000,
    );
    // Log lines reach stdout within a second (the logger's buffer).
    await until(() => replicas.every((replica) => replica.stdout().includes('state store back')), 'a log line in every replica', 5_000);
    const server = (await call(replicas[1]!.baseUrl, '/__control/scenario')).json();
    const during = await journal(replicas[2]!.baseUrl, 'session=k1&limit=100');
    const after = await statuses(3, { 'X-Mock-Session': 'k1' });
    await call(nginx!.url, '/__control/scenario', { method: 'DELETE' });

    expect(plain.map((answer) => [answer.status, answer.json().Results])).toEqual([
      [200, []],
      [200, []],
      [200, []],
    ]);
    expect(new Set(session)).toEqual(new Set([500]));
    for (const answer of control) {
      expect(answer.status).toBe(503);
      expect(answer.json()).toEqual({ Code: 'STORE_UNAVAILABLE', Message: expect.stringContaining(`Redis at ${redis!.url}`) });
    }
    expect(server.scenario).toEqual({ scenario: 'empty', header: 'empty' });
    expect(during.matching).toBe(6);
    expect(new Set(after)).toEqual(new Set([500]));
  });

  test('a replica restarted → its successor reads every session, scenario and journal entry written before', async () => {
    await call(nginx!.url, '/__control/sessions/r1/scenario', { method: 'PUT', body: { scenario: 'down' } });
    await statuses(9, { 'X-Mock-Session': 'r1' });
    const port = replicas[1]!.baseUrl.split(':').pop()!;

    await replicas[1]!.stop('SIGTERM');
    replicas[1] = await startReplica(redis!.url, ['--port', port]);
    const state = (await call(replicas[1].baseUrl, '/__control/sessions/r1')).json();
    const page = await journal(replicas[1].baseUrl, 'session=r1&limit=100');
    const status = (await api(replicas[1].baseUrl, { 'X-Mock-Session': 'r1' })).status;

    expect(state).toMatchObject({ own: true, scenario: { scenario: 'down' }, requests: 9 });
    expect(page.matching).toBe(9);
    expect(status).toBe(500);
  });
});
