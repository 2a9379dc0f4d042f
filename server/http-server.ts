// The HTTP server around the app: explicit timeouts, parser errors answered as
// ErrorDto, and a graceful stop that drains in-flight requests (keep-alive
// connections included) before the process exits.
import http, { type Server } from 'node:http';
import type { Socket } from 'node:net';
import type { Logger } from 'pino';
import type { App } from './app';

export const TIMEOUTS = {
  headersMs: 10_000,
  requestMs: 30_000,
  keepAliveMs: 5_000,
  /** How long a stop waits for in-flight requests before it cuts connections. */
  drainMs: 8_000,
} as const;

/** What Node's HTTP parser rejects, as the documented ErrorDto: never a bare 400 or an HTML page. */
const PARSER_ERRORS: Record<string, { status: number; reason: string; message: string }> = {
  HPE_HEADER_OVERFLOW: { status: 431, reason: 'Request Header Fields Too Large', message: 'The request headers are too large' },
  HPE_URI_TOO_LONG: { status: 414, reason: 'URI Too Long', message: 'The request URL is too long' },
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, reason: 'Request Timeout', message: 'The request took too long to arrive' },
};

function parserErrorResponse(code: string | undefined): string {
  const known = (code && PARSER_ERRORS[code]) || { status: 400, reason: 'Bad Request', message: 'The request is malformed' };
  const body = JSON.stringify({ Code: 'VALIDATION_ERROR', Message: known.message });
  return (
    `HTTP/1.1 ${known.status} ${known.reason}\r\n` +
    'Content-Type: application/json; charset=utf-8\r\n' +
    `Content-Length: ${Buffer.byteLength(body)}\r\n` +
    'Cache-Control: no-store\r\n' +
    'Connection: close\r\n\r\n' +
    body
  );
}

export interface RunningServer {
  server: Server;
  port: number;
  /** Stops accepting, lets in-flight requests finish, closes idle keep-alive connections. */
  stop(): Promise<void>;
}

export function startHttpServer(app: App, port: number, host: string, logger: Logger): Promise<RunningServer> {
  let draining = false;
  const server = http.createServer(
    {
      headersTimeout: TIMEOUTS.headersMs,
      requestTimeout: TIMEOUTS.requestMs,
      keepAliveTimeout: TIMEOUTS.keepAliveMs,
    },
    (req, res) => {
      // While draining, every response closes its connection, so keep-alive clients let go.
      if (draining) res.shouldKeepAlive = false;
      app(req, res);
    },
  );
  // Node does not apply keepAliveTimeout to the first request's headers; headersTimeout covers slow senders.
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    if (socket.writable && !(socket as Socket & { _httpMessage?: unknown })._httpMessage) {
      socket.end(parserErrorResponse(error.code));
    } else {
      socket.destroy();
    }
  });

  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= new Promise<void>((resolve) => {
      draining = true;
      const force = setTimeout(() => {
        logger.warn('drain time is over: closing the remaining connections');
        server.closeAllConnections();
      }, TIMEOUTS.drainMs);
      force.unref();
      server.close(() => {
        clearTimeout(force);
        resolve();
      });
      // Idle keep-alive sockets would hold close() open; busy ones are closed after their response.
      server.closeIdleConnections();
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
