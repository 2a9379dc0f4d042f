import { compareClients } from '../../contract/list-order';
import type { ClientDetail } from '../../contract/wire-types';
import type { ClientSimplePage } from '../../contract/wire-types';
import { get, startTestServer, testStore, type TestServer } from '../support/servers';

/** The documented order (contract/list-order.ts) between two records. */
const byListOrder = (a: ClientDetail, b: ClientDetail) =>
  compareClients({ FullName: a.PersonalInfo.FullName, IdClient: a.IdClient }, { FullName: b.PersonalInfo.FullName, IdClient: b.IdClient });

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.stop());

const simple = async (query = '', headers?: Record<string, string>) => {
  const response = await get(server.baseUrl, `/api/v1/Client/Simple${query}`, headers);
  return { response, body: (await response.json()) as ClientSimplePage & { Code?: string; Message?: string } };
};

describe('GET /api/v1/Client/Simple', () => {
  test('GET /Client/Simple → 200, page 1 of 25 by default, total in X-Total-Count', async () => {
    const { response, body } = await simple();

    expect(response.status).toBe(200);
    expect(body.Page).toBe(1);
    expect(body.PageSize).toBe(25);
    expect(body.Results).toHaveLength(25);
    expect(Object.keys(body)).toEqual(['Page', 'PageSize', 'Results']);
    expect(Object.keys(body.Results[0]!)).toEqual(['IdClient', 'FullName', 'PersonalId', 'Phone', 'Email']);
    expect(response.headers.get('x-total-count')).toBe('1000');
  });

  test('GET /Client/Simple?page=2&pageSize=10 → Link has first, prev, next and last with relative URLs', async () => {
    const { response } = await simple('?page=2&pageSize=10');

    expect(response.headers.get('link')).toBe(
      '</api/v1/Client/Simple?page=1&pageSize=10>; rel="first", </api/v1/Client/Simple?page=1&pageSize=10>; rel="prev", ' +
        '</api/v1/Client/Simple?page=3&pageSize=10>; rel="next", </api/v1/Client/Simple?page=100&pageSize=10>; rel="last"',
    );
  });

  test('GET /Client/Simple?page=100&pageSize=10 → the last page has no next link', async () => {
    const { response, body } = await simple('?page=100&pageSize=10');

    expect(body.Results).toHaveLength(10);
    expect(response.headers.get('link')).not.toContain('rel="next"');
  });

  test('GET /Client/Simple?page=999 → 200 with empty Results; Page and PageSize echo the request', async () => {
    const { response, body } = await simple('?page=999&pageSize=7');

    expect(response.status).toBe(200);
    expect(body).toEqual({ Page: 999, PageSize: 7, Results: [] });
    expect(response.headers.get('x-total-count')).toBe('1000');
  });

  test('paging walk with pageSize=100 → every client exactly once, count = X-Total-Count, in the documented order', async () => {
    const seen: string[] = [];
    let total = 0;
    for (let page = 1; page <= 11; page++) {
      const { response, body } = await simple(`?page=${page}&pageSize=100`);
      total = Number(response.headers.get('x-total-count'));
      seen.push(...body.Results.map((r) => r.IdClient));
    }

    expect(seen).toHaveLength(total);
    expect(new Set(seen).size).toBe(total);
    const store = testStore();
    expect(seen).toEqual([...store.clients()].sort(byListOrder).map((c) => c.IdClient));
  });

  test('the order is by FullName, case- and accent-insensitive (Å sorts with A), then IdClient', async () => {
    const collator = new Intl.Collator('en', { sensitivity: 'base' });
    const { body } = await simple('?pageSize=100');

    for (let i = 1; i < body.Results.length; i++) {
      const [a, b] = [body.Results[i - 1]!, body.Results[i]!];
      const order = collator.compare(a.FullName, b.FullName) || (a.IdClient < b.IdClient ? -1 : 1);
      expect(order).toBeLessThan(0);
    }
  });

  test.each([
    ['page=0', "query parameter 'page' must be >= 1"],
    ['page=-1', "query parameter 'page' must be >= 1"],
    ['page=1.5', "query parameter 'page' must be integer"],
    ['page=abc', "query parameter 'page' must be integer"],
    ['page=', "query parameter 'page'"],
    ['pageSize=0', "query parameter 'pageSize' must be >= 1"],
    ['pageSize=101', "query parameter 'pageSize' must be <= 100"],
    ['pageSize=500', "query parameter 'pageSize' must be <= 100"],
    ['pageSize=2.5', "query parameter 'pageSize' must be integer"],
    ['pageSize=', "query parameter 'pageSize'"],
    ['pageSize=1e2', "query parameter 'pageSize' must be integer"],
    ['page=1&page=2', "query parameter 'page' is given more than once"],
    ['pagesize=10', "unknown query parameter 'pagesize'"],
    ['active=true', "unknown query parameter 'active'"],
  ])('GET /Client/Simple?%s → 400 VALIDATION_ERROR naming the parameter', async (query, message) => {
    const { response, body } = await simple(`?${query}`);

    expect(response.status).toBe(400);
    expect(body.Code).toBe('VALIDATION_ERROR');
    expect(body.Message).toContain(message);
  });

  test('GET /Client/Simple without X-Api-Key → 401 UNAUTHORIZED saying the header is required', async () => {
    const { response, body } = await simple('', {});

    expect(response.status).toBe(401);
    expect(body).toEqual({ Code: 'UNAUTHORIZED', Message: 'The X-Api-Key header is required' });
  });

  test('GET /Client/Simple with an unknown key → 401 UNAUTHORIZED saying the key is not valid', async () => {
    const { response, body } = await simple('', { 'X-Api-Key': 'dev-key-wrong' });

    expect(response.status).toBe(401);
    expect(body).toEqual({ Code: 'UNAUTHORIZED', Message: 'The X-Api-Key header does not hold a valid key' });
  });

  test('GET /Client/Simple with a bad key and a bad parameter → 401 first (no validation details for strangers)', async () => {
    const { response } = await simple('?pageSize=999', {});

    expect(response.status).toBe(401);
  });
});

describe('GET /api/v1/Client/Simple with other settings', () => {
  test('AUTH=off → 200 without a key', async () => {
    const open = await startTestServer({ auth: false });

    try {
      const response = await get(open.baseUrl, '/api/v1/Client/Simple', {});

      expect(response.status).toBe(200);
    } finally {
      await open.stop();
    }
  });

  test('API_KEYS=a,b → both keys accepted, dev-key refused', async () => {
    const keyed = await startTestServer({ apiKeys: ['alpha-1', 'beta-2'] });

    try {
      const statuses = await Promise.all(
        ['alpha-1', 'beta-2', 'dev-key'].map(
          async (key) => (await get(keyed.baseUrl, '/api/v1/Client/Simple', { 'X-Api-Key': key })).status,
        ),
      );

      expect(statuses).toEqual([200, 200, 401]);
    } finally {
      await keyed.stop();
    }
  });
});
