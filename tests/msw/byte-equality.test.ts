// The MSW handlers answer from the same app as the HTTP server (server/msw.ts):
// for 200 varied requests, status, body bytes, X-Total-Count and Link must be
// equal to a real server's started with the same settings.
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
  ];
  return Array.from({ length: count }, (_, i) => makers[i % makers.length]!(i));
}

interface Answer {
  status: number;
  body: string;
  total: string | null;
  link: string | null;
}

async function send(base: string, { method, path, headers }: Case): Promise<Answer> {
  const response = await fetch(`${base}${path}`, { method, headers });
  const body = Buffer.from(await response.arrayBuffer()).toString('base64');
  return { status: response.status, body, total: response.headers.get('x-total-count'), link: response.headers.get('link') };
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
