// The control API over HTTP against a real server on port 0: every answer held
// to control.openapi.yaml (status, schema, X-Request-Id), errors as ErrorDtos
// with one line naming the bad input, CORS for pages, no key needed, and the
// control requests themselves neither journaled nor counted.
import { startServer, type RunningMock } from '../../server/index';
import { expectDocumented } from './control-document';

const KEY = { 'X-Api-Key': 'dev-key' };
let mock: RunningMock;

beforeAll(async () => {
  mock = await startServer({ clients: 200 });
});
afterAll(() => mock.close());

const control = (path: string, init: RequestInit = {}) => fetch(`${mock.url}${path}`, init);
const put = (path: string, body: unknown, type = 'application/json') =>
  control(path, { method: 'PUT', headers: { 'Content-Type': type }, body: typeof body === 'string' ? body : JSON.stringify(body) });

describe('GET /__control/scenarios (listScenarios)', () => {
  test('→ 200, the table derived from openapi.yaml and the server scenario, no key needed', async () => {
    const body = (await expectDocumented('GET', '/__control/scenarios', await control('/__control/scenarios'))) as {
      scenarios: { name: string }[];
      server: { scenario: { scenario: string } };
    };

    expect(body.scenarios.map((row) => row.name)).toEqual([
      'normal',
      'typical',
      'empty',
      'single',
      'longest',
      'nullSections',
      'down',
      'slow',
      'flaky',
      'unauthorised',
    ]);
    expect(body.server.scenario.scenario).toBe('normal');
  });
});

describe('/__control/scenario (the server scenario)', () => {
  afterEach(() => control('/__control/scenario', { method: 'DELETE' }));

  test('PUT slow with min and max → 200 with the X-Mock-Scenario value; GET says the same; DELETE → normal', async () => {
    const set = await expectDocumented(
      'PUT',
      '/__control/scenario',
      await put('/__control/scenario', { scenario: 'slow', min: 5, max: 9 }),
    );
    const read = await expectDocumented('GET', '/__control/scenario', await control('/__control/scenario'));
    const reset = await expectDocumented('DELETE', '/__control/scenario', await control('/__control/scenario', { method: 'DELETE' }));

    expect(set).toMatchObject({
      session: null,
      scenario: { scenario: 'slow', min: 5, max: 9, header: 'slow;min=5;max=9' },
      sendHeaders: { 'X-Mock-Scenario': 'slow;min=5;max=9' },
    });
    expect(read).toMatchObject({ scenario: { scenario: 'slow' } });
    expect(reset).toMatchObject({ scenario: { scenario: 'normal' }, sendHeaders: {} });
  });

  test.each([
    [
      { scenario: 'dwon' },
      "body field 'scenario' is 'dwon', which is no scenario; known: normal, typical, empty, single, longest, nullSections, down, slow, flaky, unauthorised",
    ],
    [{}, "body field 'scenario' is required"],
    [{ scenario: 'down', extra: 1 }, "body field 'extra' is not a documented field"],
    [{ scenario: 'slow', min: 70000 }, "body field 'min' must be <= 60000"],
    [{ scenario: 'flaky', rate: 2 }, "body field 'rate' must be <= 1"],
    [{ scenario: 'down', seed: 3 }, "body field 'seed' is not a parameter of 'down' (it takes none)"],
    ['{"scenario":', 'the body is not valid JSON'],
  ])('PUT %j → 400 VALIDATION_ERROR, one line: %s', async (body, message) => {
    const response = await put('/__control/scenario', body);

    expect(await expectDocumented('PUT', '/__control/scenario', response)).toEqual({ Code: 'VALIDATION_ERROR', Message: message });
  });

  test('PUT with a text/plain body → 400 naming Content-Type', async () => {
    const response = await put('/__control/scenario', '{"scenario":"down"}', 'text/plain');

    expect(await expectDocumented('PUT', '/__control/scenario', response)).toEqual({
      Code: 'VALIDATION_ERROR',
      Message: "header 'Content-Type' must be application/json, with a JSON body",
    });
  });
});

describe('/__control/sessions', () => {
  test('PUT a session scenario → 200 with the headers to send; GET it; it is listed; DELETE forgets it (204)', async () => {
    const set = await expectDocumented(
      'PUT',
      '/__control/sessions/{session}/scenario',
      await put('/__control/sessions/t-1/scenario', { scenario: 'empty' }),
    );
    await fetch(`${mock.url}/api/v1/Client/Simple`, { headers: { ...KEY, 'X-Mock-Session': 't-1' } });
    const read = await expectDocumented('GET', '/__control/sessions/{session}', await control('/__control/sessions/t-1'));
    const list = (await expectDocumented('GET', '/__control/sessions', await control('/__control/sessions?limit=5'))) as {
      sessions: { session: string }[];
    };
    await expectDocumented('DELETE', '/__control/sessions/{session}', await control('/__control/sessions/t-1', { method: 'DELETE' }));
    const after = await expectDocumented('GET', '/__control/sessions/{session}', await control('/__control/sessions/t-1'));

    expect(set).toMatchObject({ session: 't-1', own: true, sendHeaders: { 'X-Mock-Session': 't-1', 'X-Mock-Scenario': 'empty' } });
    expect(read).toMatchObject({ session: 't-1', requests: 1, scenario: { scenario: 'empty' } });
    expect(list.sessions.map((state) => state.session)).toContain('t-1');
    expect(after).toMatchObject({ own: false, requests: 0, scenario: { scenario: 'normal' } });
  });

  test.each([
    ['/__control/sessions/has%20space', "path parameter 'session' must match pattern"],
    [`/__control/sessions/${'x'.repeat(129)}`, "path parameter 'session' must"],
    ['/__control/sessions?limit=0', "query parameter 'limit' must be >= 1"],
    ['/__control/sessions?limit=x', "query parameter 'limit' must be a whole number"],
    ['/__control/sessions?limit=1&limit=2', "query parameter 'limit' is given 2 times"],
    ['/__control/sessions?bogus=1', "unknown query parameter 'bogus'"],
  ])('GET %s → 400, one line starting %j', async (path, start) => {
    const response = await control(path);
    const body = (await response.json()) as { Code: string; Message: string };

    expect(response.status).toBe(400);
    expect(body.Code).toBe('VALIDATION_ERROR');
    expect(body.Message.startsWith(start)).toBe(true);
    expect(body.Message).not.toContain('\n');
  });
});

describe('/__control/journal', () => {
  test('API requests → journaled with their session, scenario, status, Code and redacted key; control requests are not', async () => {
    await control('/__control/journal', { method: 'DELETE' });
    await fetch(`${mock.url}/api/v1/Client/Simple?page=2`, { headers: { ...KEY, 'X-Mock-Session': 'j-1' } });
    await fetch(`${mock.url}/api/v1/Client/Detail/not-a-uuid`, { headers: { ...KEY, 'X-Mock-Session': 'j-1' } });
    await fetch(`${mock.url}/api/v1/Client/Simple`, { headers: { 'X-Mock-Session': 'j-2' } });
    await control('/__control/scenarios');

    const page = (await expectDocumented('GET', '/__control/journal', await control('/__control/journal?session=j-1'))) as {
      entries: {
        path: string;
        query: string;
        status: number;
        code: string | null;
        operationId: string;
        requestHeaders: Record<string, string>;
      }[];
    };
    const all = (await (await control('/__control/journal')).json()) as { entries: { path: string }[] };
    const unauthorised = (await (await control('/__control/journal?status=401')).json()) as { entries: { session: string }[] };

    expect(page.entries.map((e) => [e.operationId, e.path, e.query, e.status, e.code])).toEqual([
      ['getClientsSimple', '/api/v1/Client/Simple', 'page=2', 200, null],
      ['getClientDetail', '/api/v1/Client/Detail/not-a-uuid', '', 400, 'VALIDATION_ERROR'],
    ]);
    expect(page.entries[0]!.requestHeaders['x-api-key']).toBe('[redacted]');
    expect(all.entries.some((e) => e.path.startsWith('/__control/'))).toBe(false);
    expect(unauthorised.entries.map((e) => e.session)).toEqual(['j-2']);
  });

  test("DELETE ?session= → only that session's entries go (204)", async () => {
    await fetch(`${mock.url}/api/v1/Diagnostics/Ping`, { headers: { 'X-Mock-Session': 'c-1' } });
    await fetch(`${mock.url}/api/v1/Diagnostics/Ping`, { headers: { 'X-Mock-Session': 'c-2' } });

    await expectDocumented('DELETE', '/__control/journal', await control('/__control/journal?session=c-1', { method: 'DELETE' }));

    expect(await mock.journal({ session: 'c-1' })).toEqual([]);
    expect(await mock.journal({ session: 'c-2' })).toHaveLength(1);
  });

  test.each([
    ['?status=99', "query parameter 'status' must be >= 100"],
    ['?since=yesterday', 'query parameter \'since\' must match format "date-time"'],
    ['?limit=10001', "query parameter 'limit' must be <= 10000"],
    ['?operation=a%20b', "query parameter 'operation' must match pattern"],
  ])('GET %s → 400 naming the parameter', async (query, start) => {
    const response = await control(`/__control/journal${query}`);

    const body = (await expectDocumented('GET', '/__control/journal', response)) as { Message: string };
    expect(response.status).toBe(400);
    expect(body.Message.startsWith(start)).toBe(true);
  });
});

describe('/__control/coverage', () => {
  test('JSON (the shared format, side consumer), JUnit and HTML; control requests are not counted; DELETE starts again', async () => {
    await control('/__control/coverage', { method: 'DELETE' });
    await fetch(`${mock.url}/api/v1/Client/Extended?filter=a&pageSize=3`, { headers: KEY });
    await control('/__control/scenarios');

    const json = (await expectDocumented('GET', '/__control/coverage', await control('/__control/coverage'))) as {
      side: string;
      totals: { requests: number };
      operations: { operationId: string; parameters: { exercised: string[] } }[];
    };
    const junit = await control('/__control/coverage?format=junit');
    const html = await control('/__control/coverage?format=html');

    expect(json.side).toBe('consumer');
    expect(json.totals.requests).toBe(1);
    expect(json.operations.find((o) => o.operationId === 'getClientsExtended')!.parameters.exercised).toEqual(['pageSize', 'filter']);
    expect(junit.headers.get('content-type')).toMatch(/^application\/xml/);
    expect(await junit.text()).toContain('<testsuites');
    expect(html.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await html.text()).toContain('Contract coverage: consumer side');
    // Its inline <style> is allowed; nothing else is loaded, and no page frames it.
    expect(html.headers.get('content-security-policy')).toBe("default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'");
  });
});

describe('the control document and unknown paths', () => {
  test('GET /__control/openapi.yaml and .json → the document', async () => {
    const yaml = await control('/__control/openapi.yaml');
    const json = (await expectDocumented('GET', '/__control/openapi.json', await control('/__control/openapi.json'))) as {
      info: { title: string };
    };

    expect(await expectDocumented('GET', '/__control/openapi.yaml', yaml)).toContain('/__control/journal:');
    expect(json.info.title).toBe('Client Records mock — control API');
  });

  test('an unknown control path → 404 NOT_FOUND; a method the path does not answer → 405 with Allow', async () => {
    const missing = await control('/__control/jornal');
    const wrong = await control('/__control/journal', { method: 'POST' });

    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ Code: 'NOT_FOUND', Message: 'No route GET /__control/jornal' });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('GET, DELETE');
    expect(await wrong.json()).toEqual({
      Code: 'METHOD_NOT_ALLOWED',
      Message: 'POST is not allowed on /__control/journal; use GET, DELETE',
    });
    expect(wrong.headers.get('x-request-id')).toBeTruthy();
  });
});

describe('CORS', () => {
  test("a page's preflight for the API allows X-Mock-Session and X-Mock-Scenario; one for a control path allows PUT and DELETE", async () => {
    const api = await fetch(`${mock.url}/api/v1/Client/Simple`, {
      method: 'OPTIONS',
      headers: {
        Origin: 'http://localhost:5173',
        'Access-Control-Request-Method': 'GET',
        'Access-Control-Request-Headers': 'x-api-key,x-mock-session,x-mock-scenario',
      },
    });
    const controlPath = await fetch(`${mock.url}/__control/sessions/tab-1/scenario`, {
      method: 'OPTIONS',
      headers: {
        Origin: 'http://localhost:5173',
        'Access-Control-Request-Method': 'PUT',
        'Access-Control-Request-Headers': 'content-type',
      },
    });

    expect(api.status).toBe(204);
    expect(api.headers.get('access-control-allow-headers')).toMatch(/X-Mock-Session.*X-Mock-Scenario/);
    expect(controlPath.headers.get('access-control-allow-methods')).toBe('GET,PUT,DELETE');
    expect(controlPath.headers.get('access-control-allow-origin')).toBe('*');
  });
});
