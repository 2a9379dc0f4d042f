// The HTTP server around the app: explicit timeouts, a cap on connections
// (connections.ts), the answers written before the app runs (raw-answers.ts),
// and a graceful stop that drains in-flight requests (keep-alive connections
// included) before the process exits.
import http, { type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import net, { type Socket } from 'node:net';
import type { Logger } from 'pino';
import type { App } from '../pipeline/app';
import { ConnectionTable, defaultMaxConnections } from './connections';
import { answeredBadFraming, answerRawRequests } from './raw-answers';
import { RejectionLog } from './rejection-log';

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

/**
 * Connections the kernel queues before accept(). Node's 511 overflows under a
 * reconnecting flood, and a dropped SYN costs the client 1, 3, then 7 s of
 * retries; Linux caps the value at net.core.somaxconn (4096 by default).
 */
const LISTEN_BACKLOG = 4096;
/** On stop, how long an idle keep-alive connection may still deliver a request already on its way. */
const IDLE_GRACE_MS = 200;

/** Settings of the HTTP server itself: the timeouts (tests shorten them), the connection cap and the summary interval. */
export interface HttpServerOptions extends Partial<Timeouts> {
  /** MAX_CONNECTIONS (server/process/config.ts); by default derived from the file-descriptor limit (connections.ts). */
  maxConnections?: number;
  /** How often rejected and refused connections are summed up in the log. */
  summaryIntervalMs?: number;
}

export interface StopResult {
  /** Requests still unanswered when the drain time ran out, whose connections were cut. */
  cut: number;
}

export interface RunningServer {
  server: Server;
  port: number;
  /** Open connections (the MAX_CONNECTIONS cap counts these). */
  connections(): number;
  /** Stops accepting, lets in-flight requests finish, closes idle keep-alive connections. */
  stop(): Promise<StopResult>;
}

export function startHttpServer(
  app: App,
  port: number,
  host: string,
  logger: Logger,
  options: HttpServerOptions = {},
): Promise<RunningServer> {
  const { maxConnections = defaultMaxConnections(), summaryIntervalMs, ...timeoutOverrides } = options;
  const timeouts: Timeouts = { ...TIMEOUTS, ...timeoutOverrides };
  const rejections = new RejectionLog(logger, summaryIntervalMs);
  const connections = new ConnectionTable(maxConnections, rejections);
  let draining = false;

  const server = http.createServer(
    {
      headersTimeout: timeouts.headersMs,
      requestTimeout: timeouts.requestMs,
      keepAliveTimeout: timeouts.keepAliveMs,
      connectionsCheckingInterval: timeouts.checkIntervalMs,
      // Node's own answer to a missing Host is a bare 400; ours (raw-answers.ts) is an ErrorDto.
      requireHostHeader: false,
    },
    (req: IncomingMessage, res: ServerResponse) => {
      connections.started(res);
      // While draining, every response closes its connection, so keep-alive clients let go.
      if (draining) res.shouldKeepAlive = false;
      if (!answeredBadFraming(req, res, rejections)) app(req, res);
    },
  );
  // A client that sends its request and then shuts down its sending side (half-close) still gets the answer,
  // delayed ones included; Node's default aborts the request at the client's FIN. Not in @types/node.
  (server as Server & { httpAllowHalfOpen: boolean }).httpAllowHalfOpen = true;
  server.on('connection', (socket: Socket) => connections.admit(socket));
  answerRawRequests(server, rejections);

  const stop = once(() => {
    draining = true;
    return drain(server, connections, timeouts, logger).finally(() => rejections.close());
  });

  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port, host, backlog: LISTEN_BACKLOG }, () => {
      server.off('error', reject);
      // After listening, a server error (accept failing with EMFILE, say) is logged, never an uncaught exception.
      server.on('error', (error: NodeJS.ErrnoException) => logger.warn({ code: error.code }, 'HTTP server error'));
      const address = server.address();
      resolve({
        server,
        port: typeof address === 'object' && address ? address.port : port,
        connections: () => connections.size,
        stop,
      });
    });
  });
}

function once<T>(run: () => T): () => T {
  let result: { value: T } | undefined;
  return () => (result ??= { value: run() }).value;
}

/**
 * A graceful stop: no new connections, in-flight requests answered with
 * Connection: close, idle keep-alive connections closed after a short grace;
 * what is still open after drainMs is cut, and counted.
 */
function drain(server: Server, connections: ConnectionTable, timeouts: Timeouts, logger: Logger): Promise<StopResult> {
  return new Promise<StopResult>((resolve) => {
    let cut = 0;
    for (const res of connections.inFlight) {
      // Not yet answered: the answer will say Connection: close and end the connection.
      if (!res.headersSent) res.shouldKeepAlive = false;
      // Already streaming with keep-alive: close the connection once it is idle.
      else res.once('finish', () => setImmediate(() => server.closeIdleConnections()));
    }
    const force = setTimeout(() => {
      cut = connections.inFlight.size;
      logger.warn({ cut }, 'drain time is over: closing the remaining connections');
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
      resolve({ cut });
    });
    // Node's closeIdleConnections() leaves connections that never sent a request; the table closes those too.
    const idle = setTimeout(() => {
      server.closeIdleConnections();
      connections.closeIdle();
    }, IDLE_GRACE_MS);
    idle.unref();
  });
}
