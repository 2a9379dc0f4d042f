// The in-process handlers leave the search index for the first filter to build (ClientStore's
// lazySearch; issue 26 item 6): a store built that way must answer every query as an eager one does.
import { generateClients } from '../../seeds/client';
import { ClientStore } from '../../server/engine/store';
import type { ListQuery } from '../../server/engine/list-query';

const clients = generateClients(3, 2_000);
const eager = new ClientStore(clients);

test.each<ListQuery>([
  { page: 1, pageSize: 25 },
  { page: 1, pageSize: 100, filter: 'berg' },
  { page: 2, pageSize: 10, filter: 'an', active: true },
  { page: 1, pageSize: 50, filter: '19' },
  { page: 1, pageSize: 50, filter: 'zzzzqq' },
])('a lazily indexed store answers %j as an eager one', (query) => {
  const lazy = new ClientStore(clients, { lazySearch: true });
  expect(lazy.page(query)).toStrictEqual(eager.page(query));
  // Once built, the index serves the later queries too.
  expect(lazy.page({ ...query, page: 1 })).toStrictEqual(eager.page({ ...query, page: 1 }));
});

test('prebuild works on a lazily indexed store before any filter', async () => {
  const lazy = new ClientStore(clients, { lazySearch: true });
  await lazy.prebuildSearch();
  expect(lazy.page({ page: 1, pageSize: 30, filter: 'son' })).toStrictEqual(eager.page({ page: 1, pageSize: 30, filter: 'son' }));
});
