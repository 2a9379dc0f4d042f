// The three views of one client. Simple and Extended are cut from the Detail
// record and share its nested objects, so the same client shows the same
// values everywhere by construction.
import { inSlices } from './background';
import type { ClientDetail, ClientExtended, ClientSimple } from '../contract/wire-types';

export function toSimple(client: ClientDetail): ClientSimple {
  return {
    IdClient: client.IdClient,
    FullName: client.PersonalInfo.FullName,
    PersonalId: client.PersonalInfo.PersonalId,
    Phone: client.ContactInfo.Phone,
    Email: client.ContactInfo.Email,
  };
}

// Written out rather than `{ ...toSimple(client), … }`: V8 builds the spread
// object in a slow shape (measured 10 µs per client against 0.06 µs, and JSON
// output of a page 3-5 times slower), on the path of every uncached list.
export function toExtended(client: ClientDetail): ClientExtended {
  return {
    IdClient: client.IdClient,
    FullName: client.PersonalInfo.FullName,
    PersonalId: client.PersonalInfo.PersonalId,
    Phone: client.ContactInfo.Phone,
    Email: client.ContactInfo.Email,
    PersonalInfo: client.PersonalInfo,
    ContactInfo: client.ContactInfo,
    IdStaff: client.Staff?.IdStaff ?? null,
    StaffName: client.Staff?.FullName ?? null,
    IdLocation: client.Location?.IdLocation ?? null,
    LocationName: client.Location?.Name ?? null,
    Status: client.Status,
  };
}

export type ClientView = 'ClientSimple' | 'ClientExtended' | 'ClientDetail';

/** Throws when a view of the client at `position` breaks its schema in openapi.yaml. */
export type ViewCheck = (view: ClientView, value: unknown, position: number) => void;

const PROJECT: Record<ClientView, (client: ClientDetail) => unknown> = {
  ClientSimple: toSimple,
  ClientExtended: toExtended,
  ClientDetail: (client) => client,
};

/** Where one view's bytes live: the arena chunk, the offset in it, the length (0 = not made yet; JSON is never empty). */
interface ViewTable {
  chunk: Int32Array;
  start: Int32Array;
  length: Int32Array;
}

// Chunks of 1 MB: few enough Buffers for the GC to ignore, small enough that the last one wastes little.
const CHUNK_BYTES = 1 << 20;
// The background build stops here (about 130,000 clients' three views); beyond, views are made on first use.
// 100,000 clients take ~195 MB; a million would take ~1.9 GB, which nobody asked for by starting the server.
export const PREBUILD_MAX_BYTES = 256 * CHUNK_BYTES;
const VIEWS: readonly ClientView[] = ['ClientSimple', 'ClientExtended', 'ClientDetail'];

/**
 * Each client's three views as UTF-8 JSON, each projected, checked against its
 * schema and serialized once, then kept: the data set is immutable, so pages
 * are assembled from these bytes instead of building, validating and
 * stringifying 25 objects per request. The bytes live outside the JS heap, in
 * 1 MB Buffers written end to end, so they add nothing for the garbage
 * collector to mark, and a page is one allocation and a copy per client, with
 * no string to encode on the way out. A view is made the first time it is
 * needed, or earlier by prebuild(), which a listening server runs in the
 * background right after it is ready: start-up time and memory at ready stay
 * those of the data, and the first pages served are not the ones that pay
 * (a cold 40-item Extended page costs about 0.5 ms more than a warm one;
 * docs/performance.md has the figures).
 * JSON.stringify of a page is its parts joined with commas, so the bytes equal
 * res.json's (tests/perf/response-parts.test.ts proves it).
 */
export class ClientParts {
  private readonly tables: Record<ClientView, ViewTable>;
  private readonly chunks: Buffer[] = [];
  private used = CHUNK_BYTES;
  private prebuilding: Promise<void> | undefined;
  private held = 0;

  constructor(
    private readonly clients: readonly ClientDetail[],
    private readonly check?: ViewCheck,
  ) {
    const table = (): ViewTable => ({
      chunk: new Int32Array(clients.length),
      start: new Int32Array(clients.length),
      length: new Int32Array(clients.length),
    });
    this.tables = { ClientSimple: table(), ClientExtended: table(), ClientDetail: table() };
  }

  /** The view's bytes, a slice of the arena: never write to it. */
  bytes(view: ClientView, position: number): Buffer {
    const table = this.tables[view];
    if (table.length[position] === 0) this.make(view, position);
    const start = table.start[position]!;
    return this.chunks[table.chunk[position]!]!.subarray(start, start + table.length[position]!);
  }

  /** `head` + the views joined by commas + `tail`, as one Buffer; head and tail are ASCII. */
  join(view: ClientView, positions: readonly number[], head: string, tail: string): Buffer {
    const table = this.tables[view];
    let total = head.length + tail.length + Math.max(0, positions.length - 1);
    for (const position of positions) {
      if (table.length[position] === 0) this.make(view, position);
      total += table.length[position]!;
    }
    const out = Buffer.allocUnsafe(total);
    let at = out.write(head, 0, 'latin1');
    for (let i = 0; i < positions.length; i++) {
      const position = positions[i]!;
      if (i > 0) out[at++] = 0x2c; // ','
      const start = table.start[position]!;
      at += this.chunks[table.chunk[position]!]!.copy(out, at, start, start + table.length[position]!);
    }
    out.write(tail, at, 'latin1');
    return out;
  }

  /** Bytes held by the arena. */
  get arenaBytes(): number {
    return this.held;
  }

  /**
   * Makes every client's three views, in list order, in slices of about a
   * millisecond with I/O served between them, until all are made or the arena
   * holds `maxBytes`. Runs once: a second call gets the first one's promise,
   * which resolves when it stops. `signal` stops it early (a server that
   * closes does not keep its process busy building views nobody will ask for).
   */
  prebuild(signal?: AbortSignal, maxBytes = PREBUILD_MAX_BYTES): Promise<void> {
    this.prebuilding ??= this.build(signal, maxBytes);
    return this.prebuilding;
  }

  private build(signal: AbortSignal | undefined, maxBytes: number): Promise<void> {
    let position = 0;
    const more = () => position < this.clients.length && this.held < maxBytes;
    return inSlices((until) => {
      while (more()) {
        for (const view of VIEWS) if (this.tables[view].length[position] === 0) this.make(view, position);
        position++;
        // A client's three views take ~30-60 µs: the clock is read every 8 clients.
        if ((position & 7) === 0 && performance.now() >= until) break;
      }
      return !more();
    }, signal);
  }

  private make(view: ClientView, position: number): void {
    const value = PROJECT[view](this.clients[position]!);
    this.check?.(view, value, position);
    const text = JSON.stringify(value);
    const length = Buffer.byteLength(text);
    if (this.used + length > CHUNK_BYTES || this.chunks.length === 0) {
      this.chunks.push(Buffer.allocUnsafeSlow(Math.max(CHUNK_BYTES, length)));
      this.held += this.chunks[this.chunks.length - 1]!.length;
      this.used = 0;
    }
    const table = this.tables[view];
    table.chunk[position] = this.chunks.length - 1;
    table.start[position] = this.used;
    table.length[position] = this.chunks[this.chunks.length - 1]!.write(text, this.used);
    this.used += length;
  }
}
