// The wire: one request to the upstream over a keep-alive agent, sent as the
// caller sent it (method, path, query, end-to-end headers, body streamed), and
// the upstream's answer handed back as a stream, or the cause it failed with.
// Hop-by-hop fields are dropped both ways as RFC 9110 §7.6.1 asks; the request
// gets `Via` (§7.6.3: a gateway MUST send it inbound) and the upstream's Host.
// A timer bounds the wait for the answer's head and every pause between its
// body's pieces, so a hung upstream costs the caller --upstream-timeout, never more.
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import type { Readable } from 'node:stream';

/** RFC 9110 §7.6.1: fields a proxy removes whether or not `Connection` names them. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'te', 'transfer-encoding', 'upgrade']);

/** What `Connection` names (RFC 9110 §7.6.1: those fields are hop-by-hop too), lower case. */
function connectionOptions(raw: readonly string[]): Set<string> {
  const named = new Set<string>();
  for (let i = 0; i < raw.length; i += 2) {
    if (raw[i]!.toLowerCase() !== 'connection') continue;
    for (const option of raw[i + 1]!.split(',')) named.add(option.trim().toLowerCase());
  }
  return named;
}

/**
 * The end-to-end fields of a message, from Node's rawHeaders (names as sent,
 * repeated fields kept as separate lines, in order), as a flat list for
 * writeHead / http.request. `drop` removes more (e.g. Host, framing).
 */
export function endToEnd(raw: readonly string[], drop: ReadonlySet<string> = new Set()): string[] {
  const named = connectionOptions(raw);
  const out: string[] = [];
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    if (HOP_BY_HOP.has(name) || named.has(name) || drop.has(name)) continue;
    out.push(raw[i]!, raw[i + 1]!);
  }
  return out;
}

export type FailureCause = 'unreachable' | 'timeout' | 'reset';

export class UpstreamFailure extends Error {
  constructor(
    readonly kind: FailureCause,
    message: string,
  ) {
    super(message);
    this.name = 'UpstreamFailure';
  }
}

/** Error codes meaning no connection was made: nothing was sent, nothing can have happened upstream. */
const UNREACHABLE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL', 'ECONNABORTED']);

export interface Upstream {
  /** `http://host:port` plus the path prefix (no trailing slash). */
  readonly url: string;
  readonly timeoutMs: number;
  /** Sends the request; resolves with the answer's head (its body a stream), rejects with an UpstreamFailure. */
  send(request: IncomingMessage): Promise<UpstreamAnswer>;
  close(): void;
}

export interface UpstreamAnswer {
  response: IncomingMessage;
  /** The answer's body, paused: whoever reads it calls touch() for each piece. */
  body: Readable;
  /** Re-arms the pause timer: a body piece arrived. (A 'data' listener here would start the stream before its reader.) */
  touch(): void;
  /** Stops the pause timer. */
  done(): void;
}

const VIA = '1.1 client-records-mock-proxy';

export function createUpstream(url: string, timeoutMs: number): Upstream {
  const base = new URL(url);
  const secure = base.protocol === 'https:';
  const prefix = base.pathname.replace(/\/+$/, '');
  const host = base.host;
  // Keep-alive both ways: the caller's connection and the upstream's are each reused; LIFO keeps few sockets warm.
  const agent = secure
    ? new https.Agent({ keepAlive: true, scheduling: 'lifo', maxFreeSockets: 64 })
    : new http.Agent({ keepAlive: true, scheduling: 'lifo', maxFreeSockets: 64 });
  const request = secure ? https.request : http.request;
  const describe = `${base.protocol}//${host}${prefix}`;

  function attempt(incoming: IncomingMessage, retry: boolean): Promise<UpstreamAnswer> {
    return new Promise<UpstreamAnswer>((resolve, reject) => {
      const headers = endToEnd(incoming.rawHeaders, new Set(['host', 'via']));
      const via = incoming.headers.via;
      headers.push('Host', host, 'Via', via ? `${via}, ${VIA}` : VIA);
      let settled = false;
      let answered = false;
      const outgoing = request({
        agent,
        protocol: base.protocol,
        hostname: base.hostname,
        port: base.port,
        method: incoming.method,
        path: prefix + (incoming.url ?? '/'),
        headers,
        setHost: false,
      });
      // One timer for the whole exchange: armed until the head arrives, then re-armed by every body piece.
      const timer = setTimeout(() => {
        outgoing.destroy(new UpstreamFailure('timeout', `The upstream ${describe} did not answer within ${timeoutMs} ms`));
      }, timeoutMs);
      const fail = (error: Error & { code?: string }) => {
        clearTimeout(timer);
        if (settled) return;
        settled = true;
        if (error instanceof UpstreamFailure) return reject(error);
        // A kept-alive socket the upstream closed meanwhile fails before any byte of an answer: send once more on a fresh one.
        if (retry && outgoing.reusedSocket && !answered && (error.code === 'ECONNRESET' || error.code === 'EPIPE')) {
          return resolve(attempt(incoming, false));
        }
        if (error.code && UNREACHABLE.has(error.code)) {
          const why =
            error.code === 'ECONNREFUSED'
              ? 'refused the connection'
              : error.code === 'ENOTFOUND'
                ? 'does not resolve'
                : 'cannot be reached';
          return reject(new UpstreamFailure('unreachable', `The upstream ${describe} ${why} (${error.code})`));
        }
        reject(
          new UpstreamFailure('reset', `The upstream ${describe} closed the connection before answering (${error.code ?? error.message})`),
        );
      };
      outgoing.on('error', fail);
      outgoing.on('response', (response) => {
        answered = true;
        settled = true;
        timer.refresh();
        response.on('end', () => clearTimeout(timer));
        response.on('close', () => clearTimeout(timer));
        // After the head, a failure is the body's: the stream errors with it, whoever reads it decides.
        outgoing.removeListener('error', fail);
        outgoing.on('error', (error: Error) => {
          clearTimeout(timer);
          const failure =
            error instanceof UpstreamFailure
              ? error
              : new UpstreamFailure(
                  'reset',
                  `The upstream ${describe} cut its answer short (${(error as { code?: string }).code ?? error.message})`,
                );
          response.destroy(failure);
        });
        response.on('aborted', () => response.destroy(new UpstreamFailure('reset', `The upstream ${describe} cut its answer short`)));
        resolve({
          response,
          body: response,
          touch: () => timer.refresh(),
          done: () => clearTimeout(timer),
        });
      });
      if (incoming.readableEnded || !hasBody(incoming)) outgoing.end();
      else incoming.pipe(outgoing);
    });
  }

  return {
    url: describe,
    timeoutMs,
    // Only a request without a body can be sent twice: a streamed body is gone once sent.
    send: (incoming) => attempt(incoming, isIdempotent(incoming.method) && !hasBody(incoming)),
    close: () => agent.destroy(),
  };
}

/** A request without a body (no Content-Length above 0, no Transfer-Encoding) can be sent as soon as its head is read. */
function hasBody(incoming: IncomingMessage): boolean {
  const length = incoming.headers['content-length'];
  return incoming.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/** RFC 9110 §9.2.2: a request that may be sent again when its connection failed before an answer. */
function isIdempotent(method: string | undefined): boolean {
  return method === 'GET' || method === 'HEAD' || method === 'OPTIONS' || method === 'PUT' || method === 'DELETE' || method === 'TRACE';
}
