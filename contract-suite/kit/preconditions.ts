// The precondition forms a GET can carry (RFC 9110 §13.1), with the validators an earlier answer gave: its ETag and
// Last-Modified when it sent them, else `*`, a tag it never gave and its Date. The conditional checks
// (derived/conditional.ts) send each to every operation; the history room (history/) sends them between replays.
import { headerOf } from '../../contract/judge';
import type { Exchange } from '../../contract/exchange';

/** An entity-tag no deployment gives (RFC 9110 §8.8.3 syntax), and the earliest HTTP-date. */
const UNMATCHED_TAG = '"contract-suite-no-such-tag"';
const EPOCH = 'Thu, 01 Jan 1970 00:00:00 GMT';

export interface PreconditionForm {
  /** In words, for titles and messages: `If-None-Match: its ETag`. */
  why: string;
  headers: Record<string, string>;
}

/** If-None-Match, If-Match, If-Modified-Since, If-Unmodified-Since and If-Range with Range, with `*`, the answer's validators and others. */
export function preconditionForms(answer: Pick<Exchange, 'headers'>): PreconditionForm[] {
  const etag = headerOf(answer.headers, 'etag');
  const lastModified = headerOf(answer.headers, 'last-modified');
  const date = lastModified ?? headerOf(answer.headers, 'date') ?? EPOCH;
  const dateIs = lastModified ? 'its Last-Modified' : 'its Date';
  const tagIs = etag ? 'its ETag' : 'a tag it never gave';
  return [
    { why: 'If-None-Match: *', headers: { 'If-None-Match': '*' } },
    { why: `If-None-Match: ${tagIs}`, headers: { 'If-None-Match': etag ?? UNMATCHED_TAG } },
    { why: 'If-Match: *', headers: { 'If-Match': '*' } },
    { why: `If-Match: ${tagIs}`, headers: { 'If-Match': etag ?? UNMATCHED_TAG } },
    { why: `If-Modified-Since: ${dateIs}`, headers: { 'If-Modified-Since': date } },
    { why: `If-Unmodified-Since: ${EPOCH}`, headers: { 'If-Unmodified-Since': EPOCH } },
    { why: `If-Unmodified-Since: ${dateIs}`, headers: { 'If-Unmodified-Since': date } },
    { why: `Range: bytes=0-0 with If-Range: ${etag ? 'its ETag' : dateIs}`, headers: { Range: 'bytes=0-0', 'If-Range': etag ?? date } },
  ];
}
