// The clients in list order: first as the objects they were made or read as
// (each made when first read: client-source.ts), then, once compacted, as
// their JSON alone, outside the JS heap.
//
// Why: a million ClientDetail records are some 30 million small objects and
// 0.9 GB of heap, which every full collection marks again, in steps that land
// in the middle of requests. Kept as JSON in Buffers, the records cost the
// collector nothing, and a full collection marks only what is left
// (reports/performance/figures.md, "The records off the heap", has the figures).
import { inSlices } from './background';
import { SlotArena } from './slot-arena';
import type { ClientDetail } from '../../contract/wire-types';

// Records written before the rest get their room in one piece, from the sample's mean size.
const RESERVE_AFTER = 1024;

export class ClientRecords {
  /** The records made so far, by position; undefined once compacted. */
  private objects: (ClientDetail | undefined)[] | undefined;
  /** Makes the record at a position (the source's, through the list order); let go with the objects. */
  private make: ((position: number) => ClientDetail) | undefined;
  /** Each record's JSON.stringify: the Detail answer's bytes, made on first use or by compact(). */
  readonly json: SlotArena;
  private compacting: Promise<void> | undefined;
  private reserved = false;
  // One parsed record kept: a cold page projects a client into up to three views in a row.
  private lastPosition = -1;
  private lastParsed: ClientDetail | undefined;

  constructor(count: number, make: (position: number) => ClientDetail) {
    this.objects = new Array<ClientDetail | undefined>(count);
    this.make = make;
    this.json = new SlotArena(count);
  }

  get size(): number {
    return this.json.slots;
  }

  /** True once the objects are let go: every record is read back from its JSON. */
  get compacted(): boolean {
    return this.objects === undefined;
  }

  /**
   * The client at `position`: the object itself while the objects are held
   * (made on first read), else a new one parsed from its JSON, equal in every
   * field. Never compare the result by identity, and never change it.
   */
  at(position: number): ClientDetail {
    const objects = this.objects;
    if (objects) return (objects[position] ??= this.make!(position));
    if (position !== this.lastPosition) {
      this.lastParsed = JSON.parse(this.json.bytes(position).toString('utf8')) as ClientDetail;
      this.lastPosition = position;
    }
    return this.lastParsed!;
  }

  /** Writes the record's JSON if it is not written yet; `json.bytes(position)` is then its bytes. */
  serialize(position: number): void {
    if (!this.json.has(position)) this.json.put(position, JSON.stringify(this.at(position)));
  }

  /**
   * Writes every record's JSON in slices of about a millisecond with I/O
   * served between them, then lets go of the objects. Runs once: a second
   * call gets the first one's promise. `signal` stops it early; the records
   * written so far stay, the objects too, and a later call goes on.
   */
  compact(signal?: AbortSignal): Promise<void> {
    let position = 0;
    this.compacting ??= inSlices((until) => {
      const objects = this.objects;
      if (!objects) return true;
      while (position < objects.length) {
        this.serialize(position++);
        // Once a sample is written, room for the rest in one piece (SlotArena.reserve: one full GC, not one per 64 MB).
        if (position >= RESERVE_AFTER && !this.reserved) {
          // Once: a compaction that stops and goes on again must not leave one reservation unused for another.
          this.json.reserve(Math.ceil(this.json.meanLength * this.json.unfilled * 1.02));
          this.reserved = true;
        }
        // A record takes 5-15 µs: the clock is read every 32.
        if ((position & 31) === 0 && performance.now() >= until) return false;
      }
      this.objects = undefined;
      this.make = undefined;
      return true;
    }, signal).then(() => {
      if (this.objects) this.compacting = undefined;
    });
    return this.compacting;
  }
}
