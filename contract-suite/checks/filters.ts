// Checks of Extended's filters against the deployment's own clients: active, idStaff, idLocation and filter each
// find the sampled client they were taken from, an unknown uuid or text finds none, and reserved characters,
// unicode and the longest filter are plain text. Terms, staff and locations come from the deployment's own lists;
// a check whose data is not there (no staff member, no location, no client) checks what it still can and then
// skips with the reason. What holds whatever the data (case forms, the folding table, White_Space, `+`, uuids in
// upper case, AND, the active partition) is a relation (relations/).
import type { ClientExtended } from '../../contract/wire-types';
import { queryString, termStretch, totalCount } from '../kit/semantics';
import { operationPaths, UNKNOWN_ID, type CheckContext, type Define } from '../kit/context';
import type { SpecContract } from '../../contract/spec-contract';

type Check = (context: CheckContext) => Promise<void>;

/** An unknown uuid in a filter matches no client: what an id filter check can hold even when the data has no such id. */
async function unknownIdMatchesNothing(context: CheckContext, path: string, parameter: 'idStaff' | 'idLocation'): Promise<void> {
  const query = { [parameter]: UNKNOWN_ID };
  const exchange = await context.get(path + queryString(query));
  context.expectList(exchange, query);
  context.expect(totalCount(exchange) === 0, exchange, `an unknown ${parameter} matched clients`, 'check.unknown-id');
}

/** active=true or false: the page is held to the filter (the judge), and the sample shows a client of that status. */
const activeKeepsItsStatus =
  (extended: string, active: 'true' | 'false'): Check =>
  async (context) => {
    const query = { active, pageSize: String(context.maxPageSize) };

    const exchange = await context.get(extended + queryString(query));

    context.expectList(exchange, query);
    const wanted = active === 'true' ? 'Active' : 'Inactive';
    const { clients } = await context.sample();
    if (!clients.some((client) => client.Status === wanted))
      context.skip(
        `no sampled client (first and last page of Extended) is ${wanted}: the filter was held to its answer, not shown to find a given client`,
      );
  };

/** idStaff or idLocation: an unknown uuid finds none; a sampled one finds every sampled client it has (from a complete walk). */
const idFilterFindsItsClients =
  (extended: string, parameter: 'idStaff' | 'idLocation'): Check =>
  async (context) => {
    const field = parameter === 'idStaff' ? 'IdStaff' : 'IdLocation';
    await unknownIdMatchesNothing(context, extended, parameter);
    const { clients, staffIds, locationIds } = await context.sample();
    const id =
      (parameter === 'idStaff' ? staffIds : locationIds)[0] ??
      context.skip(
        `no listed client has ${parameter === 'idStaff' ? 'a staff member' : 'a location'}: ${parameter} held only to an unknown uuid, which matched no client`,
      );
    const probe = await context.get(`${extended}?pageSize=1`);

    const found = await context.walk<ClientExtended>(extended, { [parameter]: id });

    // "All of them" only from a complete walk: a bounded walk of a large list cannot reach every sampled client.
    const ids = new Set(found.items.map((client) => client.IdClient));
    for (const client of clients.filter((c) => c[field] === id)) {
      if (found.complete)
        context.expect(ids.has(client.IdClient), probe, `${parameter}=${id} misses client ${client.IdClient}`, 'check.filter-ids');
    }
  };

/**
 * Up to five characters cut from the middle of a client's FullName, as
 * listed (spaces, hyphens and apostrophes kept): a substring of the name, so
 * the filter rule says that client must be found. Never cut so that the
 * term starts or ends with white space, which the filter would trim, nor
 * across a run of white space, a tab or an NBSP, which it would collapse.
 */
function searchTerm(client: ClientExtended): string {
  const chars = [...(termStretch(client.FullName) || client.FullName)];
  const start = Math.max(0, Math.floor(chars.length / 2) - 2);
  return (
    chars
      .slice(start, start + 5)
      .join('')
      .trim() || client.FullName
  );
}

/** A term cut from a sampled name finds that client (from a complete walk). */
const filterFindsTheTermsClient =
  (extended: string): Check =>
  async (context) => {
    const { clients } = await context.sample();
    const client = clients[Math.floor(clients.length / 2)] ?? context.skip('the deployment lists no clients: no name to cut a term from');
    const query = { filter: searchTerm(client), pageSize: String(context.maxPageSize) };

    const exchange = await context.get(extended + queryString(query));

    context.expectList(exchange, query);
    const found = await context.walk<ClientExtended>(extended, { filter: query.filter });
    if (found.complete)
      context.expect(
        found.items.some((c) => c.IdClient === client.IdClient),
        exchange,
        `filter=${query.filter} misses ${client.FullName}`,
        'check.filter-text',
      );
  };

/** The last seven digits of a sampled phone find that client (from a complete walk). */
const phoneDigitsFindThePhone =
  (extended: string): Check =>
  async (context) => {
    const { clients } = await context.sample();
    const client = clients[clients.length - 1] ?? context.skip('the deployment lists no clients: no phone number to take digits from');
    const digits = client.Phone.replace(/\D/g, '').slice(-7);
    const query = { filter: digits, pageSize: String(context.maxPageSize) };

    const exchange = await context.get(extended + queryString(query));

    context.expectList(exchange, query);
    const found = await context.walk<ClientExtended>(extended, { filter: digits });
    if (found.complete)
      context.expect(
        found.items.some((c) => c.IdClient === client.IdClient),
        exchange,
        `filter=${digits} misses ${client.Phone}`,
        'check.filter-phone-digits',
      );
  };

/** U+FEFF is no White_Space: a name with it for its space does not find the client (the relations show what does). */
const feffIsNoSpace =
  (extended: string): Check =>
  async (context) => {
    const { clients } = await context.sample();
    const client =
      clients.find((c) => termStretch(c.FullName).includes(' ')) ??
      context.skip('no listed client has a name of two words: no term to space differently');
    const [first, second] = termStretch(client.FullName).split(' ') as [string, string];
    const feff = { filter: `${first}\ufeff${second}`, pageSize: String(context.maxPageSize) };

    const exchange = await context.get(extended + queryString(feff));

    context.expectList(exchange, feff);
    if (client.FullName.includes('\ufeff')) context.skip(`${client.FullName} holds U+FEFF itself: no term without it to send`);
    context.expect(
      !(exchange.json as { Results: ClientExtended[] }).Results.some((c) => c.IdClient === client.IdClient),
      exchange,
      `filter=${JSON.stringify(feff.filter)} finds ${client.FullName}: U+FEFF is no white space`,
      'check.filter-white-space',
    );
  };

/** A term no client has: 200, no Results, X-Total-Count 0. */
const unknownTextFindsNothing =
  (extended: string): Check =>
  async (context) => {
    const query = { filter: 'qqxzj-no-client-has-this-9f3a' };

    const exchange = await context.get(extended + queryString(query));

    context.expectList(exchange, query);
    context.expect(totalCount(exchange) === 0, exchange, 'X-Total-Count is not 0', 'check.filter-none');
  };

/** Reserved characters and unicode in filter: a 200 whose rows match the text as written. */
const reservedCharactersArePlainText =
  (extended: string): Check =>
  async (context) => {
    for (const filter of ["O'Brien", 'a/b', '(x),y', '@example', 'Åsa Ölund', '李', '😀', 'x;y', '100%']) {
      const exchange = await context.get(extended + queryString({ filter }));
      context.expectStatus(exchange, 200, 'check.filter-plain-text');
      context.expectList(exchange, { filter });
    }
  };

/** The longest filter the document allows, in emoji, on page 2: a 200 whose Link header keeps its documented length. */
const longestFilterKeepsTheLink =
  (extended: string, filterMax: number): Check =>
  async (context) => {
    // filterMax code points is a valid filter; percent-encoded, each emoji takes 12 characters in each of the four links.
    const query = { filter: '😀'.repeat(filterMax), page: '2', pageSize: '1' };

    const exchange = await context.get(extended + queryString(query));

    context.expectList(exchange, query);
  };

/** An unknown idStaff: 200 with no Results. */
const unknownStaffFindsNothing =
  (extended: string): Check =>
  async (context) => {
    const query = { idStaff: UNKNOWN_ID, idLocation: undefined };

    const exchange = await context.get(extended + queryString(query));

    context.expectList(exchange, { idStaff: UNKNOWN_ID });
    context.expect(totalCount(exchange) === 0, exchange, 'an unknown staff id matched clients', 'check.unknown-id');
  };

export function filterChecks(check: Define, contract: SpecContract): void {
  const extended = operationPaths(contract).getClientsExtended;
  // The longest filter the document in use allows, in code points (--spec may give another).
  const filterMax = contract.operation('getClientsExtended').parameters.find((p) => p.name === 'filter')?.schema.maxLength;
  const FILTER_MAX = typeof filterMax === 'number' ? filterMax : 200;

  for (const active of ['true', 'false'] as const)
    check(
      'getClientsExtended',
      `GET /Client/Extended?active=${active} → only ${active === 'true' ? 'Active' : 'Inactive'} clients`,
      activeKeepsItsStatus(extended, active),
      ['filter.active'],
    );
  check(
    'getClientsExtended',
    "GET /Client/Extended?idStaff → only that staff member's clients, and all of them",
    idFilterFindsItsClients(extended, 'idStaff'),
    ['filter.staff', 'check.filter-ids', 'check.unknown-id'],
  );
  check(
    'getClientsExtended',
    "GET /Client/Extended?idLocation → only that location's clients, and all of them",
    idFilterFindsItsClients(extended, 'idLocation'),
    ['filter.location', 'check.filter-ids', 'check.unknown-id'],
  );
  check(
    'getClientsExtended',
    'GET /Client/Extended?filter → only matching clients, including the one the term came from',
    filterFindsTheTermsClient(extended),
    ['filter.text', 'check.filter-text'],
  );
  check(
    'getClientsExtended',
    'GET /Client/Extended?filter=<phone digits> → matches the phone ignoring spaces and dashes',
    phoneDigitsFindThePhone(extended),
    ['check.filter-phone-digits'],
  );
  check(
    'getClientsExtended',
    'GET /Client/Extended?filter=<a name with U+FEFF for its space> → not that client: U+FEFF is no White_Space, a character like any other',
    feffIsNoSpace(extended),
    ['check.filter-white-space'],
  );
  check(
    'getClientsExtended',
    'GET /Client/Extended?filter=<no such text> → 200 with no Results and X-Total-Count 0',
    unknownTextFindsNothing(extended),
    ['check.filter-none'],
  );
  check(
    'getClientsExtended',
    'GET /Client/Extended?filter with reserved characters and unicode → 200, plain text',
    reservedCharactersArePlainText(extended),
    ['check.filter-plain-text'],
  );
  check(
    'getClientsExtended',
    `GET /Client/Extended?filter=<${FILTER_MAX} emoji>&page=2&pageSize=1 → 200 with a Link header within its documented maxLength`,
    longestFilterKeepsTheLink(extended, FILTER_MAX),
    ['check.link-length', 'response.header'],
  );
  check('getClientsExtended', 'GET /Client/Extended?idStaff=<unknown uuid> → 200 with no Results', unknownStaffFindsNothing(extended), [
    'check.unknown-id',
  ]);
}
