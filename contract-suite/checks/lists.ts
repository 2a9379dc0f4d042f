// Checks of the two list operations: defaults, paging, order, totals, Link,
// Prefer. Each parameter's bounds, types, repetition, undocumented names, the
// key and the methods are derived from openapi.yaml (derived/); that pages of
// any size tile one list is a relation (relations/).
import type { ClientExtended, ClientSimple } from '../../contract/wire-types';
import { pathBelowBase } from '../kit/http';
import { compareClients, linkRelations, queryString, totalCount, type PageBody } from '../kit/semantics';
import type { SpecContract } from '../../contract/spec-contract';
import { expectPreferred, operationPaths, type CheckContext, type Define } from '../kit/context';

type Check = (context: CheckContext) => Promise<void>;
type ListOperation = 'getClientsSimple' | 'getClientsExtended';

/** The plain list: page 1 at the default size, held to the list rules. */
const defaultPage =
  (path: string): Check =>
  async (context) => {
    const exchange = await context.get(path);

    context.expectList(exchange, {});
  };

/** page=2&pageSize=7: echoed in Page and PageSize. */
const pagingEchoed =
  (path: string): Check =>
  async (context) => {
    const query = { page: '2', pageSize: '7' };

    const exchange = await context.get(path + queryString(query));

    context.expectList(exchange, query);
  };

/** A page past the end: 200 with no Results, echoing Page. */
const pastTheEnd =
  (path: string): Check =>
  async (context) => {
    const { total } = await context.sample();
    // An empty list has one (empty) page, so page 2 is past its end.
    const query = { page: String(Math.max(1, Math.ceil(total / 10)) + 1), pageSize: '10' };

    const exchange = await context.get(path + queryString(query));

    context.expectList(exchange, query);
    context.expect((exchange.json as PageBody<unknown>).Results.length === 0, exchange, 'Results is not empty past the end', 'list.total');
  };

/** The last page at the largest size: the same X-Total-Count as the plain list, the remainder of the clients. */
const lastPageHoldsTheRemainder =
  (path: string): Check =>
  async (context) => {
    const plain = await context.get(path);
    const total = totalCount(plain)!;
    const lastPage = Math.max(1, Math.ceil(total / context.maxPageSize));
    const query = { page: String(lastPage), pageSize: String(context.maxPageSize) };

    const last = await context.get(path + queryString(query));

    context.expectList(last, query);
    context.expect(totalCount(last) === total, last, `X-Total-Count changed from ${total} to ${totalCount(last)}`, 'check.total');
  };

/** The first page at the largest size: every row before the next in the documented order. */
const pageInOrder =
  (path: string): Check =>
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
  };

/** The next link of page 1 of size 3 leads to page 2 (a list of three clients or fewer has none to follow). */
const nextLinkLeadsOn =
  (path: string): Check =>
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
  };

/** Page 1 of Simple and of Extended: the same clients in the same order with the same basic fields, and one X-Total-Count. */
const simpleMatchesExtended =
  (simplePath: string, extendedPath: string): Check =>
  async (context) => {
    const simple = await context.get(`${simplePath}?pageSize=${context.maxPageSize}`);
    const extended = await context.get(`${extendedPath}?pageSize=${context.maxPageSize}`);

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
  };

/** The checks of one list operation. */
function listOperationChecks(check: Define, operation: ListOperation, path: string, defaultSize: number): void {
  const short = path.replace('/api/v1', '');
  check(operation, `GET ${short} → 200 page 1 of ${defaultSize} by default`, defaultPage(path), ['list.echo', 'list.total', 'list.link']);
  check(operation, `GET ${short}?page=2&pageSize=7 → 200 echoing Page 2 and PageSize 7`, pagingEchoed(path), ['list.echo']);
  check(operation, `GET ${short} → a page past the end is 200 with no Results, echoing Page`, pastTheEnd(path), [
    'check.past-end',
    'list.link',
  ]);
  check(operation, `GET ${short} → X-Total-Count counts every client; the last page holds the remainder`, lastPageHoldsTheRemainder(path), [
    'list.total',
    'check.total',
  ]);
  check(
    operation,
    `GET ${short} → ordered by FullName (English collation, case- and accent-insensitive), then IdClient`,
    pageInOrder(path),
    ['list.order'],
  );
  check(operation, `GET ${short} → the Link header's next link leads to the next page`, nextLinkLeadsOn(path), ['check.link-follow']);
  check(
    operation,
    `GET ${short} with Prefer: code=500 → 500 INTERNAL_ERROR`,
    (context) => expectPreferred(context, operation, path, 500, 'INTERNAL_ERROR'),
    ['check.prefer'],
  );
}

export function listChecks(check: Define, contract: SpecContract): void {
  const PATHS = operationPaths(contract);
  // The default pageSize of the document in use (--spec may give another).
  const size = contract.operation('getClientsSimple').parameters.find((p) => p.name === 'pageSize')?.schema.default;
  for (const operation of ['getClientsSimple', 'getClientsExtended'] as const)
    listOperationChecks(check, operation, PATHS[operation], typeof size === 'number' ? size : 25);
  check(
    'getClientsSimple',
    'GET /Client/Simple and /Client/Extended → the same clients, in the same order, with the same basic fields',
    simpleMatchesExtended(PATHS.getClientsSimple, PATHS.getClientsExtended),
    ['check.simple-extended'],
  );
}
