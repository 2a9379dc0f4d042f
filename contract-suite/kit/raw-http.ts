// A request written on the socket byte for byte, for what fetch cannot send:
// a path it would normalise before sending (`/./`, `/../`, `%2e`, `\`, as the
// WHATWG URL parser does), a method it refuses (CONNECT, TRACE), header names
// in a given case, and an answer it would hide (content after a HEAD answer,
// a connection closed without any answer). The derived checks (derived/) need
// all of these to ask a deployment what HTTP stacks commonly normalise.
// HTTP/1.1 with `Connection: close`: one request per connection, read to the end.
import net from 'node:net';
import tls from 'node:tls';
import zlib from 'node:zlib';

export interface RawRequest {
  method: string;
  /** The request-target exactly as it goes on the wire (the base URL's path prefix included). */
  target: string;
  /** Header lines in order, names in the case given. */
  headers: readonly (readonly [string, string])[];
  /**
   * The Host lines written in place of the base URL's one, in order (the framing checks: RFC 9112 §3.2):
   * `[]` writes none; `{host}` in a value stands for the base URL's host. Undefined: the base URL's host, once.
   */
  hostLines?: readonly string[];
}

export interface RawAnswer {
  /** 0 when the connection closed without a status line (then `body` holds whatever bytes came instead: none, or no HTTP). */
  status: number;
  headers: Headers;
  /** The content, decoded from chunked and gzip transfer. */
  body: Buffer;
  /** Bytes the server sent after an answer that has no content by definition (HEAD, 204, 304). */
  unexpectedContent: number;
}

function parseHead(head: string): { status: number; headers: Headers } {
  const [statusLine = '', ...lines] = head.split('\r\n');
  const status = Number(/^HTTP\/\d(?:\.\d)? (\d{3})/.exec(statusLine)?.[1] ?? 0);
  const headers = new Headers();
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    try {
      headers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
    } catch {
      // A header Headers refuses (a bad name or value): left out, as fetch would fail on it.
    }
  }
  return { status, headers };
}

function dechunk(data: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  while (at < data.length) {
    const lineEnd = data.indexOf('\r\n', at);
    if (lineEnd < 0) break;
    const size = parseInt(data.subarray(at, lineEnd).toString('latin1').split(';')[0]!.trim(), 16);
    if (!Number.isFinite(size) || size === 0) break;
    parts.push(data.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
  return Buffer.concat(parts);
}

/** Splits everything the connection delivered into the final answer (1xx interim answers skipped). */
export function parseRawAnswer(method: string, data: Buffer): RawAnswer {
  let at = 0;
  for (;;) {
    const end = data.indexOf('\r\n\r\n', at);
    if (end < 0) return { status: 0, headers: new Headers(), body: data.subarray(at), unexpectedContent: 0 };
    const { status, headers } = parseHead(data.subarray(at, end).toString('latin1'));
    // Bytes that are no status line: kept whole, so a garbled answer is not taken for a closed connection.
    if (status === 0) return { status, headers, body: data.subarray(at), unexpectedContent: 0 };
    const rest = data.subarray(end + 4);
    if (status >= 100 && status < 200) {
      at = end + 4;
      continue;
    }
    if (method === 'HEAD' || status === 204 || status === 304)
      return { status, headers, body: Buffer.alloc(0), unexpectedContent: rest.length };
    let body: Buffer = rest;
    if (/chunked/i.test(headers.get('transfer-encoding') ?? '')) body = dechunk(rest);
    else if (headers.has('content-length')) body = rest.subarray(0, Number(headers.get('content-length')));
    const coding = (headers.get('content-encoding') ?? '').toLowerCase();
    if (/gzip/.test(coding)) body = zlib.gunzipSync(body);
    // RFC 9110 §8.4.1.2: deflate is the zlib format, though some servers send raw deflate.
    else if (/deflate/.test(coding)) body = body[0] === 0x78 ? zlib.inflateSync(body) : zlib.inflateRawSync(body);
    return { status, headers, body, unexpectedContent: 0 };
  }
}

/** The request's bytes: the request line, its Host lines (the base URL's host unless told), the headers in order, `Connection: close`. */
export function rawRequestText(request: RawRequest & { host: string }): string {
  const lines = [`${request.method} ${request.target} HTTP/1.1`];
  for (const value of request.hostLines ?? ['{host}']) lines.push(`Host: ${value.replaceAll('{host}', request.host)}`);
  for (const [name, value] of request.headers) lines.push(`${name}: ${value}`);
  // A method that may carry content says it carries none, as curl -X POST does.
  if (['POST', 'PUT', 'PATCH'].includes(request.method) && !request.headers.some(([name]) => /^content-length$/i.test(name)))
    lines.push('Content-Length: 0');
  lines.push('Connection: close', '', '');
  return lines.join('\r\n');
}

/**
 * The host to connect to: a URL writes an IPv6 address in brackets (`[::1]`, RFC 3986 §3.2.2), which name no host
 * to a resolver. The Host line keeps the URL's form.
 */
export function connectHost(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

/** Sends one request on a new connection and reads until the server closes it (or the timeout). */
export function sendRaw(baseUrl: string, request: RawRequest, timeoutMs = 15_000): Promise<RawAnswer> {
  const url = new URL(baseUrl);
  const secure = url.protocol === 'https:';
  const port = Number(url.port || (secure ? 443 : 80));
  const text = rawRequestText({ ...request, host: url.host });
  const host = connectHost(url);
  return new Promise((resolve, reject) => {
    // TLS names a server by its DNS name only (RFC 6066 §3: never an IP address literal).
    const socket = secure
      ? tls.connect({ host, port, ...(net.isIP(host) === 0 ? { servername: host } : {}) })
      : net.connect({ host, port });
    const chunks: Buffer[] = [];
    const timer = setTimeout(
      () => socket.destroy(Object.assign(new Error(`no complete answer within ${timeoutMs} ms`), { code: 'TimeoutError' })),
      timeoutMs,
    );
    socket.on(secure ? 'secureConnect' : 'connect', () => socket.write(text, 'latin1'));
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    const finish = () => {
      clearTimeout(timer);
      resolve(parseRawAnswer(request.method, Buffer.concat(chunks)));
    };
    socket.on('end', finish);
    socket.on('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      // A reset after (or instead of) the answer: what arrived is the answer; a refused connection is an error.
      if (error.code === 'ECONNRESET' || error.code === 'EPIPE') finish();
      else reject(error);
    });
  });
}
