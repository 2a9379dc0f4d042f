// Seeded choices: where a deployment is larger than a check's bound, the check reads a random sample of it,
// drawn with the run's seed (--seed, printed in the run's summary and in --coverage-out), so another seed reads
// other clients and the same seed replays the same run. fast-check draws them (already the property run's
// generator); without its bias, so every item is as likely as any other.
import fc from 'fast-check';

/** The run's seed when none is given: the property run's and the samples' alike. */
export const DEFAULT_SEED = 20260101;

/** `count` of `items` drawn at random with `seed`, in their order; all of them when there are no more than `count`. */
export function seededSample<T>(items: readonly T[], count: number, seed: number): T[] {
  if (items.length <= count) return [...items];
  const indices = Array.from({ length: items.length }, (_, i) => i);
  const [drawn] = fc.sample(fc.noBias(fc.shuffledSubarray(indices, { minLength: count, maxLength: count })), { seed, numRuns: 1 });
  return drawn!.sort((a, b) => a - b).map((i) => items[i]!);
}
