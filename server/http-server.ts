// The HTTP server around the app: explicit timeouts, parser errors answered as
// ErrorDto, and a graceful stop that drains in-flight requests (keep-alive
// connections included) before the process exits.
import crypto from 'node:crypto';
import http, { type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import net from 'node:net';
import type { Duplex } from 'node:stream';
import type { Logger } from 'pino';
import type { App } from './app';

export interface Timeouts {
  /** A client must send its complete request headers within this time (slowloris). */
  headersMs: number;
  /** A client must send its complete request (headers and body) within this time. */
  requestMs: number;
  /** An idle keep-alive connection is closed after this time. */
  keepAliveMs: number;
  /** How often Node checks headersMs/requestMs (its default, 30 s, would let a slow sender stay 30 s longer). */
  checkIntervalMs: number;
  /** How long a stop waits for in-flight requests before it cuts connections (docs/reliability.md: a stop exits within 10 s). */
  drainMs: number;
}

export const TIMEOUTS: Readonly<Timeouts> = Object.freeze({
  headersMs: 10_000,
  requestMs: 30_000,
  keepAliveMs: 5_000,
  checkIntervalMs: 1_000,
  drainMs: 8_000,
});

/** A peer that never closes its side after an error answer is cut off after this long. */
const LINGER_MS = 2_000;
/** On stop, how long an idle keep-alive connection may still deliver a request already on its way. */
const IDLE_GRACE_MS = 200;

/** What Node's HTTP parser rejects, as the documented ErrorDto: never a bare 400 or an HTML page. */
const PARSER_ERRORS: Record<string, { status: number; message: string }> = {
  HPE_HEADER_OVERFLOW: { status: 431, message: 'The request line and headers are larger than 16 KB' },
  HPE_CHUNK_EXTENSIONS_OVERFLOW: { status: 413, message: 'The chunk extensions are too large' },
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, message: 'The request took too long to arrive' },
};

// What helmet and the no-store policy give every app response, for the few answers written before the app runs.
const BARE_HEADERS: Readonly<Record<string, string>> = {
  'Content-Type': 'application/json; charset=utf-8',
  'Cache-Control': 'no-store',
  'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
  Connection: 'close',
};

/** A complete HTTP/1.1 ErrorDto response, for sockets the app never sees. */
export function bareErrorResponse(status: number, code: string, message: string, extra: Record<string, string> = {}): string {
  const body = JSON.stringify({ Code: code, Message: message });
  const headers = { ...BARE_HEADERS, ...extra, 'Content-Length': String(Buffer.byteLength(body)) };
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
  return `HTTP/1.1 ${status} ${http.STATUS_CODES[status] ?? 'Error'}\r\n${lines.join('')}\r\n${body}`;
}

export interface RunningServer {
  server: Server;
  port: number;
  /** Stops accepting, lets in-flight requests finish, closes idle keep-alive connections. */
  stop(): Promise<void>;
}

export function startHttpServer(
  app: App,
  port: number,
  host: string,
  logger: Logger,
  timeoutOverrides: Partial<Timeouts> = {},
): Promise<RunningServer> {
  const timeouts: Timeouts = { ...TIMEOUTS, ...timeoutOverrides };
  let draining = false;
  // Responses not yet finished: a stop tells them to close their connection when done.
  const inFlight = new Set<ServerResponse>();

  const server = http.createServer(
    {
      headersTimeout: timeouts.headersMs,
      requestTimeout: timeouts.requestMs,
      keepAliveTimeout: timeouts.keepAliveMs,
      connectionsCheckingInterval: timeouts.checkIntervalMs,
      // Node's own answer to a missing Host is a bare 400; ours below is an ErrorDto.
      requireHostHeader: false,
    },
    (req: IncomingMessage, res: ServerResponse) => {
      // While draining, every response closes its connection, so keep-alive clients let go.
      if (draining) res.shouldKeepAlive = false;
      else {
        inFlight.add(res);
        res.once('close', () => inFlight.delete(res));
      }
      if (req.headers.host === undefined && req.httpVersion === '1.1') {
        // RFC 9112 §3.2: a server MUST answer 400 to an HTTP/1.1 request without Host.
        res.shouldKeepAlive = false;
        logger.info({ status: 400 }, 'rejected by the HTTP server: no Host header');
        const body = JSON.stringify({ Code: 'VALIDATION_ERROR', Message: "header 'Host' is required" });
        res
          .writeHead(400, { ...BARE_HEADERS, 'X-Request-Id': crypto.randomUUID(), 'Content-Length': String(Buffer.byteLength(body)) })
          .end(body);
        return;
      }
      app(req, res);
    },
  );

  /** Writes a final answer on a raw socket, then lets the peer read it before the socket goes. */
  const answered = new WeakSet<Duplex>();
  const answerRaw = (socket: Duplex, response: string) => {
    answered.add(socket);
    // end() rather than destroy(): destroying with unread input sends a TCP reset, which can overtake the answer.
    socket.end(response);
    socket.resume();
    setTimeout(() => socket.destroy(), LINGER_MS).unref();
  };

  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    // The parser reports every later chunk of a rejected request again: it has been answered once.
    if (answered.has(socket)) return;
    // A socket error (ECONNRESET, EPIPE: the client went away) has nobody to answer.
    const fromParser = error.code?.startsWith('HPE_') || error.code === 'ERR_HTTP_REQUEST_TIMEOUT';
    // Write only when no response is under way on this connection, or the two would interleave.
    if (fromParser && socket.writable && !(socket as Duplex & { _httpMessage?: unknown })._httpMessage) {
      const known = (error.code && PARSER_ERRORS[error.code]) || { status: 400, message: 'The request is malformed' };
      // The error carries the raw request bytes (rawPacket): only its code is logged.
      logger.info({ status: known.status, code: error.code }, 'rejected by the HTTP parser');
      answerRaw(socket, bareErrorResponse(known.status, 'VALIDATION_ERROR', known.message));
    } else {
      socket.destroy();
    }
  });

  // `Expect: <anything but 100-continue>` would get Node's bare 417: answer it as any other request.
  server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => server.emit('request', req, res));

  // CONNECT (proxy tunnelling) bypasses the request handler; without this Node would drop the socket unanswered.
  server.on('connect', (_req: IncomingMessage, socket: Duplex) => {
    logger.info({ status: 405, method: 'CONNECT' }, 'rejected by the HTTP server');
    answerRaw(socket, bareErrorResponse(405, 'METHOD_NOT_ALLOWED', 'CONNECT is not allowed; use GET', { Allow: 'GET' }));
  });

  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= new Promise<void>((resolve) => {
      draining = true;
      for (const res of inFlight) {
        // Not yet answered: the answer will say Connection: close and end the connection.
        if (!res.headersSent) res.shouldKeepAlive = false;
        // Already streaming with keep-alive: close the connection once it is idle.
        else res.once('finish', () => setImmediate(() => server.closeIdleConnections()));
      }
      const force = setTimeout(() => {
        logger.warn('drain time is over: closing the remaining connections');
        server.closeAllConnections();
      }, timeouts.drainMs);
      force.unref();
      // Stop accepting now. Not http.Server#close(): it also destroys every idle keep-alive connection at
      // once, resetting any request already on the wire to one, unread. net.Server#close() only stops
      // listening; a request that arrives on an idle connection in the next moments is answered (with
      // Connection: close), and the connections still idle after that are closed.
      net.Server.prototype.close.call(server, () => {
        clearTimeout(force);
        clearTimeout(idle);
        resolve();
      });
      const idle = setTimeout(() => server.closeIdleConnections(), IDLE_GRACE_MS);
      idle.unref();
    }));

  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      const address = server.address();
      resolve({ server, port: typeof address === 'object' && address ? address.port : port, stop });
    });
  });
}
