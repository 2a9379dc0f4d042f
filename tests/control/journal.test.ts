// The journal (server/control/journal.ts): a bounded ring of exchanges with
// secrets redacted and every text cut to its documented length, queried by
// operation, status, session, scenario and time.
import { CUT, Journal, MAX_ENTRY_CHARS, REDACTED, type Exchange } from '../../server/control/journal';

const PROCESS = { host: 'test-host', pid: 4242 };

function exchange(overrides: Partial<Exchange> = {}): Exchange {
  return {
    at: Date.parse('2026-01-01T10:00:00.000Z'),
    method: 'GET',
    url: '/api/v1/Client/Simple?page=2',
    operationId: 'getClientsSimple',
    status: 200,
    code: null,
    durationMs: 1.234,
    scenario: 'normal',
    session: null,
    requestId: 'r1',
    rawHeaders: ['Host', '127.0.0.1', 'X-Api-Key', 'dev-key'],
    ...overrides,
  };
}

describe('Journal', () => {
  test('capacity 3, five exchanges → the last three kept, two dropped, ids never reused', () => {
    const journal = new Journal(3, PROCESS);

    for (let i = 0; i < 5; i++) journal.record(exchange({ requestId: `r${i}` }));

    const page = journal.query({ limit: 100 });
    expect(page.entries.map((entry) => entry.id)).toEqual([3, 4, 5]);
    expect(page).toMatchObject({ kept: 3, dropped: 2, capacity: 3, matching: 3, processes: [PROCESS] });
  });

  test('capacity 0 → keeps nothing', () => {
    const journal = new Journal(0, PROCESS);

    journal.record(exchange());

    expect(journal.query({ limit: 10 }).entries).toEqual([]);
  });

  test('an entry → path and query apart, the process, X-Api-Key, Authorization and Cookie values redacted, names in lower case', () => {
    const journal = new Journal(10, PROCESS);

    journal.record(
      exchange({
        rawHeaders: [
          'X-Api-Key',
          'secret-key',
          'Authorization',
          'Bearer x',
          'Cookie',
          'a=b',
          'X-Mock-Session',
          's1',
          'Accept',
          'a',
          'accept',
          'b',
        ],
      }),
    );

    const [entry] = journal.query({ limit: 1 }).entries;
    expect(entry).toMatchObject({ path: '/api/v1/Client/Simple', query: 'page=2', process: PROCESS, durationMs: 1.23, truncated: false });
    expect(entry!.requestHeaders).toEqual({
      'x-api-key': REDACTED,
      authorization: REDACTED,
      cookie: REDACTED,
      'x-mock-session': 's1',
      accept: 'a, b',
    });
    expect(JSON.stringify(entry)).not.toContain('secret-key');
  });

  test('the longest request → every text cut to its maximum, truncated set, the entry within MAX_ENTRY_CHARS', () => {
    const journal = new Journal(10, PROCESS);
    const headers = Array.from({ length: 100 }, (_, i) => [`X-Long-${i}`, 'v'.repeat(1000)]).flat();

    journal.record(exchange({ url: `/${'p'.repeat(5000)}?${'q'.repeat(5000)}`, rawHeaders: headers }));

    const [entry] = journal.query({ limit: 1 }).entries;
    expect(entry!.path).toHaveLength(CUT.path);
    expect(entry!.query).toHaveLength(CUT.query);
    expect(entry!.truncated).toBe(true);
    const headerChars = Object.entries(entry!.requestHeaders).reduce((sum, [name, value]) => sum + name.length + value.length, 0);
    expect(headerChars).toBeLessThanOrEqual(CUT.headers);
    expect(Object.values(entry!.requestHeaders).every((value) => value.length <= CUT.headerValue)).toBe(true);
    expect(JSON.stringify(entry).length).toBeLessThanOrEqual(MAX_ENTRY_CHARS);
  });

  test.each([
    [{ operation: 'getClientDetail' }, ['b']],
    [{ operation: 'none' }, ['d']],
    [{ status: 500 }, ['c']],
    [{ session: 's1' }, ['a', 'c']],
    [{ scenario: 'down' }, ['c']],
    [{ since: '2026-01-01T10:00:01Z' }, ['b', 'c', 'd']],
    [{ until: '2026-01-01T10:00:02.000+00:00' }, ['a', 'b']],
    [{ session: 's1', status: 200 }, ['a']],
    [{ limit: 2 }, ['a', 'b']],
  ])('query %j → %j', (query, ids) => {
    const journal = new Journal(10, PROCESS);
    const at = (s: number) => Date.parse('2026-01-01T10:00:00Z') + s * 1000;
    journal.record(exchange({ requestId: 'a', at: at(0), session: 's1' }));
    journal.record(exchange({ requestId: 'b', at: at(1), operationId: 'getClientDetail' }));
    journal.record(exchange({ requestId: 'c', at: at(2), session: 's1', status: 500, code: 'INTERNAL_ERROR', scenario: 'down' }));
    journal.record(exchange({ requestId: 'd', at: at(3), operationId: null, status: 404, code: 'NOT_FOUND' }));

    const page = journal.query({ limit: 100, ...query });

    expect(page.entries.map((entry) => entry.requestId)).toEqual(ids);
  });

  test('clear one session → only its entries go, counted as dropped; clear all → empty', () => {
    const journal = new Journal(10, PROCESS);
    journal.record(exchange({ session: 's1' }));
    journal.record(exchange({ session: 's2' }));
    journal.record(exchange({ session: 's1' }));

    journal.clear('s1');
    const afterOne = journal.query({ limit: 10 });
    journal.clear();

    expect(afterOne.entries.map((entry) => entry.session)).toEqual(['s2']);
    expect(afterOne.dropped).toBe(2);
    expect(journal.query({ limit: 10 })).toMatchObject({ kept: 0, dropped: 3 });
  });
});
