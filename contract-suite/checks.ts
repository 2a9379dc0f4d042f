// The contract checks: named, target-independent, and plain async functions
// that throw a ContractViolation, so the jest suite (contract.test.ts), the
// mutation harness (mutation.test.ts) and the Prism replay
// (scripts/contract-prism.ts) run exactly the same code. Every exchange a
// check makes is first held against openapi.yaml (status, content type,
// documented headers, body); then the check asserts its own rule.
//
// No check knows our seed: ids, staff, locations and search terms are
// discovered from the lists of the deployment under test.
import type { ClientDetail, ClientExtended, ClientSimple, ErrorCode, ErrorDto } from '../contract/wire-types';
import { describeExchange, send, toCurl, type ApiRequest, type Exchange, type KeyRole } from './http';
import { fold, linkRelations, listViolations, MAX_PAGE_SIZE, queryString, totalCount, type ListQuery, type PageBody } from './semantics';
import { specContract, type SpecContract } from './spec-contract';
import type { Target } from './target';

export type OperationName = 'ping' | 'exception' | 'getClientsSimple' | 'getClientsExtended' | 'getClientDetail' | 'routing' | 'coverage';

export const PATHS = {
  ping: '/api/v1/Diagnostics/Ping',
  exception: '/api/v1/Diagnostics/Exception',
  getClientsSimple: '/api/v1/Client/Simple',
  getClientsExtended: '/api/v1/Client/Extended',
  getClientDetail: '/api/v1/Client/Detail',
} as const;

export const TEST_EXCEPTION_MESSAGE = 'This is a test exception from /Exception endpoint';
/** A well-formed uuid (v4 layout) that the checks assume no deployment has: the checks verify that it is not in the lists. */
export const UNKNOWN_ID = 'c0ffee00-dead-4bad-8bad-0123456789ab';
/** Bounds on discovery, so a huge deployment is sampled, not crawled. */
const MAX_PAGES_PER_WALK = 20;

export class ContractViolation extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ContractViolation';
  }
}

/** What the checks learned about the deployment from its own lists. */
export interface Sample {
  total: number;
  /** Clients from the first and the last page of Extended (pageSize 100). */
  clients: ClientExtended[];
  staffIds: string[];
  locationIds: string[];
}

export class CheckContext {
  readonly contract: SpecContract = specContract();
  /** Statuses seen per operation (for the coverage check). */
  readonly seen = new Map<string, Set<number>>();
  /** Operations whose `Prefer: code=NNN` the deployment ignored (a real backend may). */
  readonly preferIgnored = new Set<string>();
  requestCount = 0;
  private samplePromise: Promise<Sample> | undefined;

  constructor(readonly target: Target) {}

  /** Sends the request and fails unless the exchange conforms to openapi.yaml. */
  async call(request: ApiRequest): Promise<Exchange> {
    const exchange = await send(this.target, request);
    this.requestCount += 1;
    const found = this.contract.findOperation(new URL(exchange.url).pathname);
    const operation = found?.operation.operationId ?? 'routing';
    if (!this.seen.has(operation)) this.seen.set(operation, new Set());
    this.seen.get(operation)!.add(exchange.status);
    const problems = this.contract.check(exchange);
    if (problems.length > 0) this.fail(exchange, `the response breaks openapi.yaml:\n    ${problems.join('\n    ')}`);
    return exchange;
  }

  get(path: string, key: KeyRole = 'valid', headers?: Record<string, string>): Promise<Exchange> {
    return this.call({ method: 'GET', path, key, headers });
  }

  fail(exchange: Exchange, message: string): never {
    throw new ContractViolation(`${message}\n  ${describeExchange(exchange)}\n  reproduce: ${toCurl(this.target, exchange.request)}`);
  }

  expect(condition: boolean, exchange: Exchange, message: string): void {
    if (!condition) this.fail(exchange, message);
  }

  expectStatus(exchange: Exchange, status: number): void {
    this.expect(exchange.status === status, exchange, `expected status ${status}, got ${exchange.status}`);
  }

  /** The status and the ErrorDto Code (the body's shape is already checked against the spec). */
  expectError(exchange: Exchange, status: number, code: ErrorCode): ErrorDto {
    this.expectStatus(exchange, status);
    const body = exchange.json as ErrorDto;
    this.expect(body?.Code === code, exchange, `expected Code ${code}, got ${String(body?.Code)}`);
    return body;
  }

  expectList(exchange: Exchange, query: ListQuery): void {
    this.expectStatus(exchange, 200);
    const problems = listViolations(exchange, query);
    if (problems.length > 0) this.fail(exchange, `the list breaks the paging or filter rules:\n    ${problems.join('\n    ')}`);
  }

  /** Every page of a list, pageSize 100, at most MAX_PAGES_PER_WALK pages. */
  async walk<T>(path: string, query: ListQuery = {}): Promise<{ items: T[]; total: number; complete: boolean }> {
    const items: T[] = [];
    let total = 0;
    for (let page = 1; page <= MAX_PAGES_PER_WALK; page += 1) {
      const pageQuery = { ...query, page: String(page), pageSize: String(MAX_PAGE_SIZE) };
      const exchange = await this.get(path + queryString(pageQuery));
      this.expectList(exchange, pageQuery);
      total = totalCount(exchange)!;
      items.push(...(exchange.json as PageBody<T>).Results);
      if (items.length >= total) return { items, total, complete: true };
    }
    return { items, total, complete: false };
  }

  sample(): Promise<Sample> {
    this.samplePromise ??= this.discover();
    return this.samplePromise;
  }

  private async discover(): Promise<Sample> {
    const firstQuery = { pageSize: String(MAX_PAGE_SIZE) };
    const first = await this.get(PATHS.getClientsExtended + queryString(firstQuery));
    this.expectList(first, firstQuery);
    const total = totalCount(first)!;
    const clients = [...(first.json as PageBody<ClientExtended>).Results];
    const lastPage = Math.ceil(total / MAX_PAGE_SIZE);
    if (lastPage > 1) {
      const lastQuery = { page: String(lastPage), pageSize: String(MAX_PAGE_SIZE) };
      const last = await this.get(PATHS.getClientsExtended + queryString(lastQuery));
      this.expectList(last, lastQuery);
      clients.push(...(last.json as PageBody<ClientExtended>).Results);
    }
    if (clients.length === 0) this.fail(first, 'the deployment lists no clients: the checks need at least one');
    const distinct = (values: (string | null)[]) => [...new Set(values.filter((value): value is string => value !== null))];
    return {
      total,
      clients,
      staffIds: distinct(clients.map((client) => client.IdStaff)),
      locationIds: distinct(clients.map((client) => client.IdLocation)),
    };
  }
}

export interface ContractCheck {
  operation: OperationName;
  name: string;
  run(context: CheckContext): Promise<void>;
}

const checks: ContractCheck[] = [];

function check(operation: OperationName, name: string, run: (context: CheckContext) => Promise<void>): void {
  checks.push({ operation, name, run });
}

/** A `Prefer: code=NNN` answer: that status with that Code, or, from a deployment that ignores mock controls, the plain answer. */
async function expectPreferred(
  context: CheckContext,
  operation: string,
  path: string,
  status: number,
  code: ErrorCode,
  key: KeyRole = 'valid',
): Promise<void> {
  const plain = await context.get(path, key);
  const steered = await context.get(path, key, { Prefer: `code=${status}` });
  if (steered.status === status) {
    context.expectError(steered, status, code);
  } else {
    context.expect(
      steered.status === plain.status,
      steered,
      `Prefer: code=${status} gave ${steered.status}; expected ${status}, or ${plain.status} from a deployment that ignores Prefer`,
    );
    context.preferIgnored.add(operation);
  }
}

const METHODS = ['POST', 'PUT', 'PATCH', 'DELETE'] as const;

function methodChecks(operation: OperationName, path: string): void {
  for (const method of METHODS) {
    check(operation, `${method} ${path.replace('/api/v1', '')} → 405 METHOD_NOT_ALLOWED with Allow: GET`, async (context) => {
      const exchange = await context.call({ method, path, key: 'valid' });

      context.expectError(exchange, 405, 'METHOD_NOT_ALLOWED');
      context.expect(exchange.headers.get('allow') === 'GET', exchange, `expected Allow: GET, got ${exchange.headers.get('allow')}`);
    });
  }
}

function unknownParameterCheck(operation: OperationName, path: string, key: KeyRole): void {
  check(
    operation,
    `GET ${path.replace('/api/v1', '')}?pagesize=10 → 400 VALIDATION_ERROR naming the unknown parameter`,
    async (context) => {
      const exchange = await context.get(`${path}?pagesize=10`, key);

      const body = context.expectError(exchange, 400, 'VALIDATION_ERROR');
      context.expect(body.Message.includes('pagesize'), exchange, 'the Message does not name the parameter');
    },
  );
}

function authChecks(operation: OperationName, path: string): void {
  for (const key of ['none', 'wrong'] as const) {
    check(
      operation,
      `GET ${path.replace('/api/v1', '')} → 401 UNAUTHORIZED with ${key === 'none' ? 'no X-Api-Key' : 'an unknown X-Api-Key'}`,
      async (context) => {
        const exchange = await context.get(path, key);

        context.expectError(exchange, 401, 'UNAUTHORIZED');
      },
    );
  }
}

// ---------------------------------------------------------------- ping

check('ping', 'GET /Diagnostics/Ping → 200 "Pong" without a key', async (context) => {
  const exchange = await context.get(PATHS.ping, 'none');

  context.expectStatus(exchange, 200);
  context.expect(exchange.json === 'Pong', exchange, 'the body is not the JSON string "Pong"');
});
check('ping', 'GET /Diagnostics/Ping → 200 "Pong" with a key too', async (context) => {
  const exchange = await context.get(PATHS.ping, 'valid');

  context.expectStatus(exchange, 200);
  context.expect(exchange.json === 'Pong', exchange, 'the body is not the JSON string "Pong"');
});
check('ping', 'GET /Diagnostics/Ping → X-Request-Id echoes the request id', async (context) => {
  const exchange = await context.get(PATHS.ping, 'none', { 'X-Request-Id': 'contract-suite-request-1' });

  context.expect(exchange.headers.get('x-request-id') === 'contract-suite-request-1', exchange, 'X-Request-Id is not echoed');
});
unknownParameterCheck('ping', PATHS.ping, 'none');
methodChecks('ping', PATHS.ping);
check('ping', 'GET /Diagnostics/Ping with Prefer: code=500 → 500 INTERNAL_ERROR', (context) =>
  expectPreferred(context, 'ping', PATHS.ping, 500, 'INTERNAL_ERROR', 'none'),
);

// ---------------------------------------------------------------- exception

check('exception', 'GET /Diagnostics/Exception → 500 TEST_EXCEPTION with the exact message, without a key', async (context) => {
  const exchange = await context.get(PATHS.exception, 'none');

  const body = context.expectError(exchange, 500, 'TEST_EXCEPTION');
  context.expect(body.Message === TEST_EXCEPTION_MESSAGE, exchange, `the Message is not "${TEST_EXCEPTION_MESSAGE}"`);
});
check('exception', 'GET /Diagnostics/Exception → the same 500 TEST_EXCEPTION every time', async (context) => {
  const exchanges = [await context.get(PATHS.exception, 'valid'), await context.get(PATHS.exception, 'none')];

  for (const exchange of exchanges) context.expectError(exchange, 500, 'TEST_EXCEPTION');
});
unknownParameterCheck('exception', PATHS.exception, 'none');
methodChecks('exception', PATHS.exception);

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
  boundsChecks(operation, path, short);
  for (const [parameter, value, why] of [
    ['pageSize', '101', 'above the maximum'],
    ['pageSize', '0', 'zero'],
    ['pageSize', '-1', 'negative'],
    ['pageSize', '2.5', 'a fraction'],
    ['pageSize', 'ten', 'not a number'],
    ['pageSize', '', 'empty'],
    ['page', '0', 'zero'],
    ['page', '-3', 'negative'],
    ['page', '1.5', 'a fraction'],
    ['page', 'first', 'not a number'],
    ['page', '', 'empty'],
    ['page', '2147483648', 'above the int32 maximum'],
  ] as const) {
    check(
      operation,
      `GET ${short}?${parameter}=${value} → 400 VALIDATION_ERROR naming ${parameter} (${why}; never clamped)`,
      async (context) => {
        const exchange = await context.get(`${path}?${parameter}=${encodeURIComponent(value)}`);

        const body = context.expectError(exchange, 400, 'VALIDATION_ERROR');
        context.expect(body.Message.includes(parameter), exchange, `the Message does not name ${parameter}`);
      },
    );
  }
  check(operation, `GET ${short}?pageSize=5&pageSize=6 → 400 VALIDATION_ERROR for a parameter given twice`, async (context) => {
    const exchange = await context.get(`${path}?pageSize=5&pageSize=6`);

    context.expectError(exchange, 400, 'VALIDATION_ERROR');
  });
  unknownParameterCheck(operation, path, 'valid');
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
      const collator = new Intl.Collator('en', { sensitivity: 'base' });
      for (let i = 1; i < results.length; i += 1) {
        const [before, after] = [results[i - 1]!, results[i]!];
        const order = collator.compare(before.FullName, after.FullName) || (before.IdClient < after.IdClient ? -1 : 1);
        context.expect(order < 0, exchange, `Results[${i - 1}] ${before.FullName} comes before Results[${i}] ${after.FullName}`);
      }
    },
  );
  check(operation, `GET ${short} → the Link header's next link leads to the next page`, async (context) => {
    const first = await context.get(`${path}?pageSize=3`);
    const next = linkRelations(first.headers.get('link')).get('next');
    if (next === undefined) return; // three clients or fewer: no next page to follow.

    const second = await context.get(new URL(next, first.url).pathname + new URL(next, first.url).search);

    context.expectList(second, { page: '2', pageSize: '3' });
  });
  authChecks(operation, path);
  methodChecks(operation, path);
  check(operation, `GET ${short} with Prefer: code=500 → 500 INTERNAL_ERROR`, (context) =>
    expectPreferred(context, operation, path, 500, 'INTERNAL_ERROR'),
  );
}

function boundsChecks(operation: OperationName, path: string, short: string): void {
  for (const pageSize of ['1', '100']) {
    check(
      operation,
      `GET ${short}?pageSize=${pageSize} → 200 with up to ${pageSize} clients (the bounds are accepted)`,
      async (context) => {
        const query = { pageSize };

        const exchange = await context.get(path + queryString(query));

        context.expectList(exchange, query);
      },
    );
  }
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

// ---------------------------------------------------------------- Extended filters

const extended = PATHS.getClientsExtended;

for (const active of ['true', 'false']) {
  check(
    'getClientsExtended',
    `GET /Client/Extended?active=${active} → only ${active === 'true' ? 'Active' : 'Inactive'} clients`,
    async (context) => {
      const query = { active, pageSize: '100' };

      const exchange = await context.get(extended + queryString(query));

      context.expectList(exchange, query);
    },
  );
}
check('getClientsExtended', 'GET /Client/Extended?active=true plus active=false → every client, exactly once', async (context) => {
  const { total } = await context.sample();

  const active = await context.walk<ClientExtended>(extended, { active: 'true' });
  const inactive = await context.walk<ClientExtended>(extended, { active: 'false' });

  const probe = await context.get(`${extended}?active=true&pageSize=1`);
  context.expect(active.total + inactive.total === total, probe, `active ${active.total} + inactive ${inactive.total} ≠ all ${total}`);
  if (active.complete && inactive.complete) {
    const ids = new Set([...active.items, ...inactive.items].map((client) => client.IdClient));
    context.expect(ids.size === total, probe, 'some client is both active and inactive, or neither');
  }
});
check('getClientsExtended', "GET /Client/Extended?idStaff → only that staff member's clients, and all of them", async (context) => {
  const { clients, staffIds } = await context.sample();
  const idStaff = staffIds[0];
  const probe = await context.get(`${extended}?pageSize=1`);
  context.expect(idStaff !== undefined, probe, 'no listed client has a staff member: cannot check idStaff');

  const found = await context.walk<ClientExtended>(extended, { idStaff });

  const ids = new Set(found.items.map((client) => client.IdClient));
  for (const client of clients.filter((c) => c.IdStaff === idStaff)) {
    context.expect(ids.has(client.IdClient), probe, `idStaff=${idStaff} misses client ${client.IdClient}`);
  }
});
check('getClientsExtended', "GET /Client/Extended?idLocation → only that location's clients, and all of them", async (context) => {
  const { clients, locationIds } = await context.sample();
  const idLocation = locationIds[0];
  const probe = await context.get(`${extended}?pageSize=1`);
  context.expect(idLocation !== undefined, probe, 'no listed client has a location: cannot check idLocation');

  const found = await context.walk<ClientExtended>(extended, { idLocation });

  const ids = new Set(found.items.map((client) => client.IdClient));
  for (const client of clients.filter((c) => c.IdLocation === idLocation)) {
    context.expect(ids.has(client.IdClient), probe, `idLocation=${idLocation} misses client ${client.IdClient}`);
  }
});
check(
  'getClientsExtended',
  "GET /Client/Extended?idStaff&active=true → exactly that staff member's active clients (AND)",
  async (context) => {
    const { staffIds } = await context.sample();
    const idStaff = staffIds[staffIds.length - 1];
    if (idStaff === undefined) throw new ContractViolation('no listed client has a staff member: cannot check idStaff with active');
    const all = await context.walk<ClientExtended>(extended, { idStaff });

    const both = await context.walk<ClientExtended>(extended, { idStaff, active: 'true' });

    const expected = all.items.filter((client) => client.Status === 'Active').map((client) => client.IdClient);
    const probe = await context.get(`${extended}${queryString({ idStaff, active: 'true', pageSize: '1' })}`);
    if (all.complete)
      context.expect(
        JSON.stringify(both.items.map((c) => c.IdClient)) === JSON.stringify(expected),
        probe,
        'the AND of idStaff and active is not the intersection',
      );
  },
);
check(
  'getClientsExtended',
  'GET /Client/Extended?idLocation&active=false&filter → every filter holds for every client (AND)',
  async (context) => {
    const { clients } = await context.sample();
    const client = clients.find((c) => c.IdLocation !== null && c.Status === 'Inactive') ?? clients.find((c) => c.IdLocation !== null);
    if (!client) throw new ContractViolation('no listed client has a location: cannot check idLocation with other filters');
    const query = {
      idLocation: client.IdLocation!,
      active: client.Status === 'Active' ? 'true' : 'false',
      filter: searchTerm(client),
      pageSize: '100',
    };

    const exchange = await context.get(extended + queryString(query));

    context.expectList(exchange, query);
    const ids = (exchange.json as PageBody<ClientExtended>).Results.map((c) => c.IdClient);
    context.expect(ids.includes(client.IdClient), exchange, `client ${client.IdClient} meets every filter but is missing`);
  },
);

/** Three to five letters from the middle of a client's last name, accents and case as listed. */
function searchTerm(client: ClientExtended): string {
  const lastName = client.PersonalInfo.LastName;
  const letters = [...lastName].filter((c) => /\p{L}/u.test(c));
  const start = Math.min(1, Math.max(0, letters.length - 3));
  return letters.slice(start, start + 5).join('') || lastName;
}

check(
  'getClientsExtended',
  'GET /Client/Extended?filter → only matching clients, including the one the term came from',
  async (context) => {
    const { clients } = await context.sample();
    const client = clients[Math.floor(clients.length / 2)]!;
    const query = { filter: searchTerm(client), pageSize: '100' };

    const exchange = await context.get(extended + queryString(query));

    context.expectList(exchange, query);
    const found = await context.walk<ClientExtended>(extended, { filter: query.filter });
    context.expect(
      found.items.some((c) => c.IdClient === client.IdClient),
      exchange,
      `filter=${query.filter} misses ${client.FullName}`,
    );
  },
);
check('getClientsExtended', 'GET /Client/Extended?filter → case- and accent-insensitive (upper case, accents folded)', async (context) => {
  const { clients } = await context.sample();
  const client = clients.find((c) => fold(c.FullName) !== c.FullName.toLowerCase()) ?? clients[0]!;
  const term = fold(client.PersonalInfo.LastName).toUpperCase();

  const found = await context.walk<ClientExtended>(extended, { filter: term });

  const probe = await context.get(extended + queryString({ filter: term, pageSize: '100' }));
  context.expectList(probe, { filter: term, pageSize: '100' });
  context.expect(
    found.items.some((c) => c.IdClient === client.IdClient),
    probe,
    `filter=${term} misses ${client.FullName}`,
  );
});
check(
  'getClientsExtended',
  'GET /Client/Extended?filter=<phone digits> → matches the phone ignoring spaces and dashes',
  async (context) => {
    const { clients } = await context.sample();
    const client = clients[clients.length - 1]!;
    const digits = client.Phone.replace(/\D/g, '').slice(-7);
    const query = { filter: digits, pageSize: '100' };

    const exchange = await context.get(extended + queryString(query));

    context.expectList(exchange, query);
    const found = await context.walk<ClientExtended>(extended, { filter: digits });
    context.expect(
      found.items.some((c) => c.IdClient === client.IdClient),
      exchange,
      `filter=${digits} misses ${client.Phone}`,
    );
  },
);
check('getClientsExtended', 'GET /Client/Extended?filter=<no such text> → 200 with no Results and X-Total-Count 0', async (context) => {
  const query = { filter: 'qqxzj-no-client-has-this-9f3a' };

  const exchange = await context.get(extended + queryString(query));

  context.expectList(exchange, query);
  context.expect(totalCount(exchange) === 0, exchange, 'X-Total-Count is not 0');
});
check('getClientsExtended', 'GET /Client/Extended?filter= (empty or blank) → no filter at all', async (context) => {
  const plain = await context.get(extended);

  for (const filter of ['', '   ']) {
    const exchange = await context.get(extended + queryString({ filter }));
    context.expectList(exchange, { filter });
    context.expect(totalCount(exchange) === totalCount(plain), exchange, `filter=${JSON.stringify(filter)} changed X-Total-Count`);
  }
});
check('getClientsExtended', 'GET /Client/Extended?filter with reserved characters and unicode → 200, plain text', async (context) => {
  for (const filter of ["O'Brien", 'a/b', '(x),y', '@example', 'Åsa Ölund', '李', '😀', 'x;y', '100%']) {
    const exchange = await context.get(extended + queryString({ filter }));
    context.expectList(exchange, { filter });
  }
});
check(
  'getClientsExtended',
  'GET /Client/Extended?filter=<200 emoji>&page=2&pageSize=1 → 200 with a Link header within its documented maxLength',
  async (context) => {
    // 200 code points is a valid filter; percent-encoded, each emoji takes 12 characters in each of the four links.
    const query = { filter: '😀'.repeat(200), page: '2', pageSize: '1' };

    const exchange = await context.get(extended + queryString(query));

    context.expectList(exchange, query);
  },
);
check('getClientsExtended', 'GET /Client/Extended?idStaff=<unknown uuid> → 200 with no Results', async (context) => {
  const query = { idStaff: UNKNOWN_ID, idLocation: undefined };

  const exchange = await context.get(extended + queryString(query));

  context.expectList(exchange, { idStaff: UNKNOWN_ID });
  context.expect(totalCount(exchange) === 0, exchange, 'an unknown staff id matched clients');
});
for (const [parameter, value, why] of [
  ['active', 'yes', 'not a boolean'],
  ['active', '1', 'not true or false'],
  ['active', '', 'empty'],
  ['idStaff', 'not-a-uuid', 'not a uuid'],
  ['idStaff', `${UNKNOWN_ID}0`, 'too long for a uuid'],
  ['idLocation', '12345', 'not a uuid'],
  ['filter', 'x'.repeat(201), 'longer than 200 characters'],
] as const) {
  check(
    'getClientsExtended',
    `GET /Client/Extended?${parameter}=${value.length > 40 ? `<${value.length} chars>` : value} → 400 VALIDATION_ERROR naming ${parameter} (${why})`,
    async (context) => {
      const exchange = await context.get(`${extended}?${parameter}=${encodeURIComponent(value)}`);

      const body = context.expectError(exchange, 400, 'VALIDATION_ERROR');
      context.expect(body.Message.includes(parameter), exchange, `the Message does not name ${parameter}`);
    },
  );
}
check('getClientsExtended', "GET /Client/Simple?active=true → 400: Extended's filters are unknown to Simple", async (context) => {
  const exchange = await context.get(`${PATHS.getClientsSimple}?active=true`);

  context.expectError(exchange, 400, 'VALIDATION_ERROR');
});

// ---------------------------------------------------------------- Detail

const detail = (id: string) => `${PATHS.getClientDetail}/${id}`;

check('getClientDetail', 'GET /Client/Detail/{idClient} → 200, agreeing with Extended and Simple for the same client', async (context) => {
  const { clients } = await context.sample();
  const picks = new Set([clients[0]!, clients[Math.floor(clients.length / 2)]!, clients[clients.length - 1]!]);
  for (const kind of ['IdStaff', 'IdLocation'] as const) {
    const withNull = clients.find((c) => c[kind] === null);
    if (withNull) picks.add(withNull);
  }
  for (const listed of picks) {
    const exchange = await context.get(detail(listed.IdClient));

    context.expectStatus(exchange, 200);
    const client = exchange.json as ClientDetail;
    const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
    const expect = (ok: boolean, what: string) =>
      context.expect(ok, exchange, `Detail disagrees with Extended on ${what} for ${listed.IdClient}`);
    expect(client.IdClient === listed.IdClient, 'IdClient');
    expect(same(client.PersonalInfo, listed.PersonalInfo), 'PersonalInfo');
    expect(same(client.ContactInfo, listed.ContactInfo), 'ContactInfo');
    expect(client.Status === listed.Status, 'Status');
    expect((client.Staff?.IdStaff ?? null) === listed.IdStaff && (client.Staff?.FullName ?? null) === listed.StaffName, 'Staff');
    expect(
      (client.Location?.IdLocation ?? null) === listed.IdLocation && (client.Location?.Name ?? null) === listed.LocationName,
      'Location',
    );
    expect(client.PersonalInfo.FullName === listed.FullName && client.PersonalInfo.PersonalId === listed.PersonalId, 'FullName/PersonalId');
    expect(client.ContactInfo.Email === listed.Email && client.ContactInfo.Phone === listed.Phone, 'Email/Phone');
  }
});
check('getClientDetail', 'GET /Client/Detail/{idClient} → the id in upper case finds the same client', async (context) => {
  const { clients } = await context.sample();
  const id = clients[0]!.IdClient;

  const exchange = await context.get(detail(id.toUpperCase()));

  context.expectStatus(exchange, 200);
  context.expect((exchange.json as ClientDetail).IdClient === id, exchange, 'another client came back');
});
check('getClientDetail', 'GET /Client/Detail/{idClient} → 404 CLIENT_NOT_FOUND naming the id when no client has it', async (context) => {
  const { clients, total } = await context.sample();
  const probe = await context.get(`${extended}?pageSize=1`);
  context.expect(
    !(clients.length === total && clients.some((c) => c.IdClient === UNKNOWN_ID)),
    probe,
    `the deployment has a client ${UNKNOWN_ID}`,
  );

  const exchange = await context.get(detail(UNKNOWN_ID));

  const body = context.expectError(exchange, 404, 'CLIENT_NOT_FOUND');
  context.expect(body.Message.includes(UNKNOWN_ID), exchange, 'the Message does not name the id');
});
for (const [value, why] of [
  ['not-a-uuid', 'not a uuid'],
  ['12345', 'a number'],
  [`${UNKNOWN_ID}0`, 'one character too long'],
  [UNKNOWN_ID.replace('c', 'g'), 'not hexadecimal'],
  ['%C3%A5sa', 'unicode'],
] as const) {
  check(
    'getClientDetail',
    `GET /Client/Detail/${value.length > 20 ? '<' + why + '>' : value} → 400 VALIDATION_ERROR (${why}), not 404`,
    async (context) => {
      const exchange = await context.get(detail(value));

      context.expectError(exchange, 400, 'VALIDATION_ERROR');
    },
  );
}
check('getClientDetail', 'GET /Client/Detail/{idClient}?x=1 → 400 VALIDATION_ERROR for an unknown query parameter', async (context) => {
  const exchange = await context.get(`${detail(UNKNOWN_ID)}?x=1`);

  context.expectError(exchange, 400, 'VALIDATION_ERROR');
});
for (const key of ['none', 'wrong'] as const) {
  check(
    'getClientDetail',
    `GET /Client/Detail/{idClient} → 401 UNAUTHORIZED with ${key === 'none' ? 'no X-Api-Key' : 'an unknown X-Api-Key'}, for a known id`,
    async (context) => {
      const { clients } = await context.sample();

      const exchange = await context.get(detail(clients[0]!.IdClient), key);

      context.expectError(exchange, 401, 'UNAUTHORIZED');
    },
  );
}
methodChecks('getClientDetail', detail(UNKNOWN_ID));
check('getClientDetail', 'GET /Client/Detail/{idClient} with Prefer: code=404 → 404 CLIENT_NOT_FOUND for a known id', async (context) => {
  const { clients } = await context.sample();
  await expectPreferred(context, 'getClientDetail', detail(clients[0]!.IdClient), 404, 'CLIENT_NOT_FOUND');
});
check('getClientDetail', 'GET /Client/Detail/{idClient} with Prefer: code=500 → 500 INTERNAL_ERROR', async (context) => {
  const { clients } = await context.sample();
  await expectPreferred(context, 'getClientDetail', detail(clients[0]!.IdClient), 500, 'INTERNAL_ERROR');
});

// ---------------------------------------------------------------- routing

for (const path of [
  '/api/v1/client/simple',
  '/api/v1/Client/Simple/',
  '/api/v1/Client/Detail',
  '/api/v2/Diagnostics/Ping',
  '/api/v1/Nothing',
]) {
  check('routing', `GET ${path} → 404 NOT_FOUND (paths are exact and case-sensitive)`, async (context) => {
    const exchange = await context.get(path);

    context.expectError(exchange, 404, 'NOT_FOUND');
  });
}

// ---------------------------------------------------------------- coverage (runs last)

check('coverage', 'every documented status of every operation was reached by the checks above', async (context) => {
  const missing: string[] = [];
  for (const operation of context.contract.operations) {
    const seen = context.seen.get(operation.operationId) ?? new Set<number>();
    for (const status of operation.statuses.map(Number)) {
      // A real deployment may ignore Prefer; then its 500 cannot be reached on purpose.
      if (status === 500 && context.preferIgnored.has(operation.operationId)) continue;
      if (!seen.has(status)) missing.push(`${operation.operationId} ${status}`);
    }
  }
  if (missing.length > 0) throw new ContractViolation(`documented statuses never reached: ${missing.join(', ')}`);
});

/** Every check, in run order (coverage last). */
export const CONTRACT_CHECKS: readonly ContractCheck[] = checks;

export interface CheckResult {
  check: ContractCheck;
  error?: Error;
}

/**
 * Runs the checks against a target, in order, collecting failures instead of
 * stopping at the first.
 */
export async function runChecks(
  target: Target,
  only: (check: ContractCheck) => boolean = () => true,
): Promise<{ results: CheckResult[]; context: CheckContext }> {
  const context = new CheckContext(target);
  const results: CheckResult[] = [];
  for (const item of CONTRACT_CHECKS) {
    if (!only(item)) continue;
    try {
      await item.run(context);
      results.push({ check: item });
    } catch (error) {
      results.push({ check: item, error: error instanceof Error ? error : new Error(String(error)) });
    }
  }
  return { results, context };
}
