// One request, one exchange. Requests are target-independent values (the key
// is a role, not a string), so a recorded request can be replayed against
// another target, and a failing one printed as a curl line. A request on a
// kept-alive connection the server closed before answering is sent once more
// on a new one (RFC 9112 §9.3.1.1, §9.6: a server may close an idle connection
// at any time), so an idle-timeout race is never reported as the deployment's fault.
import { connectHost, rawRequestText, sendRaw, type RawAnswer } from './raw-http';
import type { ApiRequest, Exchange, KeyRole, NearMissKey } from '../../contract/exchange';

/** What the checks talk to (target.ts reads one from the environment). */
export interface Target {
  /** e.g. `http://127.0.0.1:4000`, without a trailing slash. */
  baseUrl: string;
  /** A key the deployment accepts in `X-Api-Key`. */
  apiKey: string;
  /** At most this many requests per second (a remote deployment's rate limit); undefined: as fast as answers come. */
  maxRate?: number;
  /** Called with every exchange sent to this target (used to record requests for the Prism replay). */
  onExchange?: (exchange: Exchange) => void;
}

/** The near misses of a key, where they differ from it (a key without letters has no other case). */
export function nearMissKeys(apiKey: string): Map<NearMissKey, string> {
  const swapped = [...apiKey].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join('');
  const misses = new Map<NearMissKey, string>([
    ['other-case', swapped],
    ['prefix', apiKey.slice(0, -1)],
    ['longer', `${apiKey}0`],
  ]);
  for (const [role, key] of misses) if (key === apiKey || key === '') misses.delete(role);
  return misses;
}

export const WRONG_API_KEY = 'contract-suite-wrong-key';

/**
 * A URL the deployment gave (a Link target, resolved against the request URL)
 * as a path and query below the target's base URL, ready to send: the base
 * URL's path prefix is stripped, since send() puts it back.
 */
export function pathBelowBase(target: Pick<Target, 'baseUrl'>, url: URL): string {
  const prefix = new URL(target.baseUrl).pathname.replace(/\/+$/, '');
  const pathname = prefix !== '' && url.pathname.startsWith(`${prefix}/`) ? url.pathname.slice(prefix.length) : url.pathname;
  return pathname + url.search;
}

export function requestHeaders(target: Target, request: ApiRequest): Record<string, string> {
  const headers: Record<string, string> = { Accept: 'application/json', ...request.headers };
  if (request.key === 'valid') headers['X-Api-Key'] = target.apiKey;
  else if (request.key === 'wrong') headers['X-Api-Key'] = WRONG_API_KEY;
  else if (request.key !== 'none') headers['X-Api-Key'] = nearMissKeys(target.apiKey).get(request.key) ?? WRONG_API_KEY;
  const at = request.keyAt;
  if (at?.in === 'header') headers[at.name] = `${at.prefix ?? ''}${target.apiKey}`;
  if (at?.in === 'cookie') headers.Cookie = `${at.name}=${encodeURIComponent(target.apiKey)}`;
  return headers;
}

/** `{key}` in a request's own field line: the target's key. */
const KEY_SLOT = '{key}';

/** Every field line the request carries, in order: its headers, then its own lines with the target's key in place. */
export function requestLines(target: Target, request: ApiRequest): [string, string][] {
  return [
    ...Object.entries(requestHeaders(target, request)),
    ...(request.lines ?? []).map(([name, value]): [string, string] => [name, value.replaceAll(KEY_SLOT, target.apiKey)]),
  ];
}

/** The request's path and query as sent: with the key appended to the query when it is placed there. */
export function requestPath(target: Target, request: ApiRequest): string {
  if (request.keyAt?.in !== 'query') return request.path;
  const pair = `${encodeURIComponent(request.keyAt.name)}=${encodeURIComponent(target.apiKey)}`;
  return request.path + (request.path.includes('?') ? '&' : '?') + pair;
}

/** Methods fetch refuses to send (the Fetch standard's forbidden methods). */
const FORBIDDEN_METHODS = new Set(['CONNECT', 'TRACE', 'TRACK']);

/** True when fetch would send something else than the request says (a normalised path, a refused method). */
export function needsRawSocket(target: Target, request: ApiRequest): boolean {
  if (request.raw || request.framing || request.lines || FORBIDDEN_METHODS.has(request.method.toUpperCase())) return true;
  const base = new URL(target.baseUrl);
  const written = base.origin + base.pathname.replace(/\/+$/, '') + requestPath(target, request);
  const parsed = new URL(written);
  return parsed.origin + parsed.pathname + parsed.search !== written;
}

function parseJson(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** When each paced target may send next (checks send one request at a time, so a slot per target suffices). */
const nextSlot = new WeakMap<Target, number>();

async function pace(target: Target): Promise<void> {
  if (!target.maxRate) return;
  const now = performance.now();
  const slot = Math.max(now, nextSlot.get(target) ?? 0);
  nextSlot.set(target, slot + 1000 / target.maxRate);
  if (slot > now) await new Promise((resolve) => setTimeout(resolve, slot - now));
}

/**
 * No HTTP answer to a request: refused or unresolvable (the target is
 * unreachable: a usage problem, exit 2), or reset, timed out or malformed
 * (the deployment failed to answer a request: a contract failure).
 */
export class TransportError extends Error {
  constructor(
    readonly request: ApiRequest,
    readonly url: string,
    /** The system or undici error code, e.g. ECONNREFUSED, ECONNRESET, TimeoutError. */
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'TransportError';
  }

  /** Nothing listens there, or the host does not resolve. */
  get unreachable(): boolean {
    return ['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH'].includes(this.code);
  }

  /** The deployment took the request and gave no (readable) HTTP answer: reset, timed out, or malformed. Anything else (a bad URL) is the suite's own doing. */
  get answerFailed(): boolean {
    return /^(ECONNRESET|EPIPE|ETIMEDOUT|ECONNABORTED|TimeoutError|AbortError|UND_ERR_.*|HPE_.*|ERR_STREAM_PREMATURE_CLOSE|TypeError)$/.test(
      this.code,
    );
  }
}

/** The undici and system codes of a connection closed before any byte of an answer came. */
const CLOSED_BEFORE_ANSWER = new Set(['UND_ERR_SOCKET', 'UND_ERR_CLOSED', 'ECONNRESET', 'EPIPE']);

function codeOf(error: unknown): string | undefined {
  return (error as { cause?: { code?: string } }).cause?.code ?? (error as { code?: string }).code;
}

/**
 * fetch, sent once more when the connection closed before the answer's status line: the first attempt may have
 * gone out on a kept-alive connection the server was closing as idle. Reading the body is left to the caller
 * (a body cut short is an answer that failed, never retried). Each attempt has its own deadline.
 */
export async function fetchAnswer(url: string, init: RequestInit, timeoutMs: number): Promise<Response> {
  try {
    return await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
  } catch (error) {
    if (!CLOSED_BEFORE_ANSWER.has(codeOf(error) ?? '')) throw error;
    return fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
  }
}

/** True when the target gives any HTTP answer to a plain GET of its base URL now (a refused connection earlier was then no outage). */
export async function answersAtAll(target: Pick<Target, 'baseUrl'>, timeoutMs = 4_000): Promise<boolean> {
  try {
    const response = await fetchAnswer(`${target.baseUrl}/`, { redirect: 'manual' }, timeoutMs);
    await response.arrayBuffer().catch(() => undefined);
    return true;
  } catch {
    return false;
  }
}

function transportError(error: unknown, request: ApiRequest, url: string, timeoutMs: number): TransportError {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  const code = cause?.code ?? (error as { name?: string }).name ?? 'ERROR';
  const why =
    code === 'TimeoutError' || code === 'AbortError'
      ? `no answer within ${timeoutMs / 1000} s`
      : `${code}${cause?.message && cause.message !== code ? ` (${cause.message})` : ''}`;
  return new TransportError(request, url, code, `${request.method} ${url}: ${why}`);
}

/** The content codings fetch (undici) accepts: a retry on a connection of its own asks for the same representation. */
const FETCH_ACCEPT_ENCODING: readonly [string, string] = ['Accept-Encoding', 'gzip, deflate'];

/**
 * The request on a connection of its own (raw-http.ts): written byte for byte, read until the server closes.
 * `asFetch`: a request fetch sent first, sent again as fetch would (the same Accept-Encoding).
 */
async function sendOnOwnConnection(
  target: Target,
  request: ApiRequest,
  url: string,
  timeoutMs: number,
  asFetch = false,
): Promise<Omit<Exchange, 'ms'>> {
  const prefix = new URL(target.baseUrl).pathname.replace(/\/+$/, '');
  let answer: RawAnswer;
  try {
    answer = await sendRaw(
      target.baseUrl,
      {
        method: request.method,
        target: prefix + requestPath(target, request),
        headers: asFetch ? [...requestLines(target, request), FETCH_ACCEPT_ENCODING] : requestLines(target, request),
        hostLines: request.framing?.hostLines,
      },
      timeoutMs,
    );
  } catch (error) {
    throw transportError({ cause: error }, request, url, timeoutMs);
  }
  const text = new TextDecoder('utf-8').decode(answer.body);
  return {
    request,
    url,
    status: answer.status,
    headers: answer.headers,
    text,
    bytes: answer.body,
    json: parseJson(text),
    unexpectedContent: answer.unexpectedContent,
  };
}

/** The request through fetch, on a kept-alive connection; undefined when that connection closed before any answer. */
async function sendByFetch(target: Target, request: ApiRequest, url: string, timeoutMs: number): Promise<Omit<Exchange, 'ms'> | undefined> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: request.method,
      headers: requestHeaders(target, request),
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    if (CLOSED_BEFORE_ANSWER.has(codeOf(error) ?? '')) return undefined;
    throw transportError(error, request, url, timeoutMs);
  }
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(await response.arrayBuffer());
  } catch (error) {
    // The answer began: a body cut short is the deployment's failure to answer, never retried.
    throw transportError(error, request, url, timeoutMs);
  }
  const text = new TextDecoder('utf-8').decode(bytes);
  return { request, url, status: response.status, headers: response.headers, text, bytes, json: parseJson(text) };
}

/**
 * Node's fetch (undici) keeps connections alive, so a run of requests reuses one socket. When the server closed it
 * before answering (an idle close racing the reuse), the request goes once more on a connection of its own: any
 * other kept-alive connection in the pool may be just as stale.
 */
export async function send(target: Target, request: ApiRequest, timeoutMs = 15_000): Promise<Exchange> {
  await pace(target);
  const url = target.baseUrl + requestPath(target, request);
  const started = performance.now();
  const raw = needsRawSocket(target, request);
  const answered =
    (raw ? undefined : await sendByFetch(target, request, url, timeoutMs)) ??
    (await sendOnOwnConnection(target, request, url, timeoutMs, !raw));
  const exchange: Exchange = { ...answered, ms: performance.now() - started };
  target.onExchange?.(exchange);
  return exchange;
}

/** GET with the target's key unless told otherwise. */
export function getJson(target: Target, path: string, key: KeyRole = 'valid', headers?: Record<string, string>): Promise<Exchange> {
  return send(target, { method: 'GET', path, key, headers });
}

function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/**
 * The request as a curl line. The default key is printed; any other key as
 * `$CONTRACT_API_KEY`, so a failure log never holds a real deployment's key.
 */
export function toCurl(target: Target, request: ApiRequest): string {
  if (request.framing) return toRawLine(target, request);
  const parts = ['curl', '-i', '--globoff'];
  // curl, like fetch, would resolve `/./` and `/../` before sending.
  if (needsRawSocket(target, request)) parts.push('--path-as-is');
  if (request.method === 'HEAD') parts.push('--head');
  else if (request.method !== 'GET') parts.push('-X', request.method);
  const hidden = target.apiKey !== 'dev-key';
  for (const [name, value] of Object.entries(requestHeaders(target, request))) {
    if (name === 'Accept') continue;
    if (name === 'X-Api-Key' && request.key === 'valid' && value !== 'dev-key') parts.push('-H', '"X-Api-Key: $CONTRACT_API_KEY"');
    else if (name === 'X-Api-Key' && request.key !== 'wrong' && request.key !== 'valid' && hidden)
      parts.push('-H', `"X-Api-Key: <${request.key} near miss of $CONTRACT_API_KEY>"`);
    else if (hidden && request.keyAt && request.keyAt.in !== 'query' && value.includes(target.apiKey))
      parts.push('-H', `"${name}: ${value.replace(target.apiKey, '$CONTRACT_API_KEY')}"`);
    else parts.push('-H', shellQuote(`${name}: ${value}`));
  }
  // curl sends each -H as its own line, white space and repeats included; an empty value needs `Name;`.
  for (const [name, value] of request.lines ?? []) {
    const line = value === '' ? `${name};` : `${name}: ${value}`;
    parts.push(
      '-H',
      hidden && value.includes(KEY_SLOT)
        ? `"${line.replaceAll(KEY_SLOT, '$CONTRACT_API_KEY')}"`
        : shellQuote(line.replaceAll(KEY_SLOT, target.apiKey)),
    );
  }
  const url = target.baseUrl + requestPath(target, request);
  parts.push(
    hidden && request.keyAt?.in === 'query' ? `"${url.replace(encodeURIComponent(target.apiKey), '$CONTRACT_API_KEY')}"` : shellQuote(url),
  );
  return parts.join(' ');
}

/** A request curl cannot send as it is (derived/framing.ts): its bytes through printf, to nc (plain HTTP) or openssl s_client (HTTPS). */
function toRawLine(target: Target, request: ApiRequest): string {
  const url = new URL(target.baseUrl);
  const secure = url.protocol === 'https:';
  const port = url.port || (secure ? '443' : '80');
  const prefix = url.pathname.replace(/\/+$/, '');
  const text = rawRequestText({
    method: request.method,
    target: prefix + requestPath(target, request),
    host: url.host,
    headers: requestLines(target, request).map(([name, value]) =>
      name === 'X-Api-Key' && value === target.apiKey && value !== 'dev-key' ? [name, '$CONTRACT_API_KEY'] : [name, value],
    ),
    hostLines: request.framing?.hostLines,
  });
  const printed = text
    .replace(/\\/g, '\\\\')
    .replace(/%/g, '%%')
    .replace(/\r/g, '\\r')
    .replace(/\n/g, '\\n')
    .replace(/"/g, '\\"')
    .replace(/`/g, '\\`')
    // A long run of one character (a padded head) as the shell command that writes it.
    .replace(/([A-Za-z0-9])\1{199,}/g, (run, character: string) => `$(head -c ${run.length} /dev/zero | tr '\\0' ${character})`);
  // openssl takes an IPv6 address in brackets, as a URL writes it; nc takes it bare.
  const connect = secure ? `openssl s_client -quiet -connect ${url.hostname}:${port}` : `nc ${connectHost(url)} ${port}`;
  return `printf "${printed}" | ${connect}`;
}

/** A short description of an exchange for failure messages. */
export function describeExchange(exchange: Exchange): string {
  const body = exchange.text.length > 300 ? `${exchange.text.slice(0, 300)}…` : exchange.text;
  return `${exchange.request.method} ${exchange.request.path} (key: ${exchange.request.key}) → ${exchange.status} ${exchange.headers.get('content-type') ?? '(no content-type)'} ${body}`;
}
