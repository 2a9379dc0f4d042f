// Draws from the shared randomizer. Faker's helpers validate their arguments on
// every call; these run a million times per data set, so they stay minimal.
import type { Sfc32Randomizer } from './random';

export class Draw {
  constructor(private readonly random: Sfc32Randomizer) {}

  /** An integer in [0, bound). */
  below(bound: number): number {
    return Math.floor(this.random.next() * bound);
  }

  /** An integer in [min, max]. */
  between(min: number, max: number): number {
    return min + this.below(max - min + 1);
  }

  /** True with the given probability in percent. */
  chance(percent: number): boolean {
    return this.below(100) < percent;
  }

  pick<T>(items: readonly T[]): T {
    const item = items[this.below(items.length)];
    if (item === undefined) throw new Error('pick from an empty list');
    return item;
  }

  /** Index into cumulative weights, e.g. [55, 25, 13, 7] → 0..3. */
  weighted(weights: readonly number[]): number {
    let roll = this.below(weights.reduce((a, b) => a + b, 0));
    for (let i = 0; i < weights.length; i++) {
      roll -= weights[i] ?? 0;
      if (roll < 0) return i;
    }
    return weights.length - 1;
  }

  /** `count` distinct items, in drawing order. */
  distinct<T>(items: readonly T[], count: number): T[] {
    const chosen: T[] = [];
    while (chosen.length < count && chosen.length < items.length) {
      const item = this.pick(items);
      if (!chosen.includes(item)) chosen.push(item);
    }
    return chosen;
  }

  digits(count: number): string {
    let text = '';
    for (let i = 0; i < count; i++) text += String(this.below(10));
    return text;
  }

  /** A version-4 UUID: the text of four 32-bit draws (uuidText). */
  uuid(): string {
    const random = this.random;
    // Arguments are evaluated left to right: a, b, c, d in drawing order.
    return uuidText(random.nextUint32(), random.nextUint32(), random.nextUint32(), random.nextUint32());
  }

  /** The four 32-bit draws uuid() would make, into `words` at `at`; uuidText makes the same text of them later. */
  uuidWords(words: Uint32Array, at: number): void {
    const random = this.random;
    words[at] = random.nextUint32();
    words[at + 1] = random.nextUint32();
    words[at + 2] = random.nextUint32();
    words[at + 3] = random.nextUint32();
  }
}

/**
 * A version-4 UUID of four 32-bit words, written as the 36 character codes of
 * its text in one String.fromCharCode: a flat string in one allocation, where
 * formatting each group with toString(16) and padStart made ten strings on the way.
 */
export function uuidText(a: number, b: number, c: number, d: number): string {
  const x = HEX_CODES;
  // Groups: a | b>>>16 | 4, then b's low 12 bits | 8..b, then c's bits 16-29 | c's low 16 bits, then d.
  // One line per group of the text reads better than one code per line:
  // prettier-ignore
  return String.fromCharCode(
    x[a >>> 28]!, x[(a >>> 24) & 15]!, x[(a >>> 20) & 15]!, x[(a >>> 16) & 15]!,
    x[(a >>> 12) & 15]!, x[(a >>> 8) & 15]!, x[(a >>> 4) & 15]!, x[a & 15]!, DASH,
    x[b >>> 28]!, x[(b >>> 24) & 15]!, x[(b >>> 20) & 15]!, x[(b >>> 16) & 15]!, DASH,
    x[4]!, x[(b >>> 8) & 15]!, x[(b >>> 4) & 15]!, x[b & 15]!, DASH,
    x[8 | ((c >>> 28) & 3)]!, x[(c >>> 24) & 15]!, x[(c >>> 20) & 15]!, x[(c >>> 16) & 15]!, DASH,
    x[(c >>> 12) & 15]!, x[(c >>> 8) & 15]!, x[(c >>> 4) & 15]!, x[c & 15]!,
    x[d >>> 28]!, x[(d >>> 24) & 15]!, x[(d >>> 20) & 15]!, x[(d >>> 16) & 15]!,
    x[(d >>> 12) & 15]!, x[(d >>> 8) & 15]!, x[(d >>> 4) & 15]!, x[d & 15]!,
  );
}

/** Character codes of the lower-case hex digits 0-f. */
const HEX_CODES = Array.from('0123456789abcdef', (digit) => digit.charCodeAt(0));
const DASH = 0x2d;
