// Why: a contract suite tuned on one implementation learns that implementation's habits. This is a third
// implementation of the whole API, written from openapi.yaml (and the RFCs it cites) alone, on node:http, with
// nothing from server/ or seeds/, that makes the OTHER legitimate choice wherever the document leaves one. A
// suite that fails it (in any data shape, any variant) raises a false alarm; a suite that passes one of its
// fault modes (faults.ts) misses a fault. Every choice and the sentence that permits it:
//
//  1. Validation before authentication (400 before 401). "A missing header and an unknown key are both
//     answered with 401" and "a parameter … breaks this document" → 400: the document orders neither.
//     Variant `auth-first` takes the other order.
//  2. Own Message texts. ErrorDto: "Message: Human-readable message, never empty." Only "the Message names it" (400),
//     "tells the two cases apart" (401), "names the id" (404) and the TEST_EXCEPTION text are fixed.
//  3. Chunked bodies, keep-alive off (`Connection: close`), upper-case header names. RFC 9112 §6 allows
//     either framing; RFC 9110 §5.1 "Field names are case-insensitive"; RFC 9112 §9.6 `close`.
//  4. JSON member order reversed, indented with two spaces, spaces around `:`. RFC 8259 §4 "An object is an
//     unordered collection", §2 "Insignificant whitespace is allowed before or after any of the six structural
//     characters"; Detail: "(as JSON values: member order is free)".
//  5. `Content-Type: application/json` without charset. RFC 8259 §11 "No 'charset' parameter is defined".
//  6. Link: one header line per distinct target, `rel` unquoted when alone, several relation types in one value
//     (`rel="first prev"`) when two links share a target, no space before `;`, query parameters in another
//     order (filters, then pageSize, then page). Link header: "any RFC 8288 form: one header line or several,
//     parameters in any order, `rel` quoted or not, several relation types in one value".
//  7. Ids: clients are uuid version 7, staff, locations and insurers version 8. Uuid: `format: uuid` (RFC 9562
//     §4 string form; any version).
//  8. CORS: any Origin is echoed (not `*`) with `Vary: Origin`; the expose list is lower-case, without spaces,
//     and also names ETag. "`Access-Control-Allow-Origin` (`*` or that origin)"; RFC 9110 §5.6.1 lists.
//     Variants: `cors-star`, `cors-allow-list` ("or the configured origin list").
//  9. A preflight is answered 200 (not 204) with `Access-Control-Max-Age`, Allow-Headers in lower case: "answered
//     with a 2xx status"; a preflight on a path that is not the document's is 404 NOT_FOUND ("on any path of
//     this document" says nothing of other paths; variant `preflight-anywhere` answers them 204).
// 10. Extra headers: ETag, Last-Modified, Vary, Server. The document declares the headers it requires and
//     forbids none (RFC 9110 §5.1: unrecognised fields are ignored). Its required Cache-Control,
//     X-Content-Type-Options, Content-Security-Policy and X-Frame-Options in other spellings: `private,
//     No-Store, max-age=0` on a 200, `NoSniff`, `Frame-Ancestors 'NONE'; base-uri 'none'; DEFAULT-SRC 'none'`
//     (CSP3: directive names and keywords in any case, any order, others beside), `deny`; the raw 400 sends
//     its policy as two header lines (two policies, both enforced), `X-Frame-Options: Deny`.
// 11. Generated X-Request-Id: a 26-character ULID, not a uuid. "the server sends an id it generated" (string,
//     maxLength 128). Variant `request-id-long`: 128 characters.
// 12. `Prefer` is ignored entirely. "A real deployment of this API ignores the header."
// 13. "White space" in `filter` is the Unicode White_Space property (the document does not define it; variant
//     fault `filter.whitespace-ecmascript` uses ECMAScript's \s, which differs on U+FEFF and U+0085:
//     a variant until openapi.yaml defined white space as the Unicode White_Space property).
// 14. "brackets" in the phone-digit rule are ( ) [ ] { }.
// 15. An empty `X-Api-Key` header counts as missing (variant `other-messages`: as unknown); "the Message tells
//     the two cases apart" — an empty value is neither named.
// 16. HEAD and a plain OPTIONS are 405 ("any method but GET on a known path"); 405 is decided before the key
//     (a POST is no operation, so no operation's security applies).
// 17. `page`/`pageSize` accept only canonical decimal digits (no sign, no leading zero, no exponent).
// 18. A malformed request line is answered by this server's own 400 ErrorDto, not Node's bare text.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import type { ClientDetail, ClientExtended, ClientSimple, ErrorCode } from '../../contract/wire-types';
import { shapeClients, type ShapeName } from './data';
import type { ImplFaultId, ImplVariantId } from './ids';
import { ALLOWED_ORIGIN } from './ids';
import { codePoints, compareClients, extendedOf, fold, simpleOf, UUID } from './rules';

export interface ImplOptions {
  shape: ShapeName;
  /** Accepted keys (default `reach-key-7`: not the mock's default, so a suite cannot lean on it). */
  apiKeys?: readonly string[];
  fault?: ImplFaultId;
  variant?: ImplVariantId;
}

export interface RunningImpl {
  url: string;
  close(): Promise<void>;
}

export const IMPL_API_KEY = 'reach-key-7';

const P_PING = '/api/v1/Diagnostics/Ping';
const P_EXCEPTION = '/api/v1/Diagnostics/Exception';
const P_SIMPLE = '/api/v1/Client/Simple';
const P_EXTENDED = '/api/v1/Client/Extended';
const P_DETAIL = '/api/v1/Client/Detail/';
const TEST_EXCEPTION_MESSAGE = 'This is a test exception from /Exception endpoint';
const LAST_MODIFIED = 'Mon, 02 Mar 2026 08:00:00 GMT';

type Op = 'ping' | 'exception' | 'simple' | 'extended' | 'detail';
interface Route {
  op: Op;
  idRaw?: string;
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

const ALLOWED_PARAMS: Record<Op, readonly string[]> = {
  ping: [],
  exception: [],
  simple: ['page', 'pageSize'],
  extended: ['page', 'pageSize', 'active', 'filter', 'idStaff', 'idLocation'],
  detail: [],
};

interface ListQuery {
  page: number;
  pageSize: number;
  keep: (p: Prepared) => boolean;
}

interface Prepared {
  client: ClientDetail;
  /** Position in the generated data (faults that touch "every Nth client" use it). */
  n: number;
  lowerId: string;
  folded: [string, string, string, string];
  phoneDigits: string;
}

function crockford(n: number, length: number): string {
  const alphabet = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
  let s = '';
  for (let i = 0; i < length; i++) {
    s = alphabet[n % 32]! + s;
    n = Math.floor(n / 32);
  }
  return s;
}

/** The folding's last step alone (for the faults that drop one of the other steps). */
function replaceLetters(text: string): string {
  const table: Record<string, string> = { ø: 'o', æ: 'ae', ß: 'ss', ł: 'l', đ: 'd', œ: 'oe', ð: 'd', þ: 'th', ı: 'i' };
  let out = '';
  for (const ch of text) out += table[ch] ?? ch;
  return out;
}

function fnv(text: string): string {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return (h >>> 0).toString(16).padStart(8, '0');
}

/** The third implementation; `fault` breaks one sentence, `variant` makes another allowed choice. */
export class ThirdImpl {
  readonly keys: readonly string[];
  private readonly fault: ImplFaultId | undefined;
  private readonly variant: ImplVariantId | undefined;
  private readonly sorted: Prepared[];
  private readonly byId = new Map<string, Prepared>();
  private readonly locations = new Set<string>();
  private requestCounter = 0;

  constructor(private readonly options: ImplOptions) {
    this.keys = options.apiKeys ?? [IMPL_API_KEY];
    this.fault = options.fault;
    this.variant = options.variant;
    const clients = structuredClone(shapeClients(options.shape)) as ClientDetail[];
    this.injectDataFaults(clients);
    const prepared = clients.map((client, n) => this.prepare(client, n));
    this.sorted = prepared.sort((a, b) => compareClients(a.client, b.client));
    for (const p of this.sorted) {
      this.byId.set(p.lowerId, p);
      if (p.client.Location) this.locations.add(p.client.Location.IdLocation.toLowerCase());
    }
  }

  private is(id: ImplFaultId): boolean {
    return this.fault === id;
  }
  private v(id: ImplVariantId): boolean {
    return this.variant === id;
  }

  private prepare(client: ClientDetail, n: number): Prepared {
    const f = (s: string) => this.foldText(s);
    return {
      client,
      n,
      lowerId: client.IdClient.toLowerCase(),
      folded: [
        f(client.PersonalInfo.FullName),
        f(client.PersonalInfo.PersonalId),
        f(client.ContactInfo.Email),
        f(client.ContactInfo.Phone),
      ],
      phoneDigits: client.ContactInfo.Phone.replace(/\D/g, ''),
    };
  }

  /** Record-level faults change the data once, so every view of a client shows the same (wrong) value. */
  private injectDataFaults(clients: ClientDetail[]): void {
    const inOrder = [...clients].sort(compareClients);
    clients.forEach((c, n) => {
      const pi = c.PersonalInfo;
      if (this.is('record.luhn') && n % 9 === 4) pi.PersonalId = pi.PersonalId.slice(0, 12) + String((Number(pi.PersonalId[12]) + 1) % 10);
      if (this.is('record.fullname-two-spaces') && n % 11 === 3) pi.FullName = `${pi.FirstName}  ${pi.LastName}`;
      if (this.is('record.pid-dob') && n % 13 === 2) {
        const day = Number(pi.DateOfBirth.slice(8));
        pi.DateOfBirth = pi.DateOfBirth.slice(0, 8) + String(day === 1 ? 2 : day - 1).padStart(2, '0');
      }
      if (this.is('schema.email-format') && n % 10 === 1) c.ContactInfo.Email = c.ContactInfo.Email.replace('@', '(at)');
      if (this.is('schema.phone-national') && n % 8 === 5) c.ContactInfo.Phone = c.ContactInfo.Phone.replace(/^\+\d\d\s?/, '0');
      if (this.is('schema.postal-no-space')) c.ContactInfo.Address.PostalCode = c.ContactInfo.Address.PostalCode.replace(' ', '');
      if (this.is('schema.gender-extra') && n % 6 === 1) (pi as { Gender: string }).Gender = 'Nonbinary';
      if (this.is('schema.idstaff-not-uuid') && c.Staff) c.Staff = { ...c.Staff, IdStaff: `staff-${fnv(c.Staff.IdStaff).slice(0, 6)}` };
    });
    const first = inOrder[0];
    const second = inOrder[1];
    if (this.is('record.pid-duplicate') && first && second) {
      second.PersonalInfo.PersonalId = first.PersonalInfo.PersonalId;
      second.PersonalInfo.DateOfBirth = first.PersonalInfo.DateOfBirth;
    }
    if (this.is('schema.allergies-51') && first) {
      first.Medical.Allergies = Array.from({ length: 51 }, (_, i) => ({ Name: `Allergen ${i + 1}`, Severity: 'Mild' as const }));
    }
    if (this.is('schema.fullname-121') && first) {
      const pi = first.PersonalInfo;
      pi.FirstName = `Aa${'a'.repeat(58)}`;
      pi.LastName = `Ab${'b'.repeat(58)}`;
      pi.FullName = `${pi.FirstName} ${pi.LastName}`;
    }
  }

  // ---- text -------------------------------------------------------------------------------------------

  private foldText(text: string): string {
    if (this.is('filter.accents-kept')) return replaceLetters(text.toLowerCase());
    if (this.is('filter.case-sensitive')) return replaceLetters(text.normalize('NFD').replace(/\p{M}/gu, ''));
    if (this.is('filter.no-letter-table')) return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
    if (this.is('filter.over-folding')) return fold(text).replace(/ŋ/g, 'n').replace(/ħ/g, 'h').replace(/ə/g, 'e');
    return fold(text);
  }

  private whiteSpace(): RegExp {
    return this.is('filter.whitespace-ecmascript') ? /\s+/g : /\p{White_Space}+/gu;
  }

  // ---- HTTP -------------------------------------------------------------------------------------------

  async listen(): Promise<RunningImpl> {
    const server = http.createServer((req, res) => this.handle(req, res));
    server.keepAliveTimeout = 1000;
    server.on('clientError', (_err, socket) => {
      const body = this.serialise({ Code: 'VALIDATION_ERROR', Message: 'The request line or a header is not valid HTTP' });
      if (socket.writable) {
        socket.end(
          `HTTP/1.1 400 Bad Request\r\nContent-Type: application/json\r\nX-Request-Id: ${this.newRequestId()}\r\n` +
            'Cache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\n' +
            "Content-Security-Policy: frame-ancestors 'none'\r\nContent-Security-Policy: default-src 'none'\r\nX-Frame-Options: Deny\r\n" +
            `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
        );
      } else socket.destroy();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    return {
      url: `http://127.0.0.1:${port}`,
      close: () =>
        new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        }),
    };
  }

  private newRequestId(): string {
    const n = ++this.requestCounter;
    if (this.v('request-id-long')) {
      const chars = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.:@-';
      let s = `req-${n}-`;
      let x = n * 2654435761;
      while (s.length < 128) {
        x = (x * 1103515245 + 12345) % 2147483648;
        s += chars[x % chars.length];
      }
      return s;
    }
    return crockford(Date.now(), 10) + crockford(n, 6) + crockford(Math.floor(Math.random() * 2 ** 40), 10);
  }

  private requestId(req: http.IncomingMessage): string {
    const given = req.headers['x-request-id'];
    if (this.is('xrid.never-echoed') || typeof given !== 'string') return this.newRequestId();
    if (this.is('xrid.echo-any') && /^[\x20-\x7e]{1,128}$/.test(given)) return given;
    if (this.is('xrid.127-max') && given.length === 128) return this.newRequestId();
    if (/^[A-Za-z0-9_.:@-]{1,128}$/.test(given)) return this.is('xrid.lowercased') ? given.toLowerCase() : given;
    return this.newRequestId();
  }

  private originAccepted(origin: string): boolean {
    if (this.v('cors-allow-list')) return origin === ALLOWED_ORIGIN;
    return true;
  }

  private h(name: string): string {
    return this.v('conventional-framing')
      ? name.replace(/(^|-)([A-Z]+)/g, (_m, dash: string, word: string) => dash + word[0] + word.slice(1).toLowerCase())
      : name;
  }

  private corsHeaders(req: http.IncomingMessage, status: number): Record<string, string> {
    const origin = req.headers.origin;
    const out: Record<string, string> = {};
    if (!this.v('cors-star')) out.VARY = 'Origin';
    if (typeof origin !== 'string' || !this.originAccepted(origin)) return out;
    if (this.is('cors.no-acao-on-errors') && status >= 400) return out;
    out['ACCESS-CONTROL-ALLOW-ORIGIN'] = this.v('cors-star') ? '*' : origin;
    out['ACCESS-CONTROL-EXPOSE-HEADERS'] = this.is('cors.expose-no-link')
      ? 'x-total-count,x-request-id,etag'
      : 'link,x-total-count,x-request-id,etag';
    return out;
  }

  private serialise(value: unknown): string {
    if (this.v('conventional-framing')) return JSON.stringify(value);
    if (this.v('json-escaped')) {
      // Alphabetical members, CRLF and tab whitespace, every non-ASCII character and `/` escaped (RFC 8259 §7).
      const sortKeys = (v: unknown): unknown =>
        Array.isArray(v)
          ? v.map(sortKeys)
          : v !== null && typeof v === 'object'
            ? Object.fromEntries(
                Object.keys(v)
                  .sort()
                  .map((k) => [k, sortKeys((v as Record<string, unknown>)[k])]),
              )
            : v;
      return JSON.stringify(sortKeys(value), null, '\t')
        .replace(/\n/g, '\r\n')
        .replace(/[\u007f-\uffff]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`)
        .replace(/\//g, '\\/');
    }
    const reverse = (v: unknown): unknown =>
      Array.isArray(v)
        ? v.map(reverse)
        : v !== null && typeof v === 'object'
          ? Object.fromEntries(
              Object.keys(v)
                .reverse()
                .map((k) => [k, reverse((v as Record<string, unknown>)[k])]),
            )
          : v;
    return JSON.stringify(reverse(value), null, 2).replace(/^(\s*"(?:[^"\\]|\\.)*"):/gm, '$1 :');
  }

  private send(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    status: number,
    body: unknown,
    extra: Record<string, string | string[]>,
    requestId: string,
  ): void {
    let text = body === undefined ? '' : this.serialise(body);
    if (this.is('media.duplicate-names') && status === 200 && /^\{/.test(text) && text.includes('"Page"')) {
      const page = /"Page"\s*:\s*(\d+)/.exec(text)?.[1] ?? '1';
      text = `{"Page":${page},${text.slice(1)}`;
    }
    if (this.is('media.bom') && text) text = `\uFEFF${text}`;
    let bytes = this.is('media.latin1') ? Buffer.from(text, 'latin1') : Buffer.from(text, 'utf8');
    const headers: Record<string, string | string[]> = {
      ...this.corsHeaders(req, status),
      ...extra,
      'X-CONTENT-TYPE-OPTIONS': 'NoSniff',
      'CACHE-CONTROL': 'no-store',
      'CONTENT-SECURITY-POLICY': "Frame-Ancestors 'NONE'; base-uri 'none'; DEFAULT-SRC 'none'",
      'X-FRAME-OPTIONS': 'deny',
      SERVER: 'reach-third/1',
    };
    if (!(this.is('xrid.missing-on-errors') && status >= 400)) headers['X-REQUEST-ID'] = requestId;
    if (text) {
      let type = 'application/json';
      if (this.is('media.latin1')) type = 'application/json; charset=ISO-8859-1';
      if (this.is('media.text-plain') && status < 300) type = 'text/plain';
      if (this.is('media.error-problem-json') && status >= 400) type = 'application/problem+json';
      if (this.is('err.not-found-text') && status === 404 && (body as { Code?: string }).Code === 'NOT_FOUND') {
        type = 'text/plain';
        bytes = Buffer.from('Not Found');
      }
      headers['CONTENT-TYPE'] = type;
      if (status === 200) {
        headers.ETAG = `W/"${fnv(text)}"`;
        headers['LAST-MODIFIED'] = LAST_MODIFIED;
        headers['CACHE-CONTROL'] = 'private, No-Store, max-age=0';
      }
    }
    if (this.v('gzip') && bytes.length > 0 && /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''))) {
      bytes = zlib.gzipSync(bytes);
      headers['CONTENT-ENCODING'] = 'gzip';
      headers.VARY = headers.VARY ? `${String(headers.VARY)}, Accept-Encoding` : 'Accept-Encoding';
    }
    const conventional = this.v('conventional-framing');
    if (conventional) headers['CONTENT-LENGTH'] = String(bytes.length);
    else headers.CONNECTION = 'close';
    for (const [name, value] of Object.entries(headers)) res.setHeader(this.h(name), value);
    res.statusCode = status;
    if (conventional || bytes.length === 0) {
      res.end(bytes);
      return;
    }
    // Chunked: the body in three pieces.
    const third = Math.ceil(bytes.length / 3);
    res.write(bytes.subarray(0, third));
    res.write(bytes.subarray(third, 2 * third));
    res.end(bytes.subarray(2 * third));
  }

  private errorBody(status: number, code: ErrorCode, message: string): Record<string, unknown> {
    let m = message;
    if (status === 400 && this.is('err.400-unnamed')) m = 'The request is not valid.';
    if (status === 400 && this.is('err.message-maxlength'))
      m = `${m} ${'(see the API reference for the rules of every parameter) '.repeat(9)}`;
    const body: Record<string, unknown> = { Code: status === 400 && this.is('err.400-wrong-code') ? 'INTERNAL_ERROR' : code, Message: m };
    if (this.is('err.extra-member')) body.Status = status;
    return body;
  }

  // ---- routing ------------------------------------------------------------------------------------------

  private route(rawPath: string): Route | null {
    let path = rawPath;
    if (this.is('path.empty-segments')) path = path.replace(/\/{2,}/g, '/');
    if (this.is('path.matrix-params')) path = path.replace(/;[^/]*/g, '');
    if (this.is('path.dot-segments')) {
      const out: string[] = [];
      for (const seg of path.split('/')) {
        if (seg === '.') continue;
        if (seg === '..') out.pop();
        else out.push(seg);
      }
      path = out.join('/');
    }
    if (this.is('path.trailing-slash') && path.length > 1 && path.endsWith('/')) path = path.slice(0, -1);
    if (this.is('path.suffix-extension')) path = path.replace(/\.(json|xml)$/, '');
    const cmp = this.is('path.case-insensitive') ? (s: string) => s.toLowerCase() : (s: string) => s;
    const p = cmp(path);
    if (p === cmp(P_PING)) return { op: 'ping' };
    if (p === cmp(P_EXCEPTION)) return { op: 'exception' };
    if (p === cmp(P_SIMPLE)) return { op: 'simple' };
    if (p === cmp(P_EXTENDED)) return { op: 'extended' };
    if (p.startsWith(cmp(P_DETAIL))) {
      const rest = path.slice(P_DETAIL.length);
      const idRaw = this.is('path.detail-extra-segment') ? rest.split('/')[0]! : rest;
      if (idRaw !== '' && !idRaw.includes('/')) return { op: 'detail', idRaw };
    }
    return null;
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    req.resume();
    const requestId = this.requestId(req);
    try {
      this.answer(req, res, requestId);
    } catch (error) {
      if (error instanceof HttpError) {
        this.send(req, res, error.status, this.errorBody(error.status, error.code, error.message), error.headers, requestId);
      } else {
        this.send(req, res, 500, this.errorBody(500, 'INTERNAL_ERROR', 'The service failed unexpectedly; try again later'), {}, requestId);
      }
    }
  }

  private answer(req: http.IncomingMessage, res: http.ServerResponse, requestId: string): void {
    let target = Buffer.from(req.url ?? '/', 'latin1').toString('utf8');
    target = target.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/?]*/i, '') || '/';
    const q = target.indexOf('?');
    const rawPath = q < 0 ? target : target.slice(0, q);
    const rawQuery = q < 0 ? '' : target.slice(q + 1);
    const method = req.method ?? 'GET';
    const route = this.route(rawPath);
    const origin = req.headers.origin;
    const isPreflight = method === 'OPTIONS' && typeof origin === 'string' && req.headers['access-control-request-method'] !== undefined;

    if (isPreflight && (route || this.v('preflight-anywhere'))) {
      if (this.is('cors.preflight-needs-key') && route && ['simple', 'extended', 'detail'].includes(route.op)) this.authenticate(req);
      const headers: Record<string, string> = {};
      if (this.originAccepted(origin)) {
        headers['ACCESS-CONTROL-ALLOW-METHODS'] = 'GET';
        headers['ACCESS-CONTROL-ALLOW-HEADERS'] = this.is('cors.preflight-no-x-api-key')
          ? 'content-type, prefer, x-request-id'
          : 'x-api-key, prefer, x-request-id';
        headers['ACCESS-CONTROL-MAX-AGE'] = '600';
      }
      this.send(req, res, this.v('preflight-anywhere') || this.v('conventional-framing') ? 204 : 200, undefined, headers, requestId);
      return;
    }
    if (!route) {
      const code: ErrorCode = this.is('err.unknown-path-code') ? 'CLIENT_NOT_FOUND' : 'NOT_FOUND';
      throw new HttpError(404, code, `Nothing is served at ${method} ${rawPath.slice(0, 200)}`);
    }
    if (method !== 'GET' && !(method === 'HEAD' && this.is('err.head-served'))) {
      if (this.is('err.post-404')) throw new HttpError(404, 'NOT_FOUND', `Nothing is served at ${method} ${rawPath.slice(0, 200)}`);
      if (this.is('err.options-204') && method === 'OPTIONS') {
        this.send(req, res, 204, undefined, { ALLOW: 'GET, OPTIONS' }, requestId);
        return;
      }
      throw new HttpError(
        405,
        'METHOD_NOT_ALLOWED',
        `This path answers GET only, not ${method.slice(0, 20)}`,
        this.is('err.405-no-allow') ? {} : { ALLOW: 'GET' },
      );
    }

    const pingKey = route.op === 'ping' && this.is('auth.ping-key-required');
    const needsKey =
      pingKey || route.op === 'simple' || route.op === 'extended' || (route.op === 'detail' && !this.is('auth.detail-public'));
    const keyFirst = this.v('auth-first') || pingKey;
    if (keyFirst && needsKey) this.authenticate(req);
    const params = this.parseQuery(rawQuery, route.op);
    const query = route.op === 'simple' || route.op === 'extended' ? this.listQuery(route.op, params) : undefined;
    const id = route.op === 'detail' ? this.parseId(route.idRaw!) : undefined;
    if (!keyFirst && needsKey) this.authenticate(req);

    switch (route.op) {
      case 'ping':
        this.send(req, res, 200, this.is('schema.pong-object') ? { Message: 'Pong' } : 'Pong', {}, requestId);
        return;
      case 'exception':
        this.send(
          req,
          res,
          500,
          this.errorBody(
            500,
            this.is('err.exception-code') ? 'INTERNAL_ERROR' : 'TEST_EXCEPTION',
            this.is('err.exception-message') ? 'This is a test exception from the /Exception endpoint' : TEST_EXCEPTION_MESSAGE,
          ),
          {},
          requestId,
        );
        return;
      case 'detail':
        this.detail(req, res, route.idRaw!, id!, requestId);
        return;
      default:
        this.list(req, res, route.op, params, query!, requestId);
    }
  }

  private authenticate(req: http.IncomingMessage): void {
    let key = req.headers['x-api-key'];
    if (key === undefined && this.is('auth.cookie')) key = /(?:^|;\s*)X-Api-Key=([^;]*)/i.exec(String(req.headers.cookie ?? ''))?.[1];
    if (key === undefined && this.is('auth.bearer')) key = /^Bearer\s+(.+)$/i.exec(String(req.headers.authorization ?? ''))?.[1];
    const missing = key === undefined || (key === '' && !this.v('other-messages'));
    const same = this.is('err.401-same-message');
    if (missing) {
      throw new HttpError(
        401,
        'UNAUTHORIZED',
        same
          ? 'Not authorised'
          : this.v('other-messages')
            ? 'X-Api-Key: header absent'
            : 'This operation needs an API key in the X-Api-Key header; none was sent',
      );
    }
    const k = String(key);
    const ok = this.keys.includes(k) || (this.is('auth.prefix') && this.keys.some((known) => k.startsWith(known)));
    if (!ok) {
      throw new HttpError(
        401,
        'UNAUTHORIZED',
        same
          ? 'Not authorised'
          : this.v('other-messages')
            ? 'X-Api-Key: value not recognised'
            : 'The key sent in X-Api-Key is not one this service accepts',
      );
    }
  }

  // ---- parameters ------------------------------------------------------------------------------------------

  private decode(text: string, what: string, plusIsSpace = true): string {
    try {
      return decodeURIComponent(plusIsSpace ? text.replace(/\+/g, ' ') : text);
    } catch {
      throw new HttpError(400, 'VALIDATION_ERROR', `${what} is not valid percent-encoding`);
    }
  }

  private bad(name: string, rule: string): HttpError {
    return new HttpError(
      400,
      'VALIDATION_ERROR',
      this.v('other-messages') ? `/query/${name}: ${rule}` : `Query parameter «${name}» is not acceptable: ${rule}`,
    );
  }

  private parseQuery(rawQuery: string, op: Op): Map<string, string> {
    const allowed = ALLOWED_PARAMS[op];
    const out = new Map<string, string>();
    for (const piece of rawQuery.split('&')) {
      if (piece === '') continue;
      const eq = piece.indexOf('=');
      const rawName = eq < 0 ? piece : piece.slice(0, eq);
      let name = this.decode(rawName, 'A query parameter name');
      const isFilter = name === 'filter';
      const value =
        eq < 0
          ? ''
          : this.decode(piece.slice(eq + 1), `query parameter «${name.slice(0, 40)}»`, !(isFilter && this.is('filter.plus-literal')));
      if (!allowed.includes(name)) {
        const loose = this.is('param.names-case-insensitive') ? allowed.find((a) => a.toLowerCase() === name.toLowerCase()) : undefined;
        if (loose) name = loose;
        else if (this.is('param.unknown-ignored')) continue;
        else
          throw new HttpError(
            400,
            'VALIDATION_ERROR',
            `Unknown query parameter «${name.slice(0, 60)}» (this operation takes: ${allowed.join(', ') || 'none'})`,
          );
      }
      if (out.has(name)) {
        if (this.is('param.repeated-first')) continue;
        throw this.bad(name, 'it may be given only once');
      }
      out.set(name, value);
    }
    return out;
  }

  private intParam(params: Map<string, string>, name: 'page' | 'pageSize', fallback: number, max: number): number {
    const raw = params.get(name);
    if (raw === undefined || (raw === '' && name === 'page' && this.is('page.empty-default'))) return fallback;
    if (name === 'page' && this.is('page.zero-clamped') && /^-?\d+$/.test(raw) && Number(raw) <= 0) return 1;
    if (name === 'page' && this.is('page.fraction-truncated') && /^\d+\.\d+$/.test(raw) && Number(raw) >= 1) return Math.trunc(Number(raw));
    let limit = max;
    if (name === 'page' && this.is('page.max-rejected')) limit = max - 1;
    if (name === 'page' && this.is('page.int32-overflow')) limit = Number.MAX_SAFE_INTEGER;
    if (name === 'pageSize' && this.is('pageSize.100-rejected')) limit = 99;
    if (/^[1-9]\d{0,15}$/.test(raw) && Number(raw) > limit && name === 'pageSize' && this.is('pageSize.clamped')) return max;
    if (!/^[1-9]\d{0,15}$/.test(raw) || Number(raw) > limit)
      throw this.bad(name, `must be a whole number from 1 to ${limit}, written in digits`);
    return Number(raw);
  }

  private uuidParam(params: Map<string, string>, name: 'idStaff' | 'idLocation'): string | undefined {
    const raw = params.get(name);
    if (raw === undefined) return undefined;
    if (name === 'idStaff' && this.is('idStaff.not-validated')) return raw.toLowerCase();
    const ok = UUID.test(raw) && (!this.is('idStaff.versions-1-5') || /^.{14}[1-5].{4}[89abAB]/.test(raw));
    if (!ok) throw this.bad(name, 'must be a uuid (8-4-4-4-12 hexadecimal digits)');
    if (name === 'idLocation' && this.is('idLocation.unknown-400') && !this.locations.has(raw.toLowerCase()))
      throw this.bad(name, 'no such location');
    return name === 'idStaff' && this.is('idStaff.case-sensitive') ? raw : raw.toLowerCase();
  }

  private parseId(idRaw: string): string {
    const id = this.decode(idRaw, 'The path parameter «idClient»', false);
    if (this.is('detail.uuid-no-dashes') && /^[0-9a-fA-F]{32}$/.test(id)) {
      return `${id.slice(0, 8)}-${id.slice(8, 12)}-${id.slice(12, 16)}-${id.slice(16, 20)}-${id.slice(20)}`.toLowerCase();
    }
    if (!UUID.test(id)) {
      if (this.is('detail.non-uuid-404')) return id;
      throw new HttpError(
        400,
        'VALIDATION_ERROR',
        this.v('other-messages')
          ? `/path/idClient: not a uuid`
          : `Path parameter «idClient» must be a uuid; «${id.slice(0, 60)}» is not one`,
      );
    }
    return this.is('detail.case-sensitive') ? id : id.toLowerCase();
  }

  // ---- operations --------------------------------------------------------------------------------------------

  private detail(req: http.IncomingMessage, res: http.ServerResponse, idRaw: string, id: string, requestId: string): void {
    const found = this.byId.get(id);
    if (!found) {
      const named = this.v('other-messages') ? id.toLowerCase() : this.decode(idRaw, 'idClient', false);
      const message = this.is('err.detail-404-message') ? 'There is no such client' : `No client has the IdClient ${named.slice(0, 60)}`;
      throw new HttpError(404, this.is('err.detail-404-code') ? 'NOT_FOUND' : 'CLIENT_NOT_FOUND', message);
    }
    this.send(req, res, 200, this.detailView(found), {}, requestId);
  }

  private detailView(p: Prepared): unknown {
    const c = structuredClone(p.client) as unknown as Record<string, unknown> & ClientDetail;
    if (this.is('detail.staff-name') && c.Staff) c.Staff.FullName = `Dr. ${c.Staff.FullName}`.slice(0, 120);
    if (this.is('detail.status-flipped') && p.n % 7 === 3) c.Status = c.Status === 'Active' ? 'Inactive' : 'Active';
    if (this.is('detail.location-null') && c.Location && p.n % 5 === 1) c.Location = null;
    if (this.is('schema.staff-omitted') && c.Staff === null) delete (c as Record<string, unknown>).Staff;
    if (this.is('schema.insurance-empty-object') && c.Insurance === null) (c as Record<string, unknown>).Insurance = {};
    if (this.is('schema.status-lowercase')) (c as Record<string, unknown>).Status = c.Status.toLowerCase();
    return c;
  }

  private simpleView(p: Prepared): ClientSimple | Record<string, unknown> {
    const s = simpleOf(p.client);
    return this.is('schema.simple-extra') ? { ...s, Status: p.client.Status } : s;
  }

  private extendedView(p: Prepared): ClientExtended | Record<string, unknown> {
    const e: Record<string, unknown> & ClientExtended = { ...extendedOf(p.client) };
    if (this.is('extended.staffname-placeholder') && e.IdStaff === null) (e as Record<string, unknown>).StaffName = 'Unassigned';
    if (this.is('extended.phone-differs')) e.Phone = `+${e.Phone.replace(/\D/g, '')}`;
    if (this.is('schema.status-lowercase')) (e as Record<string, unknown>).Status = e.Status.toLowerCase();
    return e;
  }

  private matches(p: Prepared, term: string, digitsTerm: string | null): boolean {
    const fields = [...p.folded];
    if (this.is('filter.email-not-searched')) fields.splice(2, 1);
    if (this.is('filter.city-searched')) fields.push(this.foldText(p.client.ContactInfo.Address.City));
    if (this.is('filter.across-fields') ? fields.join(' ').includes(term) : fields.some((f) => f.includes(term))) return true;
    return digitsTerm !== null && digitsTerm !== '' && p.phoneDigits.includes(digitsTerm);
  }

  private order(op: Op): Prepared[] {
    const byName = (a: Prepared, b: Prepared) =>
      a.client.PersonalInfo.FullName.localeCompare(b.client.PersonalInfo.FullName, 'en', { sensitivity: 'base' });
    const byId = (a: Prepared, b: Prepared) => (a.lowerId < b.lowerId ? -1 : a.lowerId > b.lowerId ? 1 : 0);
    if (this.is('order.ordinal')) {
      return [...this.sorted].sort((a, b) => {
        const x = a.client.PersonalInfo.FullName;
        const y = b.client.PersonalInfo.FullName;
        return x < y ? -1 : x > y ? 1 : byId(a, b);
      });
    }
    if (this.is('order.swedish')) {
      const sv = new Intl.Collator('sv', { sensitivity: 'base' });
      return [...this.sorted].sort((a, b) => sv.compare(a.client.PersonalInfo.FullName, b.client.PersonalInfo.FullName) || byId(a, b));
    }
    if (this.is('order.ties-desc')) return [...this.sorted].sort((a, b) => byName(a, b) || byId(b, a));
    if (this.is('order.extended-ties') && op === 'extended') {
      return [...this.sorted].sort(
        (a, b) => byName(a, b) || a.client.PersonalInfo.PersonalId.localeCompare(b.client.PersonalInfo.PersonalId),
      );
    }
    return this.sorted;
  }

  /** Every parameter's value checked (before the key, in the base order); the list's selection made ready. */
  private listQuery(op: Op, params: Map<string, string>): ListQuery {
    const page = this.intParam(params, 'page', 1, 2147483647);
    const pageSize = this.intParam(params, 'pageSize', this.is('pageSize.default-20') ? 20 : 25, 100);
    const query: ListQuery = { page, pageSize, keep: () => true };
    if (op === 'extended') {
      const activeRaw = params.get('active');
      let active: boolean | undefined;
      if (activeRaw !== undefined) {
        if (this.is('active.lenient') && /^(1|yes|true)$/i.test(activeRaw)) active = true;
        else if (this.is('active.lenient') && /^(0|no|false)$/i.test(activeRaw)) active = false;
        else if (activeRaw === 'true' || activeRaw === 'false') active = activeRaw === 'true';
        else throw this.bad('active', 'must be true or false');
        if (active === false && this.is('active.false-ignored')) active = undefined;
      }
      const filterRaw = params.get('filter');
      if (filterRaw !== undefined) {
        const limitOk =
          this.is('filter.maxlength-off') || (this.is('filter.length-utf16') ? filterRaw.length <= 200 : codePoints(filterRaw) <= 200);
        if (!limitOk) throw this.bad('filter', 'must be at most 200 characters');
      }
      const idStaff = this.uuidParam(params, 'idStaff');
      const idLocation = this.uuidParam(params, 'idLocation');
      if (idStaff !== undefined && this.is('filters.active-dropped-with-staff')) active = undefined;
      let term = filterRaw ?? '';
      const ws = this.whiteSpace();
      if (!this.is('filter.not-trimmed')) term = term.replace(new RegExp(`^(?:${ws.source})|(?:${ws.source})$`, ws.flags), '');
      if (!this.is('filter.runs-kept')) term = term.replace(ws, ' ');
      const folded = this.foldText(term);
      const phoneTerm = this.is('filter.phone-digits-any-term') ? /\d/.test(term) : /^[\d +\-()[\]{}]+$/.test(term) && /\d/.test(term);
      const digitsTerm = phoneTerm && !this.is('filter.phone-digits-off') ? term.replace(/\D/g, '') : null;
      query.keep = (p) =>
        (active === undefined || (p.client.Status === 'Active') === active) &&
        (idStaff === undefined ||
          (p.client.Staff !== null &&
            (this.is('idStaff.case-sensitive') || this.is('idStaff.not-validated')
              ? p.client.Staff.IdStaff
              : p.client.Staff.IdStaff.toLowerCase()) === idStaff)) &&
        (idLocation === undefined || (p.client.Location !== null && p.client.Location.IdLocation.toLowerCase() === idLocation)) &&
        (term === '' || this.matches(p, folded, digitsTerm));
    }
    return query;
  }

  private list(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    op: Op,
    params: Map<string, string>,
    query: ListQuery,
    requestId: string,
  ): void {
    const { page, pageSize } = query;
    const rows = this.order(op).filter(query.keep);
    const total = rows.length;
    let start = (page - 1) * pageSize;
    if (this.is('page.past-end-last') && start >= total && total > 0) start = Math.floor((total - 1) / pageSize) * pageSize;
    const slice = rows.slice(start, start + pageSize);
    const results = slice.map((p) => (op === 'simple' ? this.simpleView(p) : this.extendedView(p)));
    const headers: Record<string, string | string[]> = {};
    let count = total;
    if (this.is('total.page-length')) count = results.length;
    if (this.is('total.ignores-filters')) count = this.sorted.length;
    if (!(this.is('total.absent-when-zero') && count === 0)) headers['X-TOTAL-COUNT'] = String(count);
    headers.LINK = this.link(req, op, params, page, pageSize, total);
    const body = this.is('schema.page-string')
      ? { Page: String(page), PageSize: pageSize, Results: results }
      : { Page: page, PageSize: pageSize, Results: results };
    this.send(req, res, 200, body, headers, requestId);
  }

  // ---- Link -------------------------------------------------------------------------------------------------

  private link(
    req: http.IncomingMessage,
    op: Op,
    params: Map<string, string>,
    page: number,
    pageSize: number,
    total: number,
  ): string | string[] {
    const last = this.is('link.last-zero') ? Math.ceil(total / pageSize) : Math.max(1, Math.ceil(total / pageSize));
    const rels: [string, number][] = [];
    if (!(this.is('link.no-first-on-page1') && page === 1)) rels.push(['first', 1]);
    if (page > 1)
      rels.push([this.is('link.rel-previous') ? 'previous' : 'prev', this.is('link.prev-past-end') ? page - 1 : Math.min(page - 1, last)]);
    if (page < last || (this.is('link.next-on-last') && page === last)) rels.push(['next', page + 1]);
    rels.push(['last', last]);
    const path = op === 'extended' && !this.is('link.other-operation') ? P_EXTENDED : P_SIMPLE;
    const enc = this.is('link.unencoded') ? (s: string) => s.replace(/[^\x20-\x7e]/g, encodeURIComponent) : encodeURIComponent;
    const target = (n: number, form: 'absolute-path' | 'relative-path' | 'query') => {
      const query: string[] = [];
      if (!this.is('link.drops-filters')) {
        for (const [name, value] of params) if (name !== 'page' && name !== 'pageSize') query.push(`${name}=${enc(value)}`);
      }
      query.push(`pageSize=${pageSize}`, `page=${n}`);
      const q = `?${query.join('&')}`;
      if (this.is('link.absolute')) return `http://${req.headers.host ?? '127.0.0.1'}${path}${q}`;
      if (form === 'query') return q;
      if (form === 'relative-path') return path.slice(path.lastIndexOf('/') + 1) + q;
      return path + q;
    };
    if (this.v('link-conventional')) return rels.map(([rel, n]) => `<${target(n, 'absolute-path')}>; rel="${rel}"`).join(', ');
    // Group relation types that share a target: `rel="first prev"`.
    const groups = new Map<number, string[]>();
    for (const [rel, n] of rels) groups.set(n, [...(groups.get(n) ?? []), rel]);
    const values = [...groups].map(([n, names]) => {
      if (this.v('link-relative-path')) return `<${target(n, n === 1 ? 'query' : 'relative-path')}>; rel="${names.join(' ')}"`;
      if (this.v('link-exotic-params'))
        return `<${target(n, 'absolute-path')}> ; title="page ${n}" ;REL="${names.join(' ')}"; type="application/json"`;
      return names.length === 1
        ? `<${target(n, 'absolute-path')}>;rel=${names[0]}`
        : `<${target(n, 'absolute-path')}>;rel="${names.join(' ')}"`;
    });
    return this.v('link-exotic-params') ? values.join(' ,  ') : values;
  }
}

/** Starts the third implementation on 127.0.0.1 and a free port. */
export function startImpl(options: ImplOptions): Promise<RunningImpl> {
  return new ThirdImpl(options).listen();
}
