// HTTP hygiene shared by every route: errors as ErrorDto, exact paths, 405,
// CORS, request ids, security headers, and the log line.
import net from 'node:net';
import path from 'node:path';
import { createApp } from '../../server/pipeline/app';
import { bundledSpec } from '../../contract/spec';
import { createLogger } from '../../server/process/logger';
import { startHttpServer } from '../../server/listener/http-server';
import type { ClientStore } from '../../server/engine/store';
import { get, LogCapture, startTestServer, testConfig, testStore, type TestServer } from '../support/servers';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ logLevel: 'info' });
});
afterAll(() => server.stop());

const ROUTES = [
  '/api/v1/Diagnostics/Ping',
  '/api/v1/Diagnostics/Exception',
  '/api/v1/Client/Simple',
  '/api/v1/Client/Extended',
  '/api/v1/Client/Detail/00000000-0000-4000-8000-000000000000',
];

describe('unknown routes and exact paths', () => {
  test('GET / → 302 to /docs: a browser opening the address lands on the API reference', async () => {
    const response = await fetch(`${server.baseUrl}/`, { redirect: 'manual' });

    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('/docs');
  });

  test.each([
    '/api',
    '/api/v1/client/simple',
    '/api/v1/Client/Simple/',
    '/api/v1/Client/simple',
    '/api/v2/Client/Simple',
    '/api/v1/Client/Detail/',
    '/API/V1/DIAGNOSTICS/PING',
  ])('GET %s → 404 NOT_FOUND as an ErrorDto', async (path) => {
    const response = await get(server.baseUrl, path);

    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(((await response.json()) as { Code: string }).Code).toBe('NOT_FOUND');
  });
});

describe('methods other than GET', () => {
  const cases = ROUTES.flatMap((route) => ['POST', 'PUT', 'PATCH', 'DELETE'].map((method) => ({ route, method })));

  test.each(cases)('$method $route → 405 METHOD_NOT_ALLOWED with Allow: GET', async ({ route, method }) => {
    const response = await fetch(server.baseUrl + route, {
      method,
      headers: { 'X-Api-Key': 'dev-key' },
      body: method === 'DELETE' ? undefined : '{"a":1}',
    });

    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET');
    expect(await response.json()).toEqual({ Code: 'METHOD_NOT_ALLOWED', Message: `${method} is not allowed on this path; use GET` });
  });

  test('OPTIONS that is not a CORS preflight → 405 as well', async () => {
    const response = await fetch(server.baseUrl + '/api/v1/Client/Simple', { method: 'OPTIONS' });

    expect(response.status).toBe(405);
  });
});

describe('unexpected failures', () => {
  test('a failing store → 500 INTERNAL_ERROR with a generic message and no stack; the log has its type and frames, not its message', async () => {
    const broken = Object.create(testStore()) as ClientStore;
    broken.page = () => {
      throw new Error('disk on fire at /secret/path.ts:12');
    };
    const logs = new LogCapture();
    const app = createApp(testConfig({ logLevel: 'error' }), broken, createLogger('error', logs), bundledSpec());
    const running = await startHttpServer(app, 0, '127.0.0.1', createLogger('silent'));

    try {
      const response = await get(`http://127.0.0.1:${running.port}`, '/api/v1/Client/Simple');
      const text = await response.text();

      expect(response.status).toBe(500);
      expect(JSON.parse(text)).toEqual({ Code: 'INTERNAL_ERROR', Message: 'An unexpected error occurred' });
      expect(text).not.toContain('disk on fire');
      expect(response.headers.get('x-total-count')).toBeNull();
      const logged = logs.records.find((r) => r.msg === 'unexpected error') as { err: { type: string; frames: string[] } } | undefined;
      expect(logged?.err.type).toBe('Error');
      expect(logged?.err.frames.some((frame) => frame.includes(path.basename(__filename)))).toBe(true);
      expect(logs.text).not.toContain('disk on fire');
    } finally {
      await running.stop();
    }
  });
});

describe('error answers carry only their own headers and bounded messages', () => {
  test("a range the docs assets cannot serve → a JSON ErrorDto without the file's Content-Type or Content-Range", async () => {
    const response = await get(server.baseUrl, '/docs/assets/favicon-32x32.png', { Range: 'bytes=99999999-' });

    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.headers.get('content-range')).toBeNull();
    expect(((await response.json()) as { Code: string }).Code).toBe('VALIDATION_ERROR');
  });

  test('an unknown parameter with a 700-character name → 400 whose Message stays within the documented 500 characters', async () => {
    const response = await get(server.baseUrl, `/api/v1/Client/Simple?${'x'.repeat(700)}=1`);
    const body = (await response.json()) as { Code: string; Message: string };

    expect(response.status).toBe(400);
    expect(body.Message.length).toBeLessThanOrEqual(500);
    expect(body.Message).toMatch(/^unknown query parameter 'x{50}'$/);
  });
});

describe('requests Node would answer on its own', () => {
  const raw = (request: string) =>
    new Promise<string>((resolve, reject) => {
      const socket = net.connect(Number(new URL(server.baseUrl).port), '127.0.0.1', () => socket.write(request));
      let data = '';
      socket.on('data', (chunk) => (data += chunk.toString()));
      socket.on('close', () => resolve(data));
      socket.on('error', reject);
      socket.setTimeout(5_000, () => socket.destroy(new Error('no answer')));
    });

  test("GET with `Expect: foo` → answered as a normal request, not Node's bare 417", async () => {
    const answer = await raw('GET /api/v1/Diagnostics/Ping HTTP/1.1\r\nHost: x\r\nExpect: foo\r\nConnection: close\r\n\r\n');

    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    expect(answer).toMatch(/\r\nX-Request-Id: /i);
    expect(answer.endsWith('"Pong"')).toBe(true);
  });

  test('HTTP/1.1 without Host → 400 ErrorDto with an X-Request-Id', async () => {
    const answer = await raw('GET /api/v1/Diagnostics/Ping HTTP/1.1\r\nConnection: close\r\n\r\n');

    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(answer).toMatch(/\r\nX-Request-Id: [0-9a-f-]{36}\r\n/i);
    expect(answer).toContain('"Code":"VALIDATION_ERROR"');
  });
});

describe('CORS', () => {
  test('preflight from another origin → 204 allowing GET and X-Api-Key', async () => {
    const response = await fetch(server.baseUrl + '/api/v1/Client/Simple', {
      method: 'OPTIONS',
      headers: {
        Origin: 'http://localhost:5173',
        'Access-Control-Request-Method': 'GET',
        'Access-Control-Request-Headers': 'x-api-key,prefer',
      },
    });

    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-allow-methods')).toBe('GET');
    expect(response.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('x-api-key');
  });

  test('a GET from another origin → X-Total-Count, Link and X-Request-Id exposed', async () => {
    const response = await get(server.baseUrl, '/api/v1/Client/Simple', { 'X-Api-Key': 'dev-key', Origin: 'http://localhost:5173' });

    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-expose-headers')).toBe('X-Total-Count,Link,X-Request-Id');
  });

  test('CORS_ORIGINS=list → an allowed origin is echoed, another gets no CORS header', async () => {
    const narrow = await startTestServer({ corsOrigins: ['http://localhost:5173'] });

    try {
      const allowed = await get(narrow.baseUrl, '/api/v1/Diagnostics/Ping', { Origin: 'http://localhost:5173' });
      const other = await get(narrow.baseUrl, '/api/v1/Diagnostics/Ping', { Origin: 'http://evil.test' });

      expect(allowed.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
      expect(other.headers.get('access-control-allow-origin')).toBeNull();
    } finally {
      await narrow.stop();
    }
  });
});

describe('request ids, headers and logs', () => {
  test('X-Request-Id → echoed when given, generated when not', async () => {
    const echoed = await get(server.baseUrl, '/api/v1/Diagnostics/Ping', { 'X-Request-Id': 'trace-123' });
    const generated = await get(server.baseUrl, '/api/v1/Diagnostics/Ping', {});

    expect(echoed.headers.get('x-request-id')).toBe('trace-123');
    expect(generated.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  test('an X-Request-Id with unsafe characters → replaced by a generated one', async () => {
    const response = await get(server.baseUrl, '/api/v1/Diagnostics/Ping', { 'X-Request-Id': 'a b<script>' });

    expect(response.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  test.each(ROUTES)('GET %s → Cache-Control: no-store, nosniff, no X-Powered-By', async (route) => {
    const response = await get(server.baseUrl, route);

    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('x-powered-by')).toBeNull();
  });

  test('the log line → route template, status and request id; never the key, the filter or the raw id', async () => {
    const key = 'dev-key';
    await get(server.baseUrl, '/api/v1/Client/Extended?filter=Marker-Zebra-42', { 'X-Api-Key': key, 'X-Request-Id': 'log-test-1' });
    await get(server.baseUrl, '/api/v1/Client/Detail/11111111-2222-4333-8444-555555555555', {
      'X-Api-Key': key,
      'X-Request-Id': 'log-test-2',
    });
    await new Promise((resolve) => setTimeout(resolve, 50));

    const lines = server.logs.records.filter((r) => String(r.reqId).startsWith('log-test-'));
    expect(lines.map((r) => [r.route, r.status])).toEqual([
      ['/api/v1/Client/Extended', 200],
      ['/api/v1/Client/Detail/{idClient}', 404],
    ]);
    expect(server.logs.text).not.toContain('Marker-Zebra-42');
    expect(server.logs.text).not.toContain('11111111-2222-4333-8444-555555555555');
    expect(server.logs.text).not.toContain(key);
  });
});
