// Two answers compared as a client reads them, for the checks that hold one answer to another (the same
// request replayed, a request that means the same as another): a JSON body as a JSON value (RFC 8259 §4: an
// object's members are unordered, so two servers, or one server twice, may write them in any order; numbers as
// numbers), any other body byte for byte.
import { createHash } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { headerOf } from '../../contract/judge';
import type { Exchange } from '../../contract/exchange';
import type { SpecContract } from '../../contract/spec-contract';

/** True when the answer's Content-Type is JSON (`application/json`, `application/*+json`). */
export function isJsonAnswer(exchange: Pick<Exchange, 'headers'>): boolean {
  return /^application\/([\w.-]+\+)?json\s*(;|$)/i.test(headerOf(exchange.headers, 'content-type') ?? '');
}

/** The same body: equal JSON values when both are JSON and parse, else the same bytes. */
export function sameBody(a: Pick<Exchange, 'headers' | 'bytes' | 'json'>, b: Pick<Exchange, 'headers' | 'bytes' | 'json'>): boolean {
  if (isJsonAnswer(a) && isJsonAnswer(b) && a.json !== undefined && b.json !== undefined) return isDeepStrictEqual(a.json, b.json);
  return Buffer.from(a.bytes).equals(Buffer.from(b.bytes));
}

/**
 * Fields that are no part of the answer a client reads: the connection's and the framing's (RFC 9110 §7.6.1, RFC 9112
 * §6: two sends of one answer may differ in them, and Content-Length follows the bytes, which a JSON body may write
 * otherwise), the clock's (Date, RFC 9110 §6.6.1), and X-Request-Id, which openapi.yaml has the server generate for
 * each request that sends none.
 */
const NOT_THE_ANSWER = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'te',
  'transfer-encoding',
  'upgrade',
  'content-length',
  'date',
  'x-request-id',
]);

/**
 * The fields HTTP itself gives a meaning a client acts on: representation metadata (RFC 9110 §8.3-8.8), validators
 * (§8.8), the response control data a client follows (Allow, Location, Retry-After, Vary, WWW-Authenticate: §10.2,
 * §11.6.1) and CORS's (the Fetch standard). Compared beside the response headers the document itself names.
 */
const HTTP_ANSWER_FIELDS = [
  'content-type',
  'content-encoding',
  'content-language',
  'content-location',
  'content-range',
  'etag',
  'last-modified',
  'allow',
  'location',
  'retry-after',
  'vary',
  'www-authenticate',
  'access-control-allow-origin',
  'access-control-allow-credentials',
  'access-control-expose-headers',
];

const comparedFieldsOf = new WeakMap<SpecContract, ReadonlySet<string>>();

/**
 * The fields two answers are compared on: the response headers the document names (on any response) and those HTTP
 * gives a meaning (HTTP_ANSWER_FIELDS), but X-Request-Id, which the document has generated per request. Any other
 * field (a front's own `Server-Timing`, `Age` or `X-Cache`, a tracing id, the proxy's `X-Proxy-*` tags) is the
 * deployment's to vary: a correct deployment may send it differently each time.
 */
export function comparedFields(contract: SpecContract): ReadonlySet<string> {
  let fields = comparedFieldsOf.get(contract);
  if (!fields) {
    const named = contract.operations.flatMap((operation) =>
      operation.statuses.flatMap((status) =>
        Object.keys((contract.response(operation, Number(status))?.node.headers as Record<string, unknown> | undefined) ?? {}),
      ),
    );
    fields = new Set([...named.map((name) => name.toLowerCase()), ...HTTP_ANSWER_FIELDS].filter((name) => !NOT_THE_ANSWER.has(name)));
    comparedFieldsOf.set(contract, fields);
  }
  return fields;
}

/** An answer as a client reads it, small enough to keep for every request of a run. */
export interface AnswerSummary {
  status: number;
  /** Every field that is part of the answer, name in lower case → its value as RFC 9110 reads it, names sorted. */
  fields: [string, string][];
  /** A digest of the body: of its JSON value written with sorted member names, or of its bytes. */
  body: string;
  /** The body's start, for messages. */
  preview: string;
  json: boolean;
}

/** A JSON value written with its objects' members sorted by name: equal values, equal text. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object')
    return `{${Object.keys(value)
      .sort()
      .map((name) => `${JSON.stringify(name)}:${canonicalJson((value as Record<string, unknown>)[name])}`)
      .join(',')}}`;
  return JSON.stringify(value);
}

export function summarise(exchange: Pick<Exchange, 'status' | 'headers' | 'bytes' | 'json' | 'text'>): AnswerSummary {
  const json = isJsonAnswer(exchange) && exchange.json !== undefined;
  const names = [...new Set([...exchange.headers.keys()].map((name) => name.toLowerCase()))].filter((name) => !NOT_THE_ANSWER.has(name));
  return {
    status: exchange.status,
    fields: names.sort().map((name) => [name, headerOf(exchange.headers, name) ?? '']),
    body: createHash('sha256')
      .update(json ? canonicalJson(exchange.json) : exchange.bytes)
      .digest('base64'),
    preview: exchange.text.length > 80 ? `${exchange.text.slice(0, 80)}…` : exchange.text,
    json,
  };
}

const shown = (value: string | undefined) =>
  value === undefined ? '(absent)' : JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}…` : value);

/** How a second answer differs from a first one, in words ([] when a client cannot tell them apart), on the `compared` fields. */
export function summaryDifferences(first: AnswerSummary, second: AnswerSummary, compared: ReadonlySet<string>): string[] {
  const differences: string[] = [];
  if (first.status !== second.status) differences.push(`status ${first.status} → ${second.status}`);
  if (first.body !== second.body)
    differences.push(
      `body ${JSON.stringify(first.preview)} → ${JSON.stringify(second.preview)}${first.json && second.json ? ' (compared as JSON values)' : ''}`,
    );
  const [a, b] = [new Map(first.fields), new Map(second.fields)];
  for (const name of [...new Set([...a.keys(), ...b.keys()])].filter((field) => compared.has(field)).sort())
    if (a.get(name) !== b.get(name)) differences.push(`${name}: ${shown(a.get(name))} → ${shown(b.get(name))}`);
  return differences;
}

/**
 * How a second answer differs from a first one, in words ([] when a client cannot tell them apart): the status, the
 * body (JSON as values), the fields of comparedFields, each read as RFC 9110 reads it.
 */
export function answerDifferences(first: Exchange, second: Exchange, compared: ReadonlySet<string>): string[] {
  return summaryDifferences(summarise(first), summarise(second), compared);
}
