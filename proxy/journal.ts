// What the proxy keeps of the violations it saw, in bounded memory: the
// journal (a ring of the last N entries, each text cut to a fixed length, so
// N entries hold at most N × MAX_ENTRY_CHARS characters) and the tally behind
// the exit report (counts per side, and per cause the count and the first
// entry, at most MAX_CAUSES causes). Clearing the journal leaves the tally.
import type { components } from '../generated/proxy';
import type { Side, Violation } from '../contract/judge';

export type JournalEntry = components['schemas']['JournalEntry'];
export type JournalPage = components['schemas']['JournalPage'];
export type Cause = components['schemas']['Cause'];
export type Kind = components['schemas']['Kind'];

/** The prefix of the rules of a transport fault (proxy.openapi.yaml, "Transport faults"): no rule of openapi.yaml, HTTP itself. */
export const TRANSPORT_RULE_PREFIX = 'transport.';

export const kindOf = (rule: string): Kind => (rule.startsWith(TRANSPORT_RULE_PREFIX) ? 'transport' : 'contract');

/** Cut lengths of an entry's texts (proxy.openapi.yaml states the same maxima). */
export const CUT = { text: 300, target: 2048, curl: 2560, sentences: 16, sentence: 200 } as const;
/** An entry's characters at most: its texts at their cut lengths plus the short fields. */
export const MAX_ENTRY_CHARS = 3 * CUT.text + CUT.target + CUT.curl + CUT.sentences * CUT.sentence + 400;
/** Distinct causes the tally keeps; later ones are summed in causesDropped. */
export const MAX_CAUSES = 1000;

export function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

export interface JournalQuery {
  side?: Side;
  operation?: string;
  rule?: string;
  exchange?: number;
  since?: number;
  limit: number;
}

/** Which sides --fail-on-violation counts. */
export type Counted = ReadonlySet<Side>;

export class Journal {
  private ring: JournalEntry[] = [];
  /** Index of the oldest entry in `ring` once it is full. */
  private start = 0;
  private nextId = 1;
  private droppedCount = 0;
  readonly totals: Record<Side | 'transport', number> = { request: 0, response: 0, transport: 0 };
  private readonly causes = new Map<string, Cause>();
  causesDropped = 0;
  /** How many violations of the last one added's cause were seen, it included; 0 when its cause is past MAX_CAUSES. */
  seenOfLast = 0;

  constructor(
    readonly capacity: number,
    private readonly countedSides: Counted,
  ) {}

  /** Records one violation of one exchange; returns the entry as kept. */
  add(violation: Violation, exchange: Omit<JournalEntry, keyof Violation | 'kind' | 'id' | 'at'>): JournalEntry {
    const kind = kindOf(violation.rule);
    const entry: JournalEntry = {
      kind,
      id: this.nextId++,
      at: new Date().toISOString(),
      rule: violation.rule,
      sentences: violation.sentences.slice(0, CUT.sentences).map((id) => cut(id, CUT.sentence)),
      side: violation.side,
      operation: violation.operation,
      expected: cut(violation.expected, CUT.text),
      actual: cut(violation.actual, CUT.text),
      cause: cut(violation.cause, CUT.text),
      exchange: exchange.exchange,
      method: cut(exchange.method, 32),
      target: cut(exchange.target, CUT.target),
      status: exchange.status,
      answeredBy: exchange.answeredBy,
      curl: cut(exchange.curl, CUT.curl),
      ...(exchange.bodyJudged === false ? { bodyJudged: false } : {}),
    };
    if (this.ring.length < this.capacity) this.ring.push(entry);
    else {
      this.ring[this.start] = entry;
      this.start = (this.start + 1) % this.capacity;
      this.droppedCount += 1;
    }
    this.totals[violation.side] += 1;
    if (kind === 'transport') this.totals.transport += 1;
    const key = `${violation.side}\u0000${violation.operation}\u0000${violation.rule}\u0000${violation.cause}`;
    const cause = this.causes.get(key);
    if (cause) this.seenOfLast = ++cause.count;
    else if (this.causes.size < MAX_CAUSES) {
      this.seenOfLast = 1;
      this.causes.set(key, {
        side: violation.side,
        kind,
        operation: violation.operation,
        rule: violation.rule,
        cause: entry.cause,
        count: 1,
        counted: this.countedSides.has(violation.side),
        first: entry,
      });
    } else {
      this.causesDropped += 1;
      this.seenOfLast = 0;
    }
    return entry;
  }

  /** The kept entries, oldest first. */
  entries(): JournalEntry[] {
    return [...this.ring.slice(this.start), ...this.ring.slice(0, this.start)];
  }

  query(query: JournalQuery): JournalPage {
    const matching = this.entries().filter(
      (entry) =>
        (query.side === undefined || entry.side === query.side) &&
        (query.operation === undefined || entry.operation === query.operation) &&
        (query.rule === undefined || entry.rule === query.rule) &&
        (query.exchange === undefined || entry.exchange === query.exchange) &&
        entry.id > (query.since ?? 0),
    );
    return { entries: matching.slice(0, query.limit), matching: matching.length, kept: this.ring.length, dropped: this.droppedCount };
  }

  clear(): void {
    this.droppedCount += this.ring.length;
    this.ring = [];
    this.start = 0;
  }

  get dropped(): number {
    return this.droppedCount;
  }

  /** Violations --fail-on-violation counts. */
  get counted(): number {
    let sum = 0;
    for (const side of this.countedSides) sum += this.totals[side];
    return sum;
  }

  /** Causes, the upstream's first, then the most frequent. */
  causeList(): Cause[] {
    return [...this.causes.values()].sort((a, b) => (a.side === b.side ? b.count - a.count : a.side === 'response' ? -1 : 1));
  }
}
