// Scenarios as the pipeline serves them (a real server on port 0): each
// scenario's answers, the order in which a request's scenario is chosen
// (its own header, its session's, the server's), sessions that do not see
// each other's scenario, a seeded flaky run that replays, and a response
// cache that never hands one scenario's answer to another.
import { createMock, startServer, type RunningMock } from '../../server/index';
import { startHttpServer } from '../../server/listener/http-server';

const KEY = { 'X-Api-Key': 'dev-key' };
let mock: RunningMock;
const DETAIL = '/api/v1/Client/Detail/d3968f7e-e485-44d5-8a4f-b7679bc0349b';

beforeAll(async () => {
  mock = await startServer({ clients: 1000 });
});
afterAll(() => mock.close());
afterEach(() => mock.resetScenarios());

async function answer(path: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${mock.url}${path}`, { headers: { ...KEY, ...headers } });
  const text = await response.text();
  return { status: response.status, total: response.headers.get('x-total-count'), body: JSON.parse(text) as Record<string, unknown> };
}

describe('each scenario', () => {
  test('down → every Client operation 500 INTERNAL_ERROR; Ping and Exception exact', async () => {
    const scenario = { 'X-Mock-Scenario': 'down' };

    const answers = await Promise.all(
      ['/api/v1/Client/Simple', '/api/v1/Client/Extended?active=true', DETAIL].map((path) => answer(path, scenario)),
    );
    const ping = await answer('/api/v1/Diagnostics/Ping', scenario);
    const exception = await answer('/api/v1/Diagnostics/Exception', scenario);

    for (const a of answers)
      expect(a).toMatchObject({
        status: 500,
        body: { Code: 'INTERNAL_ERROR', Message: 'An unexpected error occurred (simulated: scenario down)' },
      });
    expect(ping.status).toBe(200);
    expect(exception.body.Code).toBe('TEST_EXCEPTION');
  });

  test('empty → both lists answer the empty example with X-Total-Count 0; Detail (which has no such example) answers as usual', async () => {
    const scenario = { 'X-Mock-Scenario': 'empty' };

    const simple = await answer('/api/v1/Client/Simple?pageSize=5', scenario);
    const extended = await answer('/api/v1/Client/Extended', scenario);
    const detail = await answer(DETAIL, scenario);

    expect(simple).toMatchObject({ status: 200, total: '0', body: { Results: [] } });
    expect(extended).toMatchObject({ status: 200, total: '0', body: { Results: [] } });
    expect(detail).toMatchObject({ status: 200, body: { IdClient: 'd3968f7e-e485-44d5-8a4f-b7679bc0349b' } });
  });

  test('single, nullSections → the named examples where the operations have them', async () => {
    const single = await answer('/api/v1/Client/Simple', { 'X-Mock-Scenario': 'single' });
    const nullSections = await answer(DETAIL, { 'X-Mock-Scenario': 'nullSections' });

    expect(single.total).toBe('1');
    expect(nullSections.body).toMatchObject({ Staff: null, Location: null, Insurance: null });
  });

  test('unauthorised → 401 for every key (the unknown-key message, marked simulated), the missing-key message without one; Ping public', async () => {
    const withKey = await answer('/api/v1/Client/Simple', { 'X-Mock-Scenario': 'unauthorised' });
    const without = await fetch(`${mock.url}/api/v1/Client/Simple`, { headers: { 'X-Mock-Scenario': 'unauthorised' } });
    const ping = await answer('/api/v1/Diagnostics/Ping', { 'X-Mock-Scenario': 'unauthorised' });

    expect(withKey).toMatchObject({
      status: 401,
      body: { Code: 'UNAUTHORIZED', Message: 'The X-Api-Key header does not hold a valid key (simulated: scenario unauthorised)' },
    });
    expect(await without.json()).toEqual({ Code: 'UNAUTHORIZED', Message: 'The X-Api-Key header is required' });
    expect(ping.status).toBe(200);
  });

  test('slow;min=400;max=400 → the Client answer takes at least 400 ms, Ping does not wait', async () => {
    const started = performance.now();
    await answer('/api/v1/Client/Simple', { 'X-Mock-Scenario': 'slow;min=400;max=400' });
    const slow = performance.now() - started;
    const pingStarted = performance.now();
    await answer('/api/v1/Diagnostics/Ping', { 'X-Mock-Scenario': 'slow;min=400;max=400' });

    expect(slow).toBeGreaterThanOrEqual(395);
    expect(performance.now() - pingStarted).toBeLessThan(395);
  });

  test('flaky;rate=0.5 → the same seed replays the same failures in a new session; another seed fails others', async () => {
    const run = async (session: string, seed: number) => {
      await mock.setScenario({ scenario: 'flaky', rate: 0.5, seed }, { session });
      const statuses: number[] = [];
      for (let i = 0; i < 24; i++)
        statuses.push((await answer(`/api/v1/Client/Simple?page=${i + 1}`, { 'X-Mock-Session': session })).status);
      return statuses;
    };

    const first = await run('flaky-a', 7);
    const replay = await run('flaky-b', 7);
    const other = await run('flaky-c', 8);

    expect(new Set(first)).toEqual(new Set([200, 500]));
    expect(replay).toEqual(first);
    expect(other).not.toEqual(first);
  });
});

describe('which scenario a request is answered in', () => {
  test("its own X-Mock-Scenario, then its session's, then the server's", async () => {
    await mock.setScenario('down');
    await mock.setScenario('empty', { session: 'p-1' });

    const server = await answer('/api/v1/Client/Simple');
    const session = await answer('/api/v1/Client/Simple', { 'X-Mock-Session': 'p-1' });
    const own = await answer('/api/v1/Client/Simple', { 'X-Mock-Session': 'p-1', 'X-Mock-Scenario': 'single' });
    const newSession = await answer('/api/v1/Client/Simple', { 'X-Mock-Session': 'p-2' });

    expect([server.status, session.total, own.total, newSession.status]).toEqual([500, '0', '1', 500]);
  });

  test('a Prefer header still steers its one answer: code=200 in down, example=single in empty', async () => {
    const real = await answer('/api/v1/Client/Simple?pageSize=2', { 'X-Mock-Scenario': 'down', Prefer: 'code=200' });
    const single = await answer('/api/v1/Client/Simple', { 'X-Mock-Scenario': 'empty', Prefer: 'example=single' });

    expect(real).toMatchObject({ status: 200, total: '1000' });
    expect(single.total).toBe('1');
  });

  test('the mock-session cookie names a session when the header is absent', async () => {
    await mock.setScenario('down', { session: 'cookie-1' });

    const viaCookie = await answer('/api/v1/Client/Simple', { Cookie: 'theme=dark; mock-session=cookie-1' });

    expect(viaCookie.status).toBe(500);
    expect((await mock.journal({ session: 'cookie-1' })).map((entry) => entry.scenario)).toEqual(['down']);
  });

  test.each([
    [{ 'X-Mock-Session': 'has space' }, "header 'X-Mock-Session' must be 1 to 128 characters of A-Z a-z 0-9 _ . : @ -"],
    [{ 'X-Mock-Scenario': 'slow;min=9;max=1' }, "header 'X-Mock-Scenario' parameter 'max' is 1, below min 9"],
  ])('%j → 400 VALIDATION_ERROR naming the header, also where the plain request is a cache hit', async (headers, message) => {
    // The plain request first: its answer is cached, and the bad header must still meet the full pipeline's check
    // (the contract suite's --control checks found the cache answering 200 to it).
    expect((await answer('/api/v1/Client/Simple?page=3')).status).toBe(200);
    for (const path of ['/api/v1/Client/Simple', '/api/v1/Client/Simple?page=3'])
      expect(await answer(path, headers)).toMatchObject({
        status: 400,
        body: { Code: 'VALIDATION_ERROR', Message: message },
      });
  });

  test('two sessions at once, one down and one normal, 20 requests each interleaved → each only ever sees its own', async () => {
    await mock.setScenario('down', { session: 'iso-down' });

    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        answer(`/api/v1/Client/Extended?page=${(i % 7) + 1}`, { 'X-Mock-Session': i % 2 ? 'iso-down' : 'iso-normal' }).then((a) => [
          i % 2,
          a.status,
        ]),
      ),
    );

    expect(answers.filter(([down]) => down === 1).every(([, status]) => status === 500)).toBe(true);
    expect(answers.filter(([down]) => down === 0).every(([, status]) => status === 200)).toBe(true);
    expect((await mock.journal({ session: 'iso-normal' })).every((entry) => entry.scenario === 'normal' && entry.status === 200)).toBe(
      true,
    );
  });
});

describe('the response cache and scenarios', () => {
  test('a cached normal answer is never served in empty, nor an empty answer to normal; normal repeats are still cache hits', async () => {
    const local = await createMock({ clients: 300 });
    const running = await startHttpServer(local.app, 0, '127.0.0.1', local.logger);
    const url = `http://127.0.0.1:${running.port}/api/v1/Client/Simple?pageSize=3`;
    const get = async (headers: Record<string, string> = {}) => {
      const response = await fetch(url, { headers: { ...KEY, ...headers } });
      return [response.status, response.headers.get('x-total-count')];
    };

    const first = await get();
    const hitsBefore = local.app.cache!.hits;
    const repeat = await get();
    const empty = await get({ 'X-Mock-Scenario': 'empty' });
    const normalAgain = await get();
    await running.stop();

    expect([first, repeat, empty, normalAgain]).toEqual([
      [200, '300'],
      [200, '300'],
      [200, '0'],
      [200, '300'],
    ]);
    expect(local.app.cache!.hits - hitsBefore).toBe(2);
  });
});
