// The response cache (server/pipeline/response-cache.ts) must be invisible: a hit
// writes exactly the bytes the validated miss wrote (but for X-Request-Id and
// Date), the same bytes as a server without a cache, and it stays within
// CACHE_MB, evicting the least recently used entries first.
import { API_KEY, startTestServer, testStore, type TestServer } from '../support/servers';
import { rawGet } from '../support/raw-get';

const KEY = { 'X-Api-Key': API_KEY };
const store = testStore();
const someone = store.client(123);
const staffed = store.clients().find((client) => client.Staff && client.Location)!;

interface Case {
  name: string;
  target: string;
  headers: Record<string, string>;
  /** Whether the first answer is kept (2xx, and the documented 4xx that come out of the validated pipeline). */
  cached: boolean;
}

const CASES: Case[] = [
  { name: 'ping', target: '/api/v1/Diagnostics/Ping', headers: {}, cached: true },
  { name: 'getClientsSimple, defaults', target: '/api/v1/Client/Simple', headers: KEY, cached: true },
  { name: 'getClientsSimple, page 3 of 7', target: '/api/v1/Client/Simple?page=3&pageSize=7', headers: KEY, cached: true },
  { name: 'getClientsSimple, past the end', target: '/api/v1/Client/Simple?page=999&pageSize=100', headers: KEY, cached: true },
  { name: 'getClientsExtended, filter and active', target: '/api/v1/Client/Extended?filter=an&active=true', headers: KEY, cached: true },
  {
    name: 'getClientsExtended, accented filter',
    target: `/api/v1/Client/Extended?filter=${encodeURIComponent('Åsa')}`,
    headers: KEY,
    cached: true,
  },
  {
    name: 'getClientsExtended, idStaff and idLocation, 100 a page',
    target: `/api/v1/Client/Extended?idStaff=${staffed.Staff!.IdStaff}&idLocation=${staffed.Location!.IdLocation}&pageSize=100`,
    headers: KEY,
    cached: true,
  },
  {
    name: 'getClientsExtended, from a browser origin',
    target: '/api/v1/Client/Extended?pageSize=5',
    headers: { ...KEY, Origin: 'http://localhost:5173' },
    cached: true,
  },
  { name: 'getClientDetail', target: `/api/v1/Client/Detail/${someone.IdClient}`, headers: KEY, cached: true },
  {
    name: 'getClientDetail, unknown id → 404',
    target: '/api/v1/Client/Detail/00000000-0000-4000-8000-000000000000',
    headers: KEY,
    cached: true,
  },
  { name: 'getClientsSimple, pageSize=0 → 400', target: '/api/v1/Client/Simple?pageSize=0', headers: KEY, cached: true },
  { name: 'getClientsSimple, no key → 401', target: '/api/v1/Client/Simple', headers: {}, cached: false },
  { name: 'exception → 500, never cached', target: '/api/v1/Diagnostics/Exception', headers: {}, cached: false },
];

let cached: TestServer;
let uncached: TestServer;
beforeAll(async () => {
  [cached, uncached] = await Promise.all([startTestServer({ logLevel: 'info' }), startTestServer({ cache: false })]);
});
afterAll(() => Promise.all([cached.stop(), uncached.stop()]));

describe('hits are the bytes of the validated miss', () => {
  test.each(CASES)(
    'GET $name → the hit has the miss bytes, and the server without a cache writes them too',
    async ({ target, headers, cached: expectHit }) => {
      const cache = cached.app.cache!;
      const hitsBefore = cache.hits;

      const miss = await rawGet(cached.baseUrl, target, headers);
      const hit = await rawGet(cached.baseUrl, target, headers);
      const noCache = await rawGet(uncached.baseUrl, target, headers);

      expect(cache.hits - hitsBefore).toBe(expectHit ? 1 : 0);
      expect(hit.stable).toBe(miss.stable);
      expect(noCache.stable).toBe(miss.stable);
      expect(hit.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      expect(hit.headers['x-request-id']).not.toBe(miss.headers['x-request-id']);
    },
  );

  test('GET a cached path → the header names keep the case and order the miss wrote', async () => {
    await rawGet(cached.baseUrl, '/api/v1/Client/Simple?pageSize=2', KEY);

    const hit = await rawGet(cached.baseUrl, '/api/v1/Client/Simple?pageSize=2', KEY);

    const names = hit.raw
      .toString('latin1')
      .split('\r\n\r\n')[0]!
      .split('\r\n')
      .slice(1)
      .map((line) => line.slice(0, line.indexOf(':')));
    expect(names.slice(0, 2)).toEqual(['X-Request-Id', 'Cross-Origin-Opener-Policy']);
    expect(names).toEqual(
      expect.arrayContaining(['X-Total-Count', 'Link', 'Content-Type', 'Content-Length', 'Cache-Control', 'Content-Security-Policy']),
    );
  });

  test("GET a cached path with X-Request-Id → the hit echoes the caller's id", async () => {
    await rawGet(cached.baseUrl, '/api/v1/Diagnostics/Ping');

    const hit = await rawGet(cached.baseUrl, '/api/v1/Diagnostics/Ping', { 'X-Request-Id': 'trace-42' });

    expect(hit.headers['x-request-id']).toBe('trace-42');
  });

  test('GET a cached path → the hit still writes its request log line, marked as a hit', async () => {
    await rawGet(cached.baseUrl, '/api/v1/Client/Simple?page=2', { ...KEY, 'X-Request-Id': 'log-miss' });
    await rawGet(cached.baseUrl, '/api/v1/Client/Simple?page=2', { ...KEY, 'X-Request-Id': 'log-hit' });
    await new Promise((resolve) => setTimeout(resolve, 50));

    const lines = cached.logs.records.filter((line) => line.reqId === 'log-miss' || line.reqId === 'log-hit');
    expect(lines).toEqual([
      expect.objectContaining({ reqId: 'log-miss', route: '/api/v1/Client/Simple', status: 200, msg: 'request' }),
      expect.objectContaining({ reqId: 'log-hit', route: '/api/v1/Client/Simple', status: 200, cache: 'hit', msg: 'request' }),
    ]);
    expect(lines[0]).not.toHaveProperty('cache');
  });

  test('GET with Prefer → always the full pipeline, never a hit', async () => {
    const target = '/api/v1/Client/Simple?pageSize=3';
    await rawGet(cached.baseUrl, target, KEY);
    const hitsBefore = cached.app.cache!.hits;

    const preferred = await rawGet(cached.baseUrl, target, { ...KEY, Prefer: 'code=500' });

    expect(preferred.status).toBe(500);
    expect(cached.app.cache!.hits).toBe(hitsBefore);
  });

  test("GET with another key → answered for that key, not from an accepted key's entry", async () => {
    await rawGet(cached.baseUrl, '/api/v1/Client/Simple?pageSize=4', KEY);

    const wrongKey = await rawGet(cached.baseUrl, '/api/v1/Client/Simple?pageSize=4', { 'X-Api-Key': 'not-the-key' });

    expect(wrongKey.status).toBe(401);
  });
});

describe('the cache is bounded (CACHE_MB, least recently used out first)', () => {
  let small: TestServer;
  beforeAll(async () => {
    // 5,000 clients: 50 full Extended pages of 100, about 3 MB in all.
    small = await startTestServer({ cacheMb: 1, clients: 5000 });
  });
  afterAll(() => small.stop());

  const page = (n: number) => `/api/v1/Client/Extended?page=${n}&pageSize=100`;
  const isHit = async (target: string): Promise<boolean> => {
    const before = small.app.cache!.hits;
    await rawGet(small.baseUrl, target, KEY);
    return small.app.cache!.hits > before;
  };

  test('GET many large pages → the cache never holds more than CACHE_MB, and drops the least recently used first', async () => {
    const cache = small.app.cache!;
    const limit = 1024 * 1024;
    // Page 1 first, then pages until the next one might not fit.
    await rawGet(small.baseUrl, page(1), KEY);
    let next = 2;
    let entryBytes = cache.usedBytes / cache.size;
    while (cache.usedBytes + 2 * entryBytes < limit) {
      await rawGet(small.baseUrl, page(next++), KEY);
      entryBytes = Math.max(entryBytes, cache.usedBytes / cache.size);
    }
    // A hit refreshes page 1: page 2 is now the least recently used.
    expect(await isHit(page(1))).toBe(true);
    const sizeBefore = cache.size;

    for (let extra = 0; extra < 3; extra++) await rawGet(small.baseUrl, page(next++), KEY);

    expect(cache.usedBytes).toBeLessThanOrEqual(limit);
    expect(cache.size).toBeLessThan(sizeBefore + 3);
    expect(await isHit(page(1))).toBe(true);
    expect(await isHit(page(2))).toBe(false);
    expect(await isHit(page(next - 1))).toBe(true);
  });
});

describe('list pages are kept as the positions of their clients, not their bytes', () => {
  let tiny: TestServer;
  beforeAll(async () => {
    // 32 kB: below the 1 MB CACHE_MB accepts, set directly to reach the case.
    tiny = await startTestServer({ cacheMb: 1 / 32 });
  });
  afterAll(() => tiny.stop());

  test('GET an Extended page of 100 (~60 kB) twice → kept in a 32 kB cache, and the hit is the same bytes', async () => {
    const cache = tiny.app.cache!;
    const target = '/api/v1/Client/Extended?pageSize=100';

    const first = await rawGet(tiny.baseUrl, target, KEY);
    const hitsBefore = cache.hits;
    const hit = await rawGet(tiny.baseUrl, target, KEY);

    expect(Buffer.byteLength(first.body)).toBeGreaterThan(32 * 1024);
    expect(cache.hits).toBe(hitsBefore + 1);
    expect(hit.stable).toBe(first.stable);
    expect(cache.usedBytes).toBeLessThan(8 * 1024);
  });
});

describe('a page asked for often is kept as its bytes', () => {
  test('GET an Extended page of 25 ten times → its bytes are kept from the eighth hit on, and every hit is the same bytes', async () => {
    const cache = cached.app.cache!;
    const target = '/api/v1/Client/Extended?page=4&pageSize=25';
    const first = await rawGet(cached.baseUrl, target, KEY);
    const usedAfterMiss = cache.usedBytes;

    const hits = [];
    for (let i = 0; i < 9; i++) hits.push(await rawGet(cached.baseUrl, target, KEY));

    for (const hit of hits) expect(hit.stable).toBe(first.stable);
    // The recipe held a few hundred bytes; the kept bytes are the whole body.
    expect(cache.usedBytes - usedAfterMiss).toBeGreaterThan(Buffer.byteLength(first.body) - 1024);
  });
});

describe('an answer larger than the whole cache', () => {
  let tiny: TestServer;
  beforeAll(async () => {
    // 1 kB: no entry fits (each counts its headers and a fixed overhead besides its body).
    tiny = await startTestServer({ cacheMb: 1 / 1024 });
  });
  afterAll(() => tiny.stop());

  test('GET the same Detail three times → answered in full every time, and never kept', async () => {
    const target = `/api/v1/Client/Detail/${someone.IdClient}`;

    const answers = [];
    for (let i = 0; i < 3; i++) answers.push(await rawGet(tiny.baseUrl, target, KEY));

    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200]);
    expect(answers[2]!.stable).toBe(answers[0]!.stable);
    expect(tiny.app.cache!.size).toBe(0);
    expect(tiny.app.cache!.hits).toBe(0);
  });
});
