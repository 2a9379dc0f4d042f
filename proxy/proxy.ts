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
import { createUpstream, endToEnd, UpstreamFailure, type FailureCause, type UpstreamAnswer } from './forward';
import { Journal, type JournalEntry } from './journal';
import { collidingPaths, RESERVED_PREFIX, serveJournal } from './journal-http';
import {
  buildReport,
  curlLine,
  logLine,
  summaryLine,
  violationsHeader,
  writeCoverage,
  writeJsonReport,
  writeJunitReport,
  type ProxyReport,
} from './report';
import { ProxySettingError, proxySettingsFromOptions, type FallbackCause, type ProxyOptions, type ProxySettings } from './settings';

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
   * writes --junit and --report, and resolves with the report and exit code.
   */
  close(): Promise<ProxyResult>;
}

/** How long a stop waits for answers under way before it cuts their connections. */
const DRAIN_MS = 8_000;
/** Fields the proxy's own answers expose to a page's script when the request has an Origin. */
const OWN_EXPOSED = 'X-Request-Id, X-Proxy-Exchange, X-Proxy-Answered-By';
const SAFE_REQUEST_ID = /^[\w.:@-]{1,128}$/;
const FAILURE_ANSWERS: Record<FailureCause, { status: number; code: ProxyErrorCode }> = {
  unreachable: { status: 502, code: 'UPSTREAM_UNREACHABLE' },
  reset: { status: 502, code: 'UPSTREAM_RESET' },
  timeout: { status: 504, code: 'UPSTREAM_TIMEOUT' },
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

/** Reads a body into memory until it ends or passes `cap` bytes; rejects with the stream's error (an UpstreamFailure). */
function collect(answer: UpstreamAnswer, cap: number): Promise<{ chunks: Buffer[]; size: number; complete: boolean }> {
  const body = answer.body;
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const cleanup = () => {
      body.off('data', onData);
      body.off('end', onEnd);
      body.off('error', onError);
    };
    const onData = (chunk: Buffer) => {
      answer.touch();
      chunks.push(chunk);
      size += chunk.length;
      if (size > cap) {
        body.pause();
        cleanup();
        resolve({ chunks, size, complete: false });
      }
    };
    const onEnd = () => {
      cleanup();
      resolve({ chunks, size, complete: true });
    };
    const onError = (error: Error) => {
      cleanup();
      reject(error);
    };
    body.on('data', onData);
    body.on('end', onEnd);
    body.on('error', onError);
  });
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

/** Starts the proxy; a bad option rejects with a ProxySettingError naming it. */
export async function startProxy(options: Readonly<StartProxyOptions>): Promise<RunningProxy> {
  const { mock: mockOptions, log: logOption, ...proxyOptions } = options;
  const settings = proxySettingsFromOptions(proxyOptions);
  const log = logOption ?? (() => undefined);
  const { contract, document } = contractFor(settings);
  let mock: Mock | undefined;
  if (settings.fallback.size > 0) {
    // The fallback is the mock `npm start` runs, with these settings (and the same spec), built before the first request.
    mock = await createMock({ ...mockOptions, logLevel: 'silent', ...(settings.specFile ? { specFile: settings.specFile } : {}) });
  }

  const upstream = createUpstream(settings.upstream, settings.upstreamTimeoutMs);
  const counted = new Set<Side>(settings.failOn === 'all' ? ['request', 'response'] : settings.failOn === 'upstream' ? ['response'] : []);
  const journal = new Journal(settings.journalSize, counted);
  const memory = new ExchangeMemory(settings.rememberClients);
  const coverage = new CoverageTally();
  const answeredBy = new Map<string, number>();
  const startedAt = new Date();
  const cap = settings.judgeMaxKb * 1024;
  let exchanges = 0;
  let bodiesOverCap = 0;

  const report = (): ProxyReport =>
    buildReport({
      upstream: settings.upstream,
      startedAt,
      failOn: settings.failOn,
      exchanges,
      bodiesOverCap,
      answeredBy,
      journal,
      coverage: coverage.report(document, { side: 'provider', source: settings.upstream, run: { driver: 'proxy' } }),
      bounds: { journalEntries: settings.journalSize, judgeMaxBytes: cap, rememberedClients: settings.rememberClients },
    });

  const tally = (who: string) => answeredBy.set(who, (answeredBy.get(who) ?? 0) + 1);

  /** Journals and logs the exchange's violations; returns the X-Proxy-Violations value. */
  function record(
    violations: readonly Violation[],
    req: IncomingMessage,
    n: number,
    status: number | null,
    who: string,
    /** Why the body was not judged; undefined when it was. */
    notJudged?: string,
  ): string | undefined {
    if (violations.length === 0) return undefined;
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
      const seen = journal.causeCount(violation);
      if (settings.logRepeats === 0 || seen <= settings.logRepeats)
        log(logLine(entry, notJudged, settings.logRepeats === 0 ? undefined : settings.logRepeats - seen));
    }
    return violationsHeader(violations);
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

  function answerFromMock(req: IncomingMessage, res: ServerResponse, n: number, cause: FallbackCause): void {
    const who = `mock;cause="${cause}"`;
    tally(who);
    res.setHeader('X-Proxy-Exchange', String(n));
    res.setHeader('X-Proxy-Answered-By', who);
    res.sendDate = true; // as the mock's own server sends it
    mock!.app(req, res);
  }

  /** Who answers when the upstream failed with `cause`: the mock, if the fallback takes it, else the proxy. */
  const failureAnswerer = (cause: FailureCause) => (settings.fallback.has(cause) ? `mock;cause="${cause}"` : `proxy;cause="${cause}"`);

  function answerFailure(req: IncomingMessage, res: ServerResponse, n: number, failure: UpstreamFailure): void {
    if (res.headersSent || res.destroyed) {
      res.destroy();
      return;
    }
    if (settings.fallback.has(failure.kind)) return answerFromMock(req, res, n, failure.kind);
    const who = failureAnswerer(failure.kind);
    tally(who);
    const { status, code } = FAILURE_ANSWERS[failure.kind];
    answerOwn(res, status, code, failure.message, ownHeaders(req, n, who));
  }

  /** --reject-invalid-requests: the status and Code openapi.yaml's error table gives the first thing the request breaks. */
  function reject(req: IncomingMessage, res: ServerResponse, n: number, judged: RequestJudgement): void {
    const who = 'proxy;cause="invalid-request"';
    tally(who);
    const header = record(judged.violations, req, n, null, who);
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

  async function forward(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const n = ++exchanges;
    const target = req.url ?? '/';
    const judged = judgeRequest(contract, {
      method: req.method ?? 'GET',
      path: target,
      headers: headerBag(req.headers),
      url: settings.upstream + target,
    });
    if (settings.rejectInvalidRequests && judged.violations.length > 0) return reject(req, res, n, judged);

    let answer: UpstreamAnswer;
    try {
      answer = await upstream.send(req);
    } catch (error) {
      const failure = error instanceof UpstreamFailure ? error : new UpstreamFailure('reset', String(error));
      record(judged.violations, req, n, null, failureAnswerer(failure.kind));
      return answerFailure(req, res, n, failure);
    }
    const response = answer.response;
    // The caller went away: nobody reads the rest of the answer, and the upstream's socket is not left half-read.
    res.once('close', () => {
      if (!res.writableFinished) response.destroy();
    });
    const status = response.statusCode ?? 502;
    if (settings.fallback.has(String(status) as FallbackCause)) {
      response.resume();
      answer.done();
      record(judged.violations, req, n, status, `mock;cause="${status}"`);
      return answerFromMock(req, res, n, String(status) as FallbackCause);
    }

    let body: { chunks: Buffer[]; size: number; complete: boolean };
    const declared = Number(response.headers['content-length'] ?? NaN);
    if (req.method === 'HEAD' || status === 204 || status === 304)
      body = await collect(answer, 0).catch(() => ({ chunks: [], size: 0, complete: true }));
    else if (declared > cap) body = { chunks: [], size: 0, complete: false };
    else {
      try {
        body = await collect(answer, cap);
      } catch (error) {
        const failure = error instanceof UpstreamFailure ? error : new UpstreamFailure('reset', String(error));
        record(judged.violations, req, n, status, failureAnswerer(failure.kind));
        return answerFailure(req, res, n, failure);
      }
    }

    const raw = body.complete ? Buffer.concat(body.chunks, body.size) : undefined;
    const plain = raw === undefined ? undefined : decoded(raw, response.headers['content-encoding'], cap);
    if (status === 404 && settings.fallback.has('404-undeployed') && judged.operationId !== undefined && !mentionsClientNotFound(plain)) {
      answer.done();
      record(judged.violations, req, n, status, 'mock;cause="404-undeployed"');
      return answerFromMock(req, res, n, '404-undeployed');
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
    tally('upstream');
    const header = record([...upstreamViolations, ...judged.violations], req, n, status, 'upstream', notJudged);

    const head = endToEnd(response.rawHeaders);
    head.push('X-Proxy-Exchange', String(n), 'X-Proxy-Answered-By', 'upstream');
    if (header) head.push('X-Proxy-Violations', header);
    if (res.destroyed) return;
    res.writeHead(status, response.statusMessage, head);
    if (raw !== undefined) {
      const trailers = endToEnd(response.rawTrailers);
      if (trailers.length > 0 && response.headers['content-length'] === undefined) {
        res.write(raw);
        res.addTrailers(pairs(trailers));
        res.end();
      } else res.end(raw);
      answer.done();
      return;
    }
    // Over the cap: what was read goes first, then the rest as it comes. A failure now can only cut the connection.
    for (const chunk of body.chunks) res.write(chunk);
    answer.body.on('data', answer.touch);
    answer.body.on('error', () => res.destroy());
    answer.body.on('end', () => answer.done());
    answer.body.pipe(res);
  }

  const server = http.createServer(
    { keepAliveTimeout: 5_000, headersTimeout: 10_000, requestTimeout: 0, requireHostHeader: false },
    (req, res) => {
      // A Host or Transfer-Encoding that breaks RFC 9112 (a MUST 400 of every server): answered as the mock answers it.
      const fault = framingFault(req);
      if (fault) {
        const n = ++exchanges;
        const who = 'proxy;cause="unforwardable"';
        tally(who);
        res.shouldKeepAlive = false;
        answerOwn(res, 400, 'VALIDATION_ERROR', fault.message, ownHeaders(req, n, who));
        return;
      }
      // The journal needs the key header; its paths are never forwarded while it is on.
      if (settings.journal && (req.url ?? '').startsWith(RESERVED_PREFIX)) {
        serveJournal(req, res, { journal, report, key: settings.journalKey });
        return;
      }
      res.sendDate = false; // The upstream's Date (or its absence) comes back unchanged.
      forward(req, res).catch(() => {
        // A fault of the proxy itself: never a crash, never a hung caller.
        if (!res.headersSent) answerOwn(res, 500, 'INTERNAL_ERROR', 'An unexpected error occurred', {});
        else res.destroy();
      });
    },
  );
  // A caller that sends its request and then shuts its sending side (half-close) still gets the answer, as from the mock.
  (server as http.Server & { httpAllowHalfOpen: boolean }).httpAllowHalfOpen = true;
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
  };
  // What Node's parser refuses (an unknown method, a malformed line, a head over 16 KB) cannot be forwarded.
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    // A response already under way on this connection (a framing fault's 400, say) is the answer; a second would follow it.
    const answering = Boolean((socket as Duplex & { _httpMessage?: unknown })._httpMessage);
    if (socket.writable && !answering && error.code?.startsWith('HPE_')) {
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

  let closing: Promise<ProxyResult> | undefined;
  const close = (): Promise<ProxyResult> => {
    closing ??= (async () => {
      await new Promise<void>((resolve) => {
        const force = setTimeout(() => server.closeAllConnections(), DRAIN_MS);
        force.unref();
        server.close(() => {
          clearTimeout(force);
          resolve();
        });
        server.closeIdleConnections();
      });
      upstream.close();
      const final = report();
      if (settings.junit) await writeJunitReport(settings.junit, final);
      if (settings.report) writeJsonReport(settings.report, final);
      if (settings.coverageOut) writeCoverage(settings.coverageOut, final);
      const exitCode: 0 | 1 = settings.failOn !== 'off' && final.violations.counted > 0 ? 1 : 0;
      return { report: final, exitCode, summary: summaryLine(final, { junit: settings.junit, report: settings.report }) };
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
