// Unit tests of the page's data layer with MSW 3 and vitest: the handlers answer from the
// mock itself, in-process (client-records-mock/msw), so these tests see the same
// data, validation, paging and Prefer behaviour as the Playwright tests do over HTTP.
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { setupServer } from 'msw/node';
import { createHandlers } from 'client-records-mock/msw';
import { createApi } from '../src/api.ts';

const API_URL = 'http://api.example.test';
const server = setupServer(...createHandlers({ baseUrl: API_URL, seed: 1, clients: 1000 }));
const api = createApi(API_URL, 'dev-key');

// MSW 3's name; MSW 2 calls it onUnhandledRequest and ignores this one (docs/frontend.md).
beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

describe('api.list (GET /api/v1/Client/Extended)', () => {
  test('page 1 of 10 → ten rows and the total from X-Total-Count', async () => {
    const result = await api.list({ page: 1, pageSize: 10 });

    expect(result.ok && result.value.rows).toHaveLength(10);
    expect(result.ok && result.value.total).toBe(1000);
  });

  test('page 2 → the next ten rows, none repeated from page 1', async () => {
    const first = await api.list({ page: 1, pageSize: 10 });
    const second = await api.list({ page: 2, pageSize: 10 });

    const ids = (result: typeof first) => (result.ok ? result.value.rows.map((row) => row.IdClient) : []);
    expect(ids(second)).toHaveLength(10);
    expect(ids(second).filter((id) => ids(first).includes(id))).toEqual([]);
  });

  test('a filter → only matching rows, and their total', async () => {
    const result = await api.list({ page: 1, pageSize: 10, filter: 'adalbert' });

    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value.total).toBeGreaterThan(0);
    expect(result.value.total).toBeLessThan(1000);
    for (const row of result.value.rows) expect(row.FullName.toLowerCase()).toContain('adalbert');
  });

  test('a page size above 100 → the ErrorDto as one line, from the real validator', async () => {
    const result = await api.list({ page: 1, pageSize: 101 });

    expect(result).toEqual({ ok: false, error: "VALIDATION_ERROR: query parameter 'pageSize' must be <= 100" });
  });

  // A state per test: handlers that add a Prefer header, in front of the default ones until resetHandlers().
  test('Prefer: example=empty → no rows and a total of 0', async () => {
    server.use(...createHandlers({ baseUrl: API_URL, prefer: 'example=empty' }));

    const result = await api.list({ page: 1, pageSize: 10 });

    expect(result).toEqual({ ok: true, value: { rows: [], total: 0, page: 1, pageSize: 25 } });
  });

  test('Prefer: code=500 → the failing backend as one line', async () => {
    server.use(...createHandlers({ baseUrl: API_URL, prefer: 'code=500' }));

    const result = await api.list({ page: 1, pageSize: 10 });

    expect(result).toEqual({ ok: false, error: 'INTERNAL_ERROR: An unexpected error occurred (simulated: Prefer code=500)' });
  });
});

describe('api.detail (GET /api/v1/Client/Detail/{idClient})', () => {
  test('a listed client → all its sections', async () => {
    const list = await api.list({ page: 1, pageSize: 1 });
    const id = list.ok ? list.value.rows[0]!.IdClient : '';

    const result = await api.detail(id);

    expect(result.ok && result.value.IdClient).toBe(id);
    expect(result.ok && Object.keys(result.value)).toEqual(
      expect.arrayContaining(['PersonalInfo', 'ContactInfo', 'Staff', 'Location', 'Insurance', 'Medical', 'Status']),
    );
  });

  test('an unknown id → CLIENT_NOT_FOUND as one line', async () => {
    const result = await api.detail('00000000-0000-4000-8000-000000000000');

    expect(result).toEqual({
      ok: false,
      error: 'CLIENT_NOT_FOUND: No client with IdClient 00000000-0000-4000-8000-000000000000 exists',
    });
  });
});
