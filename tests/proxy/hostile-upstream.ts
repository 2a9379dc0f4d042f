// A hostile upstream for the proxy's tests (issue 36): a raw TCP server that
// reads HTTP requests and answers them the way failing deployments do, one
// switch per behaviour. What it sends is the genuine answer of a real mock
// (`origin`, fetched per request) with only its transport mangled: the same
// status, headers and JSON, but a hang, a reset, a bad chunk, a 101, a drip,
// 1,500 header lines, HTTP/1.0 framing, a wrong Content-Length, a gzip body.
// So whatever the proxy reports beyond the transport fault is its own mistake.
// Written with node:net only (not node:http's server, which refuses to send
// most of these), on 127.0.0.1 and a port the OS picked.
import http from 'node:http';
import net from 'node:net';
import zlib from 'node:zlib';

export const HOSTILE_BEHAVIOURS = [
  'honest',
  'hang-before-head',
  'close-before-head',
  'hang-after-head',
  'reset-mid-body',
  'bad-chunk',
  'garbage',
  'switching-protocols',
  'slow-drip',
  'huge-body',
  'many-headers',
  'http10-no-length',
  'length-over',
  'length-under',
  'gzip',
  'gzip-unlabelled',
] as const;
export type HostileBehaviour = (typeof HOSTILE_BEHAVIOURS)[number];

export interface HostileOptions {
  /** The real server whose answers are mangled, e.g. `http://127.0.0.1:41234`. */
  origin: string;
  /** slow-drip: ms between two body bytes. */
  dripMs?: number;
  /** huge-body: bytes of JSON whitespace after the genuine body. */
  hugeBytes?: number;
  /** many-headers: extra header lines (tiny, so the head stays under 16 KB). */
  headerLines?: number;
}

export interface HostileUpstream {
  baseUrl: string;
  /** Sets what the next requests get. */
  behave(behaviour: HostileBehaviour): void;
  /** Connections accepted so far. */
  accepted(): number;
  /** Connections still open: the proxy must close every one it gave up on (no socket left in CLOSE-WAIT). */
  open(): number;
  stop(): Promise<void>;
}

interface Genuine {
  status: number;
  reason: string;
  /** Header lines as the origin sent them, less its framing and connection fields. */
  lines: string[];
  body: Buffer;
}

/** Fields this server writes itself, as each behaviour's framing asks. */
const FRAMING = new Set(['content-length', 'transfer-encoding', 'connection', 'keep-alive', 'content-encoding']);

function genuineAnswer(origin: string, method: string, target: string, headers: Record<string, string>): Promise<Genuine> {
  return new Promise((resolve, reject) => {
    const request = http.request(`${origin}${target}`, { method, headers: { ...headers, 'accept-encoding': 'identity' } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', reject);
      response.on('end', () => {
        const lines: string[] = [];
        for (let i = 0; i < response.rawHeaders.length; i += 2) {
          if (!FRAMING.has(response.rawHeaders[i]!.toLowerCase())) lines.push(`${response.rawHeaders[i]}: ${response.rawHeaders[i + 1]}`);
        }
        resolve({ status: response.statusCode ?? 500, reason: response.statusMessage ?? '', lines, body: Buffer.concat(chunks) });
      });
    });
    request.on('error', reject);
    request.end();
  });
}

interface ParsedRequest {
  method: string;
  target: string;
  headers: Record<string, string>;
}

/** One request head out of `buffer`, or undefined while it is incomplete; returns the bytes it took (a body is skipped). */
function parseRequest(buffer: Buffer): { request: ParsedRequest; used: number } | undefined {
  const end = buffer.indexOf('\r\n\r\n');
  if (end < 0) return undefined;
  const [line = '', ...fields] = buffer.subarray(0, end).toString('latin1').split('\r\n');
  const [method = 'GET', target = '/'] = line.split(' ');
  const headers: Record<string, string> = {};
  for (const field of fields) {
    const colon = field.indexOf(':');
    if (colon > 0) headers[field.slice(0, colon).trim().toLowerCase()] = field.slice(colon + 1).trim();
  }
  const length = Number(headers['content-length'] ?? 0);
  if (buffer.length < end + 4 + length) return undefined;
  const forwarded: Record<string, string> = {};
  for (const name of ['x-api-key', 'accept', 'origin', 'x-request-id']) if (headers[name] !== undefined) forwarded[name] = headers[name]!;
  return { request: { method, target, headers: forwarded }, used: end + 4 + length };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function head(status: number, reason: string, lines: readonly string[], version = '1.1'): string {
  return `HTTP/${version} ${status} ${reason}\r\n${lines.map((line) => `${line}\r\n`).join('')}\r\n`;
}

export async function startHostileUpstream(options: HostileOptions): Promise<HostileUpstream> {
  const dripMs = options.dripMs ?? 100;
  const hugeBytes = options.hugeBytes ?? 8 * 1024 * 1024;
  const headerLines = options.headerLines ?? 1_500;
  let behaviour: HostileBehaviour = 'honest';
  let accepted = 0;
  const sockets = new Set<net.Socket>();

  /** Answers one request as `behaviour` says; resolves true when the connection may carry another. */
  async function answer(socket: net.Socket, request: ParsedRequest, how: HostileBehaviour): Promise<boolean> {
    if (how === 'hang-before-head') return false;
    if (how === 'close-before-head') {
      socket.end();
      return false;
    }
    if (how === 'garbage') {
      socket.write('SSH-2.0-OpenSSH_9.6 this is no HTTP answer\r\n\r\n');
      return false;
    }
    if (how === 'switching-protocols') {
      // A 101 to a request that asked for no upgrade (RFC 9110 §15.2.2 forbids it), then the socket held open.
      socket.write(head(101, 'Switching Protocols', ['Upgrade: websocket', 'Connection: Upgrade']));
      return false;
    }
    const genuine = await genuineAnswer(options.origin, request.method, request.target, request.headers);
    const { status, reason, lines, body } = genuine;
    const sized = (bytes: number) => [...lines, `Content-Length: ${bytes}`];
    switch (how) {
      case 'honest':
        socket.write(head(status, reason, sized(body.length)));
        socket.write(body);
        return true;
      case 'hang-after-head':
        socket.write(head(status, reason, sized(body.length)));
        return false;
      case 'reset-mid-body':
        socket.write(head(status, reason, sized(body.length + 4096)));
        socket.write(body);
        await sleep(30);
        socket.resetAndDestroy();
        return false;
      case 'bad-chunk':
        // The head and a chunk whose size is no hex number, in one write: one read for the proxy.
        socket.write(
          Buffer.from(
            `${head(status, reason, [...lines, 'Transfer-Encoding: chunked'])}zz\r\n${body.toString('latin1')}\r\n0\r\n\r\n`,
            'latin1',
          ),
        );
        return false;
      case 'slow-drip': {
        socket.write(head(status, reason, sized(body.length + 4096)));
        const padded = Buffer.concat([body, Buffer.alloc(4096, ' ')]);
        for (const byte of padded) {
          if (socket.destroyed) return false;
          socket.write(Buffer.from([byte]));
          await sleep(dripMs);
        }
        return true;
      }
      case 'huge-body': {
        socket.write(head(status, reason, sized(body.length + hugeBytes)));
        socket.write(body);
        const piece = Buffer.alloc(64 * 1024, ' ');
        for (let left = hugeBytes; left > 0 && !socket.destroyed; left -= piece.length) {
          const part = left >= piece.length ? piece : piece.subarray(0, left);
          if (!socket.write(part)) await new Promise((resolve) => socket.once('drain', resolve).once('close', resolve));
        }
        return true;
      }
      case 'many-headers': {
        const extra = Array.from({ length: headerLines }, (_, i) => `X-${i.toString(36)}: 1`);
        socket.write(head(status, reason, [...sized(body.length), ...extra]));
        socket.write(body);
        return true;
      }
      case 'http10-no-length':
        // HTTP/1.0 without Content-Length: the body ends where the connection does (RFC 9112 §6.3, rule 8).
        socket.end(Buffer.concat([Buffer.from(head(status, reason, lines, '1.0')), body]));
        return false;
      case 'length-over':
        // More promised than sent, then a clean close: a truncated body.
        socket.end(Buffer.concat([Buffer.from(head(status, reason, sized(body.length + 100))), body]));
        return false;
      case 'length-under': {
        // Fewer promised than sent: the rest is bytes after the answer, no HTTP message.
        const promised = Math.max(1, body.length - 3);
        socket.write(Buffer.concat([Buffer.from(head(status, reason, sized(promised))), body]));
        return true;
      }
      case 'gzip':
      case 'gzip-unlabelled': {
        const zipped = zlib.gzipSync(body);
        const labelled = how === 'gzip' ? ['Content-Encoding: gzip'] : [];
        socket.write(head(status, reason, [...lines, ...labelled, `Content-Length: ${zipped.length}`]));
        socket.write(zipped);
        return true;
      }
      default:
        return false;
    }
  }

  const server = net.createServer((socket) => {
    accepted += 1;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    let buffer = Buffer.alloc(0);
    let busy = false;
    let done = false;
    const next = async () => {
      if (busy || done) return;
      const parsed = parseRequest(buffer);
      if (!parsed) return;
      buffer = buffer.subarray(parsed.used);
      busy = true;
      const keep = await answer(socket, parsed.request, behaviour).catch(() => false);
      busy = false;
      if (!keep) done = true;
      else void next();
    };
    socket.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      void next();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`,
    behave: (next) => {
      behaviour = next;
    },
    accepted: () => accepted,
    open: () => sockets.size,
    stop: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
