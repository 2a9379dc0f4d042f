// X-Api-Key on the Client operations. Keys are compared as SHA-256 digests
// with timingSafeEqual, so neither a key's content nor its length leaks
// through timing. A connection's last header value and its verdict are kept
// with the connection: a keep-alive client sends the same key on every
// request, and comparing a caller's header with that same caller's previous
// header tells it nothing it did not send itself (the digest was ~3% of an
// uncached request's CPU).
import crypto from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { ApiError, MISSING_KEY_MESSAGE, UNKNOWN_KEY_MESSAGE } from '../errors';

function digest(key: string): Buffer {
  return crypto.createHash('sha256').update(key, 'utf8').digest();
}

export type KeyCheck = 'accepted' | 'missing' | 'unknown';

export class ApiKeyGate {
  private readonly digests: readonly Buffer[];
  private readonly lastOnConnection = new WeakMap<Socket, { given: string; verdict: KeyCheck }>();

  constructor(
    keys: readonly string[],
    private readonly enabled: boolean,
  ) {
    this.digests = keys.map(digest);
  }

  check(req: IncomingMessage): KeyCheck {
    if (!this.enabled) return 'accepted';
    const header = req.headers['x-api-key'];
    const given = Array.isArray(header) ? header[0] : header;
    if (given === undefined || given === '') return 'missing';
    const last = req.socket ? this.lastOnConnection.get(req.socket) : undefined;
    if (last !== undefined && last.given === given) return last.verdict;
    const verdict = this.compare(given);
    if (req.socket) this.lastOnConnection.set(req.socket, { given, verdict });
    return verdict;
  }

  private compare(given: string): KeyCheck {
    const candidate = digest(given);
    // Compare against every key, without stopping early.
    let accepted = false;
    for (const known of this.digests) accepted = crypto.timingSafeEqual(candidate, known) || accepted;
    return accepted ? 'accepted' : 'unknown';
  }
}

/** The documented 401 for a failed key check: the Message tells a missing key from an unknown one. */
export function unauthorized(result: Exclude<KeyCheck, 'accepted'>): ApiError {
  return new ApiError('UNAUTHORIZED', result === 'missing' ? MISSING_KEY_MESSAGE : UNKNOWN_KEY_MESSAGE);
}
