// A second implementation of the Client Records and Diagnostics Service,
// written from openapi.yaml alone (node:http, no Express, no validator, nothing
// from server/ or seeds/), to prove the contract suite raises no false alarm
// on a correct backend that makes other legitimate choices. Only the wire
// types come from contract/wire-types (types, erased at run time).
//
// Its free choices, wherever the spec leaves freedom:
//  1. Data: 317 clients (or as many as startSecondImplementation is given)
//     from its own tiny generator (mulberry32), 7 staff
//     members and 5 locations; about 1 in 6 clients without staff, 1 in 7
//     without location, 1 in 5 without insurance.
//  2. Ids are uuid v7 (time-ordered layout), not v4.
//  3. Names: compound and apostrophe surnames (Ek Nyberg, O'Connor,
//     Lund-Holm, de la Cruz), letters the folding rule replaces (Yıldız,
//     Þórsson, Ødegård, Łukasz, Œuvray) and letters outside it (Ŋgata,
//     Ħabib, Əliyev), which match only themselves.
//  4. JSON member order: Extended lists PersonalInfo's members in another
//     order than Detail; Detail puts Status first.
//  5. Link: one header line per link, `rel` after a `title` parameter and
//     unquoted when single, combined relation types (`rel="first prev"`)
//     when two relations name the same page, query-only relative references
//     (`<?pageSize=3&page=2>`), pageSize before page.
//  6. Own Message texts for every error (Codes as the spec's table).
//  7. gzip whenever the request accepts it; header names written in lower case.
//  8. 401 is decided before 400 (a request without a key and with a bad
//     parameter is 401); `Prefer` is ignored, as a real deployment does.
//  9. Generated X-Request-Ids are uuid v7 too.
// 10. Optional data shapes the spec allows (startSecondImplementation): no
//     staff anywhere, no location anywhere, no inactive client, zero clients,
//     20,000 clients, no letter of the folding table anywhere; and a CORS
//     origin list (unlisted origins get no CORS headers, a preflight from one
//     a bare 204).
// 11. Ways of writing the wire the standards allow, one switch each
//     (WireBehaviours), so each is shown to raise no false alarm: a cut
//     percent-encoding read as text, optional white space and other list and
//     case forms in header values, JSON members in another order on every
//     answer, Link targets as network-path references, a connection closed
//     when it is reused, and listening on ::1.
//
// And, for the tests that show the suite fails a broken backend, faults it
// can be started with (`faults`, `detailFault`): each breaks one sentence of
// the document, most of them one metamorphic relation (contract-suite/relations/).
import { createHash } from 'node:crypto';
import http from 'node:http';
import zlib from 'node:zlib';
import type { ClientDetail, ClientExtended, ErrorCode, PersonalInfo } from '../../contract/wire-types';
import { listenOnLoopback } from '../../tools/loopback';

export const SECOND_API_KEY = 'Second-Impl-Key-7';
const CLIENT_COUNT = 317;

// ---------------------------------------------------------------- data

function mulberry32(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const random = mulberry32(8288);
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
const digits = (n: number) => Array.from({ length: n }, () => Math.floor(random() * 10)).join('');
const hex = (n: number) => Array.from({ length: n }, () => Math.floor(random() * 16).toString(16)).join('');

let clock = Date.UTC(2026, 2, 1);
/** uuid v7: 48 bits of milliseconds, version 7, variant 10, random bits. */
function uuidV7(): string {
  clock += 1 + Math.floor(random() * 1000);
  const ms = clock.toString(16).padStart(12, '0');
  return `${ms.slice(0, 8)}-${ms.slice(8)}-7${hex(3)}-${pick(['8', '9', 'a', 'b'])}${hex(3)}-${hex(12)}`;
}

const FIRST = ['Ada', 'Björn', 'Çelik', 'Dóra', 'Émile', 'Łukasz', 'Ørjan', 'Zoë', 'Ngozi', 'Siobhán', 'Kai', 'Ümit', 'Ása', 'Jean-Luc'];
const LAST = [
  'Ek Nyberg',
  "O'Connor",
  'Lund-Holm',
  'de la Cruz',
  'Yıldız',
  'Þórsson',
  'Ødegård',
  'Œuvray',
  'Ŋgata',
  'Ħabib',
  'Əliyev',
  'Strauß',
  'Smith',
  'Åkesson',
  'Nguyễn',
  'McDonald',
];
const CITIES = ['Umeå', 'Tromsø', 'Aarhus', 'Oulu', 'Reykjavík'];

/**
 * A fault of the backend, each against one sentence of openapi.yaml: `ß` matching only itself, no lower-casing,
 * combining marks kept, JavaScript's white space (`\s`, trim(): U+0085 no space, U+FEFF one), no trimming, `+` read
 * as a plus, the phone-digit rule only for bare digits, uuids compared as written, page n > 1 starting one client
 * early, filters given together losing their last match, the first client neither active nor inactive.
 */
export type Fault =
  | 'eszett-unfolded'
  | 'case-sensitive'
  | 'marks-kept'
  | 'ecmascript-white-space'
  | 'untrimmed'
  | 'plus-literal'
  | 'digits-bare-only'
  | 'uuid-case-sensitive'
  | 'pages-overlap'
  | 'and-drops-last'
  | 'active-drops-one';

const NO_FAULTS: ReadonlySet<Fault> = new Set();

/** The spec's folding rule (openapi.yaml, filter): NFD, marks removed, lower case, nine letters replaced. */
const REPLACED: Record<string, string> = { ø: 'o', æ: 'ae', ß: 'ss', ł: 'l', đ: 'd', œ: 'oe', ð: 'd', þ: 'th', ı: 'i' };
function fold(text: string, faults = NO_FAULTS): string {
  const unmarked = faults.has('marks-kept') ? text : text.normalize('NFD').replace(/\p{M}/gu, '');
  const lower = faults.has('case-sensitive') ? unmarked : unmarked.toLowerCase();
  return [...lower].map((c) => (c === 'ß' && faults.has('eszett-unfolded') ? c : (REPLACED[c] ?? c))).join('');
}

function luhn(text: string): number {
  let sum = 0;
  for (let i = 0; i < text.length; i += 1) {
    let d = Number(text[i]) * (i % 2 === 0 ? 2 : 1);
    if (d > 9) d -= 9;
    sum += d;
  }
  return (10 - (sum % 10)) % 10;
}

function phone(): string {
  return random() < 0.5
    ? `+46 7${digits(1)} ${digits(3)} ${digits(2)} ${digits(2)}`
    : `+45 (${digits(2)}) ${digits(2)}-${digits(2)}-${digits(2)}`;
}

function address(city: string) {
  return {
    Street: `${pick(['Norra', 'Södra', 'Gamle'])} vägen ${1 + Math.floor(random() * 90)}`,
    City: city,
    PostalCode: `${digits(3)} ${digits(2)}`,
    Country: 'Nordland',
  };
}

const staffPool = Array.from({ length: 7 }, (_, i) => ({
  IdStaff: uuidV7(),
  FullName: `${pick(FIRST)} ${pick(LAST)}`,
  Specialization: pick(['Family Medicine', 'Geriatrics', 'Paediatrics']),
  Email: `staff${i}@care.example.net`,
  Phone: phone(),
}));
const locationPool = CITIES.map((city) => ({ IdLocation: uuidV7(), Name: `${city} Clinic`, Address: address(city) }));

function makeClient(index: number, personalIds: Set<string>): ClientDetail {
  const first = pick(FIRST);
  const last = pick(LAST);
  const full = `${first} ${last}`;
  let personalId: string;
  let dob: string;
  do {
    const day = new Date(Date.UTC(1930, 0, 1) + Math.floor(random() * 27_000) * 86_400_000);
    dob = day.toISOString().slice(0, 10);
    const serial = digits(3);
    const yymmdd = dob.replace(/-/g, '').slice(2);
    personalId = `${dob.replace(/-/g, '')}-${serial}${luhn(yymmdd + serial)}`;
  } while (personalIds.has(personalId));
  personalIds.add(personalId);
  const local = fold(full)
    .replace(/[^a-z0-9]+/g, '.')
    .replace(/^\.|\.$/g, '');
  const staff = random() < 1 / 6 ? null : pick(staffPool);
  const location = random() < 1 / 7 ? null : pick(locationPool);
  return {
    Status: random() < 0.7 ? 'Active' : 'Inactive',
    IdClient: uuidV7(),
    PersonalInfo: {
      Gender: pick(['Male', 'Female', 'Other', 'Unknown'] as const),
      DateOfBirth: dob,
      PersonalId: personalId,
      FullName: full,
      LastName: last,
      FirstName: first,
    },
    ContactInfo: { Phone: phone(), Email: `${local || 'client'}.${index}@mail.example.org`, Address: address(pick(CITIES)) },
    Staff: staff,
    Location: location,
    Insurance:
      random() < 0.2 ? null : { IdInsurance: uuidV7(), Name: 'Fjord Mutual', Code: 'FJM', PolicyNumber: `FJM-${digits(4)}-${digits(4)}` },
    Medical: { Medications: [], Allergies: random() < 0.3 ? [{ Severity: 'Mild', Name: 'Birch pollen' }] : [] },
  };
}

const collator = new Intl.Collator('en', { sensitivity: 'base' });
const personalIds = new Set<string>();

/** One data set: the clients in list order, and by id; the faults the backend serves it with. */
interface Data {
  clients: ClientDetail[];
  byId: Map<string, ClientDetail>;
  faults: ReadonlySet<Fault>;
  /** Ids whose Detail answers a wrong Phone (detailFault). */
  wrongDetail: ReadonlySet<string>;
  /** Each client's searched fields as the backend folds them, made on first use (a filter of 20,000 clients folds each once). */
  folded?: WeakMap<ClientDetail, string[]>;
  /**
   * The filtered lists last asked for, by their filter parameters (a walk asks the same filter once a page; the
   * data never change): at most FILTERED_KEPT, the oldest dropped first.
   */
  filtered?: Map<string, ClientDetail[]>;
}

const FILTERED_KEPT = 64;

/** FullName, PersonalId, Email and Phone folded, each on its own (openapi.yaml, filter). */
function searched(data: Data, client: ClientDetail): string[] {
  data.folded ??= new WeakMap();
  let fields = data.folded.get(client);
  if (!fields) {
    fields = [client.PersonalInfo.FullName, client.PersonalInfo.PersonalId, client.ContactInfo.Email, client.ContactInfo.Phone].map(
      (field) => fold(field, data.faults),
    );
    data.folded.set(client, fields);
  }
  return fields;
}

/** What the data set holds besides its size: each shape is a correct deployment the spec allows (IdStaff, IdLocation nullable; Status either). */
export interface DataShape {
  /** No client has a staff member (every Staff null). */
  noStaff?: boolean;
  /** No client has a location (every Location null). */
  noLocation?: boolean;
  /** Every client is Active. */
  noInactive?: boolean;
  /** No letter of the folding table anywhere (each written as its replacement, as the table folds it). */
  noTableLetters?: boolean;
}

/** The folding table's letters and every other letter that lower-cases to one of them (Ø, ẞ, …; not I, which is i's too). */
const TABLE_LETTERS = new RegExp(
  `[${Array.from({ length: 0x10000 }, (_, code) => String.fromCharCode(code))
    .filter((c) => REPLACED[c.toLowerCase()] !== undefined && !/[A-Za-z]/.test(c))
    .join('')}]`,
  'g',
);

/** Every letter of the folding table, and its upper case, written as the table folds it. */
function withoutTableLetters<T>(value: T): T {
  return JSON.parse(JSON.stringify(value).replace(TABLE_LETTERS, (c) => REPLACED[c.toLowerCase()]!)) as T;
}

function makeData(count: number, shape: DataShape = {}): Data {
  const clients = Array.from({ length: count }, (_, i) => makeClient(i, personalIds))
    .map((c) => ({
      ...c,
      Staff: shape.noStaff ? null : c.Staff,
      Location: shape.noLocation ? null : c.Location,
      Status: shape.noInactive ? ('Active' as const) : c.Status,
    }))
    .map((c) => (shape.noTableLetters ? withoutTableLetters(c) : c))
    .sort((a, b) => collator.compare(a.PersonalInfo.FullName, b.PersonalInfo.FullName) || (a.IdClient < b.IdClient ? -1 : 1));
  return { clients, byId: new Map(clients.map((c) => [c.IdClient, c])), faults: NO_FAULTS, wrongDetail: new Set() };
}

const DEFAULT_DATA = makeData(CLIENT_COUNT);

function extended(c: ClientDetail): ClientExtended {
  const p = c.PersonalInfo;
  // Another member order than Detail's PersonalInfo (free: JSON objects are unordered).
  const info: PersonalInfo = {
    FirstName: p.FirstName,
    LastName: p.LastName,
    FullName: p.FullName,
    PersonalId: p.PersonalId,
    DateOfBirth: p.DateOfBirth,
    Gender: p.Gender,
  };
  return {
    IdClient: c.IdClient,
    FullName: p.FullName,
    PersonalId: p.PersonalId,
    Phone: c.ContactInfo.Phone,
    Email: c.ContactInfo.Email,
    PersonalInfo: info,
    ContactInfo: c.ContactInfo,
    IdStaff: c.Staff?.IdStaff ?? null,
    StaffName: c.Staff?.FullName ?? null,
    IdLocation: c.Location?.IdLocation ?? null,
    LocationName: c.Location?.Name ?? null,
    Status: c.Status,
  };
}

// ---------------------------------------------------------------- HTTP

class Failure extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ECHOED_ID = /^[A-Za-z0-9_.:@-]{1,128}$/;
const DIGIT_TERM = /^[\d\s()+-]*\d[\d\s()+-]*$/;

type Query = Map<string, string>;

/**
 * Percent-decoding that never fails: the `%XX` triplets as UTF-8 bytes (bad sequences as U+FFFD), any other `%` as
 * itself. The document says only that `+` and `%20` mean a space; a cut encoding (`%E0%A4%A`) is then text.
 */
function decodeLeniently(text: string): string {
  const bytes: number[] = [];
  for (let i = 0; i < text.length; i += 1) {
    const triplet = /^%[0-9A-Fa-f]{2}/.exec(text.slice(i));
    if (triplet) {
      bytes.push(parseInt(triplet[0].slice(1), 16));
      i += 2;
    } else bytes.push(...Buffer.from(text[i]!, 'utf8'));
  }
  return new TextDecoder('utf-8').decode(Uint8Array.from(bytes));
}

function parseQuery(search: string, allowed: readonly string[], faults = NO_FAULTS, wire: WireBehaviours = {}): Query {
  const query: Query = new Map();
  for (const pair of search.replace(/^\?/, '').split('&')) {
    if (pair === '') continue;
    const at = pair.indexOf('=');
    let name: string;
    let value: string;
    try {
      const decode = (text: string) => {
        const spaced = faults.has('plus-literal') ? text : text.replace(/\+/g, ' ');
        return wire.lenientPercentEncoding ? decodeLeniently(spaced) : decodeURIComponent(spaced);
      };
      name = decode(at < 0 ? pair : pair.slice(0, at));
      value = at < 0 ? '' : decode(pair.slice(at + 1));
    } catch {
      throw new Failure(400, 'VALIDATION_ERROR', `Malformed percent-encoding in the query near "${pair.slice(0, 40)}"`);
    }
    if (!allowed.includes(name)) throw new Failure(400, 'VALIDATION_ERROR', `Parameter "${name}" is not accepted here`);
    if (query.has(name)) throw new Failure(400, 'VALIDATION_ERROR', `Parameter "${name}" appears more than once`);
    query.set(name, value);
  }
  return query;
}

function integer(query: Query, name: string, fallback: number, max: number): number {
  const raw = query.get(name);
  if (raw === undefined) return fallback;
  if (!/^[0-9]+$/.test(raw) || Number(raw) < 1 || Number(raw) > max)
    throw new Failure(400, 'VALIDATION_ERROR', `Parameter "${name}" wants a whole number in 1..${max}`);
  return Number(raw);
}

function uuid(query: Query, name: string): string | undefined {
  const raw = query.get(name);
  if (raw === undefined) return undefined;
  if (!UUID.test(raw)) throw new Failure(400, 'VALIDATION_ERROR', `Parameter "${name}" wants a uuid`);
  return raw;
}

interface Answer {
  status: number;
  body: unknown;
  headers?: Record<string, string | string[]>;
}

/** Where a Link target starts: nothing (a query-only reference), or `//host/path` (a network-path reference). */
function list(data: Data, pathname: string, query: Query, detailed: boolean, linkBase = ''): Answer {
  const page = integer(query, 'page', 1, 2147483647);
  const pageSize = integer(query, 'pageSize', 25, 100);
  let clients = data.clients;
  if (detailed) {
    const active = query.get('active');
    if (active !== undefined && active !== 'true' && active !== 'false')
      throw new Failure(400, 'VALIDATION_ERROR', 'Parameter "active" is true or false');
    const filter = query.get('filter');
    if (filter !== undefined && [...filter].length > 200)
      throw new Failure(400, 'VALIDATION_ERROR', 'Parameter "filter" is at most 200 characters');
    const key = JSON.stringify([active, filter, query.get('idStaff'), query.get('idLocation')]);
    data.filtered ??= new Map();
    const kept = data.filtered.get(key);
    if (kept) clients = kept;
    else {
      const faults = data.faults;
      const asWritten = (id: string | undefined) => (faults.has('uuid-case-sensitive') ? id : id?.toLowerCase());
      const idStaff = asWritten(uuid(query, 'idStaff'));
      const idLocation = asWritten(uuid(query, 'idLocation'));
      // White space is the Unicode White_Space property (openapi.yaml, filter), not JavaScript's \s or trim().
      const [edges, runs] = faults.has('ecmascript-white-space')
        ? [/^\s+|\s+$/g, /\s+/g]
        : [/^\p{White_Space}+|\p{White_Space}+$/gu, /\p{White_Space}+/gu];
      const term = fold(faults.has('untrimmed') ? (filter ?? '') : (filter ?? '').replace(edges, ''), faults).replace(runs, ' ');
      const digitTerm = faults.has('digits-bare-only') ? /^\d+$/ : DIGIT_TERM;
      const termDigits = digitTerm.test(term) ? term.replace(/\D/g, '') : undefined;
      const dropped = faults.has('active-drops-one') && active !== undefined ? data.clients[0] : undefined;
      clients = clients.filter(
        (c) =>
          c !== dropped &&
          (active === undefined || (c.Status === 'Active') === (active === 'true')) &&
          (idStaff === undefined || c.Staff?.IdStaff === idStaff) &&
          (idLocation === undefined || c.Location?.IdLocation === idLocation) &&
          (term === '' ||
            searched(data, c).some((field) => field.includes(term)) ||
            (termDigits !== undefined && c.ContactInfo.Phone.replace(/\D/g, '').includes(termDigits))),
      );
      const given = [active, filter, idStaff, idLocation].filter((value) => value !== undefined).length;
      if (faults.has('and-drops-last') && given > 1) clients = clients.slice(0, -1);
      if (data.filtered.size >= FILTERED_KEPT) data.filtered.delete(data.filtered.keys().next().value!);
      data.filtered.set(key, clients);
    }
  }
  const total = clients.length;
  const last = Math.max(1, Math.ceil(total / pageSize));
  // pages-overlap: page n > 1 starts one client early, each page as long as it should be.
  const start = (page - 1) * pageSize - (data.faults.has('pages-overlap') && page > 1 ? 1 : 0);
  const length = Math.max(0, Math.min(pageSize, total - (page - 1) * pageSize));
  const results = clients.slice(start, start + length).map((c) => {
    const e = extended(c);
    return detailed ? e : { IdClient: e.IdClient, FullName: e.FullName, PersonalId: e.PersonalId, Phone: e.Phone, Email: e.Email };
  });
  // Query-only references, pageSize first, the request's other parameters as sent; relations naming one page share a value.
  const others = [...query].filter(([name]) => name !== 'page' && name !== 'pageSize');
  const ref = (n: number) =>
    `${linkBase}?pageSize=${pageSize}${others.map(([k, v]) => `&${k}=${encodeURIComponent(v)}`).join('')}&page=${n}`;
  const byPage = new Map<number, string[]>();
  const add = (rel: string, n: number) => byPage.set(n, [...(byPage.get(n) ?? []), rel]);
  add('first', 1);
  if (page > 1) add('prev', Math.min(page - 1, last));
  if (page < last) add('next', page + 1);
  add('last', last);
  const links = [...byPage].map(([n, rels]) => `<${ref(n)}>; title="page ${n}"; rel=${rels.length > 1 ? `"${rels.join(' ')}"` : rels[0]}`);
  return {
    status: 200,
    body: { Results: results, PageSize: pageSize, Page: page },
    headers: { 'x-total-count': String(total), link: links },
  };
}

function route(
  data: Data,
  method: string,
  pathname: string,
  search: string,
  key: string | undefined,
  wire: WireBehaviours,
  host: string,
): Answer {
  const known = /^\/api\/v1\/(Diagnostics\/(Ping|Exception)|Client\/(Simple|Extended)|Client\/Detail\/([^/]+))$/.exec(pathname);
  if (!known) throw new Failure(404, 'NOT_FOUND', `Nothing lives at ${pathname}`);
  if (method !== 'GET') throw new Failure(405, 'METHOD_NOT_ALLOWED', `Only GET is served at ${pathname}`);
  if (pathname.startsWith('/api/v1/Client/')) {
    if (key === undefined) throw new Failure(401, 'UNAUTHORIZED', 'Send your key in X-Api-Key');
    if (key !== SECOND_API_KEY) throw new Failure(401, 'UNAUTHORIZED', 'That X-Api-Key is not one of ours');
  }
  if (known[2] === 'Ping') {
    parseQuery(search, []);
    return { status: 200, body: 'Pong' };
  }
  if (known[2] === 'Exception') {
    parseQuery(search, []);
    throw new Failure(500, 'TEST_EXCEPTION', 'This is a test exception from /Exception endpoint');
  }
  const linkBase = wire.networkPathLinks ? `//${host}${pathname}` : '';
  if (known[3] === 'Simple') return list(data, pathname, parseQuery(search, ['page', 'pageSize'], data.faults, wire), false, linkBase);
  if (known[3] === 'Extended')
    return list(
      data,
      pathname,
      parseQuery(search, ['page', 'pageSize', 'active', 'filter', 'idStaff', 'idLocation'], data.faults, wire),
      true,
      linkBase,
    );
  parseQuery(search, []);
  let id: string;
  try {
    id = decodeURIComponent(known[4]!);
  } catch {
    throw new Failure(400, 'VALIDATION_ERROR', 'idClient is not valid percent-encoding');
  }
  if (!UUID.test(id)) throw new Failure(400, 'VALIDATION_ERROR', 'idClient wants a uuid');
  const client = data.byId.get(data.faults.has('uuid-case-sensitive') ? id : id.toLowerCase());
  if (!client) throw new Failure(404, 'CLIENT_NOT_FOUND', `Client ${id} is unknown`);
  if (!data.wrongDetail.has(client.IdClient)) return { status: 200, body: client };
  // detailFault: one field wrong (the Phone's last digit moved on by one), every rule of the record still kept.
  const phone = client.ContactInfo.Phone.replace(/\d$/, (d) => String((Number(d) + 1) % 10));
  return { status: 200, body: { ...client, ContactInfo: { ...client.ContactInfo, Phone: phone } } };
}

/** The value with its objects' members in an order of their own (a new one on every call): JSON objects are unordered. */
function shuffled(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(shuffled);
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value).map(([name, member]) => [name, shuffled(member)] as const);
  for (let i = entries.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [entries[i], entries[j]] = [entries[j]!, entries[i]!];
  }
  return Object.fromEntries(entries);
}

/** Header names whose values are lists of case-insensitive tokens (RFC 9110 §12.5.5, §5.6.1; Fetch): written in upper case. */
const CASE_FREE_LISTS = new Set(['access-control-expose-headers', 'access-control-allow-headers', 'vary']);

/**
 * Every header value as RFC 9110 lets a server write it: optional white space (SP, HTAB) around it (§5.5), a list
 * field split over several lines, one element each and an empty element beside them (§5.3, §5.6.1), case-insensitive
 * tokens in upper case, the media type in another case (§8.3.1). A recipient must read each as the plain value.
 */
function spaceHeaders(res: http.ServerResponse): void {
  for (const name of res.getHeaderNames()) {
    const value = res.getHeader(name);
    if (value === undefined || name === 'content-length') continue;
    const values = Array.isArray(value) ? value.map(String) : [String(value)];
    const listed = CASE_FREE_LISTS.has(name) || name === 'allow';
    const lines = listed ? values.flatMap((line) => line.split(',').map((item) => item.trim())) : values;
    const cased = lines.map((line) =>
      CASE_FREE_LISTS.has(name)
        ? line.toUpperCase()
        : name === 'content-type'
          ? line.replace(/^application\/json/, 'Application/JSON')
          : line,
    );
    const spaced = cased.map((line, i) => (i % 2 === 0 ? ` ${line} ` : `\t${line}\t `));
    res.setHeader(name, listed ? [...spaced, ' '] : spaced.length === 1 ? spaced[0]! : spaced);
  }
}

function send(req: http.IncomingMessage, res: http.ServerResponse, answer: Answer, wire: WireBehaviours): void {
  let body: Buffer = Buffer.from(JSON.stringify(wire.shuffledMembers ? shuffled(answer.body) : answer.body), 'utf8');
  const headers: Record<string, string | string[]> = { 'content-type': 'application/json; charset=utf-8', ...answer.headers };
  if (/\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''))) {
    body = zlib.gzipSync(body);
    headers['content-encoding'] = 'gzip';
    headers.vary = 'accept-encoding';
  }
  headers['content-length'] = String(body.length);
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  if (wire.headerWhiteSpace) spaceHeaders(res);
  res.writeHead(answer.status);
  res.end(body);
}

function handle(
  data: Data,
  req: http.IncomingMessage,
  res: http.ServerResponse,
  origins: readonly string[] | undefined,
  wire: WireBehaviours,
): void {
  const incoming = req.headers['x-request-id'];
  res.setHeader('x-request-id', typeof incoming === 'string' && ECHOED_ID.test(incoming) ? incoming : uuidV7());
  res.setHeader('cache-control', 'no-store');
  res.setHeader('x-content-type-options', 'nosniff');
  res.setHeader('content-security-policy', "default-src 'none'; frame-ancestors 'none'");
  res.setHeader('x-frame-options', 'DENY');
  const origin = req.headers.origin;
  // With an origin list, only listed origins get CORS headers (named, and Vary: Origin); others get none, as a browser's CORS check expects.
  const accepted = origin !== undefined && (origins === undefined || origins.includes(origin));
  if (accepted) {
    res.setHeader('access-control-allow-origin', origins === undefined ? '*' : origin);
    if (origins !== undefined) res.setHeader('vary', 'origin');
    res.setHeader('access-control-expose-headers', 'x-total-count, link, x-request-id');
  }
  const method = req.method ?? 'GET';
  const [pathname = '/', search = ''] = (req.url ?? '/').split(/\?(.*)/s, 2);
  if (method === 'OPTIONS' && origin !== undefined && req.headers['access-control-request-method'] !== undefined) {
    if (accepted) {
      res.setHeader('access-control-allow-methods', 'GET');
      res.setHeader('access-control-allow-headers', 'x-api-key, prefer, x-request-id');
      res.setHeader('access-control-max-age', '300');
    }
    if (wire.headerWhiteSpace) spaceHeaders(res);
    res.writeHead(204);
    res.end();
    return;
  }
  try {
    const key = req.headers['x-api-key'];
    send(req, res, route(data, method, pathname, search, typeof key === 'string' ? key : undefined, wire, req.headers.host ?? ''), wire);
  } catch (error) {
    const failure = error instanceof Failure ? error : new Failure(500, 'INTERNAL_ERROR', 'Something went wrong on our side');
    if (failure.status === 405) res.setHeader('allow', 'GET');
    send(req, res, { status: failure.status, body: { Message: failure.message, Code: failure.code } }, wire);
  }
}

export interface SecondImplementation {
  baseUrl: string;
  apiKey: string;
  stop(): Promise<void>;
}

/** Ways of writing the wire that the document and the standards allow, each off by default (free choice 11). */
export interface WireBehaviours {
  /** A query's cut percent-encoding (`filter=%E0%A4%A`) read as text, not refused: the document states only `+` and `%20`. */
  lenientPercentEncoding?: boolean;
  /** Header values with optional white space around them, lists over several lines, tokens in another case (RFC 9110 §5). */
  headerWhiteSpace?: boolean;
  /** JSON members in a new order on every answer (RFC 8259 §4: an object is an unordered collection). */
  shuffledMembers?: boolean;
  /** Link targets as network-path references, `//host/path?…` (RFC 3986 §4.2: a relative reference). */
  networkPathLinks?: boolean;
  /**
   * One answer per connection, while advertising keep-alive: the connection is closed, unanswered, when the next
   * request arrives on it (RFC 9112 §9.6: a server may close an idle connection at any time; the client retries).
   */
  closeReusedConnections?: boolean;
  /** Listening on ::1, the IPv6 loopback: the base URL is `http://[::1]:PORT`. */
  ipv6?: boolean;
}

export interface SecondImplementationOptions extends DataShape {
  /** How many clients (default 317); 0 is an empty deployment. */
  clients?: number;
  /** Accept only these CORS origins (default: any, answered with `*`). */
  origins?: readonly string[];
  /** Faults to serve the data with (a broken backend; none by default). */
  faults?: readonly Fault[];
  /**
   * Detail answers a wrong Phone for exactly one client in `every` (the clients whose rank by a hash of `seed`
   * and the id is a multiple of `every`: floor(n / every) of n clients, at least one), the lists the right one.
   */
  detailFault?: { every: number; seed: number };
  /** Wire behaviours to switch on (default: none). */
  wire?: WireBehaviours;
}

/** The ids of detailFault: floor(n / every) clients (at least one), the first by a hash of the seed and the id. */
function wrongDetailIds(clients: readonly ClientDetail[], fault: { every: number; seed: number }): Set<string> {
  const hash = (id: string) => createHash('sha256').update(`${fault.seed}:${id}`).digest('hex');
  const ranked = clients.map((c) => c.IdClient).sort((a, b) => (hash(a) < hash(b) ? -1 : 1));
  return new Set(ranked.slice(0, Math.max(1, Math.floor(clients.length / fault.every))));
}

/**
 * Starts it on 127.0.0.1 (or ::1) and a free port, with its 317 clients or, given
 * `clients`, a data set of that size from the same generator (the same 7
 * staff members and 5 locations, so a large set puts thousands of clients on
 * each), in the data shape asked for, accepting any Origin or only `origins`.
 */
export function startSecondImplementation(options: SecondImplementationOptions = {}): Promise<SecondImplementation> {
  const shaped = options.noStaff === true || options.noLocation === true || options.noInactive === true || options.noTableLetters === true;
  const made =
    !shaped && (options.clients === undefined || options.clients === CLIENT_COUNT)
      ? DEFAULT_DATA
      : makeData(options.clients ?? CLIENT_COUNT, options);
  const data: Data = {
    ...made,
    folded: undefined,
    filtered: undefined,
    faults: new Set(options.faults ?? []),
    wrongDetail: options.detailFault && made.clients.length > 0 ? wrongDetailIds(made.clients, options.detailFault) : new Set(),
  };
  const wire = options.wire ?? {};
  const answered = new WeakMap<object, number>();
  const server = http.createServer((req, res) => {
    const count = (answered.get(req.socket) ?? 0) + 1;
    answered.set(req.socket, count);
    if (wire.closeReusedConnections && count > 1) {
      req.socket.destroy();
      return;
    }
    req.resume();
    req.on('end', () => handle(data, req, res, options.origins, wire));
  });
  return listenOnLoopback(server, undefined, wire.ipv6 ? '::1' : '127.0.0.1').then((listening) => ({
    ...listening,
    apiKey: SECOND_API_KEY,
  }));
}
