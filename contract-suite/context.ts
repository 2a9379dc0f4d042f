// What every contract check works with: the target, the spec, the statuses
// seen so far, what the deployment's own lists hold (discovered, never assumed)
// and the helpers that turn a broken rule into a ContractViolation naming the
// exchange and a curl line that reproduces it.
import type { OperationId } from '../contract/operations';
import type { ClientExtended, ErrorCode, ErrorDto } from '../contract/wire-types';
import { describeExchange, operationPathname, send, toCurl, type ApiRequest, type Exchange, type KeyRole } from './http';
import { listViolations, MAX_PAGE_SIZE, queryString, totalCount, type ListQuery, type PageBody } from './semantics';
import { specContract, type SpecContract } from './spec-contract';
import type { Target } from './target';

/** What a check is about: an operation of openapi.yaml, or a rule that spans them. */
export type OperationName = OperationId | 'routing' | 'cross-cutting' | 'coverage';

/** Each operation's path as openapi.yaml writes it, a trailing `/{param}` left off (`/api/v1/Client/Detail`). */
export function operationPaths(contract: SpecContract = specContract()): Readonly<Record<OperationId, string>> {
  return Object.fromEntries(
    contract.operations.map((operation) => [operation.operationId, operation.template.replace(/\/\{\w+\}$/, '')]),
  ) as Record<OperationId, string>;
}

/** The Message openapi.yaml fixes for `Diagnostics/Exception` (its `testException` example, which the description makes exact). */
export function testExceptionMessage(contract: SpecContract = specContract()): string {
  const example = contract.resolve(
    `${contract.operation('exception').pointer}/responses/500/content/application~1json/examples/testException/value`,
  );
  return String(example.node.Message);
}
/** A well-formed uuid (v4 layout) that the checks assume no deployment has: the checks verify that it is not in the lists. */
export const UNKNOWN_ID = 'c0ffee00-dead-4bad-8bad-0123456789ab';
/** The full walk's bound: 50 pages of 100 (5,000 clients) in full; above that the first and the last 25 pages. */
export const FULL_WALK_PAGES = 50;

export interface WalkedPage {
  page: number;
  exchange: Exchange;
  items: ClientExtended[];
}

export interface FullWalk {
  total: number;
  /** In page order; when not complete, a gap lies between the first and the last half. */
  pages: WalkedPage[];
  complete: boolean;
}

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
  readonly paths = operationPaths(this.contract);
  /** Statuses seen per operation (for the coverage check). */
  readonly seen = new Map<string, Set<number>>();
  /** Operations whose `Prefer: code=NNN` the deployment ignored (a real backend may). */
  readonly preferIgnored = new Set<string>();
  requestCount = 0;
  private samplePromise: Promise<Sample> | undefined;
  private readonly fullWalks = new Map<string, Promise<FullWalk>>();

  constructor(
    readonly target: Target,
    /** The Origin the CORS checks send. */
    readonly origin = 'https://contract-suite.example',
  ) {}

  /** Sends the request, counting it and noting its status per operation; holds it to nothing. */
  async send(request: ApiRequest): Promise<Exchange> {
    const exchange = await send(this.target, request);
    this.requestCount += 1;
    const found = this.contract.findOperation(operationPathname(exchange));
    const operation = found?.operation.operationId ?? 'routing';
    if (!this.seen.has(operation)) this.seen.set(operation, new Set());
    this.seen.get(operation)!.add(exchange.status);
    return exchange;
  }

  /** Sends the request and fails unless the exchange conforms to openapi.yaml. */
  async call(request: ApiRequest): Promise<Exchange> {
    const exchange = await this.send(request);
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

  /**
   * The unfiltered list at pageSize 100, every page up to FULL_WALK_PAGES
   * pages; beyond that the first and the last FULL_WALK_PAGES / 2 pages, so a
   * run against a million clients still sends a bounded number of requests.
   */
  fullWalk(path: string): Promise<FullWalk> {
    let walk = this.fullWalks.get(path);
    if (!walk) {
      walk = this.walkPages(path);
      this.fullWalks.set(path, walk);
    }
    return walk;
  }

  private async walkPages(path: string): Promise<FullWalk> {
    const pages: WalkedPage[] = [];
    const fetchPage = async (page: number) => {
      const query = { page: String(page), pageSize: String(MAX_PAGE_SIZE) };
      const exchange = await this.get(path + queryString(query));
      this.expectList(exchange, query);
      pages.push({ page, exchange, items: (exchange.json as PageBody<ClientExtended>).Results });
      return totalCount(exchange)!;
    };
    const total = await fetchPage(1);
    const last = Math.max(1, Math.ceil(total / MAX_PAGE_SIZE));
    const complete = last <= FULL_WALK_PAGES;
    const wanted = complete
      ? Array.from({ length: last - 1 }, (_, i) => i + 2)
      : [
          ...Array.from({ length: FULL_WALK_PAGES / 2 - 1 }, (_, i) => i + 2),
          ...Array.from({ length: FULL_WALK_PAGES / 2 }, (_, i) => last - FULL_WALK_PAGES / 2 + 1 + i),
        ];
    for (const page of wanted) await fetchPage(page);
    return { total, pages, complete };
  }

  sample(): Promise<Sample> {
    this.samplePromise ??= this.discover();
    return this.samplePromise;
  }

  private async discover(): Promise<Sample> {
    const firstQuery = { pageSize: String(MAX_PAGE_SIZE) };
    const first = await this.get(this.paths.getClientsExtended + queryString(firstQuery));
    this.expectList(first, firstQuery);
    const total = totalCount(first)!;
    const clients = [...(first.json as PageBody<ClientExtended>).Results];
    const lastPage = Math.ceil(total / MAX_PAGE_SIZE);
    if (lastPage > 1) {
      const lastQuery = { page: String(lastPage), pageSize: String(MAX_PAGE_SIZE) };
      const last = await this.get(this.paths.getClientsExtended + queryString(lastQuery));
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
  /** The operation (method and path) and the spec rule the check enforces. */
  name: string;
  run(context: CheckContext): Promise<void>;
}

/** Adds one check to the list being built (see checks.ts: the groups are called explicitly, in order). */
export type Define = (operation: OperationName, name: string, run: (context: CheckContext) => Promise<void>) => void;

/** A `Prefer: code=NNN` answer: that status with that Code, or, from a deployment that ignores mock controls, the plain answer. */
export async function expectPreferred(
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
