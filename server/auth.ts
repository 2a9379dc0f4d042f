// X-Api-Key on the Client operations. Keys are compared as SHA-256 digests
// with timingSafeEqual, so neither a key's content nor its length leaks
// through timing.
import crypto from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { ApiError, MISSING_KEY_MESSAGE, UNKNOWN_KEY_MESSAGE } from './errors';

function digest(key: string): Buffer {
  return crypto.createHash('sha256').update(key, 'utf8').digest();
}

export type KeyCheck = 'accepted' | 'missing' | 'unknown';

export class ApiKeyGate {
  private readonly digests: readonly Buffer[];

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
