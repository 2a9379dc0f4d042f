// The validating proxy as a value: startProxy() listens, forwards every request
// to the upstream (forward.ts), returns the answer unchanged with the proxy's
// three headers, and judges the exchange with the contract suite's rules
// (contract/judge/, PLAN.md's seam) on the way: the caller's violations and
// the upstream's kept apart, logged, kept in the journal (journal.ts, served by
// journal-http.ts) and, at close(), written as JUnit and JSON (report.ts).
// Where the upstream cannot answer, the cause decides: the mock in-process
// (createMock, the same app `npm start` runs, so the same bytes) or the
// proxy's own 502/504 ErrorDto, within the upstream timeout either way.
//
// One exchange, in order: judge the request → (--reject-invalid-requests: the
// documented error, not forwarded) → send → on failure, fallback or 502/504 →
// on a status the fallback takes, the mock → read the body up to the judging
// cap → judge the answer → write head (+ X-Proxy-*) and body. A body over the
// cap is streamed through as it comes, its status and headers judged only.
import http, { type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import zlib from 'node:zlib';
import { bundledSpec, readSpec, type OpenApiDocument } from '../contract/spec';
import { CoverageTally } from '../contract/coverage-report';
import { ExchangeMemory, headerOf, judgeRequest, judgeResponse, type RequestJudgement, type Side, type Violation } from '../contract/judge';
import { SpecContract, specContract } from '../contract/spec-contract';
import { ERROR_CATALOGUE, errorAnswer, framingFault } from '../server/errors';
import { createMock, type ConfigOptions, type Mock } from '../server/index';
import type { components } from '../generated/proxy';
import { createUpstream, endToEnd, UpstreamFailure, type BodyRead, type FailureCause, type UpstreamCall } from './forward';
import { Journal, TRANSPORT_RULE_PREFIX, type JournalEntry } from './journal';
import { collidingPaths, RESERVED_PREFIX, serveJournal } from './journal-http';
import {
  buildReport,
  curlLine,
  LOG_MAX_BYTES,
  LogGate,
  logLine,
  summaryLine,
  violationsHeader,
  writeCoverage,
  writeJsonReport,
  writeJunitReport,
  type ProxyReport,
} from './report';
import { ProxySettingError, proxySettingsFromOptions, type FallbackCause, type ProxyOptions, type ProxySettings } from './settings';
import { UpstreamClock, type Expiry } from './upstream-clock';

type ProxyErrorCode = components['schemas']['ErrorDto']['Code'];

export interface StartProxyOptions extends ProxyOptions {
  /** Settings of the fallback mock, as startServer() takes them (seed, clients, dataFile, apiKeys, ...). */
  mock?: Readonly<ConfigOptions>;
  /** Where violation lines go (default: nowhere; the CLI prints them). */
  log?: (line: string) => void;
}

export interface ProxyResult {
  report: ProxyReport;
  /** 1 when --fail-on-violation is set and a violation it counts was seen, else 0. */
  exitCode: 0 | 1;
  summary: string;
}

export interface RunningProxy {
  /** e.g. `http://127.0.0.1:41234`. */
  url: string;
  port: number;
  upstream: string;
  settings: Readonly<ProxySettings>;
  /** The journal's entries, oldest first (what GET /__proxy/violations serves). */
  violations(filter?: { side?: Side }): JournalEntry[];
  /** The report as it stands (what GET /__proxy/report serves). */
  report(): ProxyReport;
  /**
   * Stops accepting, lets answers under way finish (at most the drain time),
   * ends those still waiting for the upstream (as its timeout) and cuts every
   * connection, writes --junit, --report and --coverage-out, and resolves with
   * the report and exit code. `now: true` (a second signal) skips the drain.
   */
  close(options?: CloseOptions): Promise<ProxyResult>;
}

export interface CloseOptions {
  /** Skip the drain: end what is under way at once (a second SIGINT/SIGTERM). */
  now?: boolean;
}

/** How long a stop waits for answers under way before it ends them. */
export const DRAIN_MS = 8_000;
/** How long the answers a stop ended (a 504, the mock's) have to leave before every connection is cut. */
const FORCE_GRACE_MS = 500;
/** A caller still sending after a raw-socket answer (a head over the limit) is cut after this long. */
const LINGER_MS = 2_000;
/** The tally's name for an exchange whose caller went away before anyone answered it. */
const CALLER_GONE = 'caller-gone';
/** Fields the proxy's own answers expose to a page's script when the request has an Origin. */
const OWN_EXPOSED = 'X-Request-Id, X-Proxy-Exchange, X-Proxy-Answered-By';
const SAFE_REQUEST_ID = /^[\w.:@-]{1,128}$/;
const FAILURE_ANSWERS: Record<FailureCause, { status: number; code: ProxyErrorCode }> = {
  unreachable: { status: 502, code: 'UPSTREAM_UNREACHABLE' },
  reset: { status: 502, code: 'UPSTREAM_RESET' },
  timeout: { status: 504, code: 'UPSTREAM_TIMEOUT' },
  malformed: { status: 502, code: 'UPSTREAM_MALFORMED' },
};
/** Rules about a body: not judged when the body was over the cap. */
const BODY_RULES = /^(response\.(json|schema)|list\.|filter\.|record\.|detail\.|error\.)/;

/**
 * node:http's headers (names already lower case, repeated lines joined or, for
 * Set-Cookie, an array) as the judge reads a Fetch Headers: only its get(),
 * one property lookup, instead of the judge's scan of a plain record's entries.
 */
function headerBag(headers: IncomingHttpHeaders): Headers {
  const get = (name: string): string | null => {
    const value = headers[name.toLowerCase()];
    return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
  };
  return { get, has: (name: string) => get(name) !== null } as unknown as Headers;
}

/** Decodes the body as its Content-Encoding says, at most `max` bytes out; undefined when it cannot (unknown coding, corrupt, too long). */
function decoded(body: Buffer, encoding: string | undefined, max: number): Buffer | undefined {
  const coding = (encoding ?? '').trim().toLowerCase();
  try {
    if (coding === '' || coding === 'identity') return body;
    if (coding === 'gzip' || coding === 'x-gzip') return zlib.gunzipSync(body, { maxOutputLength: max });
    if (coding === 'deflate') return zlib.inflateSync(body, { maxOutputLength: max });
    if (coding === 'br') return zlib.brotliDecompressSync(body, { maxOutputLength: max });
  } catch {
    return undefined;
  }
  return undefined;
}

/** The settings' spec: the file --spec names, else the package's openapi.yaml; the proxy refuses one with a path under its prefix. */
function contractFor(settings: Readonly<ProxySettings>): { contract: SpecContract; document: OpenApiDocument } {
  let document: OpenApiDocument;
  try {
    document = settings.specFile ? readSpec(settings.specFile).document : bundledSpec().document;
  } catch (error) {
    throw new ProxySettingError(`invalid --spec: ${(error as Error).message}`);
  }
  const colliding = collidingPaths(document);
  if (colliding.length > 0)
    throw new ProxySettingError(`the spec has a path under the proxy's reserved prefix ${RESERVED_PREFIX}: ${colliding[0]}`);
  return { contract: settings.specFile ? new SpecContract(document) : specContract(), document };
}

/**
 * One exchange: a caller's request and whatever answers it. `who` is set once,
 * when it is known who answers (the tally counts it then); an exchange whose
 * caller went away before that is counted as `caller-gone`.
 */
interface Exchange {
  n: number;
  req: IncomingMessage;
  res: ServerResponse;
  judged: RequestJudgement | undefined;
  call: UpstreamCall | undefined;
  clock: UpstreamClock | undefined;
  who: string | undefined;
  callerGone: boolean;
}

/** What a transport fault's journal entry says was expected, per cause (proxy.openapi.yaml, "Transport faults"). */
function transportExpected(settings: Readonly<ProxySettings>): Record<FailureCause, string> {
  return {
    unreachable: 'a connection to the upstream',
    timeout: `the answer head within --upstream-timeout (${settings.upstreamTimeoutMs} ms), no pause that long in its body, and all of it within --answer-deadline (${settings.answerDeadlineMs} ms)`,
    reset: 'a complete answer before the connection closes (a body as long as its framing says)',
    malformed: 'an HTTP/1.1 answer (RFC 9112) to the request sent',
  };
}

/** Starts the proxy; a bad option rejects with a ProxySettingError naming it. */
export async function startProxy(options: Readonly<StartProxyOptions>): Promise<RunningProxy> {
  const { mock: mockOptions, log: logOption, ...proxyOptions } = options;
  const settings = proxySettingsFromOptions(proxyOptions);
  const logGate = new LogGate(settings.logRepeats, logOption ?? (() => undefined));
  const { contract, document } = contractFor(settings);
  let mock: Mock | undefined;
  if (settings.fallback.size > 0) {
    // The fallback is the mock `npm start` runs, with these settings (and the same spec), built before the first request.
    mock = await createMock({ ...mockOptions, logLevel: 'silent', ...(settings.specFile ? { specFile: settings.specFile } : {}) });
  }

  const upstream = createUpstream(settings.upstream);
  const counted = new Set<Side>(settings.failOn === 'all' ? ['request', 'response'] : settings.failOn === 'upstream' ? ['response'] : []);
  const journal = new Journal(settings.journalSize, counted);
  const memory = new ExchangeMemory(settings.rememberClients);
  const coverage = new CoverageTally();
  const answeredBy = new Map<string, number>();
  const startedAt = new Date();
  const cap = settings.judgeMaxKb * 1024;
  const expected = transportExpected(settings);
  /** Exchanges under way, for the stop: it waits for them, then ends the rest. */
  const inFlight = new Set<Exchange>();
  let exchanges = 0;
  let bodiesOverCap = 0;
  let stopping = false;
  /** Told when the last exchange under way ends (a stop waits for it). */
  let onIdle: (() => void) | undefined;

  const report = (): ProxyReport =>
    buildReport({
      upstream: settings.upstream,
      startedAt,
      failOn: settings.failOn,
      exchanges,
      bodiesOverCap,
      inFlight: inFlight.size,
      answeredBy,
      journal,
      coverage: coverage.report(document, { side: 'provider', source: settings.upstream, run: { driver: 'proxy' } }),
      bounds: {
        journalEntries: settings.journalSize,
        judgeMaxBytes: cap,
        rememberedClients: settings.rememberClients,
        logBytes: LOG_MAX_BYTES,
      },
    });

  const tally = (who: string) => answeredBy.set(who, (answeredBy.get(who) ?? 0) + 1);

  /** Who answers the exchange: counted once. */
  function settle(exchange: Exchange, who: string): void {
    if (exchange.who !== undefined) return;
    exchange.who = who;
    tally(who);
  }

  /** Counts an exchange and follows it to its end, whichever way it comes. */
  function begin(req: IncomingMessage, res: ServerResponse): Exchange {
    const exchange: Exchange = {
      n: ++exchanges,
      req,
      res,
      judged: undefined,
      call: undefined,
      clock: undefined,
      who: undefined,
      callerGone: false,
    };
    inFlight.add(exchange);
    res.once('close', () => {
      inFlight.delete(exchange);
      if (!res.writableFinished) {
        // The caller went away: nobody reads the rest, and the upstream is not left waiting on a half-read socket.
        exchange.callerGone = true;
        exchange.clock?.stop();
        exchange.call?.fail(new UpstreamFailure('reset', 'The caller went away', 'caller gone'));
        settle(exchange, CALLER_GONE);
      }
      if (inFlight.size === 0) onIdle?.();
    });
    if (stopping) res.shouldKeepAlive = false;
    return exchange;
  }

  /** Journals and logs the exchange's violations; returns the X-Proxy-Violations value. */
  function record(
    violations: readonly Violation[],
    exchange: Exchange,
    status: number | null,
    who: string,
    /** Why the body was not judged; undefined when it was. */
    notJudged?: string,
  ): string | undefined {
    if (violations.length === 0) return undefined;
    const { req, n } = exchange;
    const curl = curlLine(settings.upstream, req.method ?? 'GET', req.url ?? '/', req.rawHeaders);
    for (const violation of violations) {
      const entry = journal.add(violation, {
        exchange: n,
        method: req.method ?? 'GET',
        target: req.url ?? '/',
        status,
        answeredBy: who,
        curl,
        ...(notJudged === undefined ? {} : { bodyJudged: false }),
      });
      logGate.offer(journal.seenOfLast, (last) => logLine(entry, notJudged, last));
    }
    return violationsHeader(violations);
  }

  /** A transport fault is the upstream's violation (proxy.openapi.yaml, "Transport faults"), journaled with the caller's. */
  function recordTransport(exchange: Exchange, failure: UpstreamFailure, status: number | null, who: string): void {
    const judged = exchange.judged!;
    const fault: Violation = {
      rule: `${TRANSPORT_RULE_PREFIX}${failure.kind}`,
      sentences: [],
      side: 'response',
      operation: judged.operationId ?? 'routing',
      expected: expected[failure.kind],
      actual: failure.message,
      cause: failure.fault,
    };
    record([fault, ...judged.violations], exchange, status, who);
  }

  /** CORS for the proxy's own answers: a page reads the ErrorDto instead of meeting a CORS failure. */
  function ownHeaders(req: IncomingMessage, n: number, who: string): Record<string, string> {
    const headers: Record<string, string> = { 'X-Proxy-Exchange': String(n), 'X-Proxy-Answered-By': who };
    if (req.headers.origin !== undefined) {
      headers['Access-Control-Allow-Origin'] = '*';
      headers['Access-Control-Expose-Headers'] = OWN_EXPOSED;
    }
    const id = req.headers['x-request-id'];
    if (typeof id === 'string' && SAFE_REQUEST_ID.test(id)) headers['X-Request-Id'] = id;
    return headers;
  }

  function answerOwn(res: ServerResponse, status: number, code: ProxyErrorCode, message: string, headers: Record<string, string>): void {
    if (res.headersSent) {
      res.destroy();
      return;
    }
    const answer = errorAnswer(status, code, message, headers);
    delete answer.headers.Connection;
    // The proxy's own answer carries Date, as the mock's do (RFC 9110 §6.6.1); only the upstream's come back as they were.
    res.sendDate = true;
    res.writeHead(answer.status, answer.headers).end(answer.body);
  }

  function answerFromMock(exchange: Exchange, cause: FallbackCause): void {
    const who = `mock;cause="${cause}"`;
    settle(exchange, who);
    const { req, res, n } = exchange;
    // The tags go on as the head is written, after the mock has answered: its response cache never sees them.
    tagOnWriteHead(res, ['X-Proxy-Exchange', String(n), 'X-Proxy-Answered-By', who]);
    res.sendDate = true; // as the mock's own server sends it
    mock!.app(req, res);
  }

  /** Who answers when the upstream failed with `cause`: the mock, if the fallback takes it, else the proxy. */
  const failureAnswerer = (cause: FailureCause) => (settings.fallback.has(cause) ? `mock;cause="${cause}"` : `proxy;cause="${cause}"`);

  /** The upstream gave no complete answer: a transport fault, answered by the mock or the proxy's 502/504. */
  function failed(exchange: Exchange, failure: UpstreamFailure, status: number | null): void {
    exchange.clock?.stop();
    if (exchange.callerGone) return;
    const { res, req, n } = exchange;
    recordTransport(exchange, failure, status, failureAnswerer(failure.kind));
    if (res.headersSent || res.destroyed) {
      res.destroy();
      return;
    }
    if (settings.fallback.has(failure.kind)) return answerFromMock(exchange, failure.kind);
    const who = failureAnswerer(failure.kind);
    settle(exchange, who);
    const { status: answerStatus, code } = FAILURE_ANSWERS[failure.kind];
    answerOwn(res, answerStatus, code, failure.message, ownHeaders(req, n, who));
  }

  /** --reject-invalid-requests: the status and Code openapi.yaml's error table gives the first thing the request breaks. */
  function reject(exchange: Exchange, judged: RequestJudgement): void {
    const who = 'proxy;cause="invalid-request"';
    settle(exchange, who);
    const { req, res, n } = exchange;
    const header = record(judged.violations, exchange, null, who);
    const first = judged.violations[0]!;
    // The error table's answer to the first thing the request breaks (openapi.yaml, "Errors").
    const code: ProxyErrorCode =
      first.rule === 'request.path'
        ? 'NOT_FOUND'
        : first.rule === 'request.method'
          ? 'METHOD_NOT_ALLOWED'
          : judged.violations.every((v) => v.rule === 'request.key-missing' || v.rule === 'request.key-unknown')
            ? 'UNAUTHORIZED'
            : 'VALIDATION_ERROR';
    const headers = ownHeaders(req, n, who);
    if (header) headers['X-Proxy-Violations'] = header;
    if (code === 'METHOD_NOT_ALLOWED') headers.Allow = 'GET';
    const status = ERROR_CATALOGUE[code as keyof typeof ERROR_CATALOGUE];
    answerOwn(res, status, code, `The proxy did not forward this request: expected ${first.expected}; got ${first.actual}`, headers);
  }

  async function forward(exchange: Exchange): Promise<void> {
    const { req, res, n } = exchange;
    const target = req.url ?? '/';
    const judged = judgeRequest(contract, {
      method: req.method ?? 'GET',
      path: target,
      headers: headerBag(req.headers),
      url: settings.upstream + target,
    });
    exchange.judged = judged;
    if (settings.rejectInvalidRequests && judged.violations.length > 0) return reject(exchange, judged);

    const call = upstream.call(req);
    exchange.call = call;
    const clock = new UpstreamClock(settings.upstreamTimeoutMs, settings.answerDeadlineMs, (what) =>
      call.fail(timeoutFailure(what, call.response !== undefined)),
    );
    exchange.clock = clock;
    let response: IncomingMessage;
    try {
      response = await call.head;
    } catch (error) {
      return failed(exchange, error as UpstreamFailure, null);
    }
    const status = response.statusCode ?? 502;
    if (settings.fallback.has(String(status) as FallbackCause)) {
      clock.stop();
      call.fail(new UpstreamFailure('reset', 'The fallback answers instead', 'not read'));
      record(judged.violations, exchange, status, `mock;cause="${status}"`);
      return answerFromMock(exchange, String(status) as FallbackCause);
    }

    let body: BodyRead;
    const declared = Number(response.headers['content-length'] ?? NaN);
    if (declared > cap && req.method !== 'HEAD' && status !== 204 && status !== 304) body = { chunks: [], size: 0, complete: false };
    else {
      try {
        body = await call.read(req.method === 'HEAD' || status === 204 || status === 304 ? 0 : cap, clock.touch);
      } catch (error) {
        return failed(exchange, error as UpstreamFailure, status);
      }
    }
    if (body.complete) clock.stop();

    const raw = body.complete ? Buffer.concat(body.chunks, body.size) : undefined;
    const plain = raw === undefined ? undefined : decoded(raw, response.headers['content-encoding'], cap);
    if (status === 404 && settings.fallback.has('404-undeployed') && judged.operationId !== undefined && !mentionsClientNotFound(plain)) {
      record(judged.violations, exchange, status, 'mock;cause="404-undeployed"');
      return answerFromMock(exchange, '404-undeployed');
    }
    const bodyJudged = plain !== undefined;
    // Why not: read whole but in a coding not undone (unknown, corrupt, decoding past the cap), or never read (over the cap).
    const notJudged = bodyJudged
      ? undefined
      : raw === undefined
        ? `body over the ${settings.judgeMaxKb} KB judging cap`
        : `body in a Content-Encoding the proxy could not undo within ${settings.judgeMaxKb} KB (${String(response.headers['content-encoding'])})`;
    if (raw === undefined) bodiesOverCap += 1;
    let upstreamViolations = judgeResponse(
      contract,
      judged,
      { status, headers: headerBag(response.headers), bytes: plain ?? new Uint8Array() },
      bodyJudged ? memory : undefined,
    );
    if (!bodyJudged) upstreamViolations = upstreamViolations.filter((v) => !BODY_RULES.test(v.rule));
    coverage.record(judged.operationId, status, exercised(contract, judged));
    settle(exchange, 'upstream');
    const header = record([...upstreamViolations, ...judged.violations], exchange, status, 'upstream', notJudged);

    if (res.destroyed) return;
    const head = endToEnd(response.rawHeaders);
    head.push('X-Proxy-Exchange', String(n), 'X-Proxy-Answered-By', 'upstream');
    if (header) head.push('X-Proxy-Violations', header);
    res.writeHead(status, response.statusMessage, head);
    if (raw !== undefined) {
      const trailers = endToEnd(response.rawTrailers);
      if (trailers.length > 0 && response.headers['content-length'] === undefined) {
        res.write(raw);
        res.addTrailers(pairs(trailers));
        res.end();
      } else res.end(raw);
      return;
    }
    // Over the cap: what was read goes first, then the rest as it comes. A failure now can only cut the connection.
    for (const chunk of body.chunks) res.write(chunk);
    call.pipeTo(res, clock, (failure) => {
      clock.stop();
      if (failure === undefined) res.end();
      else if (!exchange.callerGone) {
        recordTransport(exchange, failure, status, 'upstream');
        res.destroy();
      }
    });
  }

  /** The limit that passed, as the upstream's failure. */
  function timeoutFailure(what: Expiry, headReceived: boolean): UpstreamFailure {
    const describe = upstream.url;
    if (what === 'deadline')
      return new UpstreamFailure(
        'timeout',
        `The upstream ${describe} did not complete its answer within --answer-deadline (${settings.answerDeadlineMs} ms)`,
        'answer not complete within --answer-deadline',
      );
    return headReceived
      ? new UpstreamFailure(
          'timeout',
          `The upstream ${describe} paused its answer for ${settings.upstreamTimeoutMs} ms`,
          'a pause in the body over --upstream-timeout',
        )
      : new UpstreamFailure(
          'timeout',
          `The upstream ${describe} did not answer within ${settings.upstreamTimeoutMs} ms`,
          'no answer head within --upstream-timeout',
        );
  }

  const server = http.createServer(
    { keepAliveTimeout: 5_000, headersTimeout: 10_000, requestTimeout: 0, requireHostHeader: false },
    (req, res) => {
      // A Host or Transfer-Encoding that breaks RFC 9112 (a MUST 400 of every server): answered as the mock answers it.
      const fault = framingFault(req);
      if (fault) {
        const exchange = begin(req, res);
        const who = 'proxy;cause="unforwardable"';
        settle(exchange, who);
        res.shouldKeepAlive = false;
        answerOwn(res, 400, 'VALIDATION_ERROR', fault.message, ownHeaders(req, exchange.n, who));
        return;
      }
      // The journal needs the key header; its paths are never forwarded while it is on.
      if (settings.journal && (req.url ?? '').startsWith(RESERVED_PREFIX)) {
        serveJournal(req, res, { journal, report, key: settings.journalKey });
        return;
      }
      res.sendDate = false; // The upstream's Date (or its absence) comes back unchanged.
      const exchange = begin(req, res);
      forward(exchange).catch(() => {
        // A fault of the proxy itself: never a crash, never a hung caller, and still an exchange someone answered.
        exchange.clock?.stop();
        exchange.call?.fail(new UpstreamFailure('reset', 'The proxy failed', 'proxy fault'));
        const who = 'proxy;cause="internal"';
        settle(exchange, who);
        if (!res.headersSent) answerOwn(res, 500, 'INTERNAL_ERROR', 'An unexpected error occurred', ownHeaders(req, exchange.n, who));
        else res.destroy();
      });
    },
  );
  // A caller that sends its request and then shuts its sending side (half-close) still gets the answer, as from the mock.
  (server as http.Server & { httpAllowHalfOpen: boolean }).httpAllowHalfOpen = true;
  // Every header line a caller sends is forwarded (16 KB of head still bound them), never cut at 2,000.
  server.maxHeadersCount = 0;
  /** Every connection, for the stop: a half-open or idle one must not keep it waiting. */
  const sockets = new Set<Duplex>();
  server.on('connection', (socket: Duplex) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  /** Sockets answered on the raw socket: the parser reports every later piece of a refused request again. */
  const answeredRaw = new WeakSet<Duplex>();
  /**
   * A request no HTTP client can pass on as it came (proxy.openapi.yaml, X-Proxy-Answered-By `unforwardable`):
   * answered on the raw socket as the mock answers it (errors.ts), counted as an exchange the proxy answered.
   */
  const answerUnforwardable = (
    socket: Duplex,
    status: number,
    code: ProxyErrorCode,
    message: string,
    extra: Record<string, string> = {},
  ) => {
    answeredRaw.add(socket);
    const n = ++exchanges;
    const who = 'proxy;cause="unforwardable"';
    tally(who);
    const answer = errorAnswer(status, code, message, { ...extra, 'X-Proxy-Exchange': String(n), 'X-Proxy-Answered-By': who });
    delete answer.headers.Connection;
    const head = [
      `Date: ${new Date().toUTCString()}`,
      'Connection: close',
      ...Object.entries(answer.headers).map(([name, value]) => `${name}: ${value}`),
    ];
    socket.end(
      `HTTP/1.1 ${status} ${http.STATUS_CODES[status] ?? 'Error'}\r\n${head.map((line) => `${line}\r\n`).join('')}\r\n${answer.body}`,
    );
    // The rest of what the caller sends (a head over the limit) is read and dropped: a socket closed with unread
    // input sends a reset, which can overtake the answer. A caller still sending after LINGER_MS is cut.
    socket.resume();
    setTimeout(() => socket.destroy(), LINGER_MS).unref();
  };
  // What Node's parser refuses (an unknown method, a malformed line, a head over 16 KB) cannot be forwarded.
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (answeredRaw.has(socket)) return;
    // A response already under way on this connection (a framing fault's 400, say) is the answer; a second would follow it.
    const answering = Boolean((socket as Duplex & { _httpMessage?: unknown })._httpMessage);
    // A request its caller stopped sending half-way (HPE_INVALID_EOF_STATE) is no request: nobody waits for an answer.
    const refused = error.code?.startsWith('HPE_') && error.code !== 'HPE_INVALID_EOF_STATE';
    if (socket.writable && !answering && refused) {
      if (error.code === 'HPE_HEADER_OVERFLOW')
        answerUnforwardable(socket, 431, 'VALIDATION_ERROR', 'The request line and headers are larger than 16 KB');
      else answerUnforwardable(socket, 400, 'VALIDATION_ERROR', 'The request is malformed');
    } else socket.destroy();
  });
  // CONNECT asks a proxy for a tunnel, not the API for a resource: the mock's answer (405 with Allow), never a dropped socket.
  server.on('connect', (_req: IncomingMessage, socket: Duplex) =>
    answerUnforwardable(socket, 405, 'METHOD_NOT_ALLOWED', 'CONNECT is not allowed; use GET', { Allow: 'GET' }),
  );

  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(new ProxySettingError(`cannot listen on ${settings.host}:${settings.port} (${error.code ?? error.message})`)),
    );
    server.listen({ port: settings.port, host: settings.host }, () => resolve());
  });
  server.on('error', () => undefined);
  const port = (server.address() as AddressInfo).port;
  const shownHost = settings.host === '0.0.0.0' || settings.host === '::' ? '127.0.0.1' : settings.host;
  const url = `http://${shownHost.includes(':') ? `[${shownHost}]` : shownHost}:${port}`;

  /** Ends what is still under way: an exchange waiting for the upstream as its timeout (504 or the mock), a slow reader cut. */
  function endInFlight(): void {
    for (const exchange of inFlight) {
      const { call, clock } = exchange;
      if (call === undefined || exchange.callerGone) continue;
      if (exchange.who !== undefined && clock?.paused) {
        // The caller's back-pressure holds it: the upstream is not at fault.
        exchange.callerGone = true;
        exchange.res.destroy();
        continue;
      }
      call.fail(
        new UpstreamFailure(
          'timeout',
          `The upstream ${upstream.url} had not completed its answer when the proxy stopped`,
          'answer not complete at the stop',
        ),
      );
    }
  }

  let closing: Promise<ProxyResult> | undefined;
  let hurry: (() => void) | undefined;
  const close = (closeOptions: CloseOptions = {}): Promise<ProxyResult> => {
    if (closeOptions.now) hurry?.();
    closing ??= (async () => {
      stopping = true;
      server.close();
      server.closeIdleConnections();
      // Drain: answers under way finish, for DRAIN_MS at most (a timer that is not unref()'d: it decides when the reports
      // are written, so it must not let the process end first).
      await until(DRAIN_MS, closeOptions.now === true, (resolve) => {
        hurry = resolve;
        onIdle = resolve;
        if (inFlight.size === 0) resolve();
      });
      // Then what is left ends: its answers have a moment to leave, then every connection is cut.
      endInFlight();
      await until(FORCE_GRACE_MS, false, (resolve) => {
        onIdle = resolve;
        if (inFlight.size === 0) resolve();
      });
      server.closeAllConnections();
      for (const socket of sockets) socket.destroy();
      upstream.close();
      const final = report();
      const unwritten: string[] = [];
      const write = (flag: string, file: string | undefined, writer: (file: string, report: ProxyReport) => void) => {
        if (file === undefined) return;
        try {
          writer(file, final);
        } catch (error) {
          unwritten.push(`${flag} ${file} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
        }
      };
      write('--junit', settings.junit, writeJunitReport);
      write('--report', settings.report, writeJsonReport);
      write('--coverage-out', settings.coverageOut, writeCoverage);
      // A report that could not be written is evidence lost: the run fails, whatever the counts.
      const exitCode: 0 | 1 = unwritten.length > 0 || (settings.failOn !== 'off' && final.violations.counted > 0) ? 1 : 0;
      const summary = summaryLine(final, { junit: settings.junit, report: settings.report }, { withheld: logGate.withheld, unwritten });
      return { report: final, exitCode, summary };
    })();
    return closing;
  };
  return {
    url,
    port,
    upstream: settings.upstream,
    settings,
    violations: (filter = {}) => journal.entries().filter((entry) => filter.side === undefined || entry.side === filter.side),
    report,
    close,
  };
}

/**
 * Waits until `arm`'s resolver is called or `ms` pass, whichever is first; at once when `skip`. The timer is
 * ref'd on purpose: what follows the wait (the reports of a stop) must happen before the process may end.
 */
function until(ms: number, skip: boolean, arm: (resolve: () => void) => void): Promise<void> {
  if (skip) return Promise.resolve();
  return new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    arm(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/**
 * Adds the proxy's tags to the head `res` writes, as it is written: a fallback
 * answer gets them after the mock has answered, so the mock's response cache
 * (which keeps the headers set before the head) never stores them, and a head
 * it replays never carries another exchange's.
 */
function tagOnWriteHead(res: ServerResponse, tags: readonly string[]): void {
  const writeHead = res.writeHead.bind(res) as (status: number, ...rest: unknown[]) => ServerResponse;
  const isTag = (name: unknown) => typeof name === 'string' && /^x-proxy-/i.test(name);
  (res as { writeHead: unknown }).writeHead = (status: number, ...rest: unknown[]) => {
    const reason = typeof rest[0] === 'string' ? rest[0] : undefined;
    const given = reason === undefined ? rest[0] : rest[1];
    const flat: unknown[] = [];
    if (Array.isArray(given)) {
      for (let i = 0; i < given.length; i += 2) if (!isTag(given[i])) flat.push(given[i], given[i + 1]);
    } else if (given && typeof given === 'object') {
      for (const [name, value] of Object.entries(given)) if (!isTag(name) && value !== undefined) flat.push(name, value);
    }
    for (const name of res.getHeaderNames()) if (isTag(name)) res.removeHeader(name);
    flat.push(...tags);
    return reason === undefined ? writeHead(status, flat) : writeHead(status, reason, flat);
  };
}

/** A 404 body naming CLIENT_NOT_FOUND: a real answer of a deployed operation, never "undeployed". */
function mentionsClientNotFound(body: Buffer | undefined): boolean {
  if (body === undefined) return true;
  try {
    return (JSON.parse(body.toString('utf8')) as { Code?: unknown } | null)?.Code === 'CLIENT_NOT_FOUND';
  } catch {
    return false;
  }
}

/** The documented parameters a request carried (query, path, and the operation's header parameters), for the coverage tally. */
function exercised(contract: SpecContract, judged: RequestJudgement): string[] {
  const names = [...judged.query.keys(), ...Object.keys(judged.pathParams)];
  if (judged.operationId === undefined) return names;
  for (const parameter of contract.operation(judged.operationId).parameters)
    if (parameter.in === 'header' && headerOf(judged.request.headers, parameter.name) !== undefined) names.push(parameter.name);
  return names;
}

function pairs(flat: readonly string[]): [string, string][] {
  const out: [string, string][] = [];
  for (let i = 0; i < flat.length; i += 2) out.push([flat[i]!, flat[i + 1]!]);
  return out;
}
