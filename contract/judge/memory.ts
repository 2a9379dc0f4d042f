// What the judge remembers across exchanges: per client, the fields its list rows and Detail share, bounded.

/** A record's kind: a row of the Simple list, of the Extended list, or a Detail. */
export type RecordKind = 'simple' | 'extended' | 'detail';

/**
 * The fields a list row or Detail shares with the other kinds, by the list row's names (a Detail's nested Staff and
 * Location read as the rows' IdStaff/StaffName and IdLocation/LocationName); undefined where the kind lacks it.
 */
export interface SharedView {
  readonly kind: RecordKind;
  readonly fields: Readonly<Record<SharedField, unknown>>;
}

/** The shared fields, in the order a disagreement names them. */
export const SHARED_FIELDS = [
  'FullName',
  'PersonalId',
  'Email',
  'Phone',
  'PersonalInfo',
  'ContactInfo',
  'Status',
  'IdStaff',
  'StaffName',
  'IdLocation',
  'LocationName',
] as const;
export type SharedField = (typeof SHARED_FIELDS)[number];

/** What the memory holds of one client: the shared fields of the last list rows and Detail seen. */
export interface Remembered {
  simple?: SharedView;
  extended?: SharedView;
  detail?: SharedView;
}

/**
 * What the judge has seen of each client across exchanges, so a Detail can be
 * held to the list rows already seen for that client (and rows of one list to
 * rows of the other). Bounded: at most `maxClients` clients (default 10,000;
 * each holds at most three views of about 1 KB, so ~10-30 MB), least recently
 * seen evicted first (a Map in insertion order; a client seen again moves to
 * the end). Only answers that passed their schema are remembered, and answers
 * a mock control (`Prefer: example=…`) shaped are not. A view is taken once,
 * as the record is met, and compared as it is with every later one.
 */
export class ExchangeMemory {
  private readonly clients = new Map<string, Remembered>();

  constructor(readonly maxClients = 10_000) {}

  get size(): number {
    return this.clients.size;
  }

  recall(idClient: string): Readonly<Remembered> | undefined {
    return this.clients.get(idClient.toLowerCase());
  }

  /** The client's entry, made the most recently seen (created when new): the caller reads it, then sets its kind. */
  meet(idClient: string): Remembered {
    const key = idClient.toLowerCase();
    const entry = this.clients.get(key);
    if (entry === undefined) {
      const created: Remembered = {};
      this.clients.set(key, created);
      if (this.clients.size > this.maxClients) this.clients.delete(this.clients.keys().next().value as string);
      return created;
    }
    this.clients.delete(key);
    this.clients.set(key, entry);
    return entry;
  }

  clear(): void {
    this.clients.clear();
  }
}
