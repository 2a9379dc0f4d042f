// The black-box rules of openapi.yaml that a schema cannot express, as pure
// functions of an exchange: the paging arithmetic, the echo of Page and
// PageSize, the Link header, and what each filter keeps. Shared by the named
// checks and the property-based run, so both hold a deployment to the same rules.
import type { ClientExtended } from '../contract/wire-types';
import type { Exchange } from './http';

export const DEFAULT_PAGE = 1;
export const DEFAULT_PAGE_SIZE = 25;
export const MAX_PAGE_SIZE = 100;

/** The documented list query, as the request sent it (raw strings; absent = not sent). */
export interface ListQuery {
  page?: string;
  pageSize?: string;
  active?: string;
  filter?: string;
  idStaff?: string;
  idLocation?: string;
}

const SPECIAL_LETTERS: Record<string, string> = { ø: 'o', æ: 'ae', ß: 'ss', ł: 'l', đ: 'd', œ: 'oe', ð: 'd', þ: 'th', ı: 'i' };

/** Case- and accent-insensitive form: `Åsa Čapková` → `asa capkova`. */
export function fold(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[øæßłđœðþı]/g, (letter) => SPECIAL_LETTERS[letter] ?? letter);
}

const DIGIT_TERM = /^[\d\s()+-]*\d[\d\s()+-]*$/;

/** True when the client matches the `filter` term as documented (trimmed; empty matches all). */
export function matchesFilter(client: Pick<ClientExtended, 'FullName' | 'PersonalId' | 'Email' | 'Phone'>, filter: string): boolean {
  const term = fold(filter.trim()).replace(/\s+/g, ' ');
  if (term === '') return true;
  const fields = [client.FullName, client.PersonalId, client.Email, client.Phone].map(fold);
  if (fields.some((field) => field.includes(term))) return true;
  if (!DIGIT_TERM.test(term)) return false;
  return client.Phone.replace(/\D/g, '').includes(term.replace(/\D/g, ''));
}

export interface PageBody<T> {
  Page: number;
  PageSize: number;
  Results: T[];
}

export function totalCount(exchange: Exchange): number | undefined {
  const raw = exchange.headers.get('x-total-count');
  return raw !== null && /^\d+$/.test(raw) ? Number(raw) : undefined;
}

/** The `rel` values of an RFC 8288 Link header. */
export function linkRelations(header: string | null): Map<string, string> {
  const relations = new Map<string, string>();
  for (const match of (header ?? '').matchAll(/<([^>]*)>\s*;\s*rel="?([^",;]+)"?/g)) {
    for (const rel of match[2]!.trim().split(/\s+/)) relations.set(rel, match[1]!);
  }
  return relations;
}

/**
 * Everything a 200 list answer breaks, as messages. Page and PageSize echo the
 * request (defaults 1 and 25); the page holds exactly the share of
 * X-Total-Count that falls on it; Link carries first and last, prev and next
 * where they apply; every item satisfies every filter given (AND).
 */
export function listViolations(exchange: Exchange, query: ListQuery): string[] {
  const problems: string[] = [];
  const body = exchange.json as PageBody<Partial<ClientExtended>> | undefined;
  if (!body || !Array.isArray(body.Results)) return ['the body is not a page {Page, PageSize, Results}'];
  const page = query.page === undefined ? DEFAULT_PAGE : Number(query.page);
  const pageSize = query.pageSize === undefined ? DEFAULT_PAGE_SIZE : Number(query.pageSize);
  if (body.Page !== page) problems.push(`Page is ${body.Page}, the request asked for ${page}`);
  if (body.PageSize !== pageSize) problems.push(`PageSize is ${body.PageSize}, the request asked for ${pageSize}`);
  const total = totalCount(exchange);
  if (total === undefined) {
    problems.push('X-Total-Count is missing or not a whole number');
  } else {
    const expected = Math.max(0, Math.min(pageSize, total - (page - 1) * pageSize));
    if (body.Results.length !== expected) {
      problems.push(
        `Results holds ${body.Results.length} items; page ${page} of size ${pageSize} over X-Total-Count ${total} holds ${expected}`,
      );
    }
    const links = linkRelations(exchange.headers.get('link'));
    const last = Math.max(1, Math.ceil(total / pageSize));
    for (const rel of ['first', 'last']) if (!links.has(rel)) problems.push(`Link has no rel="${rel}"`);
    if (links.has('next') !== page < last) problems.push(`Link ${page < last ? 'lacks' : 'has'} rel="next" on page ${page} of ${last}`);
    if (links.has('prev') !== page > 1) problems.push(`Link ${page > 1 ? 'lacks' : 'has'} rel="prev" on page ${page}`);
  }
  body.Results.forEach((item, i) => {
    if (query.active !== undefined && item.Status !== (query.active === 'true' ? 'Active' : 'Inactive')) {
      problems.push(`Results[${i}].Status is ${item.Status} although active=${query.active}`);
    }
    if (query.idStaff !== undefined && item.IdStaff?.toLowerCase() !== query.idStaff.toLowerCase()) {
      problems.push(`Results[${i}].IdStaff is ${item.IdStaff} although idStaff=${query.idStaff}`);
    }
    if (query.idLocation !== undefined && item.IdLocation?.toLowerCase() !== query.idLocation.toLowerCase()) {
      problems.push(`Results[${i}].IdLocation is ${item.IdLocation} although idLocation=${query.idLocation}`);
    }
    if (query.filter !== undefined && item.FullName !== undefined && !matchesFilter(item as ClientExtended, query.filter)) {
      problems.push(`Results[${i}] (${item.FullName}) does not match filter=${JSON.stringify(query.filter)}`);
    }
  });
  return problems.slice(0, 5);
}

/** `?a=1&b=2` from the given parameters, values percent-encoded. */
export function queryString(params: Readonly<Record<string, string | undefined>>): string {
  const pairs = Object.entries(params)
    .filter((entry): entry is [string, string] => entry[1] !== undefined)
    .map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`);
  return pairs.length === 0 ? '' : `?${pairs.join('&')}`;
}
