// One UTF-8 string per slot, kept outside the JS heap: written once, end to
// end, into 1 MB Buffers. The garbage collector marks a handful of Buffers
// instead of a string per slot, and a slot's bytes go out on the wire with a
// copy, never an encode.

// Chunks of 1 MB: few enough Buffers for the GC to ignore, small enough that the last one wastes little.
export const CHUNK_BYTES = 1 << 20;
// A reserved chunk is at most 1 GiB: offsets into a chunk are Int32, and a Buffer may not exceed buffer.constants.MAX_LENGTH.
const MAX_CHUNK_BYTES = 1 << 30;

export class SlotArena {
  private readonly chunks: Buffer[] = [];
  /** Bytes written into the last chunk. */
  private used = 0;
  private held = 0;
  /** Bytes reserved (reserve) and not yet allocated. */
  private reserved = 0;
  /** Slots written, and their bytes. */
  private filled = 0;
  private written = 0;
  /** Per slot: the chunk, the offset in it, the length (0 = not written yet: a slot never holds an empty string). */
  private readonly chunkOf: Int32Array;
  private readonly startOf: Int32Array;
  private readonly lengthOf: Int32Array;

  constructor(readonly slots: number) {
    this.chunkOf = new Int32Array(slots);
    this.startOf = new Int32Array(slots);
    this.lengthOf = new Int32Array(slots);
  }

  has(slot: number): boolean {
    return this.lengthOf[slot] !== 0;
  }

  /** Writes `text` (non-empty) as the slot's bytes; a slot is written once. */
  put(slot: number, text: string): void {
    // UTF-8 takes at most 3 bytes per UTF-16 code unit: with that much room, one pass writes the text whatever it holds.
    const room = 3 * text.length;
    let chunk = this.chunks[this.chunks.length - 1];
    if (chunk === undefined || this.used + room > chunk.length) chunk = this.addChunk(Math.max(CHUNK_BYTES, room, this.nextReserved()));
    this.chunkOf[slot] = this.chunks.length - 1;
    this.startOf[slot] = this.used;
    const length = chunk.write(text, this.used);
    this.lengthOf[slot] = length;
    this.used += length;
    this.filled++;
    this.written += length;
  }

  /**
   * Room for at least `bytes` more in the current chunk, in a new one if it
   * has less, for a caller that knows about how much it will write. V8 counts
   * memory outside the heap and starts a full GC after every 64 MB or so
   * allocated there: a GB in 1 MB chunks would cost a dozen full collections
   * of the heap, one chunk a single one.
   */
  reserve(bytes: number): void {
    const chunk = this.chunks[this.chunks.length - 1];
    const room = chunk === undefined ? 0 : chunk.length - this.used;
    if (bytes <= Math.max(CHUNK_BYTES, room)) return;
    // Pieces of at most 1 GiB: the first now, the next when it is full. (The current chunk's room is left unused.)
    this.reserved = bytes;
    this.addChunk(this.nextReserved());
  }

  /** The next piece of the reservation (0 when none is left), taken off it. */
  private nextReserved(): number {
    const piece = Math.min(this.reserved, MAX_CHUNK_BYTES);
    this.reserved -= piece;
    return piece;
  }

  private addChunk(bytes: number): Buffer {
    const chunk = Buffer.allocUnsafeSlow(bytes);
    this.chunks.push(chunk);
    this.held += bytes;
    this.used = 0;
    return chunk;
  }

  /** Byte length of a written slot. */
  length(slot: number): number {
    return this.lengthOf[slot]!;
  }

  /** A written slot's bytes, a view into the arena: never write to it. */
  bytes(slot: number): Buffer {
    const start = this.startOf[slot]!;
    return this.chunks[this.chunkOf[slot]!]!.subarray(start, start + this.lengthOf[slot]!);
  }

  /** Copies a written slot's bytes into `out` at `at`; returns the bytes copied. */
  copyTo(slot: number, out: Buffer, at: number): number {
    const start = this.startOf[slot]!;
    return this.chunks[this.chunkOf[slot]!]!.copy(out, at, start, start + this.lengthOf[slot]!);
  }

  /** Mean bytes of a written slot (0 before the first). */
  get meanLength(): number {
    return this.filled === 0 ? 0 : this.written / this.filled;
  }

  /** Slots not written yet. */
  get unfilled(): number {
    return this.slots - this.filled;
  }

  /** Bytes held by the chunks. */
  get heldBytes(): number {
    return this.held;
  }
}
