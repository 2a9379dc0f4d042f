// A small, fast, seedable PRNG for Faker. Faker's default Mersenne Twister costs
// about 39 µs per reseed; we reseed once per client (client i depends only on
// (seed, i)), so the generator must reseed in O(1). sfc32 passes PractRand and
// reseeds with four integer writes.
import type { Randomizer } from '@faker-js/faker';

/** Mixes integers into one well-spread 32-bit value (murmur3 finalizer over a running hash). */
export function mixSeed(...parts: number[]): number {
  let h = 0x9e3779b9;
  for (const part of parts) {
    let k = Math.imul(part | 0, 0xcc9e2d51);
    k = (k << 15) | (k >>> 17);
    k = Math.imul(k, 0x1b873593);
    h ^= k;
    h = (h << 13) | (h >>> 19);
    h = (Math.imul(h, 5) + 0xe6546b64) | 0;
    // Values above 2^32 (large indexes) contribute their high part too.
    const high = Math.floor(part / 0x100000000);
    if (high !== 0) h ^= Math.imul(high, 0x85ebca6b);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

export class Sfc32Randomizer implements Randomizer {
  private a = 0;
  private b = 0;
  private c = 0;
  private d = 0;

  constructor(seed = 0) {
    this.seed(seed);
  }

  seed(seed: number | number[]): void {
    const s = Array.isArray(seed) ? mixSeed(...seed) : mixSeed(seed);
    this.a = 0x9e3779b9;
    this.b = 0x243f6a88;
    this.c = 0xb7e15162;
    this.d = s | 0;
    // Discard the first outputs so that close seeds do not give close streams.
    for (let i = 0; i < 12; i++) this.nextUint32();
  }

  nextUint32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** A float in [0, 1), as Faker requires. */
  next(): number {
    return this.nextUint32() / 0x100000000;
  }
}
