// Draws from the shared randomizer. Faker's helpers validate their arguments on
// every call; these run a million times per data set, so they stay minimal.
import type { Sfc32Randomizer } from './random';
import { flat } from './text';

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

  /** A version-4 UUID. */
  uuid(): string {
    const hex = (n: number, width: number) => n.toString(16).padStart(width, '0');
    const a = this.random.nextUint32();
    const b = this.random.nextUint32();
    const c = this.random.nextUint32();
    const d = this.random.nextUint32();
    return flat`${hex(a, 8)}-${hex(b >>> 16, 4)}-${hex(0x4000 | (b & 0x0fff), 4)}-${hex(0x8000 | ((c >>> 16) & 0x3fff), 4)}-${hex(c & 0xffff, 4)}${hex(d, 8)}`;
  }
}
