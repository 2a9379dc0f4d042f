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
//   headers a request may carry.
//
// The secrets a request may carry (X-Api-Key, Authorization, Cookie) are
// never kept: their values are replaced before the entry is made.
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
  return text.length > max ? [text.slice(0, max), true] : [text, false];
}

/** Request headers as the journal keeps them: lower-case names, secrets redacted, values and the whole cut. */
export function keptHeaders(raw: readonly string[]): [Record<string, string>, boolean] {
  const headers: Record<string, string> = {};
  let used = 0;
  let count = 0;
  let truncated = false;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    let value = SECRET_HEADERS.has(name) ? REDACTED : raw[i + 1]!;
    if (value.length > CUT.headerValue) {
      value = value.slice(0, CUT.headerValue);
      truncated = true;
    }
    const previous = headers[name];
    // A repeated header is one field with its values joined (RFC 9110 section 5.3).
    const joined = previous === undefined ? value : `${previous}, ${value}`.slice(0, CUT.headerValue);
    const added = joined.length - (previous?.length ?? -name.length);
    if (used + added > CUT.headers || (previous === undefined && count >= CUT.headerCount)) {
      truncated = true;
      continue;
    }
    if (previous === undefined) count += 1;
    headers[name] = joined;
    used += added;
  }
  return [headers, truncated];
}

export class Journal {
  private ring: JournalEntry[] = [];
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
    const question = exchange.url.indexOf('?');
    const [path, pathCut] = cut(question < 0 ? exchange.url : exchange.url.slice(0, question), CUT.path);
    const [query, queryCut] = cut(question < 0 ? '' : exchange.url.slice(question + 1), CUT.query);
    const [requestHeaders, headersCut] = keptHeaders(exchange.rawHeaders);
    const entry: JournalEntry = {
      id: this.nextId++,
      at: new Date(exchange.at).toISOString(),
      method: exchange.method.slice(0, 16),
      path,
      query,
      operationId: exchange.operationId,
      status: exchange.status,
      code: exchange.code,
      durationMs: Math.round(exchange.durationMs * 100) / 100,
      scenario: exchange.scenario,
      session: exchange.session,
      requestId: exchange.requestId,
      process: this.process,
      requestHeaders,
      truncated: pathCut || queryCut || headersCut,
    };
    if (this.ring.length < this.capacity) this.ring.push(entry);
    else {
      this.ring[this.start] = entry;
      this.start = (this.start + 1) % this.capacity;
      this.droppedCount += 1;
    }
  }

  /** Every kept entry, oldest first. */
  entries(): JournalEntry[] {
    return this.start === 0 ? [...this.ring] : [...this.ring.slice(this.start), ...this.ring.slice(0, this.start)];
  }

  /** The kept entries that match every filter, oldest first, and how many matched before the limit. */
  query(query: JournalQuery): JournalPage {
    const times = {
      ...query,
      ...(query.since !== undefined ? { since: normalise(query.since) } : {}),
      ...(query.until !== undefined ? { until: normalise(query.until) } : {}),
    };
    const matching = this.entries().filter((entry) => matches(entry, times));
    return {
      entries: matching.slice(0, query.limit),
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
    this.ring = session === undefined ? [] : this.entries().filter((entry) => entry.session !== session);
    this.start = 0;
    this.droppedCount += before - this.ring.length;
  }
}

/** `query`'s times normalised (normalise). */
function matches(entry: JournalEntry, query: Omit<JournalQuery, 'limit'>): boolean {
  if (query.operation !== undefined && entry.operationId !== (query.operation === 'none' ? null : query.operation)) return false;
  if (query.status !== undefined && entry.status !== query.status) return false;
  if (query.session !== undefined && entry.session !== query.session) return false;
  if (query.scenario !== undefined && entry.scenario !== query.scenario) return false;
  // ISO 8601 times of one format (normalise) compare as strings.
  if (query.since !== undefined && entry.at < query.since) return false;
  if (query.until !== undefined && entry.at >= query.until) return false;
  return true;
}

/** A date-time of any RFC 3339 form as the journal writes times (UTC, milliseconds), so they compare as text. */
function normalise(time: string): string {
  const parsed = Date.parse(time);
  return Number.isNaN(parsed) ? time : new Date(parsed).toISOString();
}

/** Pages of several processes' journals as one: entries merged by time, the limit applied again, counts added. */
export function mergePages(pages: readonly JournalPage[], limit: number): JournalPage {
  const entries = pages
    .flatMap((page) => page.entries)
    .sort((a, b) => (a.at === b.at ? a.process.pid - b.process.pid || a.id - b.id : a.at < b.at ? -1 : 1));
  const sum = (key: 'matching' | 'kept' | 'dropped') => pages.reduce((total, page) => total + page[key], 0);
  return {
    entries: entries.slice(0, limit),
    matching: sum('matching'),
    kept: sum('kept'),
    dropped: sum('dropped'),
    capacity: pages[0]?.capacity ?? 0,
    processes: pages.flatMap((page) => page.processes),
  };
}
