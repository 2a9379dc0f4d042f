// The search index's frequent substrings (frequent-substrings.ts), built in
// the background: once built, a term that is one of them is answered from its
// own postings (no text is checked), the answers are the same as before, the
// build runs in steps, and SearchIndex.prebuild can be stopped and started again.
import { NgramIndex, SearchIndex } from '../../server/engine/search/search-index';
import { testStore } from '../support/servers';

// 4,000 texts shaped like the served ones: a shared e-mail domain and phone prefix, rarer names.
const NAMES = ['anna', 'erik', 'maria', 'johan', 'lena', 'karl', 'sara', 'nils'];
const texts = Array.from({ length: 4000 }, (_, i) => [
  `${NAMES[i % NAMES.length]} ${NAMES[(i * 7 + 3) % NAMES.length]}son`,
  `${NAMES[i % NAMES.length]}${i}@example.${['com', 'net', 'org'][i % 3]}`,
  `+46 7${i % 10} ${String(i).padStart(4, '0')}`,
]);

function indexOf(): NgramIndex {
  return new NgramIndex(
    texts.length,
    [0, 1, 2].map((field) => ({ of: (position: number) => texts[position]![field]! })),
  );
}

function positionsOf(index: NgramIndex, term: string): number[] {
  const { set } = index.find(term);
  return set.slice(0, set.size);
}

const scan = (term: string) => texts.flatMap((fields, position) => (fields.some((field) => field.includes(term)) ? [position] : []));

test('a frequent term (domain, phone prefix, common name piece) → read from its postings once built, same positions as before and as the scan', () => {
  const index = indexOf();
  const terms = ['@example', 'example.co', 'mple.org', '+46 7', '46 73', 'sson', 'anna', '0@exam'];
  const before = terms.map((term) => index.find(term));
  expect(before.map((found) => found.computed)).toEqual(terms.map(() => true));

  const steps = [...index.frequentPieces()].length;

  for (const [i, term] of terms.entries()) {
    const after = index.find(term);
    expect([term, after.computed]).toEqual([term, false]);
    expect(positionsOf(index, term)).toEqual(scan(term));
    expect(after.set.slice(0, after.set.size)).toEqual(before[i]!.set.slice(0, before[i]!.set.size));
  }
  // Built in steps a server runs between requests, not in one go.
  expect(steps).toBeGreaterThan(10);
});

test('a rare term, one across two fields, one longer than any piece → checked text by text, still exact', () => {
  const index = indexOf();
  expect([...index.frequentPieces()].length).toBeGreaterThan(0);
  for (const term of ['anna123@', 'son anna', '@example.com+46', 'karl1999@example.', '7 0012', 'zzzz']) {
    expect(positionsOf(index, term)).toEqual(scan(term));
  }
});

test('SearchIndex.prebuild stopped by its signal → a later call builds; two calls at once → one build', async () => {
  const store = testStore(11, 2000);
  const search = new SearchIndex(store.clients());
  const stop = new AbortController();
  stop.abort();
  await search.prebuild(stop.signal);
  expect(search.search('@example').size).toBe(store.size);

  const first = search.prebuild();
  expect(search.prebuild()).toBe(first);
  await first;
  const all = store.clients().flatMap((c, position) => (c.ContactInfo.Email.includes('@example') ? [position] : []));
  expect(search.search('@example').slice(0, store.size)).toEqual(all);
});
