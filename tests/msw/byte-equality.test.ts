// The MSW handlers answer from the same pipeline as the HTTP server (server/msw.ts):
// for 200 varied requests, status, body bytes and every header but the
// per-request ones (X-Request-Id, Date) must be equal to a real server's
// started with the same settings. Plain requests are answered by the lean path
// (pipeline/lean-path.ts), the rest by the Express app: the mix has both, and
// requests at the edge between them (an empty filter, an upper-case uuid, a
// page written with a leading zero, a conditional GET, an Origin).
import { setupServer } from 'msw/node';
import { createHandlers } from '../../server/msw';
import { startServer, type RunningMock } from '../../server/index';
import { testStore, API_KEY } from '../support/servers';

const MSW_BASE = 'http://api.msw.test';
const SETTINGS = { seed: 1, clients: 1000 } as const;

interface Case {
  method: string;
  path: string;
  headers: Record<string, string>;
}

/** A deterministic mix of what a frontend sends: lists, filters, pages, details, errors and mock controls. */
function varied(count: number): Case[] {
  const clients = testStore(SETTINGS.seed, SETTINGS.clients).clients();
  const key = { 'X-Api-Key': API_KEY };
  const someClient = (i: number) => clients[(i * 37) % clients.length]!;
  const makers: ((i: number) => Case)[] = [
    (i) => ({ method: 'GET', path: `/api/v1/Client/Simple?page=${(i % 45) + 1}&pageSize=${(i % 30) + 1}`, headers: key }),
    (i) => ({ method: 'GET', path: `/api/v1/Client/Extended?page=${(i % 5) + 1}&active=${i % 2 === 0}`, headers: key }),
    (i) => ({
      method: 'GET',
      path: `/api/v1/Client/Extended?filter=${encodeURIComponent(someClient(i).PersonalInfo.FirstName.split(' ')[0]!.slice(0, 3))}&pageSize=5`,
      headers: key,
    }),
    (i) => ({
      method: 'GET',
      path: `/api/v1/Client/Extended?idStaff=${someClient(i).Staff?.IdStaff ?? someClient(i).IdClient}`,
      headers: key,
    }),
    (i) => ({
      method: 'GET',
      path: `/api/v1/Client/Extended?idLocation=${someClient(i).Location?.IdLocation ?? someClient(i).IdClient}&page=2&pageSize=3`,
      headers: key,
    }),
    (i) => ({ method: 'GET', path: `/api/v1/Client/Detail/${someClient(i).IdClient}`, headers: key }),
    (i) => ({ method: 'GET', path: `/api/v1/Client/Detail/00000000-0000-4000-8000-${String(i).padStart(12, '0')}`, headers: key }),
    () => ({ method: 'GET', path: '/api/v1/Client/Detail/not-a-uuid', headers: key }),
    (i) => ({ method: 'GET', path: `/api/v1/Client/Simple?pageSize=${[0, 101, -1, 'x'][i % 4]}`, headers: key }),
    () => ({ method: 'GET', path: '/api/v1/Client/Simple?pagesize=10', headers: key }),
    () => ({ method: 'GET', path: '/api/v1/Client/Simple', headers: {} }),
    () => ({ method: 'GET', path: '/api/v1/Client/Simple', headers: { 'X-Api-Key': 'wrong' } }),
    (i) => ({ method: ['POST', 'PUT', 'DELETE'][i % 3]!, path: '/api/v1/Client/Simple', headers: key }),
    () => ({ method: 'GET', path: '/api/v1/client/simple', headers: key }),
    () => ({ method: 'GET', path: '/api/v1/Diagnostics/Ping', headers: {} }),
    () => ({ method: 'GET', path: '/api/v1/Diagnostics/Exception', headers: {} }),
    (i) => ({
      method: 'GET',
      path: '/api/v1/Client/Simple?pageSize=3',
      headers: { ...key, Prefer: `code=${[500, 401, 400, 405][i % 4]}` },
    }),
    (i) => ({ method: 'GET', path: `/api/v1/Client/Detail/${someClient(i).IdClient}`, headers: { ...key, Prefer: 'code=404' } }),
    () => ({ method: 'GET', path: '/api/v1/Client/Simple', headers: { ...key, Prefer: 'return=minimal, code=999' } }),
    (i) => ({ method: 'GET', path: `/api/v1/Client/Simple?page=${i}`, headers: { ...key, Prefer: 'delay=1' } }),
    (i) => ({
      method: 'GET',
      path: ['/api/v1/Client/Simple', '/api/v1/Client/Extended?active=true'][i % 2]!,
      headers: { ...key, Prefer: `example=${['empty', 'single', 'longest', 'typical', 'nosuch'][i % 5]}` },
    }),
    (i) => ({
      method: 'GET',
      path: [
        '/api/v1/Client/Extended?filter=',
        '/api/v1/Client/Extended?filter=%F0%9F%98%80%20a',
        `/api/v1/Client/Extended?filter=${'x'.repeat(200)}`,
        `/api/v1/Client/Extended?filter=${'x'.repeat(201)}`,
        '/api/v1/Client/Simple?page=007',
        '/api/v1/Client/Simple?page=2147483647&pageSize=100',
        '/api/v1/Client/Simple?page=2147483648',
        `/api/v1/Client/Detail/${someClient(i).IdClient.toUpperCase()}`,
        `/api/v1/Client/Extended?idStaff=${(someClient(i).Staff?.IdStaff ?? someClient(i).IdClient).toUpperCase()}`,
        '/api/v1/Client/Extended?active=1',
        '/api/v1/Client/Simple?page=1#top',
      ][i % 11]!,
      headers: key,
    }),
    (i) => ({
      method: 'GET',
      path: `/api/v1/Client/Simple?page=${(i % 3) + 1}`,
      headers: [
        { ...key, Origin: 'https://app.example' },
        { ...key, 'If-Modified-Since': 'Sat, 28 Nov 2026 00:00:00 GMT' },
        { ...key, 'X-Request-Id': `req-${i}` },
      ][i % 3]!,
    }),
  ];
  return Array.from({ length: count }, (_, i) => makers[i % makers.length]!(i));
}

interface Answer {
  status: number;
  body: string;
  /** Every header but X-Request-Id (a fresh uuid per request unless the caller sent one) and Date. */
  headers: [string, string][];
}

/** Headers a connection carries (the HTTP server's keep-alive), which an answer without a socket has no reason to. */
const PER_REQUEST_OR_CONNECTION = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

async function send(base: string, { method, path, headers }: Case): Promise<Answer> {
  const response = await fetch(`${base}${path}`, { method, headers });
  const body = Buffer.from(await response.arrayBuffer()).toString('base64');
  const kept = [...response.headers].filter(([name]) => !PER_REQUEST_OR_CONNECTION.has(name));
  const echoed = headers['X-Request-Id'] !== undefined;
  return { status: response.status, body, headers: kept.filter(([name]) => echoed || name !== 'x-request-id') };
}

describe('createHandlers (msw) against a real server with the same settings', () => {
  const msw = setupServer(...createHandlers({ baseUrl: MSW_BASE, ...SETTINGS }));
  let real: RunningMock;
  beforeAll(async () => {
    real = await startServer(SETTINGS);
    // Requests to the real server are not ours to intercept: msw lets them through untouched.
    msw.listen({ onUnhandledRequest: 'bypass' });
  });
  afterAll(async () => {
    msw.close();
    await real.close();
  });

  test('200 varied requests → the same status, body bytes, X-Total-Count and Link in-process as over HTTP', async () => {
    const cases = varied(200);
    const differences: string[] = [];
    const statuses = new Set<number>();

    for (const request of cases) {
      const overHttp = await send(real.url, request);
      const inProcess = await send(MSW_BASE, request);
      statuses.add(overHttp.status);
      if (JSON.stringify(inProcess) !== JSON.stringify(overHttp)) differences.push(`${request.method} ${request.path}`);
    }

    expect(differences).toEqual([]);
    // The mix must really be varied: successes and every kind of error the API documents.
    expect([...statuses].sort()).toEqual([200, 400, 401, 404, 405, 500]);
  });

  test('GET /api/v1/Client/Simple → 200 with X-Total-Count 1000 in-process, with no socket', async () => {
    const response = await fetch(`${MSW_BASE}/api/v1/Client/Simple?pageSize=2`, { headers: { 'X-Api-Key': API_KEY } });

    expect(response.status).toBe(200);
    expect(response.headers.get('x-total-count')).toBe('1000');
    expect(((await response.json()) as { Results: unknown[] }).Results).toHaveLength(2);
  });
});

describe('createHandlers({ scenario }) against a real server whose session is in the same scenario', () => {
  const SCENARIOS = [
    'typical',
    'empty',
    'single',
    'longest',
    'nullSections',
    'down',
    'unauthorised',
    'slow;min=1;max=3',
    'flaky;rate=0.5;seed=11',
  ];
  const msw = setupServer();
  let real: RunningMock;
  beforeAll(async () => {
    real = await startServer(SETTINGS);
    msw.listen({ onUnhandledRequest: 'bypass' });
  });
  afterAll(async () => {
    msw.close();
    await real.close();
  });

  test.each(SCENARIOS)(
    '%s → 40 varied requests give the same status, body bytes, X-Total-Count and Link in-process as over HTTP',
    async (scenario) => {
      const [name, ...parameters] = scenario.split(';');
      const request = Object.fromEntries([['scenario', name], ...parameters.map((p) => [p.split('=')[0], Number(p.split('=')[1])])]) as {
        scenario: string;
      };
      const session = `byte-equality-${name}`;
      await real.setScenario(request, { session });
      msw.resetHandlers(...createHandlers({ baseUrl: MSW_BASE, ...SETTINGS, scenario }));
      const cases = varied(40).filter((c) => !c.headers.Prefer);
      const differences: string[] = [];
      const clientStatuses: number[] = [];

      for (const c of cases) {
        const overHttp = await send(real.url, { ...c, headers: { ...c.headers, 'X-Mock-Session': session } });
        const inProcess = await send(MSW_BASE, c);
        if (c.path.startsWith('/api/v1/Client/')) clientStatuses.push(overHttp.status);
        if (JSON.stringify(inProcess) !== JSON.stringify(overHttp)) differences.push(`${c.method} ${c.path}`);
      }

      expect(differences).toEqual([]);
      // The scenario really shaped the answers: down and unauthorised leave no 200 on the Client operations, flaky fails some.
      if (name === 'down' || name === 'unauthorised') expect(clientStatuses).not.toContain(200);
      if (name === 'flaky') expect(clientStatuses).toEqual(expect.arrayContaining([200, 500]));
    },
  );

  test('handlers.setScenario → later answers in the new scenario, undefined → normal again', async () => {
    const handlers = createHandlers({ baseUrl: MSW_BASE, ...SETTINGS });
    msw.resetHandlers(...handlers);
    const total = async () =>
      (await fetch(`${MSW_BASE}/api/v1/Client/Simple`, { headers: { 'X-Api-Key': API_KEY } })).headers.get('x-total-count');

    const before = await total();
    handlers.setScenario('empty');
    const during = await total();
    handlers.setScenario(undefined);
    const after = await total();

    expect([before, during, after]).toEqual(['1000', '0', '1000']);
    expect(() => handlers.setScenario('not a scenario!')).toThrow(/invalid option scenario="not a scenario!"/);
  });
});
