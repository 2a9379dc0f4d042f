// How the server and the Node handlers compare a given X-Api-Key with the accepted ones (auth.ts):
// as SHA-256 digests with timingSafeEqual, against every key without stopping early, so neither a
// key's content nor its length leaks through timing. Node's crypto: the browser road has its own.
import crypto from 'node:crypto';
import type { KeyMatcher } from './auth';

function digest(key: string): Buffer {
  return crypto.createHash('sha256').update(key, 'utf8').digest();
}

export const digestMatcher: KeyMatcher = (keys) => {
  const digests = keys.map(digest);
  return (given) => {
    const candidate = digest(given);
    let accepted = false;
    for (const known of digests) accepted = crypto.timingSafeEqual(candidate, known) || accepted;
    return accepted;
  };
};
