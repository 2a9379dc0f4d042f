// HTTP/1.1 over a bare TCP socket: the exact bytes a hostile client sends,
// which fetch would normalise or refuse (dot segments, bad percent-encoding,
// NUL, raw UTF-8, unknown methods, oversized request lines).
import net from 'node:net';

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** Milliseconds from connecting to the server closing the connection. */
  elapsedMs: number;
}

/** One request line plus headers, `Host` and `Connection: close` included unless given. */
export function rawRequest(method: string, target: string | Buffer, headers: string[] = [], body = ''): Buffer {
  const lines = [...headers];
  if (!lines.some((line) => /^host:/i.test(line))) lines.unshift('Host: 127.0.0.1');
  if (!lines.some((line) => /^connection:/i.test(line))) lines.push('Connection: close');
  if (body && !lines.some((line) => /^content-length:/i.test(line))) lines.push(`Content-Length: ${Buffer.byteLength(body)}`);
  return Buffer.concat([
    Buffer.from(`${method} `, 'latin1'),
    typeof target === 'string' ? Buffer.from(target, 'latin1') : target,
    Buffer.from(` HTTP/1.1\r\n${lines.map((line) => `${line}\r\n`).join('')}\r\n${body}`, 'latin1'),
  ]);
}

function decodeChunked(text: string): string {
  let out = '';
  let at = 0;
  for (;;) {
    const lineEnd = text.indexOf('\r\n', at);
    if (lineEnd < 0) return out;
    const size = parseInt(text.slice(at, lineEnd), 16);
    if (!size) return out;
    out += text.slice(lineEnd + 2, lineEnd + 2 + size);
    at = lineEnd + 2 + size + 2;
  }
}

/** Parses the responses in `raw`, in order; bodies are decoded as UTF-8. A HEAD answer must be the last one. */
export function parseResponses(raw: Buffer, elapsedMs = 0): RawResponse[] {
  const text = raw.toString('latin1');
  const responses: RawResponse[] = [];
  let at = 0;
  while (at < text.length) {
    const headEnd = text.indexOf('\r\n\r\n', at);
    if (headEnd < 0) throw new Error(`no complete response: ${JSON.stringify(text.slice(at, at + 200))}`);
    const [statusLine = '', ...headerLines] = text.slice(at, headEnd).split('\r\n');
    const match = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine);
    if (!match) throw new Error(`not an HTTP response: ${JSON.stringify(statusLine)}`);
    const headers: Record<string, string> = {};
    for (const line of headerLines) {
      const colon = line.indexOf(':');
      const name = line.slice(0, colon).trim().toLowerCase();
      const value = line.slice(colon + 1).trim();
      headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
    }
    let body = text.slice(headEnd + 4);
    if (headers['transfer-encoding'] === 'chunked') {
      body = decodeChunked(body);
      at = text.length;
    } else if (headers['content-length'] !== undefined && body.length > Number(headers['content-length'])) {
      body = body.slice(0, Number(headers['content-length']));
      at = headEnd + 4 + body.length;
    } else {
      at = text.length;
    }
    responses.push({ status: Number(match[1]), headers, body: Buffer.from(body, 'latin1').toString('utf8'), elapsedMs });
  }
  return responses;
}

/** Sends the bytes and reads until the server closes the connection: the first response. */
export async function sendRaw(port: number, bytes: Buffer, timeoutMs = 5_000): Promise<RawResponse> {
  const [first] = await sendRawAll(port, bytes, timeoutMs);
  if (!first) throw new Error('the server closed the connection without an answer');
  return first;
}

/** Sends the bytes (one or more requests) and reads until the server closes the connection: every response. */
export function sendRawAll(port: number, bytes: Buffer, timeoutMs = 5_000): Promise<RawResponse[]> {
  return new Promise((resolve, reject) => {
    const startedAt = performance.now();
    const chunks: Buffer[] = [];
    const socket = net.connect(port, '127.0.0.1');
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer in ${timeoutMs} ms`));
    }, timeoutMs);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    socket.on('close', () => {
      clearTimeout(timer);
      try {
        resolve(parseResponses(Buffer.concat(chunks), performance.now() - startedAt));
      } catch (error) {
        reject(error as Error);
      }
    });
    socket.on('end', () => socket.end());
    socket.write(bytes);
  });
}
