// Checks of the two list operations: defaults, paging, order, totals, Link,
// Prefer. Each parameter's bounds, types, repetition, undocumented names, the
// key and the methods are derived from openapi.yaml (derived/).
import type { ClientExtended, ClientSimple } from '../../contract/wire-types';
import { pathBelowBase } from '../kit/http';
import { type Exchange } from '../../contract/exchange';
import { compareClients, linkRelations, queryString, totalCount, type PageBody } from '../kit/semantics';
import type { SpecContract } from '../../contract/spec-contract';
import { expectPreferred, operationPaths, type Define } from '../kit/context';

export function listChecks(check: Define, contract: SpecContract): void {
  const PATHS = operationPaths(contract);
  // The paging bounds and defaults of the document in use (--spec may give other ones).
  const schemaOf = (name: string) => contract.operation('getClientsSimple').parameters.find((p) => p.name === name)?.schema ?? {};
  const number = (value: unknown, fallback: number) => (typeof value === 'number' ? value : fallback);
  const SIZE = {
    min: number(schemaOf('pageSize').minimum, 1),
    max: number(schemaOf('pageSize').maximum, 100),
    default: number(schemaOf('pageSize').default, 25),
  };
  // ---------------------------------------------------------------- lists (Simple and Extended)

  for (const operation of ['getClientsSimple', 'getClientsExtended'] as const) {
    const path = PATHS[operation];
    const short = path.replace('/api/v1', '');

    check(
      operation,
      `GET ${short} → 200 page 1 of ${SIZE.default} by default`,
      async (context) => {
        const exchange = await context.get(path);

        context.expectList(exchange, {});
      },
      ['list.echo', 'list.total', 'list.link'],
    );
    check(
      operation,
      `GET ${short}?page=2&pageSize=7 → 200 echoing Page 2 and PageSize 7`,
      async (context) => {
        const query = { page: '2', pageSize: '7' };

        const exchange = await context.get(path + queryString(query));

        context.expectList(exchange, query);
      },
      ['list.echo'],
    );
    check(
      operation,
      `GET ${short} → a page past the end is 200 with no Results, echoing Page`,
      async (context) => {
        const { total } = await context.sample();
        // An empty list has one (empty) page, so page 2 is past its end.
        const query = { page: String(Math.max(1, Math.ceil(total / 10)) + 1), pageSize: '10' };

        const exchange = await context.get(path + queryString(query));

        context.expectList(exchange, query);
        context.expect(
          (exchange.json as PageBody<unknown>).Results.length === 0,
          exchange,
          'Results is not empty past the end',
          'list.total',
        );
      },
      ['check.past-end', 'list.link'],
    );
    check(
      operation,
      `GET ${short} → X-Total-Count counts every client; the last page holds the remainder`,
      async (context) => {
        const plain = await context.get(path);
        const total = totalCount(plain)!;
        const lastPage = Math.max(1, Math.ceil(total / context.maxPageSize));
        const query = { page: String(lastPage), pageSize: String(context.maxPageSize) };

        const last = await context.get(path + queryString(query));

        context.expectList(last, query);
        context.expect(totalCount(last) === total, last, `X-Total-Count changed from ${total} to ${totalCount(last)}`, 'check.total');
      },
      ['list.total', 'check.total'],
    );
    check(
      operation,
      `GET ${short} → pages tile: pages 1 and 2 of 10 are page 1 of 20`,
      async (context) => {
        const a = await context.get(`${path}?page=1&pageSize=10`);
        const b = await context.get(`${path}?page=2&pageSize=10`);
        const both = await context.get(`${path}?page=1&pageSize=20`);

        const ids = (exchange: Exchange) => (exchange.json as PageBody<ClientSimple>).Results.map((client) => client.IdClient);
        context.expect(
          JSON.stringify([...ids(a), ...ids(b)]) === JSON.stringify(ids(both)),
          both,
          'pages 1 and 2 of size 10 are not page 1 of size 20',
          'check.tiling',
        );
      },
      ['check.tiling'],
    );
    check(
      operation,
      `GET ${short} → ordered by FullName (English collation, case- and accent-insensitive), then IdClient`,
      async (context) => {
        const exchange = await context.get(`${path}?pageSize=${context.maxPageSize}`);

        const results = (exchange.json as PageBody<ClientSimple>).Results;
        for (let i = 1; i < results.length; i += 1) {
          const [before, after] = [results[i - 1]!, results[i]!];
          context.expect(
            compareClients(before, after) < 0,
            exchange,
            `Results[${i - 1}] ${before.FullName} comes before Results[${i}] ${after.FullName}`,
            'list.order',
          );
        }
      },
      ['list.order'],
    );
    check(
      operation,
      `GET ${short} → the Link header's next link leads to the next page`,
      async (context) => {
        const first = await context.get(`${path}?pageSize=3`);
        const next = linkRelations(first.headers.get('link')).get('next');
        if (next === undefined) return; // three clients or fewer: no next page to follow.

        const second = await context.get(pathBelowBase(context.target, new URL(next, first.url)));

        context.expectList(second, { page: '2', pageSize: '3' });
        context.expect(
          (second.json as PageBody<unknown>).Page === 2,
          second,
          'the next link of page 1 did not lead to page 2',
          'check.link-follow',
        );
      },
      ['check.link-follow'],
    );
    check(
      operation,
      `GET ${short} with Prefer: code=500 → 500 INTERNAL_ERROR`,
      (context) => expectPreferred(context, operation, path, 500, 'INTERNAL_ERROR'),
      ['check.prefer'],
    );
  }

  check(
    'getClientsSimple',
    'GET /Client/Simple and /Client/Extended → the same clients, in the same order, with the same basic fields',
    async (context) => {
      const simple = await context.get(`${PATHS.getClientsSimple}?pageSize=${context.maxPageSize}`);
      const extended = await context.get(`${PATHS.getClientsExtended}?pageSize=${context.maxPageSize}`);

      const basic = (client: ClientSimple) =>
        JSON.stringify([client.IdClient, client.FullName, client.PersonalId, client.Phone, client.Email]);
      const a = (simple.json as PageBody<ClientSimple>).Results.map(basic);
      const b = (extended.json as PageBody<ClientExtended>).Results.map(basic);
      context.expect(JSON.stringify(a) === JSON.stringify(b), extended, 'Simple and Extended disagree on page 1', 'check.simple-extended');
      context.expect(
        totalCount(simple) === totalCount(extended),
        extended,
        'Simple and Extended disagree on X-Total-Count',
        'check.simple-extended',
      );
    },
    ['check.simple-extended'],
  );
}
