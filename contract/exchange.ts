// One exchange as the contract's drivers see it: a request as a target-independent value (the key is a role, not
// a string, so a recorded request can be replayed against another target and printed as a curl line) and the
// answer it got. The contract suite's HTTP client makes them; spec-contract.ts and the reports read them.
/**
 * Which `X-Api-Key` the request carries: the target's key, none, one no
 * deployment accepts, or a near miss of the target's key (another case, all
 * but its last character, one character more), which must be refused too.
 */
export type KeyRole = 'valid' | 'none' | 'wrong' | NearMissKey;
export type NearMissKey = 'other-case' | 'prefix' | 'longer';

/**
 * The target's key where the security scheme does not declare it (the derived
 * security checks): in another header (with a prefix such as `Bearer `), in
 * the query or in a cookie. The request's `key` role still says what
 * `X-Api-Key` carries (usually none).
 */
export type KeyPlacement = { in: 'header'; name: string; prefix?: string } | { in: 'query'; name: string } | { in: 'cookie'; name: string };

export interface ApiRequest {
  method: string;
  /** Path and query exactly as sent, already percent-encoded, e.g. `/api/v1/Client/Simple?pageSize=5`. */
  path: string;
  key: KeyRole;
  /** Extra request headers (e.g. `Prefer`); on the raw socket their names keep the case given. */
  headers?: Readonly<Record<string, string>>;
  /** The target's key sent somewhere else as well. */
  keyAt?: KeyPlacement;
  /**
   * Field lines written after the headers, exactly as given, on the raw socket: a field twice, an empty value,
   * white space around a value (fetch would join, drop or trim them). `{key}` in a value stands for the target's
   * key, so the request stays target-independent.
   */
  lines?: readonly (readonly [string, string])[];
  /**
   * Written on the socket byte for byte (raw-http.ts) instead of by fetch. Also
   * chosen by itself for what fetch would change or refuse: a path the URL
   * parser normalises (`/./`, `%2e`, `\`), CONNECT, TRACE.
   */
  raw?: boolean;
  /**
   * A request whose HTTP/1.1 framing breaks a rule of RFC 9112 (derived/framing.ts):
   * written on the raw socket, with `hostLines` in place of the target's Host
   * line when given (none, two, one that is no host; `{host}` stands for the
   * target's host, so the request stays target-independent). `rule` says
   * which rule, for messages.
   */
  framing?: { rule: string; hostLines?: readonly string[] };
}

export interface Exchange {
  request: ApiRequest;
  url: string;
  /** 0 when the connection closed without an answer (only on the raw socket: CONNECT, say). */
  status: number;
  headers: Headers;
  /** The body decoded as UTF-8 (a leading byte order mark dropped, bad bytes replaced): for messages and parsing. */
  text: string;
  /** The body's bytes as received (after Content-Encoding is undone): what RFC 8259's rules are held to. */
  bytes: Uint8Array;
  /** The body parsed as JSON, or undefined when it is empty or not JSON. */
  json: unknown;
  ms: number;
  /** Bytes sent after an answer that has no content by definition (a HEAD answer: RFC 9110 §9.3.2). */
  unexpectedContent?: number;
}

/**
 * The pathname an exchange's operation is matched on: its request path, below
 * the base URL's path prefix (a deployment at `https://gw/records` serves
 * `/api/v1/...` at `https://gw/records/api/v1/...`).
 */
export function operationPathname(exchange: Pick<Exchange, 'request'>): string {
  // As sent, not through the URL parser: it would resolve `/./` and `%2e`, turn `\\` into `/` and read `//x` as a host.
  return exchange.request.path.split(/[?#]/, 1)[0]!;
}
