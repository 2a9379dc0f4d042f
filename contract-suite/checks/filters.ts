// Checks of Extended's filters: active, idStaff, idLocation, filter, and their
// AND. Terms, staff and locations come from the deployment's own lists; a
// check whose data is not there (no staff member, no location, no inactive
// client, no client at all) checks what it still can and then skips with the reason.
import { isDeepStrictEqual } from 'node:util';
import type { ClientExtended } from '../../contract/wire-types';
import { fold, queryString, termStretch, totalCount, upperCaseSameLength } from '../kit/semantics';
import { operationPaths, UNKNOWN_ID, type CheckContext, type Define } from '../kit/context';
import type { SpecContract } from '../../contract/spec-contract';

/** An unknown uuid in a filter matches no client: what an id filter check can hold even when the data has no such id. */
async function unknownIdMatchesNothing(context: CheckContext, path: string, parameter: 'idStaff' | 'idLocation'): Promise<void> {
  const query = { [parameter]: UNKNOWN_ID };
  const exchange = await context.get(path + queryString(query));
  context.expectList(exchange, query);
  context.expect(totalCount(exchange) === 0, exchange, `an unknown ${parameter} matched clients`, 'check.unknown-id');
}

export function filterChecks(check: Define, contract: SpecContract): void {
  const PATHS = operationPaths(contract);
  // The longest filter the document in use allows, in code points (--spec may give another).
  const filterMax = contract.operation('getClientsExtended').parameters.find((p) => p.name === 'filter')?.schema.maxLength;
  const FILTER_MAX = typeof filterMax === 'number' ? filterMax : 200;
  // ---------------------------------------------------------------- Extended filters

  const extended = PATHS.getClientsExtended;

  for (const active of ['true', 'false']) {
    check(
      'getClientsExtended',
      `GET /Client/Extended?active=${active} → only ${active === 'true' ? 'Active' : 'Inactive'} clients`,
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
      },
      ['filter.active'],
    );
  }
  check(
    'getClientsExtended',
    'GET /Client/Extended?active=true plus active=false → every client, exactly once',
    async (context) => {
      const { total } = await context.sample();

      const active = await context.walk<ClientExtended>(extended, { active: 'true' });
      const inactive = await context.walk<ClientExtended>(extended, { active: 'false' });

      const probe = await context.get(`${extended}?active=true&pageSize=1`);
      context.expect(
        active.total + inactive.total === total,
        probe,
        `active ${active.total} + inactive ${inactive.total} ≠ all ${total}`,
        'check.active-partition',
      );
      if (active.complete && inactive.complete) {
        const ids = new Set([...active.items, ...inactive.items].map((client) => client.IdClient));
        context.expect(ids.size === total, probe, 'some client is both active and inactive, or neither', 'check.active-partition');
      }
    },
    ['check.active-partition'],
  );
  check(
    'getClientsExtended',
    "GET /Client/Extended?idStaff → only that staff member's clients, and all of them",
    async (context) => {
      await unknownIdMatchesNothing(context, extended, 'idStaff');
      const { clients, staffIds } = await context.sample();
      const idStaff =
        staffIds[0] ?? context.skip('no listed client has a staff member: idStaff held only to an unknown uuid, which matched no client');
      const probe = await context.get(`${extended}?pageSize=1`);

      const found = await context.walk<ClientExtended>(extended, { idStaff });

      // "All of them" only from a complete walk: a bounded walk of a large list cannot reach every sampled client.
      const ids = new Set(found.items.map((client) => client.IdClient));
      for (const client of clients.filter((c) => c.IdStaff === idStaff)) {
        if (found.complete)
          context.expect(ids.has(client.IdClient), probe, `idStaff=${idStaff} misses client ${client.IdClient}`, 'check.filter-ids');
      }
    },
    ['filter.staff', 'check.filter-ids', 'check.unknown-id'],
  );
  check(
    'getClientsExtended',
    "GET /Client/Extended?idLocation → only that location's clients, and all of them",
    async (context) => {
      await unknownIdMatchesNothing(context, extended, 'idLocation');
      const { clients, locationIds } = await context.sample();
      const idLocation =
        locationIds[0] ?? context.skip('no listed client has a location: idLocation held only to an unknown uuid, which matched no client');
      const probe = await context.get(`${extended}?pageSize=1`);

      const found = await context.walk<ClientExtended>(extended, { idLocation });

      const ids = new Set(found.items.map((client) => client.IdClient));
      for (const client of clients.filter((c) => c.IdLocation === idLocation)) {
        if (found.complete)
          context.expect(ids.has(client.IdClient), probe, `idLocation=${idLocation} misses client ${client.IdClient}`, 'check.filter-ids');
      }
    },
    ['filter.location', 'check.filter-ids', 'check.unknown-id'],
  );
  for (const parameter of ['idStaff', 'idLocation'] as const) {
    check(
      'getClientsExtended',
      `GET /Client/Extended?${parameter}=<uuid in upper case> → the same clients as in lower case (uuids compare case-insensitively)`,
      async (context) => {
        await unknownIdMatchesNothing(context, extended, parameter);
        const { staffIds, locationIds } = await context.sample();
        const id =
          (parameter === 'idStaff' ? staffIds : locationIds)[0] ??
          context.skip(
            `no listed client has ${parameter === 'idStaff' ? 'a staff member' : 'a location'}: ${parameter} in upper case not compared (only an unknown uuid was sent, which matched no client)`,
          );
        const lower = { [parameter]: id.toLowerCase(), pageSize: String(context.maxPageSize) };
        const upper = { [parameter]: id.toUpperCase(), pageSize: String(context.maxPageSize) };

        const [a, b] = [await context.get(extended + queryString(lower)), await context.get(extended + queryString(upper))];

        context.expectList(b, upper);
        context.expect(
          totalCount(a) === totalCount(b) && isDeepStrictEqual(a.json, b.json),
          b,
          `${parameter} in upper case selected other clients than in lower case`,
          'check.uuid-case',
        );
      },
      ['check.uuid-case'],
    );
  }
  check(
    'getClientsExtended',
    "GET /Client/Extended?idStaff&active=true → exactly that staff member's active clients (AND)",
    async (context) => {
      const { staffIds, clients } = await context.sample();
      // A staff member with both active and inactive clients, where the sample shows one: with only active
      // clients the AND would equal idStaff alone, and an implementation ignoring `active` here would pass.
      const statusesOf = (id: string) => new Set(clients.filter((c) => c.IdStaff === id).map((c) => c.Status));
      const idStaff =
        staffIds.find((id) => statusesOf(id).size > 1) ??
        staffIds[staffIds.length - 1] ??
        context.skip('no listed client has a staff member: cannot combine idStaff with active');
      const all = await context.walk<ClientExtended>(extended, { idStaff });

      const both = await context.walk<ClientExtended>(extended, { idStaff, active: 'true' });

      const expected = all.items.filter((client) => client.Status === 'Active').map((client) => client.IdClient);
      const probe = await context.get(`${extended}${queryString({ idStaff, active: 'true', pageSize: '1' })}`);
      if (all.complete)
        context.expect(
          JSON.stringify(both.items.map((c) => c.IdClient)) === JSON.stringify(expected),
          probe,
          'the AND of idStaff and active is not the intersection',
          'check.filter-and',
        );
    },
    ['check.filter-and'],
  );
  check(
    'getClientsExtended',
    'GET /Client/Extended?idLocation&active=false&filter → every filter holds for every client (AND)',
    async (context) => {
      const { clients } = await context.sample();
      const client =
        clients.find((c) => c.IdLocation !== null && c.Status === 'Inactive') ??
        clients.find((c) => c.IdLocation !== null) ??
        context.skip('no listed client has a location: cannot combine idLocation with other filters');
      const query = {
        idLocation: client.IdLocation!,
        active: client.Status === 'Active' ? 'true' : 'false',
        filter: searchTerm(client),
        pageSize: String(context.maxPageSize),
      };

      const exchange = await context.get(extended + queryString(query));

      context.expectList(exchange, query);
      const found = await context.walk<ClientExtended>(extended, {
        idLocation: query.idLocation,
        active: query.active,
        filter: query.filter,
      });
      if (found.complete)
        context.expect(
          found.items.some((c) => c.IdClient === client.IdClient),
          exchange,
          `client ${client.IdClient} meets every filter but is missing`,
          'check.filter-and',
        );
    },
    ['check.filter-and', 'filter.location', 'filter.active', 'filter.text'],
  );

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

  check(
    'getClientsExtended',
    'GET /Client/Extended?filter → only matching clients, including the one the term came from',
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
    },
    ['filter.text', 'check.filter-text'],
  );
  check(
    'getClientsExtended',
    'GET /Client/Extended?filter → case- and accent-insensitive (upper case, accents folded)',
    async (context) => {
      const { clients } = await context.sample();
      const client =
        clients.find((c) => fold(c.FullName) !== c.FullName.toLowerCase()) ??
        clients[0] ??
        context.skip('the deployment lists no clients: no name to fold and upper-case');
      const term = upperCaseSameLength(fold(termStretch(client.PersonalInfo.LastName) || client.PersonalInfo.LastName));

      const found = await context.walk<ClientExtended>(extended, { filter: term });

      const probe = await context.get(extended + queryString({ filter: term, pageSize: String(context.maxPageSize) }));
      context.expectList(probe, { filter: term, pageSize: String(context.maxPageSize) });
      if (found.complete)
        context.expect(
          found.items.some((c) => c.IdClient === client.IdClient),
          probe,
          `filter=${term} misses ${client.FullName}`,
          'check.filter-folding',
        );
    },
    ['check.filter-folding'],
  );
  check(
    'getClientsExtended',
    'GET /Client/Extended?filter=<phone digits> → matches the phone ignoring spaces and dashes',
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
    },
    ['check.filter-phone-digits'],
  );
  check(
    'getClientsExtended',
    'GET /Client/Extended?filter=<a name with U+3000 or U+0085 for its space, or U+FEFF> → white space is Unicode White_Space: the first two find the client, U+FEFF is a character like any other',
    async (context) => {
      const { clients } = await context.sample();
      const client =
        clients.find((c) => termStretch(c.FullName).includes(' ')) ??
        context.skip('no listed client has a name of two words: no term to space differently');
      const [first, second] = termStretch(client.FullName).split(' ') as [string, string];

      for (const filter of [`${first}\u3000${second}`, `\u0085${first} ${second}\u3000`]) {
        const found = await context.walk<ClientExtended>(extended, { filter });
        const probe = await context.get(extended + queryString({ filter, pageSize: String(context.maxPageSize) }));
        if (found.complete)
          context.expect(
            found.items.some((c) => c.IdClient === client.IdClient),
            probe,
            `filter=${JSON.stringify(filter)} misses ${client.FullName}: U+3000 and U+0085 are white space`,
            'check.filter-white-space',
          );
      }
      const feff = { filter: `${first}\ufeff${second}`, pageSize: String(context.maxPageSize) };
      const exchange = await context.get(extended + queryString(feff));
      context.expectList(exchange, feff);
      if (!client.FullName.includes('\ufeff'))
        context.expect(
          !(exchange.json as { Results: ClientExtended[] }).Results.some((c) => c.IdClient === client.IdClient),
          exchange,
          `filter=${JSON.stringify(feff.filter)} finds ${client.FullName}: U+FEFF is no white space`,
          'check.filter-white-space',
        );
    },
    ['check.filter-white-space', 'filter.text'],
  );
  check(
    'getClientsExtended',
    'GET /Client/Extended?filter=<no such text> → 200 with no Results and X-Total-Count 0',
    async (context) => {
      const query = { filter: 'qqxzj-no-client-has-this-9f3a' };

      const exchange = await context.get(extended + queryString(query));

      context.expectList(exchange, query);
      context.expect(totalCount(exchange) === 0, exchange, 'X-Total-Count is not 0', 'check.filter-none');
    },
    ['check.filter-none'],
  );
  check(
    'getClientsExtended',
    'GET /Client/Extended?filter= (empty or blank) → no filter at all',
    async (context) => {
      const plain = await context.get(extended);

      for (const filter of ['', '   ']) {
        const exchange = await context.get(extended + queryString({ filter }));
        context.expectList(exchange, { filter });
        context.expect(
          totalCount(exchange) === totalCount(plain),
          exchange,
          `filter=${JSON.stringify(filter)} changed X-Total-Count`,
          'check.filter-blank',
        );
      }
    },
    ['check.filter-blank'],
  );
  check(
    'getClientsExtended',
    'GET /Client/Extended?filter with reserved characters and unicode → 200, plain text',
    async (context) => {
      for (const filter of ["O'Brien", 'a/b', '(x),y', '@example', 'Åsa Ölund', '李', '😀', 'x;y', '100%']) {
        const exchange = await context.get(extended + queryString({ filter }));
        context.expectStatus(exchange, 200, 'check.filter-plain-text');
        context.expectList(exchange, { filter });
      }
    },
    ['check.filter-plain-text'],
  );
  check(
    'getClientsExtended',
    `GET /Client/Extended?filter=<${FILTER_MAX} emoji>&page=2&pageSize=1 → 200 with a Link header within its documented maxLength`,
    async (context) => {
      // FILTER_MAX code points is a valid filter; percent-encoded, each emoji takes 12 characters in each of the four links.
      const query = { filter: '😀'.repeat(FILTER_MAX), page: '2', pageSize: '1' };

      const exchange = await context.get(extended + queryString(query));

      context.expectList(exchange, query);
    },
    ['check.link-length', 'response.header'],
  );
  check(
    'getClientsExtended',
    'GET /Client/Extended?idStaff=<unknown uuid> → 200 with no Results',
    async (context) => {
      const query = { idStaff: UNKNOWN_ID, idLocation: undefined };

      const exchange = await context.get(extended + queryString(query));

      context.expectList(exchange, { idStaff: UNKNOWN_ID });
      context.expect(totalCount(exchange) === 0, exchange, 'an unknown staff id matched clients', 'check.unknown-id');
    },
    ['check.unknown-id'],
  );
}
