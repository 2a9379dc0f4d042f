// The black-box rules of openapi.yaml that a schema cannot express, as pure
// functions of an exchange: the paging arithmetic, the echo of Page and
// PageSize, the Link header, and what each filter keeps. Shared by the named
// checks and the property-based run, so both hold a deployment to the same rules.
import type { ClientExtended } from '../contract/wire-types';
import { loadSpec } from '../contract/spec';
import { foldText } from '../contract/text-folding';
import type { Exchange } from './http';

/** The schema of the list parameter named `name` in openapi.yaml's components/parameters (`page`, `pageSize`). */
function pagingSchema(name: string): { default: number; maximum: number } {
  const parameters = (loadSpec().components.parameters ?? {}) as Record<string, { name?: string; schema?: Record<string, unknown> }>;
  const schema = Object.values(parameters).find((parameter) => parameter.name === name)?.schema;
  if (typeof schema?.default !== 'number' || typeof schema.maximum !== 'number')
    throw new Error(`openapi.yaml: components/parameters has no ${name} with a numeric default and maximum`);
  return { default: schema.default, maximum: schema.maximum };
}

/** The paging defaults and the largest page size, as openapi.yaml states them. */
export const DEFAULT_PAGE = pagingSchema('page').default;
export const DEFAULT_PAGE_SIZE = pagingSchema('pageSize').default;
export const MAX_PAGE_SIZE = pagingSchema('pageSize').maximum;

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

const collator = new Intl.Collator('en', { sensitivity: 'base' });

/**
 * The documented list order (openapi.yaml, Lists): FullName by English
 * collation at primary strength (case- and accent-insensitive), ties broken by
 * IdClient in lower case. Negative when a comes first.
 */
export function compareClients(a: { FullName: string; IdClient: string }, b: { FullName: string; IdClient: string }): number {
  const byName = collator.compare(a.FullName, b.FullName);
  if (byName !== 0) return byName;
  const [x, y] = [a.IdClient.toLowerCase(), b.IdClient.toLowerCase()];
  return x < y ? -1 : x > y ? 1 : 0;
}

/**
 * The longest stretch of `text` a search term can be cut from: no white space
 * but single ordinary spaces (the filter trims a term and collapses its runs of
 * white space, NBSP and tabs included, while the data keeps them), trimmed.
 */
export function termStretch(text: string): string {
  const stretches = text.split(/[^\S ]|  +/).map((part) => part.trim());
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

export function totalCount(exchange: Exchange): number | undefined {
  const raw = exchange.headers.get('x-total-count');
  return raw !== null && /^\d+$/.test(raw) ? Number(raw) : undefined;
}

/** One link of an RFC 8288 header: its target (as written) and its parameters (names lower case). */
export interface LinkValue {
  target: string;
  params: Map<string, string>;
}

/**
 * Parses an RFC 8288 Link field value: several link-values separated by commas
 * (several header lines arrive joined by ", "), parameters in any order, values
 * quoted or not, commas and semicolons inside quotes and inside <…> left alone.
 */
export function parseLinkHeader(header: string | null): LinkValue[] {
  const links: LinkValue[] = [];
  const text = header ?? '';
  let i = 0;
  const skipSpace = () => {
    while (i < text.length && /[\s,]/.test(text[i]!)) i += 1;
  };
  while (i < text.length) {
    skipSpace();
    if (text[i] !== '<') {
      // Not a link-value: skip to the next comma outside quotes.
      while (i < text.length && text[i] !== ',') i += 1;
      continue;
    }
    const end = text.indexOf('>', i);
    if (end < 0) break;
    const link: LinkValue = { target: text.slice(i + 1, end), params: new Map() };
    i = end + 1;
    for (;;) {
      while (i < text.length && /\s/.test(text[i]!)) i += 1;
      if (text[i] !== ';') break;
      i += 1;
      const name = /^\s*([^\s=;,]+)\s*/.exec(text.slice(i));
      if (!name) break;
      i += name[0].length;
      let value = '';
      if (text[i] === '=') {
        i += 1;
        while (text[i] === ' ' || text[i] === '\t') i += 1;
        if (text[i] === '"') {
          i += 1;
          while (i < text.length && text[i] !== '"') {
            if (text[i] === '\\') i += 1;
            value += text[i] ?? '';
            i += 1;
          }
          i += 1;
        } else {
          const token = /^[^\s;,]*/.exec(text.slice(i))![0];
          value = token;
          i += token.length;
        }
      }
      const key = name[1]!.toLowerCase();
      // RFC 8288 3.3: only the first occurrence of rel counts.
      if (!link.params.has(key)) link.params.set(key, value);
    }
    links.push(link);
  }
  return links;
}

/** Relation type → target. A value may name several relation types (`rel="first prev"`); they compare case-insensitively. */
export function linkRelations(header: string | null): Map<string, string> {
  const relations = new Map<string, string>();
  for (const link of parseLinkHeader(header)) {
    for (const rel of (link.params.get('rel') ?? '').trim().split(/\s+/)) {
      if (rel !== '' && !relations.has(rel.toLowerCase())) relations.set(rel.toLowerCase(), link.target);
    }
  }
  return relations;
}

/** The query of a link target, resolved against the request URL, as decoded name → values. */
export function targetQuery(target: string, base: string): { pathname: string; params: URLSearchParams } {
  const url = new URL(target, base);
  return { pathname: url.pathname, params: url.searchParams };
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
    const expectedPage: Record<string, number> = { first: 1, last, prev: Math.min(page - 1, last), next: page + 1 };
    for (const [rel, target] of links) {
      if (expectedPage[rel] !== undefined)
        problems.push(...linkTargetViolations(rel, target, exchange.url, expectedPage[rel], pageSize, query));
    }
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

const FILTER_PARAMETERS = ['active', 'filter', 'idStaff', 'idLocation'] as const;

/** What a Link target gets wrong: another path, another page or pageSize, a filter dropped, changed or added. */
export function linkTargetViolations(
  rel: string,
  target: string,
  requestUrl: string,
  page: number,
  pageSize: number,
  query: ListQuery,
): string[] {
  const problems: string[] = [];
  const { pathname, params } = targetQuery(target, requestUrl);
  const where = `Link rel="${rel}" <${target.length > 120 ? `${target.slice(0, 120)}…` : target}>`;
  if (pathname !== new URL(requestUrl).pathname) problems.push(`${where} leaves the operation's path`);
  for (const name of params.keys()) if (params.getAll(name).length > 1) problems.push(`${where} gives ${name} twice`);
  if (Number(params.get('page') ?? DEFAULT_PAGE) !== page) problems.push(`${where} names page ${params.get('page')}, not ${page}`);
  if (Number(params.get('pageSize') ?? DEFAULT_PAGE_SIZE) !== pageSize)
    problems.push(`${where} names pageSize ${params.get('pageSize')}, not ${pageSize}`);
  for (const name of FILTER_PARAMETERS) {
    const sent = query[name];
    const linked = params.get(name) ?? undefined;
    // uuids compare case-insensitively, as the uuid format allows either case.
    const same = name === 'idStaff' || name === 'idLocation' ? sent?.toLowerCase() === linked?.toLowerCase() : sent === linked;
    if (!same) problems.push(`${where} has ${name}=${JSON.stringify(linked)}, the request ${JSON.stringify(sent)}`);
  }
  return problems;
}

/** `?a=1&b=2` from the given parameters, values percent-encoded. */
export function queryString(params: object): string {
  const pairs = Object.entries(params)
    .filter((entry): entry is [string, string] => typeof entry[1] === 'string')
    .map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`);
  return pairs.length === 0 ? '' : `?${pairs.join('&')}`;
}

/** The Luhn check digit of a string of digits, weights 2, 1, 2, … from the left (openapi.yaml, PersonalId). */
export function luhnCheckDigit(digits: string): number {
  let sum = 0;
  for (let i = 0; i < digits.length; i += 1) {
    let d = Number(digits[i]) * (i % 2 === 0 ? 2 : 1);
    if (d > 9) d -= 9;
    sum += d;
  }
  return (10 - (sum % 10)) % 10;
}

/** What one record breaks of the rules openapi.yaml states inside a record (FullName, PersonalId, the repeated basic fields). */
export function recordViolations(record: Partial<ClientExtended> & Pick<ClientExtended, 'PersonalInfo'>): string[] {
  const problems: string[] = [];
  const info = record.PersonalInfo;
  const who = record.IdClient ?? info.FullName;
  if (info.FullName !== `${info.FirstName} ${info.LastName}`)
    problems.push(`${who}: PersonalInfo.FullName ${JSON.stringify(info.FullName)} is not FirstName LastName`);
  const id = /^(\d{8})-(\d{3})(\d)$/.exec(info.PersonalId);
  if (id) {
    if (id[1] !== info.DateOfBirth.replace(/-/g, ''))
      problems.push(`${who}: PersonalId ${info.PersonalId} does not begin with DateOfBirth ${info.DateOfBirth}`);
    if (luhnCheckDigit(id[1]!.slice(2) + id[2]!) !== Number(id[3]))
      problems.push(`${who}: PersonalId ${info.PersonalId} has a wrong Luhn check digit`);
  }
  if (record.FullName !== undefined && record.FullName !== info.FullName)
    problems.push(`${who}: FullName differs from PersonalInfo.FullName`);
  if (record.PersonalId !== undefined && record.PersonalId !== info.PersonalId)
    problems.push(`${who}: PersonalId differs from PersonalInfo.PersonalId`);
  if (record.ContactInfo !== undefined) {
    if (record.Email !== undefined && record.Email !== record.ContactInfo.Email)
      problems.push(`${who}: Email differs from ContactInfo.Email`);
    if (record.Phone !== undefined && record.Phone !== record.ContactInfo.Phone)
      problems.push(`${who}: Phone differs from ContactInfo.Phone`);
  }
  if ('IdStaff' in record && (record.IdStaff === null) !== (record.StaffName === null))
    problems.push(`${who}: StaffName is null exactly when IdStaff is not`);
  if ('IdLocation' in record && (record.IdLocation === null) !== (record.LocationName === null))
    problems.push(`${who}: LocationName is null exactly when IdLocation is not`);
  return problems;
}
