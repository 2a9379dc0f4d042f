// The in-process handlers build a lazy store (ClientStore's `lazy`; issue 26 item 6): ordered and id-indexed
// from each generated client's first draws (seeds/client.ts, generatedSource), its records generated when
// first read, its filter groups and search index made by the first request that needs them. Such a store must
// answer every query exactly as an eager store over generateClients does, and must not make what no request
// has needed yet.
import { generatedSource, generateClients } from '../../seeds/client';
import type { ClientSource } from '../../server/engine/client-source';
import { ClientStore } from '../../server/engine/store';
import type { ListQuery } from '../../server/engine/list-query';

const SEED = 3;
const COUNT = 2_000;
const clients = generateClients(SEED, COUNT);
const eager = new ClientStore(clients);

/** The generated source, counting the records it is asked to make. */
function countingSource(seed: number, count: number): { source: ClientSource; made: () => number } {
  const source = generatedSource(seed, count);
  let made = 0;
  return {
    source: { ...source, record: (index) => (made++, source.record(index)) },
    made: () => made,
  };
}

test.each([1, 7, 20260101])("a generated source's names and ids are its records' (seed %i)", (seed) => {
  const records = generateClients(seed, 500);
  const source = generatedSource(seed, 500);
  // Ids read out of order and twice: each is made from the words kept for it, whenever it is read.
  for (let index = 499; index >= 0; index -= 2) expect(source.idOf(index)).toBe(records[index]!.IdClient);
  for (let index = 0; index < 500; index++) {
    expect(source.nameOf(index)).toBe(records[index]!.PersonalInfo.FullName);
    expect(source.idOf(index)).toBe(records[index]!.IdClient);
  }
  expect(source.record(321)).toStrictEqual(records[321]);
});

test('a lazy store holds the very records of an eager one, in the same order, with the same ids', () => {
  const lazy = new ClientStore(generatedSource(SEED, COUNT), { lazy: true });
  expect(lazy.size).toBe(COUNT);
  for (let position = COUNT - 1; position >= 0; position -= 1) expect(lazy.client(position)).toStrictEqual(eager.client(position));
  for (const client of clients) expect(lazy.positionOf(client.IdClient)).toBe(eager.positionOf(client.IdClient));
});

const staffId = clients.find((client) => client.Staff)!.Staff!.IdStaff;
const locationId = clients.find((client) => client.Location)!.Location!.IdLocation;

test.each<ListQuery>([
  { page: 1, pageSize: 25 },
  { page: 80, pageSize: 25 },
  { page: 1, pageSize: 100, filter: 'berg' },
  { page: 2, pageSize: 10, filter: 'an', active: true },
  { page: 1, pageSize: 50, filter: '19' },
  { page: 1, pageSize: 50, filter: 'zzzzqq' },
  { page: 1, pageSize: 40, active: false },
  { page: 2, pageSize: 5, idStaff: staffId },
  { page: 1, pageSize: 30, idLocation: locationId, active: true },
  { page: 1, pageSize: 30, idStaff: staffId, idLocation: locationId, filter: 'a' },
])('a lazy store answers %j as an eager one', (query) => {
  const lazy = new ClientStore(generatedSource(SEED, COUNT), { lazy: true });
  expect(lazy.page(query)).toStrictEqual(eager.page(query));
  // Once made, the groups and the index serve the later queries too.
  expect(lazy.page({ ...query, page: 1 })).toStrictEqual(eager.page({ ...query, page: 1 }));
  expect(lazy.page({ page: 3, pageSize: 20 })).toStrictEqual(eager.page({ page: 3, pageSize: 20 }));
});

test('a lazy store over records already made (a data file) answers as an eager one', () => {
  const lazy = new ClientStore(clients, { lazy: true });
  for (const query of [
    { page: 1, pageSize: 25, filter: 'son' },
    { page: 2, pageSize: 25, active: true },
    { page: 1, pageSize: 9, idStaff: staffId },
  ]) {
    expect(lazy.page(query)).toStrictEqual(eager.page(query));
  }
});

test('a lazy store makes no record until one is read, and a plain page reads only its own', () => {
  const { source, made } = countingSource(SEED, COUNT);
  const lazy = new ClientStore(source, { lazy: true });
  expect(made()).toBe(0);
  const { positions } = lazy.page({ page: 2, pageSize: 25 });
  expect(made()).toBe(0);
  for (const position of positions) lazy.client(position);
  lazy.client(positions[0]!);
  expect(made()).toBe(25);
  // A filter by status needs every record once (its group), and never again.
  lazy.page({ page: 1, pageSize: 25, active: false });
  expect(made()).toBe(COUNT);
  lazy.page({ page: 1, pageSize: 25, filter: 'berg', idStaff: staffId });
  expect(made()).toBe(COUNT);
});

test('prebuild and compaction work on a lazy store before any filter, and it then answers as an eager one', async () => {
  const lazy = new ClientStore(generatedSource(SEED, COUNT), { lazy: true });
  await lazy.prebuildSearch();
  await lazy.compact();
  expect(lazy.records.compacted).toBe(true);
  for (const query of [
    { page: 1, pageSize: 30, filter: 'son' },
    { page: 4, pageSize: 30, active: true, idLocation: locationId },
  ]) {
    expect(lazy.page(query)).toStrictEqual(eager.page(query));
  }
  expect(lazy.client(COUNT - 1)).toStrictEqual(eager.client(COUNT - 1));
});
