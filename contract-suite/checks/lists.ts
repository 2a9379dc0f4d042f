// Checks of the two list operations: defaults, paging, order, totals, Link,
// Prefer. Each parameter's bounds, types, repetition, undocumented names, the
// key and the methods are derived from openapi.yaml (derived/).
import type { ClientExtended, ClientSimple } from '../../contract/wire-types';
import { pathBelowBase, type Exchange } from '../http';
import { compareClients, linkRelations, MAX_PAGE_SIZE, queryString, totalCount, type PageBody } from '../semantics';
import { expectPreferred, operationPaths, type Define } from '../context';

export function listChecks(check: Define): void {
  const PATHS = operationPaths();
  // ---------------------------------------------------------------- lists (Simple and Extended)

  for (const operation of ['getClientsSimple', 'getClientsExtended'] as const) {
    const path = PATHS[operation];
    const short = path.replace('/api/v1', '');

    check(operation, `GET ${short} → 200 page 1 of 25 by default`, async (context) => {
      const exchange = await context.get(path);

      context.expectList(exchange, {});
    });
    check(operation, `GET ${short}?page=2&pageSize=7 → 200 echoing Page 2 and PageSize 7`, async (context) => {
      const query = { page: '2', pageSize: '7' };

      const exchange = await context.get(path + queryString(query));

      context.expectList(exchange, query);
    });
    check(operation, `GET ${short} → a page past the end is 200 with no Results, echoing Page`, async (context) => {
      const { total } = await context.sample();
      const query = { page: String(Math.ceil(total / 10) + 1), pageSize: '10' };

      const exchange = await context.get(path + queryString(query));

      context.expectList(exchange, query);
      context.expect((exchange.json as PageBody<unknown>).Results.length === 0, exchange, 'Results is not empty past the end');
    });
    check(operation, `GET ${short} → X-Total-Count counts every client; the last page holds the remainder`, async (context) => {
      const plain = await context.get(path);
      const total = totalCount(plain)!;
      const lastPage = Math.max(1, Math.ceil(total / MAX_PAGE_SIZE));
      const query = { page: String(lastPage), pageSize: String(MAX_PAGE_SIZE) };

      const last = await context.get(path + queryString(query));

      context.expectList(last, query);
      context.expect(totalCount(last) === total, last, `X-Total-Count changed from ${total} to ${totalCount(last)}`);
    });
    check(operation, `GET ${short} → pages tile: pages 1 and 2 of 10 are page 1 of 20`, async (context) => {
      const a = await context.get(`${path}?page=1&pageSize=10`);
      const b = await context.get(`${path}?page=2&pageSize=10`);
      const both = await context.get(`${path}?page=1&pageSize=20`);

      const ids = (exchange: Exchange) => (exchange.json as PageBody<ClientSimple>).Results.map((client) => client.IdClient);
      context.expect(
        JSON.stringify([...ids(a), ...ids(b)]) === JSON.stringify(ids(both)),
        both,
        'pages 1 and 2 of size 10 are not page 1 of size 20',
      );
    });
    check(
      operation,
      `GET ${short} → ordered by FullName (English collation, case- and accent-insensitive), then IdClient`,
      async (context) => {
        const exchange = await context.get(`${path}?pageSize=100`);

        const results = (exchange.json as PageBody<ClientSimple>).Results;
        for (let i = 1; i < results.length; i += 1) {
          const [before, after] = [results[i - 1]!, results[i]!];
          context.expect(
            compareClients(before, after) < 0,
            exchange,
            `Results[${i - 1}] ${before.FullName} comes before Results[${i}] ${after.FullName}`,
          );
        }
      },
    );
    check(operation, `GET ${short} → the Link header's next link leads to the next page`, async (context) => {
      const first = await context.get(`${path}?pageSize=3`);
      const next = linkRelations(first.headers.get('link')).get('next');
      if (next === undefined) return; // three clients or fewer: no next page to follow.

      const second = await context.get(pathBelowBase(context.target, new URL(next, first.url)));

      context.expectList(second, { page: '2', pageSize: '3' });
    });
    check(operation, `GET ${short} with Prefer: code=500 → 500 INTERNAL_ERROR`, (context) =>
      expectPreferred(context, operation, path, 500, 'INTERNAL_ERROR'),
    );
  }

  check(
    'getClientsSimple',
    'GET /Client/Simple and /Client/Extended → the same clients, in the same order, with the same basic fields',
    async (context) => {
      const simple = await context.get(`${PATHS.getClientsSimple}?pageSize=100`);
      const extended = await context.get(`${PATHS.getClientsExtended}?pageSize=100`);

      const basic = (client: ClientSimple) =>
        JSON.stringify([client.IdClient, client.FullName, client.PersonalId, client.Phone, client.Email]);
      const a = (simple.json as PageBody<ClientSimple>).Results.map(basic);
      const b = (extended.json as PageBody<ClientExtended>).Results.map(basic);
      context.expect(JSON.stringify(a) === JSON.stringify(b), extended, 'Simple and Extended disagree on page 1');
      context.expect(totalCount(simple) === totalCount(extended), extended, 'Simple and Extended disagree on X-Total-Count');
    },
  );
}
