import { get, startTestServer, type TestServer } from '../support/servers';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.stop());

describe('GET /api/v1/Diagnostics/Ping', () => {
  test('GET /Diagnostics/Ping → 200 "Pong" without a key', async () => {
    const response = await get(server.baseUrl, '/api/v1/Diagnostics/Ping', {});

    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await response.text()).toBe('"Pong"');
  });

  test('GET /Diagnostics/Ping → 400 VALIDATION_ERROR for an unknown query parameter', async () => {
    const response = await get(server.baseUrl, '/api/v1/Diagnostics/Ping?x=1', {});

    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ Code: 'VALIDATION_ERROR', Message: "unknown query parameter 'x'" });
  });
});

describe('GET /api/v1/Diagnostics/Exception', () => {
  test("GET /Diagnostics/Exception → 500 TEST_EXCEPTION with the service description's exact message, without a key", async () => {
    const response = await get(server.baseUrl, '/api/v1/Diagnostics/Exception', {});

    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({ Code: 'TEST_EXCEPTION', Message: 'This is a test exception from /Exception endpoint' });
  });

  test('GET /Diagnostics/Exception → the error is logged as a request line, not as an unexpected error', async () => {
    await get(server.baseUrl, '/api/v1/Diagnostics/Exception', {});

    expect(server.logs.text).not.toMatch(/unexpected error/);
  });
});
