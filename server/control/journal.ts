// The journal (control.openapi.yaml, "The journal"): the last N exchanges the
// mock answered, to assert on ("the page asked for page 2 with filter=berg",
// "the retry sent exactly three requests after the 500"). A ring of fixed
// capacity, each entry's texts cut to fixed lengths, so the memory it holds
// has a bound that does not depend on the traffic:
//
//   N × MAX_ENTRY_CHARS characters, i.e. at most N × ~8 KB (2 bytes a
//   character for text beyond Latin-1) plus ~1 KB of object overhead per
//   entry: ≤ 9 MB for the default 1,000 entries. bench/journal-flood.ts
//   measures it under a flood of requests with the longest paths, queries and
//   headers a request may carry: ~3.7 KB an entry, 3.5 MB for 1,000.
//
// The secrets a request may carry (X-Api-Key, Authorization, Cookie) are
// never kept: their values are replaced as the exchange is recorded. Recording
// is on every request's path, so it only copies and cuts; the entry the
// control API shows (its time as text, its headers as a record) is made when
// it is read.
import type { components } from '../../generated/control';

export type JournalEntry = components['schemas']['JournalEntry'];
export type JournalPage = components['schemas']['JournalPage'];
export type ProcessLabel = components['schemas']['Process'];

/** Cut lengths (control.openapi.yaml states the same maxima). */
export const CUT = { path: 512, query: 1024, headerValue: 256, headers: 2048, headerCount: 64 } as const;
/** The characters an entry holds at most: its texts at their cut lengths plus the short fields (ids, times, names). */
export const MAX_ENTRY_CHARS = CUT.path + CUT.query + CUT.headers + 600;
/** Headers whose values are secrets: kept as this, never as sent. */
export const REDACTED = '[redacted]';
const SECRET_HEADERS = new Set(['x-api-key', 'authorization', 'proxy-authorization', 'cookie']);
const SECRET_LENGTHS = new Set([...SECRET_HEADERS].map((name) => name.length));

export interface JournalQuery {
  operation?: string;
  status?: number;
  session?: string;
  scenario?: string;
  /** ISO 8601, inclusive. */
  since?: string;
  /** ISO 8601, exclusive. */
  until?: string;
  limit: number;
}

/** The facts of one exchange, as the request hook saw them; the journal cuts and redacts. */
export interface Exchange {
  at: number;
  method: string;
  url: string;
  operationId: string | null;
  status: number;
  code: string | null;
  durationMs: number;
  scenario: string;
  session: string | null;
  requestId: string;
  rawHeaders: readonly string[];
}

function cut(text: string, max: number): [string, boolean] {
  // A slice of a long string would keep the whole string alive: the cut is copied (rare: only texts over their cut),
  // by a join rather than Buffer, which a browser's service worker does not have.
  return text.length > max ? [text.slice(0, max).split('').join(''), true] : [text, false];
}

/**
 * Request headers as the journal keeps them: `[name, value, …]` as sent, a
 * secret's value replaced, every value and the whole cut to their maxima. The
 * common case (a few short headers) is a copy of the array with the secrets
 * replaced; names are put in lower case and repeats joined when an entry is read.
 */
export function keptHeaders(raw: readonly string[]): [string[], boolean] {
  let total = 0;
  let long = raw.length > CUT.headerCount * 2;
  for (let i = 0; i < raw.length; i += 2) {
    const length = raw[i]!.length + raw[i + 1]!.length;
    if (raw[i + 1]!.length > CUT.headerValue) long = true;
    total += length;
  }
  const kept = raw.slice();
  for (let i = 0; i < kept.length; i += 2) {
    // Lower-casing allocates: only names of a secret's length are looked at.
    const name = kept[i]!;
    if (SECRET_LENGTHS.has(name.length) && SECRET_HEADERS.has(name.toLowerCase())) kept[i + 1] = REDACTED;
  }
  if (!long && total <= CUT.headers) return [kept, false];
  const cutHeaders: string[] = [];
  let used = 0;
  for (let i = 0; i + 1 < kept.length && cutHeaders.length < CUT.headerCount * 2; i += 2) {
    const name = cut(kept[i]!, CUT.headerValue)[0];
    const value = cut(kept[i + 1]!, CUT.headerValue)[0];
    if (used + name.length + value.length > CUT.headers) break;
    cutHeaders.push(name, value);
    used += name.length + value.length;
  }
  return [cutHeaders, true];
}

/** Kept headers as the entry shows them: lower-case names, a repeated header's values joined (RFC 9110 section 5.3), each cut. */
function headerRecord(kept: readonly string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (let i = 0; i + 1 < kept.length; i += 2) {
    const name = kept[i]!.toLowerCase();
    const previous = headers[name];
    headers[name] = previous === undefined ? kept[i + 1]! : `${previous}, ${kept[i + 1]!}`.slice(0, CUT.headerValue);
  }
  return headers;
}

/**
 * What the ring holds of an exchange: its facts, cut, in one fixed-shape
 * object; the entry is made when read. Once the ring is full its objects are
 * written over in place, oldest first: an exchange allocates no ring object,
 * and the ring's objects stay where the garbage collector has already put them.
 */
class Kept {
  id = 0;
  at = 0;
  method = '';
  path = '';
  query = '';
  operationId: string | null = null;
  status = 0;
  code: string | null = null;
  durationMs = 0;
  scenario = '';
  session: string | null = null;
  requestId = '';
  headers: readonly string[] = [];
  truncated = false;
}

export class Journal {
  private ring: Kept[] = [];
  /** Index of the oldest entry once the ring is full. */
  private start = 0;
  private nextId = 1;
  private droppedCount = 0;

  constructor(
    readonly capacity: number,
    private readonly process: ProcessLabel,
  ) {}

  get kept(): number {
    return this.ring.length;
  }

  get dropped(): number {
    return this.droppedCount;
  }

  record(exchange: Exchange): void {
    if (this.capacity === 0) return;
    let kept: Kept;
    if (this.ring.length < this.capacity) {
      kept = new Kept();
      this.ring.push(kept);
    } else {
      kept = this.ring[this.start]!;
      this.start = (this.start + 1) % this.capacity;
      this.droppedCount += 1;
    }
    keep(kept, exchange, this.nextId++);
  }

  private entry(kept: Kept): JournalEntry {
    return entryOfKept(kept, this.process);
  }

  /** Every kept exchange, oldest first. */
  private inOrder(): Kept[] {
    return this.start === 0 ? [...this.ring] : [...this.ring.slice(this.start), ...this.ring.slice(0, this.start)];
  }

  /** Every kept entry, oldest first. */
  entries(): JournalEntry[] {
    return this.inOrder().map((kept) => this.entry(kept));
  }

  /** The kept entries that match every filter, oldest first, and how many matched before the limit. */
  query(query: JournalQuery): JournalPage {
    const since = query.since === undefined ? undefined : Date.parse(query.since);
    const until = query.until === undefined ? undefined : Date.parse(query.until);
    const matching = this.inOrder().filter((kept) => matches(kept, kept.at, query, since, until));
    return {
      entries: matching.slice(0, query.limit).map((kept) => this.entry(kept)),
      matching: matching.length,
      kept: this.ring.length,
      dropped: this.droppedCount,
      capacity: this.capacity,
      processes: [this.process],
    };
  }

  /** Removes every entry, or one session's. */
  clear(session?: string): void {
    const before = this.ring.length;
    this.ring = session === undefined ? [] : this.inOrder().filter((kept) => kept.session !== session);
    this.start = 0;
    this.droppedCount += before - this.ring.length;
  }
}

/** Writes an exchange's facts, cut and redacted, into `kept` (a ring's object, written over in place). */
function keep(kept: Kept, exchange: Exchange, id: number): void {
  const url = exchange.url;
  const question = url.indexOf('?');
  const [path, pathCut] = cut(question < 0 ? url : url.slice(0, question), CUT.path);
  const [query, queryCut] = question < 0 ? ['', false] : cut(url.slice(question + 1), CUT.query);
  const [headers, headersCut] = keptHeaders(exchange.rawHeaders);
  kept.id = id;
  kept.at = exchange.at;
  kept.method = exchange.method.length > 16 ? exchange.method.slice(0, 16) : exchange.method;
  kept.path = path;
  kept.query = query;
  kept.operationId = exchange.operationId;
  kept.status = exchange.status;
  kept.code = exchange.code;
  kept.durationMs = Math.round(exchange.durationMs * 100) / 100;
  kept.scenario = exchange.scenario;
  kept.session = exchange.session;
  kept.requestId = exchange.requestId;
  kept.headers = headers;
  kept.truncated = pathCut || queryCut || headersCut;
}

function entryOfKept(kept: Kept, process: ProcessLabel): JournalEntry {
  return {
    id: kept.id,
    at: new Date(kept.at).toISOString(),
    method: kept.method,
    path: kept.path,
    query: kept.query,
    operationId: kept.operationId,
    status: kept.status,
    code: kept.code,
    durationMs: kept.durationMs,
    scenario: kept.scenario,
    session: kept.session,
    requestId: kept.requestId,
    process,
    requestHeaders: headerRecord(kept.headers),
    truncated: kept.truncated,
  };
}

/** An exchange as the control API shows it, cut and redacted as the ring keeps it: for a store that keeps entries as text. */
export function entryOf(exchange: Exchange, id: number, process: ProcessLabel): JournalEntry {
  const kept = new Kept();
  keep(kept, exchange, id);
  return entryOfKept(kept, process);
}

/** Whether an entry passes a query's filters (`limit` aside). */
export function entryMatches(entry: JournalEntry, query: JournalQuery): boolean {
  const since = query.since === undefined ? undefined : Date.parse(query.since);
  const until = query.until === undefined ? undefined : Date.parse(query.until);
  return matches(entry, Date.parse(entry.at), query, since, until);
}

type Filtered = Pick<JournalEntry, 'operationId' | 'status' | 'session' | 'scenario'>;

function matches(kept: Filtered, at: number, query: JournalQuery, since: number | undefined, until: number | undefined): boolean {
  if (query.operation !== undefined && kept.operationId !== (query.operation === 'none' ? null : query.operation)) return false;
  if (query.status !== undefined && kept.status !== query.status) return false;
  if (query.session !== undefined && kept.session !== query.session) return false;
  if (query.scenario !== undefined && kept.scenario !== query.scenario) return false;
  if (since !== undefined && at < since) return false;
  if (until !== undefined && at >= until) return false;
  return true;
}
