// Hostile input, sent as exact bytes over a raw socket: every case must get a
// 4xx ErrorDto (JSON, {Code, Message}), never a 5xx, an empty body or HTML,
// and the server must keep answering afterwards. HEAD answers carry no body
// by HTTP rules (RFC 9110 §9.3.2), so for HEAD only the status and headers are
// checked. A CORS preflight (OPTIONS with Access-Control-Request-Method) is
// answered 204 by design, so the OPTIONS cases here are plain OPTIONS (405).
import type { ErrorCode } from '../../contract/wire-types';
import { API_KEY, get, startTestServer, type TestServer } from '../support/servers';
import { rawRequest, sendRaw, sendRawAll, type RawResponse } from '../support/raw-http';

interface HostileCase {
  name: string;
  bytes: Buffer;
  status: number;
  code: ErrorCode;
}

const KEY = `X-Api-Key: ${API_KEY}`;
const ANY_UUID = '00000000-0000-4000-8000-000000000000';
const get1 = (target: string | Buffer, headers: string[] = [KEY]) => rawRequest('GET', target, headers);
const utf8 = (text: string) => Buffer.from(text, 'utf8');
/** A filter value that makes the whole request `size` bytes long (Node's header limit is 16 KB in total). */
const filterOfRequestSize = (size: number) => {
  const prefix = '/api/v1/Client/Extended?filter=';
  const without = get1(prefix).length;
  return prefix + 'a'.repeat(size - without);
};

const INPUT_CASES: HostileCase[] = [
  // Path traversal
  {
    name: 'encoded traversal ..%2F in the id',
    bytes: get1('/api/v1/Client/Detail/..%2F..%2Fetc%2Fpasswd'),
    status: 400,
    code: 'VALIDATION_ERROR',
  },
  {
    name: 'fully encoded traversal %2e%2e%2f in the id',
    bytes: get1('/api/v1/Client/Detail/%2e%2e%2f%2e%2e%2fpackage.json'),
    status: 400,
    code: 'VALIDATION_ERROR',
  },
  {
    name: 'double-encoded traversal %252e%252e%252f',
    bytes: get1('/api/v1/Client/Detail/%252e%252e%252fetc'),
    status: 400,
    code: 'VALIDATION_ERROR',
  },
  { name: 'raw dot segments /../..', bytes: get1('/api/v1/Client/Detail/../../../etc/passwd'), status: 404, code: 'NOT_FOUND' },
  {
    name: 'encoded traversal out of Diagnostics',
    bytes: get1('/api/v1/Diagnostics/..%2F..%2F..%2Fpackage.json'),
    status: 404,
    code: 'NOT_FOUND',
  },
  { name: 'encoded traversal under /docs', bytes: get1('/docs/..%2F..%2Fpackage.json'), status: 404, code: 'NOT_FOUND' },
  { name: 'backslash traversal ..\\..\\', bytes: get1('/api/v1/Client/Detail/..%5C..%5Cwindows'), status: 400, code: 'VALIDATION_ERROR' },
  // Bad percent-encoding
  { name: 'truncated UTF-8 %E0%A4%A in the id', bytes: get1('/api/v1/Client/Detail/%E0%A4%A'), status: 400, code: 'VALIDATION_ERROR' },
  {
    name: 'truncated UTF-8 %E0%A4%A in a query value',
    bytes: get1('/api/v1/Client/Simple?page=%E0%A4%A'),
    status: 400,
    code: 'VALIDATION_ERROR',
  },
  {
    name: 'truncated UTF-8 %E0%A4%A in a query name',
    bytes: get1('/api/v1/Client/Extended?%E0%A4%A=1'),
    status: 400,
    code: 'VALIDATION_ERROR',
  },
  { name: 'a lone % in the filter', bytes: get1('/api/v1/Client/Extended?filter=100%'), status: 400, code: 'VALIDATION_ERROR' },
  { name: 'overlong UTF-8 %C0%AE in the id', bytes: get1('/api/v1/Client/Detail/%C0%AE%C0%AE'), status: 400, code: 'VALIDATION_ERROR' },
  // NUL
  { name: 'a raw NUL byte in the path', bytes: get1('/api/v1/Client/Detail/a\u0000b'), status: 400, code: 'VALIDATION_ERROR' },
  { name: 'an encoded %00 as the id', bytes: get1('/api/v1/Client/Detail/%00'), status: 400, code: 'VALIDATION_ERROR' },
  { name: 'an encoded %00 after a valid id', bytes: get1(`/api/v1/Client/Detail/${ANY_UUID}%00`), status: 400, code: 'VALIDATION_ERROR' },
  { name: 'an encoded %00 as page', bytes: get1('/api/v1/Client/Simple?page=%00'), status: 400, code: 'VALIDATION_ERROR' },
  {
    name: 'a raw NUL byte in a header value',
    bytes: get1('/api/v1/Client/Simple', [`X-Api-Key: dev\u0000key`]),
    status: 400,
    code: 'VALIDATION_ERROR',
  },
  // Emoji and raw UTF-8
  { name: 'raw emoji bytes in the path', bytes: get1(utf8('/api/v1/Client/Detail/😀')), status: 400, code: 'VALIDATION_ERROR' },
  {
    name: 'raw UTF-8 bytes (åäö) in the query',
    bytes: get1(utf8('/api/v1/Client/Extended?filter=åäö')),
    status: 400,
    code: 'VALIDATION_ERROR',
  },
  { name: 'an encoded emoji as the id', bytes: get1('/api/v1/Client/Detail/%F0%9F%98%80'), status: 400, code: 'VALIDATION_ERROR' },
  {
    name: 'an encoded emoji as pageSize',
    bytes: get1('/api/v1/Client/Simple?pageSize=%F0%9F%98%80'),
    status: 400,
    code: 'VALIDATION_ERROR',
  },
  {
    name: 'raw emoji bytes as the X-Api-Key',
    bytes: get1('/api/v1/Client/Simple', [utf8('X-Api-Key: 😀').toString('latin1')]),
    status: 401,
    code: 'UNAUTHORIZED',
  },
  // Sizes
  { name: 'a 300-character id', bytes: get1(`/api/v1/Client/Detail/${'a'.repeat(300)}`), status: 400, code: 'VALIDATION_ERROR' },
  {
    name: 'a 300-character id of uuid characters',
    bytes: get1(`/api/v1/Client/Detail/${`${ANY_UUID}-`.repeat(9).slice(0, 300)}`),
    status: 400,
    code: 'VALIDATION_ERROR',
  },
  {
    name: "a 16,000-byte request, just under Node's 16 KB limit",
    bytes: get1(filterOfRequestSize(16_000)),
    status: 400,
    code: 'VALIDATION_ERROR',
  },
  {
    name: 'a 17,000-byte request line, above the 16 KB limit (parser: 431)',
    bytes: get1(filterOfRequestSize(17_000)),
    status: 431,
    code: 'VALIDATION_ERROR',
  },
  {
    name: 'a 20,000-byte header, above the 16 KB limit (parser: 431)',
    bytes: get1('/api/v1/Diagnostics/Ping', [`X-Filler: ${'f'.repeat(20_000)}`]),
    status: 431,
    code: 'VALIDATION_ERROR',
  },
  {
    name: 'a 10,000-character X-Api-Key',
    bytes: get1('/api/v1/Client/Simple', [`X-Api-Key: ${'k'.repeat(10_000)}`]),
    status: 401,
    code: 'UNAUTHORIZED',
  },
  {
    name: 'a 10,000-character Prefer header',
    bytes: get1('/api/v1/Client/Simple', [KEY, `Prefer: ${'delay=1,'.repeat(1_250)}`]),
    status: 400,
    code: 'VALIDATION_ERROR',
  },
  // Duplicate parameters
  { name: 'page=1&page=2', bytes: get1('/api/v1/Client/Simple?page=1&page=2'), status: 400, code: 'VALIDATION_ERROR' },
  {
    name: 'pageSize=5&pageSize=5 (same value twice)',
    bytes: get1('/api/v1/Client/Extended?pageSize=5&pageSize=5'),
    status: 400,
    code: 'VALIDATION_ERROR',
  },
  {
    name: 'active=true&active=false',
    bytes: get1('/api/v1/Client/Extended?active=true&active=false'),
    status: 400,
    code: 'VALIDATION_ERROR',
  },
  {
    name: 'page=1&%70age=2 (the second name percent-encoded)',
    bytes: get1('/api/v1/Client/Simple?page=1&%70age=2'),
    status: 400,
    code: 'VALIDATION_ERROR',
  },
  { name: 'filter=a&filter=b', bytes: get1('/api/v1/Client/Extended?filter=a&filter=b'), status: 400, code: 'VALIDATION_ERROR' },
  // Prototype pollution and parameter-shape tricks
  { name: '__proto__[x]=1', bytes: get1('/api/v1/Client/Simple?__proto__[x]=1'), status: 400, code: 'VALIDATION_ERROR' },
  { name: '__proto__[x]=1 on Extended', bytes: get1('/api/v1/Client/Extended?__proto__[x]=1'), status: 400, code: 'VALIDATION_ERROR' },
  {
    name: 'constructor[prototype][x]=1',
    bytes: get1('/api/v1/Client/Extended?constructor[prototype][x]=1'),
    status: 400,
    code: 'VALIDATION_ERROR',
  },
  { name: '__proto__=1 on public Ping', bytes: get1('/api/v1/Diagnostics/Ping?__proto__=1', []), status: 400, code: 'VALIDATION_ERROR' },
  {
    name: 'encoded %5F%5Fproto%5F%5F%5Bx%5D=1',
    bytes: get1('/api/v1/Client/Simple?%5F%5Fproto%5F%5F%5Bx%5D=1'),
    status: 400,
    code: 'VALIDATION_ERROR',
  },
  { name: 'page[__proto__]=1', bytes: get1('/api/v1/Client/Simple?page[__proto__]=1'), status: 400, code: 'VALIDATION_ERROR' },
  {
    name: 'x[__proto__]=1 (an unknown name the query parser would drop)',
    bytes: get1('/api/v1/Client/Extended?x[__proto__]=1'),
    status: 400,
    code: 'VALIDATION_ERROR',
  },
  { name: 'pageSize[constructor]=1', bytes: get1('/api/v1/Client/Simple?pageSize[constructor]=1'), status: 400, code: 'VALIDATION_ERROR' },
  {
    name: '%5B__proto__%5D=1 (an encoded bracket name)',
    bytes: get1('/api/v1/Client/Extended?%5B__proto__%5D=1'),
    status: 400,
    code: 'VALIDATION_ERROR',
  },
  {
    name: 'filter[$ne]=x (operator injection)',
    bytes: get1('/api/v1/Client/Extended?filter[$ne]=x'),
    status: 400,
    code: 'VALIDATION_ERROR',
  },
  { name: 'page[]=1 (array syntax)', bytes: get1('/api/v1/Client/Simple?page[]=1'), status: 400, code: 'VALIDATION_ERROR' },
  { name: 'hasOwnProperty=1', bytes: get1('/api/v1/Client/Extended?hasOwnProperty=1'), status: 400, code: 'VALIDATION_ERROR' },
  // Injection-shaped values
  { name: "SQL-shaped id ' OR 1=1 --", bytes: get1("/api/v1/Client/Detail/'%20OR%201=1%20--"), status: 400, code: 'VALIDATION_ERROR' },
  {
    name: 'script-shaped id <script>',
    bytes: get1('/api/v1/Client/Detail/%3Cscript%3Ealert(1)%3C%2Fscript%3E'),
    status: 400,
    code: 'VALIDATION_ERROR',
  },
  { name: 'SQL-shaped X-Api-Key', bytes: get1('/api/v1/Client/Simple', ["X-Api-Key: ' OR '1'='1"]), status: 401, code: 'UNAUTHORIZED' },
  {
    name: 'Prefer delay beyond the 10 s maximum',
    bytes: get1('/api/v1/Client/Simple', [KEY, 'Prefer: delay=999999']),
    status: 400,
    code: 'VALIDATION_ERROR',
  },
  // Framing and protocol abuse (answered by the HTTP parser or server, before the app)
  { name: 'a request line of garbage', bytes: Buffer.from('garbage\r\n\r\n'), status: 400, code: 'VALIDATION_ERROR' },
  {
    name: 'an HTTP/1.1 request without Host',
    bytes: Buffer.from('GET /api/v1/Diagnostics/Ping HTTP/1.1\r\nConnection: close\r\n\r\n'),
    status: 400,
    code: 'VALIDATION_ERROR',
  },
  // RFC 9112 §3.2 and §6.3 (MUST 400), which Node's parser leaves to the server: raw-answers.ts framingFault.
  {
    name: 'two Host lines',
    bytes: get1('/api/v1/Diagnostics/Ping', ['Host: 127.0.0.1', 'Host: example.org']),
    status: 400,
    code: 'VALIDATION_ERROR',
  },
  { name: 'a Host that is no host', bytes: get1('/api/v1/Diagnostics/Ping', ['Host: bad host/x']), status: 400, code: 'VALIDATION_ERROR' },
  {
    name: 'Transfer-Encoding whose last coding is not chunked',
    bytes: get1('/api/v1/Diagnostics/Ping', ['Transfer-Encoding: gzip']),
    status: 400,
    code: 'VALIDATION_ERROR',
  },
  {
    name: 'Content-Length and Transfer-Encoding together (smuggling)',
    bytes: rawRequest('GET', '/api/v1/Diagnostics/Ping', ['Content-Length: 5', 'Transfer-Encoding: chunked'], '0\r\n\r\n'),
    status: 400,
    code: 'VALIDATION_ERROR',
  },
  {
    name: 'two different Content-Length headers',
    bytes: rawRequest('POST', '/api/v1/Diagnostics/Ping', ['Content-Length: 1', 'Content-Length: 2'], 'ab'),
    status: 400,
    code: 'VALIDATION_ERROR',
  },
  { name: 'a header name with a space', bytes: get1('/api/v1/Diagnostics/Ping', ['Bad Header: x']), status: 400, code: 'VALIDATION_ERROR' },
  {
    name: 'a bare LF inside a header value',
    bytes: get1('/api/v1/Diagnostics/Ping', ['X-A: a\nX-B: b']),
    status: 400,
    code: 'VALIDATION_ERROR',
  },
  {
    name: 'CONNECT (tunnel request)',
    bytes: Buffer.from('CONNECT 127.0.0.1:22 HTTP/1.1\r\nHost: 127.0.0.1:22\r\n\r\n'),
    status: 405,
    code: 'METHOD_NOT_ALLOWED',
  },
  // Routing exactness
  { name: 'a lower-case path', bytes: get1('/api/v1/client/simple'), status: 404, code: 'NOT_FOUND' },
  { name: 'a trailing slash', bytes: get1('/api/v1/Client/Simple/'), status: 404, code: 'NOT_FOUND' },
  { name: 'a double slash', bytes: get1('//api/v1/Diagnostics/Ping', []), status: 404, code: 'NOT_FOUND' },
  { name: 'a ;matrix parameter', bytes: get1('/api/v1/Diagnostics/Ping;x=1', []), status: 404, code: 'NOT_FOUND' },
  { name: 'an asterisk-form target', bytes: get1('*', []), status: 404, code: 'NOT_FOUND' },
];

const KNOWN_PATHS = [
  '/api/v1/Diagnostics/Ping',
  '/api/v1/Diagnostics/Exception',
  '/api/v1/Client/Simple',
  '/api/v1/Client/Extended',
  `/api/v1/Client/Detail/${ANY_UUID}`,
];
// '/' is no unknown path: GET and HEAD on it redirect to /docs (tests/pipeline/every-route.test.ts).
const UNKNOWN_PATHS = ['/docs/', '/nope', '/api/v1/Client', '/api/v1/Client/Detail', '/api/v1/Diagnostics/Ping/'];
const METHODS_WITH_A_BODY = new Set(['POST', 'PUT', 'PATCH']);
// BREW (RFC 2324) is no HTTP method: Node's parser rejects it before any route is looked at.
const NONSENSE_METHOD = 'BREW';
// A body that would pollute Object.prototype if anything ever parsed it naively.
const POLLUTING_BODY = '{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}';

function methodCase(method: string, path: string, known: boolean): HostileCase {
  const headers = METHODS_WITH_A_BODY.has(method) ? [KEY, 'Content-Type: application/json'] : [KEY];
  const bytes = rawRequest(method, path, headers, METHODS_WITH_A_BODY.has(method) ? POLLUTING_BODY : '');
  const name = `${method} ${path}`;
  if (method === NONSENSE_METHOD) return { name, bytes, status: 400, code: 'VALIDATION_ERROR' };
  return known ? { name, bytes, status: 405, code: 'METHOD_NOT_ALLOWED' } : { name, bytes, status: 404, code: 'NOT_FOUND' };
}

// GET on a known path is the API itself (tested per operation), so it is no hostile case; GET on an unknown one is.
const METHOD_CASES: HostileCase[] = [
  ...KNOWN_PATHS.flatMap((path) =>
    ['HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'TRACE', NONSENSE_METHOD].map((method) => methodCase(method, path, true)),
  ),
  ...UNKNOWN_PATHS.flatMap((path) =>
    ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'TRACE', NONSENSE_METHOD].map((method) => methodCase(method, path, false)),
  ),
];

const ALL_CASES = [...INPUT_CASES, ...METHOD_CASES];
const results: { name: string; status: number }[] = [];

let server: TestServer;
let port: number;
beforeAll(async () => {
  server = await startTestServer();
  port = server.running.port;
});
afterAll(() => server.stop());

function expectErrorDto(response: RawResponse, expected: HostileCase): void {
  const isHead = expected.bytes.subarray(0, 5).toString('latin1') === 'HEAD ';
  expect(response.status).toBe(expected.status);
  expect(response.headers['content-type']).toMatch(/^application\/json/);
  expect(response.headers['x-powered-by']).toBeUndefined();
  // RFC 9110 §6.6.1: every 4xx of an origin server with a clock carries Date, the raw-socket answers (CONNECT, parser errors) too.
  expect(Number.isNaN(Date.parse(String(response.headers['date'])))).toBe(false);
  if (expected.status === 405) expect(response.headers['allow']).toBe('GET');
  if (isHead) {
    // RFC 9110 §9.3.2: a HEAD answer has the GET answer's headers and no content.
    expect(response.body).toBe('');
    return;
  }
  const body = JSON.parse(response.body) as Record<string, unknown>;
  expect(Object.keys(body).sort()).toEqual(['Code', 'Message']);
  expect(body.Code).toBe(expected.code);
  expect(typeof body.Message).toBe('string');
}

describe('hostile input in paths, queries and headers', () => {
  test.each(INPUT_CASES.map((c) => [c.name, c] as const))('GET → 4xx ErrorDto for %s', async (_name, hostile) => {
    const response = await sendRaw(port, hostile.bytes);

    results.push({ name: hostile.name, status: response.status });
    expectErrorDto(response, hostile);
  });
});

describe('every HTTP method on every route and on unknown routes', () => {
  test.each(METHOD_CASES.map((c) => [c.name, c] as const))('%s → 4xx ErrorDto', async (_name, hostile) => {
    const response = await sendRaw(port, hostile.bytes);

    results.push({ name: hostile.name, status: response.status });
    expectErrorDto(response, hostile);
  });

  test('OPTIONS with Access-Control-Request-Method → 204 CORS preflight by design, not an error', async () => {
    const preflight = rawRequest('OPTIONS', '/api/v1/Client/Simple', [
      'Origin: http://localhost:3000',
      'Access-Control-Request-Method: GET',
    ]);

    const response = await sendRaw(port, preflight);

    expect(response.status).toBe(204);
    expect(response.headers['access-control-allow-methods']).toBe('GET');
  });
});

describe('the server after hostile input', () => {
  test('a keep-alive connection → still serves Ping after a 400 and a 404 on the same connection', async () => {
    const duplicate = rawRequest('GET', '/api/v1/Client/Simple?page=1&page=2', [KEY, 'Connection: keep-alive']);
    const traversal = rawRequest('GET', '/api/v1/Client/Detail/../../etc/passwd', [KEY, 'Connection: keep-alive']);
    const ping = rawRequest('GET', '/api/v1/Diagnostics/Ping');

    const responses = await sendRawAll(port, Buffer.concat([duplicate, traversal, ping]));

    expect(responses.map((r) => r.status)).toEqual([400, 404, 200]);
    expect(responses[2]!.body).toBe('"Pong"');
  });

  test(`all hostile cases → 4xx ErrorDto, none 5xx, and Ping still answers`, async () => {
    const ping = await get(server.baseUrl, '/api/v1/Diagnostics/Ping', {});

    expect(ping.status).toBe(200);
    expect(await ping.text()).toBe('"Pong"');
    expect(results).toHaveLength(ALL_CASES.length);
    expect(results.filter((r) => r.status < 400 || r.status >= 500)).toEqual([]);
    // The in-process server shares this realm: no query or body may have reached Object.prototype.
    expect(({} as Record<string, unknown>).x).toBeUndefined();
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    const byStatus = new Map<number, number>();
    for (const { status } of results) byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
    const summary = [...byStatus]
      .sort(([a], [b]) => a - b)
      .map(([status, count]) => `${status}×${count}`)
      .join(' ');
    console.log(`hostile input: ${results.length} cases, all 4xx ErrorDto (${summary}); 0 × 5xx; Ping 200 afterwards`);
  });
});
