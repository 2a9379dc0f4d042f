// The records kept as JSON outside the heap (client-records.ts): after
// compaction every record reads back equal in every field, every view is the
// same bytes as one projected from the original object, the compaction can
// stop and go on, and nothing in the store holds the objects any longer (the
// point of it: a full GC no longer marks a million records).
import v8 from 'node:v8';
import vm from 'node:vm';
import type { ClientDetail } from '../../contract/wire-types';
import { generateClients } from '../../seeds/client';
import { ClientRecords } from '../../server/engine/client-records';
import { ClientParts, type ClientView } from '../../server/engine/projections';
import { CHUNK_BYTES } from '../../server/engine/slot-arena';
import { ClientStore } from '../../server/engine/store';

const VIEWS: ClientView[] = ['ClientSimple', 'ClientExtended', 'ClientDetail'];
const recordsOf = (clients: readonly ClientDetail[]) => new ClientRecords(clients.length, (position) => clients[position]!);

test('compact → every record parsed back equals the object, and its JSON is JSON.stringify of it', async () => {
  const clients = generateClients(5, 2000);
  const records = recordsOf(clients);

  await records.compact();

  expect(records.compacted).toBe(true);
  for (let position = 0; position < clients.length; position++) {
    expect(records.at(position)).toEqual(clients[position]);
    expect(records.json.bytes(position).toString('utf8')).toBe(JSON.stringify(clients[position]));
  }
});

test('views made after compaction (parsed records) are the bytes of views made from the objects', async () => {
  const clients = generateClients(6, 2000);
  const compacted = recordsOf(clients);
  await compacted.compact();
  const fromJson = new ClientParts(compacted);
  const fromObjects = new ClientParts(recordsOf(clients));

  for (let position = 0; position < clients.length; position += 3) {
    for (const view of VIEWS) expect(fromJson.bytes(view, position).equals(fromObjects.bytes(view, position))).toBe(true);
  }
  const page = [5, 1999, 0, 77];
  expect(fromJson.join('ClientExtended', page, '[', ']').equals(fromObjects.join('ClientExtended', page, '[', ']'))).toBe(true);
});

test('compact, aborted → the objects stay and answers too; a second call finishes', async () => {
  const clients = generateClients(7, 30_000);
  const records = recordsOf(clients);
  const stop = new AbortController();
  stop.abort();

  await records.compact(stop.signal);
  expect(records.compacted).toBe(false);
  expect(records.at(29_999)).toBe(clients[29_999]);

  await records.compact();
  expect(records.compacted).toBe(true);
  expect(records.at(29_999)).toEqual(clients[29_999]);
});

test('compact, aborted after its reservation, then again → room reserved once: the arena holds about the JSON it keeps', async () => {
  const clients = generateClients(9, 30_000);
  const records = recordsOf(clients);
  const stop = new AbortController();
  // Stopped as soon as the rest is reserved (after the first 1,024 records): the slices and this check take turns.
  const abortOnceReserved = () => (records.json.heldBytes > 2 * CHUNK_BYTES ? stop.abort() : setImmediate(abortOnceReserved));
  setImmediate(abortOnceReserved);

  await records.compact(stop.signal);
  expect(records.compacted).toBe(false);
  await records.compact();

  const bytes = clients.reduce((sum, client) => sum + Buffer.byteLength(JSON.stringify(client)), 0);
  expect(records.json.heldBytes).toBeLessThan(bytes * 1.1 + (2 << 20));
});

test('compact → the store holds none of the objects it was built from', async () => {
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc') as () => void;
  const store = new ClientStore(generateClients(8, 3000));
  // The indexes are built; the search index's background part too, which must read no record either.
  await store.prebuildSearch();
  const held = new WeakRef(store.client(1234));
  const id = held.deref()!.IdClient;

  await store.compact();
  // A turn of the event loop, so that nothing on this stack holds the object.
  await new Promise((resolve) => setImmediate(resolve));
  gc();

  expect(held.deref()).toBeUndefined();
  const position = store.positionOf(id.toLowerCase())!;
  expect(store.client(position).IdClient).toBe(id);
  expect(store.page({ page: 1, pageSize: 3000, filter: store.client(position).ContactInfo.Email }).positions).toContain(position);
});
