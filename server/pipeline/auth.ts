// X-Api-Key on the Client operations. How a given key is compared with the
// accepted ones is the road's: the server and the Node handlers compare
// SHA-256 digests with timingSafeEqual (key-digest.ts), so neither a key's
// content nor its length leaks through timing; the browser handlers, whose
// keys ship in the page anyway, compare the text (browser.ts). A connection's
// last header value and its verdict are kept with the connection: a
// keep-alive client sends the same key on every request, and comparing a
// caller's header with that same caller's previous header tells it nothing it
// did not send itself (the digest was ~3% of an uncached request's CPU).
import { ApiError, MISSING_KEY_MESSAGE, UNKNOWN_KEY_MESSAGE } from '../errors';
import type { RequestHeaders } from './exchange';

export type KeyCheck = 'accepted' | 'missing' | 'unknown';

/** Makes, from the accepted keys, the test of a given key. */
export type KeyMatcher = (keys: readonly string[]) => (given: string) => boolean;

/** What the gate reads of a request: the header, and the connection it came on when there is one. */
export interface KeyedRequest {
  headers: RequestHeaders;
  socket?: object | null;
}

export class ApiKeyGate {
  private readonly matches: (given: string) => boolean;
  private readonly lastOnConnection = new WeakMap<object, { given: string; verdict: KeyCheck }>();

  constructor(
    keys: readonly string[],
    private readonly enabled: boolean,
    matcher: KeyMatcher,
  ) {
    this.matches = matcher(keys);
  }

  check(req: KeyedRequest): KeyCheck {
    if (!this.enabled) return 'accepted';
    const header = req.headers['x-api-key'];
    const given = Array.isArray(header) ? header[0] : header;
    if (given === undefined || given === '') return 'missing';
    const last = req.socket ? this.lastOnConnection.get(req.socket) : undefined;
    if (last !== undefined && last.given === given) return last.verdict;
    const verdict = this.matches(given) ? 'accepted' : 'unknown';
    if (req.socket) this.lastOnConnection.set(req.socket, { given, verdict });
    return verdict;
  }
}

/** The documented 401 for a failed key check: the Message tells a missing key from an unknown one. */
export function unauthorized(result: Exclude<KeyCheck, 'accepted'>): ApiError {
  return new ApiError('UNAUTHORIZED', result === 'missing' ? MISSING_KEY_MESSAGE : UNKNOWN_KEY_MESSAGE);
}
