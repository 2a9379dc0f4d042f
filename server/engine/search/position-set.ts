// Sets of client positions (indexes into the list order), as the search index
// and the store's groups hand them to ClientStore.page: a sorted list when
// sparse, a bitset over the whole data set when dense. A set holding more than
// 1/32 of the data set costs less as bits than as 32-bit positions (a vowel's
// postings over 1,000,000 texts: 125 KB instead of 4 MB), and two dense sets
// intersect and count a word (32 positions) at a time.

export interface PositionSet {
  readonly size: number;
  has(position: number): boolean;
  /** The positions of ranks [from, to) in ascending order. */
  slice(from: number, to: number): number[];
}

/** Ascending positions in an Int32Array. */
export class SortedPositions implements PositionSet {
  constructor(readonly list: Int32Array) {}

  get size(): number {
    return this.list.length;
  }

  has(position: number): boolean {
    const list = this.list;
    let low = 0;
    let high = list.length - 1;
    while (low <= high) {
      const mid = (low + high) >>> 1;
      const at = list[mid]!;
      if (at === position) return true;
      if (at < position) low = mid + 1;
      else high = mid - 1;
    }
    return false;
  }

  slice(from: number, to: number): number[] {
    return Array.from(this.list.subarray(from, to));
  }
}

/** Bit p of `words` set when position p is in the set; `size` is the number of bits set. */
export class BitPositions implements PositionSet {
  constructor(
    readonly words: Int32Array,
    readonly size: number,
  ) {}

  has(position: number): boolean {
    return ((this.words[position >>> 5]! >>> (position & 31)) & 1) === 1;
  }

  /** Stops at the page's last position: the size is known, so the words after it are never read. */
  slice(from: number, to: number): number[] {
    const words = this.words;
    const positions: number[] = [];
    const wanted = Math.max(0, Math.min(to, this.size) - from);
    let seen = 0;
    for (let i = 0; i < words.length && positions.length < wanted; i++) {
      const word = words[i]!;
      if (word === 0) continue;
      const bits = popcount(word);
      if (seen + bits > from) pushBits(word, i, Math.max(0, from - seen), wanted, positions);
      seen += bits;
    }
    return positions;
  }
}

export const EMPTY_SET: PositionSet = new SortedPositions(new Int32Array(0));

/** The positions of the `size` bits set in `words`, ascending, written to `out` (a new array by default). */
export function bitPositions(words: Int32Array, size: number, out = new Int32Array(size)): Int32Array {
  let at = 0;
  for (let i = 0; i < words.length; i++) {
    let word = words[i]!;
    while (word !== 0) {
      const low = word & -word;
      word ^= low;
      out[at++] = (i << 5) + 31 - Math.clz32(low);
    }
  }
  return out;
}

/** Words needed for a bitset over `count` positions. */
export function wordsFor(count: number): number {
  return (count + 31) >>> 5;
}

export function popcount(word: number): number {
  let v = word - ((word >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) & 0xff;
}

/** Pushes the positions of the bits set in `word` (the word at index `at`), ascending, skipping the first `skip`, at most `max`. */
function pushBits(word: number, at: number, skip: number, max: number, out: number[]): void {
  let w = word;
  while (w !== 0 && out.length < max) {
    const low = w & -w;
    w ^= low;
    if (skip > 0) skip--;
    else out.push((at << 5) + 31 - Math.clz32(low));
  }
}

/** The intersection of bitsets (all of one length): its size, and the positions of ranks [from, to). No bitset of the result is built. */
export function pageOfAnd(sets: readonly Int32Array[], from: number, to: number): { total: number; positions: number[] } {
  const first = sets[0]!;
  const positions: number[] = [];
  const wanted = Math.max(0, to - from);
  let total = 0;
  for (let i = 0; i < first.length; i++) {
    let word = first[i]!;
    for (let k = 1; k < sets.length && word !== 0; k++) word &= sets[k]![i]!;
    if (word === 0) continue;
    const bits = popcount(word);
    if (total + bits > from && positions.length < wanted) pushBits(word, i, Math.max(0, from - total), wanted, positions);
    total += bits;
  }
  return { total, positions };
}

/** A set of the given ascending positions over `count` positions, as bits when that is smaller. */
export function positionSetOf(ascending: ArrayLike<number>, count: number): PositionSet {
  if (ascending.length * 32 <= count) return new SortedPositions(Int32Array.from(ascending));
  const words = new Int32Array(wordsFor(count));
  for (let i = 0; i < ascending.length; i++) {
    const position = ascending[i]!;
    words[position >>> 5]! |= 1 << (position & 31);
  }
  return new BitPositions(words, ascending.length);
}

/** Bytes a set holds: what a memo of sets is bounded by. */
export function bytesOf(set: PositionSet): number {
  return set instanceof BitPositions ? set.words.byteLength : set.size * 4;
}
