// The documented list order (openapi.yaml, info: "Lists: paging, order and
// totals"): FullName by the Unicode Collation Algorithm for `en` at primary
// strength (case- and accent-insensitive, as Intl.Collator('en', {sensitivity:
// 'base'}) compares), ties broken by IdClient in lower case, compared
// character by character. The contract suite holds every page to it.

const collator = new Intl.Collator('en', { sensitivity: 'base' });

/** Negative when a comes first in the documented order, positive when b does, 0 for the same client. */
export function compareClients(a: { FullName: string; IdClient: string }, b: { FullName: string; IdClient: string }): number {
  const byName = collator.compare(a.FullName, b.FullName);
  if (byName !== 0) return byName;
  const [x, y] = [a.IdClient.toLowerCase(), b.IdClient.toLowerCase()];
  return x < y ? -1 : x > y ? 1 : 0;
}
