// The background build of the client views (projections.ts, prebuild): it
// makes the same bytes as first use does, stops at its memory bound, and lets
// other work run between its slices, so a server that starts it right after
// listening keeps answering meanwhile.
import { ClientParts, toExtended, toSimple, type ClientView } from '../../server/engine/projections';
import { testStore } from '../support/servers';

const store = testStore(3, 6000);
const PROJECT: Record<ClientView, (position: number) => unknown> = {
  ClientSimple: (position) => toSimple(store.client(position)),
  ClientExtended: (position) => toExtended(store.client(position)),
  ClientDetail: (position) => store.client(position),
};
const VIEWS = Object.keys(PROJECT) as ClientView[];

test('prebuild → every view made, each the bytes JSON.stringify gives and first use gives', async () => {
  const prebuilt = new ClientParts(store.records);
  const lazy = new ClientParts(store.records);

  await prebuilt.prebuild();
  const heldAfter = prebuilt.arenaBytes;

  for (let position = 0; position < store.size; position += 7) {
    for (const view of VIEWS) {
      const bytes = prebuilt.bytes(view, position);
      expect(bytes.equals(Buffer.from(JSON.stringify(PROJECT[view](position))))).toBe(true);
      expect(bytes.equals(lazy.bytes(view, position))).toBe(true);
    }
  }
  // Nothing was left to make on first use.
  expect(prebuilt.arenaBytes).toBe(heldAfter);
});

test('prebuild with a 2 MB bound → stops there; the rest is made on first use', async () => {
  const parts = new ClientParts(store.records);

  // The first client's Simple and Extended views take a 1 MB chunk each: the bound is met at once.
  await parts.prebuild(undefined, 2 << 20);

  expect(parts.arenaBytes).toBe(2 << 20);
  const last = store.size - 1;
  expect(parts.bytes('ClientExtended', last).equals(Buffer.from(JSON.stringify(toExtended(store.client(last)))))).toBe(true);
  // 6,000 clients' Simple and Extended views take about 5 MB: most were left for first use.
  for (let position = 0; position < store.size; position++) for (const view of VIEWS) parts.bytes(view, position);
  expect(parts.arenaBytes).toBeGreaterThan(4 << 20);
});

test('prebuild → timers and I/O run between its slices', async () => {
  const parts = new ClientParts(testStore(4, 30_000).records);
  let turns = 0;
  const ticker = setInterval(() => turns++, 1);

  const started = performance.now();
  await parts.prebuild();
  const tookMs = performance.now() - started;
  clearInterval(ticker);

  // Slices of ~1 ms: a timer due every 1 ms fires about once per slice, never only at the end.
  expect(tookMs).toBeGreaterThan(20);
  expect(turns).toBeGreaterThan(tookMs / 20);
});

test('prebuild, then abort → stops at the next slice', async () => {
  const parts = new ClientParts(testStore(4, 30_000).records);
  const stop = new AbortController();

  const built = parts.prebuild(stop.signal);
  setTimeout(() => stop.abort(), 10);
  await built;

  const held = parts.arenaBytes;
  expect(held).toBeGreaterThan(0);
  expect(held).toBeLessThan(30_000 * 1000);
});

test('prebuild twice → one build, both calls resolve when it is done', async () => {
  const parts = new ClientParts(store.records);

  const first = parts.prebuild();
  const second = parts.prebuild();
  await second;

  expect(second).toBe(first);
  const held = parts.arenaBytes;
  for (const view of VIEWS) parts.bytes(view, store.size - 1);
  expect(parts.arenaBytes).toBe(held);
});
