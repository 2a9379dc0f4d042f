// Helpers the checks share for the black-box rules a schema cannot express:
// the list order and the filter rule (from contract/, where the server takes
// them too), Link parsing (links.ts), search terms cut from a client's own
// fields, the query string, and listViolations, which asks the judge
// (contract/judge/) for a list answer's paging, Link, order, filter and record
// violations. Nothing here reads openapi.yaml: the contract in use is passed in.
import { compareClients } from '../../contract/list-order';
import { foldText, matchesFilter, trimWhiteSpace } from '../../contract/text-folding';
import type { ClientExtended } from '../../contract/wire-types';
import type { Exchange } from '../../contract/exchange';
import { headerOf, judgeRequest, judgeResponse } from '../../contract/judge';
import { linkRelations, parseLinkHeader, targetQuery, type LinkValue } from '../../contract/link-header';
import { specContract, type SpecContract } from '../../contract/spec-contract';

export { compareClients, linkRelations, matchesFilter, parseLinkHeader, targetQuery, type LinkValue };

/** The documented list query, as the request sent it (raw strings; absent = not sent). */
export interface ListQuery {
  page?: string;
  pageSize?: string;
  active?: string;
  filter?: string;
  idStaff?: string;
  idLocation?: string;
}

/** The folding rule openapi.yaml states for `filter` (NFD, marks removed, lower case, nine letters replaced). */
export const fold = foldText;

/** A run the filter would collapse or trim: any White_Space but a single U+0020, or two spaces or more. */
const COLLAPSED = /(?:(?! )\p{White_Space})| {2,}/u;

/**
 * The longest stretch of `text` a search term can be cut from: no white space
 * but single ordinary spaces (the filter trims a term and collapses its runs of
 * Unicode White_Space, NBSP and tabs included, while the data keeps them), trimmed.
 */
export function termStretch(text: string): string {
  const stretches = text.split(COLLAPSED).map((part) => trimWhiteSpace(part));
  return stretches.reduce((longest, part) => ([...part].length > [...longest].length ? part : longest), '');
}

/** `text` in upper case, or as it is when upper-casing changes its length (ﬁ → FI, ŉ → ʼN): then the term would no longer be the name's. */
export function upperCaseSameLength(text: string): string {
  const upper = text.toUpperCase();
  return upper.length === text.length ? upper : text;
}

export interface PageBody<T> {
  Page: number;
  PageSize: number;
  Results: T[];
}

/** X-Total-Count as a number, read as RFC 9110 reads a field (white space around it is no part of it); undefined when it is no count. */
export function totalCount(exchange: Pick<Exchange, 'headers'>): number | undefined {
  const raw = headerOf(exchange.headers, 'x-total-count');
  return raw !== undefined && /^\d+$/.test(raw) ? Number(raw) : undefined;
}

const LIST_RULES = /^(list|filter|record)\./;

/**
 * Everything a 200 list answer breaks of the paging, Link, order, filter and
 * in-record rules, as messages, judged against the request it answers (the
 * `query` argument is kept for callers; the request's own query is what counts).
 * The credential is taken as accepted: a 200 says it was. `applied` collects the rules the judge applied.
 */
export function listViolations(
  exchange: Exchange,
  _query: ListQuery,
  contract: SpecContract = specContract(),
  applied?: Set<string>,
): string[] {
  const pathname = new URL(exchange.request.path, 'http://base.invalid').pathname;
  const operation = contract.findOperation(pathname)?.operation;
  const credentials = Object.fromEntries((operation?.credentials ?? []).filter((c) => c.in === 'header').map((c) => [c.name, 'accepted']));
  const judged = judgeRequest(contract, {
    method: exchange.request.method,
    path: exchange.request.path,
    headers: { ...exchange.request.headers, ...credentials },
    url: exchange.url,
    keyAccepted: true,
  });
  return judgeResponse(contract, judged, exchange, undefined, { applied })
    .filter((violation) => LIST_RULES.test(violation.rule))
    .map((violation) => `${violation.rule}: expected ${violation.expected}; got ${violation.actual}`)
    .slice(0, 5);
}

/** `?a=1&b=2` from the given parameters, values percent-encoded. */
export function queryString(params: object): string {
  const pairs = Object.entries(params)
    .filter((entry): entry is [string, string] => typeof entry[1] === 'string')
    .map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`);
  return pairs.length === 0 ? '' : `?${pairs.join('&')}`;
}

/** The basic fields of a client as one comparable value. */
export function basicFields(client: Pick<ClientExtended, 'IdClient' | 'FullName' | 'PersonalId' | 'Phone' | 'Email'>): string {
  return JSON.stringify([client.IdClient, client.FullName, client.PersonalId, client.Phone, client.Email]);
}
