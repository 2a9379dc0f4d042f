// What a relation compares: the clients one request selects, read as a set of IdClient over all its pages up to
// RESULT_SET_BOUND clients, with the X-Total-Count the deployment gives the whole. Every page is judged as any
// other exchange (context.get). A run reads each request once: relations that share one (the unfiltered list,
// active=true) share its pages.
import type { ClientExtended } from '../../contract/wire-types';
import type { Exchange } from '../../contract/exchange';
import type { CheckContext } from '../kit/context';
import { totalCount, type PageBody } from '../kit/semantics';

/**
 * The clients of one request a relation reads at most: 20 pages of 100. Up to it, two sets are compared whole;
 * beyond it, by X-Total-Count and by their first RESULT_SET_BOUND clients (two equal sets have the same first
 * clients, since the list order is one total order).
 */
export const RESULT_SET_BOUND = 2_000;

/** A list row as the relations read it: Simple's fields, and Extended's where the request was for Extended. */
export type Row = Pick<ClientExtended, 'IdClient' | 'FullName' | 'PersonalId' | 'Email' | 'Phone'>;

export interface ResultSet {
  /** What the request was, in words, for a failure's message. */
  label: string;
  /** IdClient in list order, in lower case (uuids compare case-insensitively), RESULT_SET_BOUND at most. */
  ids: string[];
  /** The rows read, in list order. */
  rows: Row[];
  /** X-Total-Count of the first page (for Detail: 1 or 0). */
  total: number;
  /** True when every client of the request was read. */
  complete: boolean;
  /** The first page: what a failure shows and reproduces. */
  first: Exchange;
}

/** `name=value&…`, each value percent-encoded as a query component; undefined values left out. */
export function encodeQuery(params: Readonly<Record<string, string | undefined>>): string {
  return Object.entries(params)
    .filter((entry): entry is [string, string] => entry[1] !== undefined)
    .map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`)
    .join('&');
}

const cache = new WeakMap<CheckContext, Map<string, Promise<ResultSet>>>();

/**
 * The clients `path?query` selects, at `pageSize` (default the largest the document allows), every page up to
 * RESULT_SET_BOUND clients. `query` is sent as it is written (already percent-encoded: `+` stays a `+`).
 */
export function resultSet(context: CheckContext, path: string, query = '', pageSize = context.maxPageSize): Promise<ResultSet> {
  let sets = cache.get(context);
  if (!sets) {
    sets = new Map();
    cache.set(context, sets);
  }
  const key = `${pageSize} ${path}?${query}`;
  let set = sets.get(key);
  if (!set) {
    set = readPages(context, path, query, pageSize);
    sets.set(key, set);
  }
  return set;
}

async function readPages(context: CheckContext, path: string, query: string, pageSize: number): Promise<ResultSet> {
  const rows: Row[] = [];
  let first: Exchange | undefined;
  for (let page = 1; page <= Math.ceil(RESULT_SET_BOUND / pageSize); page += 1) {
    const exchange = await context.get(`${path}?${query === '' ? '' : `${query}&`}page=${page}&pageSize=${pageSize}`);
    context.expectStatus(exchange, 200);
    first ??= exchange;
    const results = (exchange.json as PageBody<Row>).Results;
    rows.push(...results);
    // The judge holds each page's length to X-Total-Count (list.total): an empty page ends a list that says more.
    if (results.length === 0 || rows.length >= Math.min(totalCount(first) ?? 0, RESULT_SET_BOUND)) break;
  }
  const total = totalCount(first!) ?? 0;
  const read = rows.slice(0, RESULT_SET_BOUND);
  return {
    label: `${path}?${query}${query === '' ? '' : '&'}pageSize=${pageSize}`,
    ids: read.map((row) => row.IdClient.toLowerCase()),
    rows: read,
    total,
    complete: total <= RESULT_SET_BOUND && read.length >= total,
    first: first!,
  };
}

/** Detail of one id as a set: that client when it answers 200, none when 404 (any other status fails the judge or here). */
export async function detailSet(context: CheckContext, path: string, id: string): Promise<ResultSet> {
  const exchange = await context.get(`${path}/${id}`);
  context.expect(
    exchange.status === 200 || exchange.status === 404,
    exchange,
    `expected 200 or 404, got ${exchange.status}`,
    'response.status',
  );
  const found = exchange.status === 200 ? [(exchange.json as Row).IdClient.toLowerCase()] : [];
  return { label: `${path}/${id}`, ids: found, rows: [], total: found.length, complete: true, first: exchange };
}
