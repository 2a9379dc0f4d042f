// The three views of one client. Simple and Extended are cut from the Detail
// record (the object, or once compacted a copy parsed from its JSON, equal in
// every field), so the same client shows the same values everywhere by
// construction.
import { inSlices } from './background';
import type { ClientRecords } from './client-records';
import { CHUNK_BYTES, SlotArena } from './slot-arena';
import type { ClientDetail, ClientExtended, ClientSimple } from '../../contract/wire-types';

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

/** The views cut from a record; the Detail view is the record itself. */
type ProjectedView = Exclude<ClientView, 'ClientDetail'>;

const PROJECT: Record<ProjectedView, (client: ClientDetail) => unknown> = {
  ClientSimple: toSimple,
  ClientExtended: toExtended,
};

// The background build stops here (about 300,000 clients' Simple and Extended views); beyond, views are made on first use.
// 100,000 clients take ~84 MB; a million would take ~880 MB, which nobody asked for by starting the server.
export const PREBUILD_MAX_BYTES = 256 * CHUNK_BYTES;
const VIEWS: readonly ClientView[] = ['ClientSimple', 'ClientExtended', 'ClientDetail'];

/**
 * Each client's three views as UTF-8 JSON, each projected, checked against its
 * schema and serialized once, then kept: the data set is immutable, so pages
 * are assembled from these bytes instead of building, validating and
 * stringifying 25 objects per request. The bytes live outside the JS heap
 * (slot-arena.ts), so they add nothing for the garbage collector to mark, and
 * a page is one allocation and a copy per client, with no string to encode on
 * the way out. The Detail view is the record's own JSON (client-records.ts),
 * checked once; Simple and Extended are projected from the record. A view is
 * made the first time it is needed, or earlier by prebuild(), which a
 * listening server runs in the background right after it is ready: start-up
 * time and memory at ready stay those of the data, and the first pages served
 * are not the ones that pay (a cold 40-item Extended page costs about 0.5 ms
 * more than a warm one; reports/performance/figures.md has the figures).
 * JSON.stringify of a page is its parts joined with commas, so the bytes equal
 * res.json's (tests/pipeline/response-parts.test.ts proves it).
 */
export class ClientParts {
  private readonly arenas: Record<ProjectedView, SlotArena>;
  /** Detail views already checked against their schema (with no check, none need be). */
  private readonly detailChecked: Uint8Array;
  private prebuilding: Promise<void> | undefined;

  constructor(
    private readonly records: ClientRecords,
    private readonly check?: ViewCheck,
  ) {
    this.arenas = { ClientSimple: new SlotArena(records.size), ClientExtended: new SlotArena(records.size) };
    this.detailChecked = new Uint8Array(check ? records.size : 0);
  }

  /** The view's bytes, a slice of an arena: never write to it. */
  bytes(view: ClientView, position: number): Buffer {
    return this.made(view, position).bytes(position);
  }

  /** `head` + the views joined by commas + `tail`, as one Buffer; head and tail are ASCII. */
  join(view: ClientView, positions: readonly number[], head: string, tail: string): Buffer {
    let total = head.length + tail.length + Math.max(0, positions.length - 1);
    let arena: SlotArena | undefined;
    for (const position of positions) {
      arena = this.made(view, position);
      total += arena.length(position);
    }
    const out = Buffer.allocUnsafe(total);
    let at = out.write(head, 0, 'latin1');
    for (let i = 0; i < positions.length; i++) {
      if (i > 0) out[at++] = 0x2c; // ','
      at += arena!.copyTo(positions[i]!, out, at);
    }
    out.write(tail, at, 'latin1');
    return out;
  }

  /** Bytes held by the Simple and Extended views (the Detail views are the records' own JSON). */
  get arenaBytes(): number {
    return this.arenas.ClientSimple.heldBytes + this.arenas.ClientExtended.heldBytes;
  }

  /**
   * Makes every client's three views, in list order, in slices of about a
   * millisecond with I/O served between them, until all are made or the
   * Simple and Extended views hold `maxBytes`. Runs once: a second call gets
   * the first one's promise, which resolves when it stops. `signal` stops it
   * early (a server that closes does not keep its process busy building views
   * nobody will ask for).
   */
  prebuild(signal?: AbortSignal, maxBytes = PREBUILD_MAX_BYTES): Promise<void> {
    this.prebuilding ??= this.build(signal, maxBytes);
    return this.prebuilding;
  }

  private build(signal: AbortSignal | undefined, maxBytes: number): Promise<void> {
    let position = 0;
    const more = () => position < this.records.size && this.arenaBytes < maxBytes;
    return inSlices((until) => {
      while (more()) {
        for (const view of VIEWS) this.made(view, position);
        position++;
        // A client's three views take ~30-60 µs: the clock is read every 8 clients.
        if ((position & 7) === 0 && performance.now() >= until) break;
      }
      return !more();
    }, signal);
  }

  /** The arena holding the view of the client at `position`, made (projected, checked, serialized) if it was not. */
  private made(view: ClientView, position: number): SlotArena {
    if (view === 'ClientDetail') {
      if (this.check && this.detailChecked[position] === 0) {
        this.check(view, this.records.at(position), position);
        this.detailChecked[position] = 1;
      }
      this.records.serialize(position);
      return this.records.json;
    }
    const arena = this.arenas[view];
    if (!arena.has(position)) {
      const value = PROJECT[view](this.records.at(position));
      this.check?.(view, value, position);
      arena.put(position, JSON.stringify(value));
    }
    return arena;
  }
}
