// Issue 24, "every request is forwarded as sent, the answer returned
// unchanged": a real upstream that records what reached it, raw sockets where
// fetch would tidy the bytes up. Method, path, query, header lines (names as
// written, repeated lines kept) and body arrive as sent; hop-by-hop fields
// (RFC 9110 §7.6.1) do not, both ways; status, reason phrase, headers and
// bytes come back unchanged; bodies stream both ways; connections are reused.
import crypto from 'node:crypto';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import net from 'node:net';
import zlib from 'node:zlib';
import { startProxy, type RunningProxy } from '../../proxy/proxy';
import { listenOnLoopback, type Listening } from '../../tools/loopback';

interface Seen {
  method: string;
  url: string;
  rawHeaders: string[];
  body: Buffer;
  remotePort: number;
}

let upstream: Listening;
let proxy: RunningProxy;
const seen: Seen[] = [];
/** What the upstream answers; by default an empty 204. */
let answer: (req: IncomingMessage, res: ServerResponse) => void;
/** Resolves when the upstream has read the first piece of a request body. */
let firstPiece: (() => void) | undefined;

beforeAll(async () => {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => {
      if (chunks.length === 0) firstPiece?.();
      chunks.push(chunk);
    });
    req.on('end', () => {
      seen.push({
        method: req.method!,
        url: req.url!,
        rawHeaders: req.rawHeaders,
        body: Buffer.concat(chunks),
        remotePort: req.socket.remotePort!,
      });
      answer(req, res);
    });
  });
  upstream = await listenOnLoopback(server);
  proxy = await startProxy({ upstream: upstream.baseUrl, judgeMaxKb: 64 });
});
afterAll(async () => {
  await proxy.close();
  await upstream.stop();
});
beforeEach(() => {
  seen.length = 0;
  answer = (_req, res) => res.writeHead(204).end();
});

/** Sends raw bytes to the proxy and resolves with the raw answer (the proxy closes after `Connection: close`). */
function raw(request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(proxy.port, '127.0.0.1', () => socket.end(request));
    let text = '';
    socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
    socket.on('end', () => resolve(text));
    socket.on('error', reject);
  });
}

const pairs = (rawHeaders: string[]) => rawHeaders.flatMap((value, i) => (i % 2 === 0 ? [`${value}: ${rawHeaders[i + 1]}`] : []));

describe('the request, as the caller sent it', () => {
  test('method, path, query (encoding untouched), header lines and their case → the upstream sees them as sent', async () => {
    const target = '/api/v1/Client/Extended?filter=%C3%A5sa+b%20c&filter=x&weird=%2F%3F&empty=';

    await raw(
      `GET ${target} HTTP/1.1\r\nHost: proxy.example\r\nX-Api-Key: dev-key\r\nX-Multi: one\r\nx-multi: two\r\nPrefer: code=500\r\nConnection: close\r\n\r\n`,
    );

    expect(seen).toHaveLength(1);
    expect(seen[0]!.method).toBe('GET');
    expect(seen[0]!.url).toBe(target);
    const lines = pairs(seen[0]!.rawHeaders);
    expect(lines).toEqual(expect.arrayContaining(['X-Api-Key: dev-key', 'X-Multi: one', 'x-multi: two', 'Prefer: code=500']));
    expect(lines.indexOf('X-Multi: one')).toBeLessThan(lines.indexOf('x-multi: two'));
    expect(lines).toContain(`Host: ${new URL(upstream.baseUrl).host}`);
    expect(lines).toContain('Via: 1.1 client-records-mock-proxy');
  });

  test('hop-by-hop fields (Connection and what it names, Keep-Alive, TE, Upgrade, Proxy-Connection) → not forwarded', async () => {
    await raw(
      'GET /api/v1/Diagnostics/Ping HTTP/1.1\r\nHost: p\r\nConnection: X-Secret, close\r\nX-Secret: s3cret\r\nKeep-Alive: timeout=9\r\n' +
        'TE: trailers\r\nUpgrade: websocket\r\nProxy-Connection: keep-alive\r\nX-Kept: yes\r\n\r\n',
    );

    const names = seen[0]!.rawHeaders.filter((_, i) => i % 2 === 0).map((name) => name.toLowerCase());
    expect(names).toContain('x-kept');
    for (const hop of ['x-secret', 'keep-alive', 'te', 'upgrade', 'proxy-connection']) expect(names).not.toContain(hop);
    // Node's agent writes its own Connection for the upstream hop; the caller's value is not it.
    expect(pairs(seen[0]!.rawHeaders).join('\n')).not.toMatch(/X-Secret/i);
  });

  test('a 1 MB POST body → the same bytes upstream, and the upstream reads its start before the caller has sent its end', async () => {
    const body = crypto.randomBytes(1024 * 1024);
    const reached = new Promise<void>((resolve) => (firstPiece = resolve));
    const response = new Promise<number>((resolve, reject) => {
      const request = http.request(
        {
          host: '127.0.0.1',
          port: proxy.port,
          method: 'POST',
          path: '/api/v1/Client/Simple',
          headers: { 'Content-Type': 'application/octet-stream' },
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode!));
        },
      );
      request.on('error', reject);
      request.write(body.subarray(0, 1024));
      // The rest only once the upstream has the first piece: a proxy that buffered the body would wait forever.
      void reached.then(() => request.end(body.subarray(1024)));
    });

    expect(await response).toBe(204);
    firstPiece = undefined;
    expect(seen[0]!.method).toBe('POST');
    expect(crypto.createHash('sha256').update(seen[0]!.body).digest('hex')).toBe(crypto.createHash('sha256').update(body).digest('hex'));
  });

  test('20 requests in a row → the upstream sees them on at most two connections (keep-alive)', async () => {
    for (let i = 0; i < 20; i++) await (await fetch(`${proxy.url}/api/v1/Diagnostics/Ping`)).arrayBuffer();

    expect(seen).toHaveLength(20);
    expect(new Set(seen.map((s) => s.remotePort)).size).toBeLessThanOrEqual(2);
  });
});

describe('the answer, unchanged', () => {
  test('status, reason phrase, repeated header lines, binary gzip bytes → as the upstream sent them, plus the X-Proxy-* headers', async () => {
    const bytes = zlib.gzipSync(crypto.randomBytes(20_000));
    answer = (_req, res) => {
      res.sendDate = false;
      res.writeHead(299, 'Fine Indeed', [
        'Content-Type',
        'application/octet-stream',
        'Content-Encoding',
        'gzip',
        'Set-Cookie',
        'a=1',
        'Set-Cookie',
        'b=2',
        'X-Case-Kept',
        'Yes',
        'Content-Length',
        String(bytes.length),
      ]);
      res.end(bytes);
    };

    const text = await raw('GET /api/v1/Diagnostics/Ping HTTP/1.1\r\nHost: p\r\nConnection: close\r\n\r\n');

    const [head, ...rest] = text.split('\r\n\r\n');
    const lines = head!.split('\r\n');
    expect(lines[0]).toBe('HTTP/1.1 299 Fine Indeed');
    expect(lines).toEqual(
      expect.arrayContaining(['Set-Cookie: a=1', 'Set-Cookie: b=2', 'X-Case-Kept: Yes', `Content-Length: ${bytes.length}`]),
    );
    expect(lines.filter((line) => /^date:/i.test(line))).toEqual([]);
    expect(lines).toEqual(expect.arrayContaining(['X-Proxy-Answered-By: upstream', expect.stringMatching(/^X-Proxy-Exchange: \d+$/)]));
    expect(Buffer.from(rest.join('\r\n\r\n'), 'latin1').equals(bytes)).toBe(true);
  });

  test('hop-by-hop fields of the answer (Connection and what it names, Keep-Alive, Proxy-Connection) → not returned', async () => {
    answer = (_req, res) => {
      res.writeHead(200, [
        'Content-Type',
        'text/plain',
        'Connection',
        'X-Up-Secret',
        'X-Up-Secret',
        '1',
        'Proxy-Connection',
        'x',
        'X-Kept',
        'k',
      ]);
      res.end('ok');
    };

    const text = await raw('GET /api/v1/Diagnostics/Ping HTTP/1.1\r\nHost: p\r\nConnection: close\r\n\r\n');

    expect(text).toMatch(/\r\nX-Kept: k\r\n/);
    expect(text).not.toMatch(/X-Up-Secret|Proxy-Connection/i);
  });

  test('a body over the judging cap → streamed: the caller reads its start while the upstream has not finished', async () => {
    let finish: () => void = () => undefined;
    const finished = new Promise<void>((resolve) => (finish = resolve));
    answer = (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/octet-stream' });
      res.write(Buffer.alloc(200 * 1024, 'a'));
      void finished.then(() => res.end(Buffer.alloc(10, 'z')));
    };

    const response = await fetch(`${proxy.url}/api/v1/Diagnostics/Ping`);
    const reader = response.body!.getReader();
    let received = 0;
    while (received < 200 * 1024) received += (await reader.read()).value?.length ?? 0;
    finish();
    for (let part = await reader.read(); !part.done; part = await reader.read()) received += part.value.length;

    expect(received).toBe(200 * 1024 + 10);
    expect(response.headers.get('x-proxy-answered-by')).toBe('upstream');
  });
});

describe('what cannot be forwarded', () => {
  test('a method Node’s parser refuses → 400 VALIDATION_ERROR written by the mock’s ErrorDto writer, with Date; the proxy stays up', async () => {
    const text = await raw('BREW /api/v1/Diagnostics/Ping HTTP/1.1\r\nHost: p\r\n\r\n');

    expect(text).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(text).toMatch(/\r\nDate: .* GMT\r\n/);
    expect(JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4))).toEqual({ Code: 'VALIDATION_ERROR', Message: 'The request is malformed' });
    expect(text).toMatch(/\r\nX-Proxy-Answered-By: proxy;cause="unforwardable"\r\n/);
    expect((await fetch(`${proxy.url}/__proxy/report`)).status).toBe(200);
  });

  test('a CONNECT → the mock’s 405 METHOD_NOT_ALLOWED with Allow, answered by the proxy (never a dropped socket), counted as an exchange', async () => {
    const before = proxy.report();
    let reached = false;
    answer = (_req, res) => {
      reached = true;
      res.end();
    };
    const text = await raw('CONNECT /api/v1/Diagnostics/Ping HTTP/1.1\r\nHost: p\r\n\r\n');

    expect(text).toMatch(/^HTTP\/1\.1 405 Method Not Allowed\r\n/);
    expect(text).toMatch(/\r\nAllow: GET\r\n/);
    expect(text).toMatch(/\r\nDate: .* GMT\r\n/);
    expect(text).toMatch(/\r\nX-Proxy-Answered-By: proxy;cause="unforwardable"\r\n/);
    expect(JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4))).toEqual({
      Code: 'METHOD_NOT_ALLOWED',
      Message: 'CONNECT is not allowed; use GET',
    });
    expect(reached).toBe(false);
    const after = proxy.report();
    expect(after.exchanges.total).toBe(before.exchanges.total + 1);
    expect(after.answeredBy['proxy;cause="unforwardable"']).toBe((before.answeredBy['proxy;cause="unforwardable"'] ?? 0) + 1);
  });

  test.each([
    ['no Host', 'GET /api/v1/Diagnostics/Ping HTTP/1.1\r\nConnection: close\r\n\r\n', "header 'Host' is required"],
    ['two Host lines', 'GET /api/v1/Diagnostics/Ping HTTP/1.1\r\nHost: p\r\nHost: q\r\n\r\n', "header 'Host' is given more than once"],
    [
      'a Host that is no host',
      'GET /api/v1/Diagnostics/Ping HTTP/1.1\r\nHost: a b\r\n\r\n',
      "header 'Host' is not a host and optional port",
    ],
    [
      'Transfer-Encoding: gzip',
      'GET /api/v1/Diagnostics/Ping HTTP/1.1\r\nHost: p\r\nTransfer-Encoding: gzip\r\n\r\n',
      "header 'Transfer-Encoding' must end with chunked",
    ],
  ])(
    '%s (RFC 9112: MUST 400) → the mock’s 400 VALIDATION_ERROR, answered by the proxy, never forwarded',
    async (_name, request, message) => {
      let reached = false;
      answer = (_req, res) => {
        reached = true;
        res.end();
      };
      const text = await raw(request);

      expect(text).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
      expect(text).toMatch(/\r\nX-Proxy-Answered-By: proxy;cause="unforwardable"\r\n/);
      expect(JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4))).toEqual({ Code: 'VALIDATION_ERROR', Message: message });
      expect(reached).toBe(false);
    },
  );
});
