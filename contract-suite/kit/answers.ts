// Two answers compared as a client reads them, for the checks that hold one answer to another (the same
// request replayed, a request that means the same as another): a JSON body as a JSON value (RFC 8259 §4: an
// object's members are unordered, so two servers, or one server twice, may write them in any order; numbers as
// numbers), any other body byte for byte.
import { isDeepStrictEqual } from 'node:util';
import { headerOf } from '../../contract/judge';
import type { Exchange } from '../../contract/exchange';

/** True when the answer's Content-Type is JSON (`application/json`, `application/*+json`). */
export function isJsonAnswer(exchange: Pick<Exchange, 'headers'>): boolean {
  return /^application\/([\w.-]+\+)?json\s*(;|$)/i.test(headerOf(exchange.headers, 'content-type') ?? '');
}

/** The same body: equal JSON values when both are JSON and parse, else the same bytes. */
export function sameBody(a: Pick<Exchange, 'headers' | 'bytes' | 'json'>, b: Pick<Exchange, 'headers' | 'bytes' | 'json'>): boolean {
  if (isJsonAnswer(a) && isJsonAnswer(b) && a.json !== undefined && b.json !== undefined) return isDeepStrictEqual(a.json, b.json);
  return Buffer.from(a.bytes).equals(Buffer.from(b.bytes));
}
