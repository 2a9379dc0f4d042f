// What the judge remembers across exchanges: the list rows and Details seen per client, bounded.
type Json = Record<string, unknown>;

/** What the memory holds of one client: the last list rows and Detail seen. */
interface Remembered {
  simple?: Json;
  extended?: Json;
  detail?: Json;
}

/**
 * What the judge has seen of each client across exchanges, so a Detail can be
 * held to the list rows already seen for that client (and rows of one list to
 * rows of the other). Bounded: at most `maxClients` clients (default 10,000,
 * about 1 KB each as a list row, so ~10-20 MB), least recently seen evicted
 * first (a Map in insertion order; a client seen again moves to the end).
 * Only answers that passed their schema are remembered, and answers a mock
 * control (`Prefer: example=…`) shaped are not.
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

  remember(idClient: string, kind: keyof Remembered, record: Json): void {
    const key = idClient.toLowerCase();
    const entry = this.clients.get(key) ?? {};
    this.clients.delete(key);
    entry[kind] = record;
    this.clients.set(key, entry);
    while (this.clients.size > this.maxClients) this.clients.delete(this.clients.keys().next().value as string);
  }

  clear(): void {
    this.clients.clear();
  }
}

// ---------------------------------------------------------------- responses
