// More than one process (control.openapi.yaml, "More than one process"), with
// the built CLI, --workers 3 and --state on a real Redis started here: a
// switch made through whichever worker answers the control request holds on
// every worker before the answer, a scenario carried by the request is
// honoured by any worker, a read of the journal or the coverage holds every
// worker's exchanges, each entry naming its process, and the report written
// at exit is the shared one. Skipped with one line without redis-server.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { API_KEY, spawnServer, type SpawnedServer } from '../support/servers';
import { missing, REDIS_SERVER, startRedis, type RedisServer } from '../../tools/services';

jest.setTimeout(120_000);

/** A new connection per request (agent: false), so that node:cluster spreads them over its workers. */
function request(
  baseUrl: string,
  target: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${baseUrl}${target}`,
      { agent: false, method: options.method ?? 'GET', headers: options.headers ?? {} },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

const statuses = async (baseUrl: string, headers: Record<string, string>, count = 24) =>
  new Set(
    (
      await Promise.all(
        Array.from({ length: count }, (_, i) =>
          request(baseUrl, `/api/v1/Client/Simple?page=${i + 1}`, { headers: { 'X-Api-Key': API_KEY, ...headers } }),
        ),
      )
    ).map((answer) => answer.status),
  );

const skip = missing(REDIS_SERVER);
let redis: RedisServer | undefined;
let server: SpawnedServer | undefined;
let coverageOut: string;
beforeAll(async () => {
  if (skip) return;
  redis = await startRedis();
  coverageOut = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'workers-')), 'coverage.json');
  server = await spawnServer(['--workers', '3', '--clients', '200', '--coverage-out', coverageOut, '--state', redis.url]);
});
afterAll(async () => {
  if (server && server.child.exitCode === null) await server.stop('SIGKILL');
  await redis?.stop();
});

const test = skip ? global.test.skip : global.test;
if (skip) global.test.skip(skip, () => undefined);

test('a session switched through one worker → every worker answers that session in it, and only that session', async () => {
  await request(server!.baseUrl, '/__control/sessions/w1/scenario', {
    method: 'PUT',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ scenario: 'down' }),
  });

  expect(await statuses(server!.baseUrl, { 'X-Mock-Session': 'w1' })).toEqual(new Set([500]));
  expect(await statuses(server!.baseUrl, { 'X-Mock-Session': 'w-other' })).toEqual(new Set([200]));
});

test('the server scenario switched, then reset, through the control API → every worker follows both', async () => {
  await request(server!.baseUrl, '/__control/scenario', {
    method: 'PUT',
    headers: { 'Content-Type': 'application/json' },
    body: '{"scenario":"unauthorised"}',
  });
  const during = await statuses(server!.baseUrl, {});
  await request(server!.baseUrl, '/__control/scenario', { method: 'DELETE' });
  const after = await statuses(server!.baseUrl, {});

  expect(during).toEqual(new Set([401]));
  expect(after).toEqual(new Set([200]));
});

test('a scenario carried by the request (X-Mock-Scenario) → honoured by every worker with no switch at all', async () => {
  expect(await statuses(server!.baseUrl, { 'X-Mock-Session': 'w2', 'X-Mock-Scenario': 'unauthorised' })).toEqual(new Set([401]));
});

test("the journal read through any worker → every worker's entries, each naming its process", async () => {
  const page = JSON.parse((await request(server!.baseUrl, '/__control/journal?session=w1&limit=1000')).body) as {
    entries: { scenario: string; status: number; process: { pid: number } }[];
    processes: { pid: number }[];
    matching: number;
  };

  expect(page.matching).toBe(24);
  expect(page.entries.every((entry) => entry.scenario === 'down' && entry.status === 500)).toBe(true);
  expect(page.processes).toHaveLength(3);
  expect(new Set(page.entries.map((entry) => entry.process.pid)).size).toBeGreaterThanOrEqual(2);
});

test("coverage read through any worker → every worker's exchanges; at exit the primary writes the shared report", async () => {
  const live = JSON.parse((await request(server!.baseUrl, '/__control/coverage')).body) as { totals: { requests: number } };

  const code = await server!.stop('SIGTERM');
  const written = JSON.parse(fs.readFileSync(coverageOut, 'utf8')) as { totals: { requests: number } };

  expect(live.totals.requests).toBe(24 * 5);
  expect(code).toBe(0);
  expect(written.totals.requests).toBe(24 * 5);
});
