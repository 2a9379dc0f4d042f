// The wire: one request to the upstream over a keep-alive agent, sent as the
// caller sent it (method, path, query, end-to-end headers, body streamed), and
// the upstream's answer handed back as a stream, or the transport fault it
// ended with. Hop-by-hop fields are dropped both ways as RFC 9110 §7.6.1 asks;
// the request gets `Via` (§7.6.3: a gateway MUST send it inbound) and the
// upstream's Host. An UpstreamCall listens to every way an answer can end from
// the moment it exists (an error in the same read as the head, a 101, a close
// with no error at all), so its outcome is known whenever its reader asks:
// nothing is learnt from an event that fired before anyone listened. How long
// the upstream may take is the proxy's to decide (upstream-clock.ts): it ends
// a call with fail().
import http, { type ClientRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import https from 'node:https';
import type { Duplex } from 'node:stream';

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

export type FailureCause = 'unreachable' | 'timeout' | 'reset' | 'malformed';

export class UpstreamFailure extends Error {
  constructor(
    readonly kind: FailureCause,
    message: string,
    /** What went wrong without what varies (ports, sizes): the journal's cause, so a flood of one fault is one cause. */
    readonly fault: string,
  ) {
    super(message);
    this.name = 'UpstreamFailure';
  }
}

/** Error codes meaning no connection was made: nothing was sent, nothing can have happened upstream. */
const UNREACHABLE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL', 'ECONNABORTED']);

/** What Node's HTTP parser says of bytes that are no HTTP answer, in words. */
const PARSER_FAULTS: Record<string, string> = {
  HPE_HEADER_OVERFLOW: 'an answer head over 16 KB',
  HPE_INVALID_CHUNK_SIZE: 'a malformed chunk',
  HPE_INVALID_CONSTANT: 'bytes that are no HTTP status line',
  HPE_INVALID_VERSION: 'an unknown HTTP version',
  HPE_INVALID_STATUS: 'a malformed status',
  HPE_INVALID_HEADER_TOKEN: 'a malformed header line',
  HPE_UNEXPECTED_CONTENT_LENGTH: 'a Content-Length beside Transfer-Encoding',
};

export interface BodyRead {
  chunks: Buffer[];
  size: number;
  /** False when the body passed the cap: the rest is still to come (pipeTo). */
  complete: boolean;
}

/** The upstream as the proxy calls it. */
export interface Upstream {
  /** `http://host:port` plus the path prefix (no trailing slash). */
  readonly url: string;
  /** Sends the request at once; the call's head resolves with the answer's head or rejects with an UpstreamFailure. */
  call(request: IncomingMessage): UpstreamCall;
  close(): void;
}

const VIA = '1.1 client-records-mock-proxy';

interface Target {
  base: URL;
  host: string;
  prefix: string;
  describe: string;
  agent: http.Agent;
  request: typeof http.request;
}

/**
 * One request to the upstream and its answer. Its outcome, whichever way it
 * comes (the end of the body, a failure, the caller's going away), is kept
 * here as it happens, so a reader that asks later still learns it.
 */
export class UpstreamCall {
  /** The answer's head; rejects with an UpstreamFailure when none came. */
  readonly head: Promise<IncomingMessage>;
  response: IncomingMessage | undefined;
  failure: UpstreamFailure | undefined;
  /** The whole body was read. */
  ended = false;
  private outgoing!: ClientRequest;
  private resolveHead!: (response: IncomingMessage) => void;
  private rejectHead!: (failure: UpstreamFailure) => void;
  /** The body's reader, told when the body ends or fails. */
  private wake: (() => void) | undefined;

  constructor(
    private readonly target: Target,
    private readonly incoming: IncomingMessage,
  ) {
    this.head = new Promise<IncomingMessage>((resolve, reject) => {
      this.resolveHead = resolve;
      this.rejectHead = reject;
    });
    // Only a request without a body can be sent twice: a streamed body is gone once sent.
    this.send(isIdempotent(incoming.method) && !hasBody(incoming));
  }

  /** Ends the call with `failure` (a limit passed, the caller went away): the upstream's socket is closed, the reader told. */
  fail(failure: UpstreamFailure): void {
    if (this.failure !== undefined) return;
    // An answer already whole is no failure; its reader, if still waiting, is told it is whole.
    if (this.ended) return this.wake?.();
    this.failure = failure;
    this.outgoing.destroy();
    if (this.response) this.response.destroy();
    else this.rejectHead(failure);
    this.wake?.();
  }

  /** Reads the body until it ends or passes `cap` bytes; `piece` hears of every piece. Rejects with the call's failure. */
  read(cap: number, piece: () => void): Promise<BodyRead> {
    const response = this.response!;
    return new Promise((resolve, reject) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const onData = (chunk: Buffer) => {
        piece();
        chunks.push(chunk);
        size += chunk.length;
        if (size > cap) {
          response.pause();
          response.off('data', onData);
          this.wake = undefined;
          resolve({ chunks, size, complete: false });
        }
      };
      this.wake = () => {
        response.off('data', onData);
        this.wake = undefined;
        if (this.failure) reject(this.failure);
        else resolve({ chunks, size, complete: true });
      };
      if (this.failure || this.ended) return this.wake();
      response.on('data', onData);
    });
  }

  /**
   * Sends the rest of the body to the caller as it comes. The caller's pace
   * sets the upstream's (back-pressure), and the clock is paused meanwhile:
   * a slow reader is never taken for a slow upstream. `done` hears the end,
   * or the failure.
   */
  pipeTo(res: ServerResponse, clock: { touch(): void; pause(): void; resume(): void }, done: (failure?: UpstreamFailure) => void): void {
    const response = this.response!;
    const onDrain = () => {
      clock.resume();
      response.resume();
    };
    const onData = (chunk: Buffer) => {
      clock.touch();
      if (!res.write(chunk)) {
        response.pause();
        clock.pause();
        res.once('drain', onDrain);
      }
    };
    this.wake = () => {
      response.off('data', onData);
      res.off('drain', onDrain);
      this.wake = undefined;
      done(this.failure);
    };
    // The body may have ended while nobody read (its last piece came with the cap's): then there is nothing more to send.
    if (this.failure || this.ended) return this.wake();
    response.on('data', onData);
    response.resume();
  }

  private send(retry: boolean): void {
    const { target, incoming } = this;
    const headers = endToEnd(incoming.rawHeaders, NOT_SENT_ON);
    const via = incoming.headers.via;
    headers.push('Host', target.host, 'Via', via ? `${via}, ${VIA}` : VIA);
    const outgoing = target.request({
      agent: target.agent,
      protocol: target.base.protocol,
      hostname: target.base.hostname,
      port: target.base.port,
      method: incoming.method,
      path: target.prefix + (incoming.url ?? '/'),
      headers,
      setHost: false,
    });
    // Every header line the upstream sends is read (the head's 16 KB still bound them), never cut at 1,000.
    outgoing.maxHeadersCount = 0;
    this.outgoing = outgoing;
    outgoing.on('error', (error: NodeJS.ErrnoException) => this.onError(outgoing, error, retry));
    outgoing.on('response', (response: IncomingMessage) => this.onResponse(outgoing, response));
    // RFC 9110 §15.2.2: a server switches protocols only when asked, and the proxy never forwards Upgrade.
    outgoing.on('upgrade', (_response: IncomingMessage, socket: Duplex) => {
      socket.destroy();
      this.fail(this.malformed('a 101 Switching Protocols to a request that asked for no upgrade'));
    });
    // The last word: a request that closes with neither an answer nor an error still ends the call.
    outgoing.on('close', () => {
      if (outgoing === this.outgoing && this.response === undefined)
        this.fail(
          new UpstreamFailure('reset', `The upstream ${target.describe} closed the connection before answering`, 'closed before the head'),
        );
    });
    if (incoming.readableEnded || !hasBody(incoming)) outgoing.end();
    else incoming.pipe(outgoing);
  }

  private onResponse(outgoing: ClientRequest, response: IncomingMessage): void {
    if (outgoing !== this.outgoing || this.failure !== undefined) {
      response.destroy();
      return;
    }
    this.response = response;
    response.on('end', () => {
      this.ended = true;
      this.wake?.();
    });
    // A body cut short: the close comes whether or not an error does.
    response.on('error', () => undefined);
    response.on('close', () => {
      if (!this.ended)
        this.fail(new UpstreamFailure('reset', `The upstream ${this.target.describe} cut its answer short`, 'closed in the body'));
    });
    this.resolveHead(response);
  }

  private onError(outgoing: ClientRequest, error: NodeJS.ErrnoException, retry: boolean): void {
    if (outgoing !== this.outgoing || this.failure !== undefined) return;
    const code = error.code ?? '';
    const describe = this.target.describe;
    if (code.startsWith('HPE_')) {
      const what = PARSER_FAULTS[code] ?? 'bytes that are no HTTP answer';
      // A kept-alive socket may hold what a previous answer sent past its end: a fresh one tells whose bytes these are.
      if (retry && this.response === undefined && outgoing.reusedSocket) return this.send(false);
      return this.fail(this.malformed(this.response === undefined ? `${what} (${code})` : `${what} in the body (${code})`));
    }
    if (this.response !== undefined)
      return this.fail(
        new UpstreamFailure('reset', `The upstream ${describe} cut its answer short (${code || error.message})`, 'reset in the body'),
      );
    // A kept-alive socket the upstream closed meanwhile fails before any byte of an answer: send once more on a fresh one.
    if (retry && outgoing.reusedSocket && (code === 'ECONNRESET' || code === 'EPIPE')) return this.send(false);
    if (UNREACHABLE.has(code)) {
      const why = code === 'ECONNREFUSED' ? 'refused the connection' : code === 'ENOTFOUND' ? 'does not resolve' : 'cannot be reached';
      return this.fail(new UpstreamFailure('unreachable', `The upstream ${describe} ${why} (${code})`, `${why} (${code})`));
    }
    this.fail(
      new UpstreamFailure(
        'reset',
        `The upstream ${describe} closed the connection before answering (${code || error.message})`,
        'reset before the head',
      ),
    );
  }

  private malformed(what: string): UpstreamFailure {
    return new UpstreamFailure('malformed', `The upstream ${this.target.describe} sent bytes that are no HTTP answer: ${what}`, what);
  }
}

/** The request's own fields a proxy replaces: Host names the upstream, Via gets the proxy's entry. */
const NOT_SENT_ON: ReadonlySet<string> = new Set(['host', 'via']);

export function createUpstream(url: string): Upstream {
  const base = new URL(url);
  const secure = base.protocol === 'https:';
  const prefix = base.pathname.replace(/\/+$/, '');
  // Keep-alive both ways: the caller's connection and the upstream's are each reused; LIFO keeps few sockets warm.
  const agent = secure
    ? new https.Agent({ keepAlive: true, scheduling: 'lifo', maxFreeSockets: 64 })
    : new http.Agent({ keepAlive: true, scheduling: 'lifo', maxFreeSockets: 64 });
  const target: Target = {
    base,
    host: base.host,
    prefix,
    describe: `${base.protocol}//${base.host}${prefix}`,
    agent,
    request: secure ? https.request : http.request,
  };
  return {
    url: target.describe,
    call: (incoming) => new UpstreamCall(target, incoming),
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
