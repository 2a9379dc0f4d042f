// What every contract check works with: the target, the contract in use (the
// bundled openapi.yaml or --spec FILE), the statuses seen so far, what the
// deployment's own lists hold (discovered, never assumed), the judge that
// holds every exchange to the document (contract/judge/, the same rules the proxy
// applies), and the helpers that turn a broken rule into a ContractViolation
// naming the exchange and a curl line that reproduces it, or a check whose
// precondition the data does not meet into a CheckSkipped with its reason.
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { OperationId } from '../../contract/operations';
import { Journal } from './journal';
import type { ClientExtended, ErrorCode, ErrorDto } from '../../contract/wire-types';
import { describeExchange, requestLines, requestPath, send, toCurl } from './http';
import { operationPathname, type ApiRequest, type Exchange, type KeyRole } from '../../contract/exchange';
import {
  ExchangeMemory,
  judgeRequest,
  judgeResponse,
  type JudgedRequestInput,
  type RequestJudgement,
  type Violation,
  type RuleId,
} from '../../contract/judge';
import { listViolations, queryString, totalCount, type ListQuery, type PageBody } from './semantics';
import { specContract, type SpecContract } from '../../contract/spec-contract';
import { DEFAULT_SEED, seededSample } from './sampling';
import type { Target } from './target';

/** What a check is about: an operation of openapi.yaml, a rule that spans them, or the mock's control API (--control). */
export type OperationName = OperationId | 'routing' | 'cross-cutting' | 'coverage' | 'control';

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
/**
 * The full walk's bound: 50 pages of 100 (5,000 clients) in full; above that the first 25 pages, the last, and
 * 24 others drawn with the run's seed.
 */
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

/** The violations one failure prints (all of them stay on the ContractViolation for the causes). */
const MAX_LINES_PER_FAILURE = 8;
/** Bounds on discovery, so a huge deployment is sampled, not crawled. */
const MAX_PAGES_PER_WALK = 20;
/** The Origin the CORS checks send unless --origin names another. */
export const DEFAULT_ORIGIN = 'https://contract-suite.example';

/**
 * How a check ended: pass; fail (the deployment broke the contract); skip (its
 * precondition is not in the deployment's data, with the reason); error (the
 * check threw something else: a bug of the suite, never blamed on the
 * deployment); unreachable (the target stopped answering connections).
 */
export type Outcome = 'pass' | 'fail' | 'skip' | 'error' | 'unreachable';

/** The deployment broke the contract: the message, and the judge's violations when they are why. */
export class ContractViolation extends Error {
  /** The judge's violations (side response) behind this failure; [] for a check's own assertion (then `rule` may name it). */
  violations: Violation[] = [];
  /** The exchange that showed it, when there is one. */
  exchange?: Exchange;
  /** A check's own rule id (e.g. `check.order`), when the check named one. */
  rule?: RuleId;
  /** Where the rule broke (a header, a field), so the failure groups with the judge's causes of the same place. */
  place?: string;
  /** The request as a curl line. */
  curl?: string;

  constructor(message: string) {
    super(message);
    this.name = 'ContractViolation';
  }
}

/** A check whose precondition the deployment's data does not meet: not run (or not to the end), with the reason. Never a failure. */
export class CheckSkipped extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'CheckSkipped';
  }
}

/**
 * What one check evaluated while it ran: the rules applied by the judge to the
 * exchanges it had judged, the rules its own assertions named, and how many of
 * its own assertions named none.
 */
export interface Evaluated {
  rules: Set<string>;
  unnamed: number;
}

/**
 * The ledger of the check running in this async flow: checks run at once on one
 * context (tests do) each note into their own, whatever they await.
 */
const ledgers = new AsyncLocalStorage<Evaluated>();

/** Runs `run` (one check), noting what it evaluates; rejects with what it throws. */
export async function noting(run: () => Promise<void>): Promise<Evaluated> {
  const ledger: Evaluated = { rules: new Set(), unnamed: 0 };
  await ledgers.run(ledger, run);
  return ledger;
}

/**
 * The run's applied rules (the sentence table's coverage), which also tells the
 * check running in this async flow which rules were applied during it. A Set, so
 * the judge takes it as its `applied` option wherever a check or the property
 * run hands it over.
 */
class AppliedRules extends Set<string> {
  override add(rule: string): this {
    ledgers.getStore()?.rules.add(rule);
    return super.add(rule);
  }
}

export interface CheckContextOptions {
  /** The contract the run judges against (default: the bundled openapi.yaml). */
  contract?: SpecContract;
  /** What the judge remembers across exchanges (default: a fresh bounded memory). */
  memory?: ExchangeMemory;
  /** The run's seed, for the samples drawn above a check's bound (default DEFAULT_SEED). */
  seed?: number;
  /** --strict-http: the judge holds answers to RFC rules stricter than the document too (JudgeOptions). */
  strictHttp?: boolean;
}

/** Field lines as a header bag the judge reads (names in lower case, a repeated field as its lines). */
function headerBagOf(lines: readonly (readonly [string, string])[]): Record<string, string[]> {
  const bag: Record<string, string[]> = {};
  for (const [name, value] of lines) (bag[name.toLowerCase()] ??= []).push(value);
  return bag;
}

/** The judge's input for a request the suite sent: the headers as sent, and whether the key is one the deployment accepts. */
export function judgedInput(target: Target, request: ApiRequest, url?: string): JudgedRequestInput {
  return {
    method: request.method,
    // As sent: a key placed in the query (derived/security.ts) is part of the query the judge reads.
    path: requestPath(target, request),
    headers: headerBagOf(requestLines(target, request)),
    url,
    keyAccepted: request.key === 'valid' ? true : request.key === 'none' ? undefined : false,
  };
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
  readonly contract: SpecContract;
  readonly paths: Readonly<Record<OperationId, string>>;
  /** Statuses seen per operation (for the coverage check). */
  readonly seen = new Map<string, Set<number>>();
  /** Operations whose `Prefer: code=NNN` the deployment ignored (a real backend may). */
  readonly preferIgnored = new Set<string>();
  /** What the judge remembers across this run's exchanges (list rows, so a Detail is held to them). */
  readonly memory: ExchangeMemory;
  /** Ids of the judge's rules applied to at least one exchange of this run (the sentence table's coverage). */
  readonly applied: Set<string> = new AppliedRules();
  /** The checks skipped so far, with their reasons (the coverage check reads them). */
  readonly skipped: { name: string; reason: string }[] = [];
  /** The names of the checks that failed so far (the coverage check reads them: a status they would have reached is their consequence). */
  readonly failed: string[] = [];
  /** The run's seed: what the samples above a check's bound are drawn with (sampling.ts). */
  readonly seed: number;
  /** The Origin the CORS checks send. */
  readonly origin: string;
  /** --strict-http: RFC rules stricter than the document bind answers too. */
  readonly strictHttp: boolean;
  /** True when the user named the Origin (--origin): a missing Access-Control-Allow-Origin is then a failure, else a skip. */
  readonly originGiven: boolean;
  requestCount = 0;
  /** This run's own token (random), for requests that must be new to the deployment, this run's or any earlier run's. */
  readonly runId = randomUUID().slice(0, 8);
  /** The run's requests and their first answers (what the history room replays). */
  readonly journal = new Journal();
  private samplePromise: Promise<Sample> | undefined;
  private readonly fullWalks = new Map<string, Promise<FullWalk>>();

  constructor(
    readonly target: Target,
    origin?: string,
    options: CheckContextOptions = {},
  ) {
    this.contract = options.contract ?? specContract();
    this.paths = operationPaths(this.contract);
    this.memory = options.memory ?? new ExchangeMemory();
    this.seed = options.seed ?? DEFAULT_SEED;
    this.origin = origin ?? DEFAULT_ORIGIN;
    this.strictHttp = options.strictHttp ?? false;
    this.originGiven = origin !== undefined;
  }

  /** The largest pageSize the document allows for the lists (the walks use it). */
  get maxPageSize(): number {
    const parameter = this.contract.operation('getClientsExtended').parameters.find((p) => p.name === 'pageSize');
    return typeof parameter?.schema.maximum === 'number' ? parameter.schema.maximum : 100;
  }

  /** Notes one assertion of the running check (its rule, when it names one) as evaluated. */
  private asserted(rule: RuleId | undefined): void {
    const ledger = ledgers.getStore();
    if (ledger && rule === undefined) ledger.unnamed += 1;
    else ledger?.rules.add(rule!);
  }

  /** Ends the check as skipped: its precondition is not met by the deployment's data. Never a failure. */
  skip(reason: string): never {
    throw new CheckSkipped(reason);
  }

  /** The judge's view of a request this context sends. */
  judge(request: ApiRequest, url?: string): RequestJudgement {
    return judgeRequest(this.contract, judgedInput(this.target, request, url), { applied: this.applied, strictHttp: this.strictHttp });
  }

  /** Sends the request, counting it and noting its status per operation; holds it to nothing. */
  async send(request: ApiRequest): Promise<Exchange> {
    const exchange = await send(this.target, request);
    this.requestCount += 1;
    this.journal.record(exchange);
    const found = this.contract.findOperation(operationPathname(exchange));
    const operation = found?.operation.operationId ?? 'routing';
    if (!this.seen.has(operation)) this.seen.set(operation, new Set());
    this.seen.get(operation)!.add(exchange.status);
    return exchange;
  }

  /**
   * Sends the request and fails unless the answer is what openapi.yaml allows
   * for it (contract/judge/: the status for this request, the schema, the declared
   * headers, the error table, RFC 8259, the list, record and Detail rules).
   * What the request itself breaks is not a failure: checks send bad requests on purpose.
   */
  async call(request: ApiRequest): Promise<Exchange> {
    const exchange = await this.send(request);
    const judged = this.judge(request, exchange.url);
    const violations = judgeResponse(this.contract, judged, exchange, this.memory, { applied: this.applied });
    if (violations.length > 0) this.failWith(exchange, violations);
    return exchange;
  }

  /** Fails with the judge's violations of an exchange: one line each, then the exchange and its curl. */
  failWith(exchange: Exchange, violations: Violation[]): never {
    const lines = violations.map((v) => `${v.rule} (${v.operation} ${exchange.status}): expected ${v.expected}; got ${v.actual}`);
    // A fault in every record of a page breaks a rule 100 times: the first lines show it (the causes hold them all), so a
    // run with many failed checks stays a log a CI keeps (1 MB with every line, one run against one mutant).
    const shown =
      lines.length > MAX_LINES_PER_FAILURE
        ? [...lines.slice(0, MAX_LINES_PER_FAILURE), `… and ${lines.length - MAX_LINES_PER_FAILURE} more`]
        : lines;
    const error = this.violation(exchange, `the response breaks openapi.yaml:\n    ${shown.join('\n    ')}`);
    error.violations = violations;
    throw error;
  }

  private violation(exchange: Exchange, message: string, rule?: RuleId, place?: string): ContractViolation {
    const curl = toCurl(this.target, exchange.request);
    const error = new ContractViolation(`${message}\n  ${describeExchange(exchange)}\n  reproduce: ${curl}`);
    error.exchange = exchange;
    error.curl = curl;
    error.rule = rule;
    error.place = place;
    return error;
  }

  get(path: string, key: KeyRole = 'valid', headers?: Record<string, string>): Promise<Exchange> {
    return this.call({ method: 'GET', path, key, headers });
  }

  /**
   * Fails the check: `rule` names the rule it broke (a check's own, e.g. `check.order`, or the judge's) and `place`
   * where (a header name, a field), so failures of one fault group under one cause, the judge's included.
   */
  fail(exchange: Exchange, message: string, rule?: RuleId, place?: string): never {
    this.asserted(rule);
    throw this.violation(exchange, message, rule, place);
  }

  /**
   * The check found its rule held by an answer it takes as it is, with nothing left to compare (a refusal by
   * closing the connection): an assertion that came out true, so the check did assert something.
   */
  held(rule: RuleId): void {
    this.asserted(rule);
  }

  /** An assertion of the check's own over what the whole run has seen, with no one exchange to show (the coverage check). */
  expectOfRun(condition: boolean, message: string, rule: RuleId): void {
    this.asserted(rule);
    if (condition) return;
    const error = new ContractViolation(message);
    error.rule = rule;
    throw error;
  }

  /** An assertion of the check's own: evaluated (so the check asserted something) whichever way it comes out; `place` as for fail. */
  expect(condition: boolean, exchange: Exchange, message: string, rule?: RuleId, place?: string): void {
    this.asserted(rule);
    if (!condition) throw this.violation(exchange, message, rule, place);
  }

  /** The status; `rule` names the check's own rule when the status is what it asserts (default response.status). */
  expectStatus(exchange: Exchange, status: number, rule: RuleId = 'response.status'): void {
    this.expect(exchange.status === status, exchange, `expected status ${status}, got ${exchange.status}`, rule);
  }

  /**
   * The status and the ErrorDto Code (the body's shape is already checked against the spec); `rule` names the
   * check's own rule when that answer is what it asserts (default response.status and error.code).
   */
  expectError(exchange: Exchange, status: number, code: ErrorCode, rule?: RuleId): ErrorDto {
    this.expectStatus(exchange, status, rule);
    const body = exchange.json as ErrorDto;
    this.expect(body?.Code === code, exchange, `expected Code ${code}, got ${String(body?.Code)}`, rule ?? 'error.code');
    return body;
  }

  /** A 200 that keeps the list rules for the request it answers (the judge's list, filter and record rules). */
  expectList(exchange: Exchange, query: ListQuery): void {
    this.expectStatus(exchange, 200);
    const problems = listViolations(exchange, query, this.contract, this.applied);
    if (problems.length > 0) this.fail(exchange, `the list breaks the paging or filter rules:\n    ${problems.join('\n    ')}`);
  }

  /**
   * Every page of a list, at most MAX_PAGES_PER_WALK pages (or `pages`, when a check needs only the list's start),
   * at the largest pageSize unless given: a smaller one makes a short list's later matches fall on other pages.
   */
  async walk<T>(
    path: string,
    query: ListQuery = {},
    pageSize = this.maxPageSize,
    pages = MAX_PAGES_PER_WALK,
  ): Promise<{ items: T[]; total: number; complete: boolean }> {
    const items: T[] = [];
    let total = 0;
    for (let page = 1; page <= Math.min(pages, MAX_PAGES_PER_WALK); page += 1) {
      const pageQuery = { ...query, page: String(page), pageSize: String(pageSize) };
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
   * pages; beyond that the first FULL_WALK_PAGES / 2 pages, the last, and
   * others drawn with the run's seed (the same for every list of one length),
   * so a run against a million clients still sends a bounded number of
   * requests, and another seed reads other pages.
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
      const query = { page: String(page), pageSize: String(this.maxPageSize) };
      const exchange = await this.get(path + queryString(query));
      this.expectList(exchange, query);
      pages.push({ page, exchange, items: (exchange.json as PageBody<ClientExtended>).Results });
      return totalCount(exchange)!;
    };
    const total = await fetchPage(1);
    const last = Math.max(1, Math.ceil(total / this.maxPageSize));
    const complete = last <= FULL_WALK_PAGES;
    const start = complete ? last : FULL_WALK_PAGES / 2;
    const middle = Array.from({ length: complete ? 0 : last - start - 1 }, (_, i) => start + 1 + i);
    const wanted = [
      ...Array.from({ length: start - 1 }, (_, i) => i + 2),
      ...(complete ? [] : [...seededSample(middle, FULL_WALK_PAGES - start - 1, this.seed), last]),
    ];
    for (const page of wanted) await fetchPage(page);
    return { total, pages, complete };
  }

  sample(): Promise<Sample> {
    this.samplePromise ??= this.discover();
    return this.samplePromise;
  }

  /**
   * The first and the last page of Extended. An empty deployment gives an
   * empty sample, never a failure: checks that need a client skip.
   */
  private async discover(): Promise<Sample> {
    const firstQuery = { pageSize: String(this.maxPageSize) };
    const first = await this.get(this.paths.getClientsExtended + queryString(firstQuery));
    this.expectList(first, firstQuery);
    const total = totalCount(first)!;
    const clients = [...(first.json as PageBody<ClientExtended>).Results];
    const lastPage = Math.ceil(total / this.maxPageSize);
    if (lastPage > 1) {
      const lastQuery = { page: String(lastPage), pageSize: String(this.maxPageSize) };
      const last = await this.get(this.paths.getClientsExtended + queryString(lastQuery));
      this.expectList(last, lastQuery);
      clients.push(...(last.json as PageBody<ClientExtended>).Results);
    }
    const distinct = (values: (string | null)[]) => [...new Set(values.filter((value): value is string => value !== null))];
    return {
      total,
      clients,
      staffIds: distinct(clients.map((client) => client.IdStaff)),
      locationIds: distinct(clients.map((client) => client.IdLocation)),
    };
  }

  /** A listed client, or a skip naming what the check needed it for. */
  async someClient(why: string): Promise<ClientExtended> {
    const { clients } = await this.sample();
    return clients[0] ?? this.skip(`the deployment lists no clients: ${why}`);
  }
}

export interface ContractCheck {
  operation: OperationName;
  /** The operation (method and path) and the spec rule the check enforces. */
  name: string;
  /** Ids of the check's own rules (beyond the judge's, which every call applies): the sentence table maps sentences to them. */
  rules?: readonly RuleId[];
  run(context: CheckContext): Promise<void>;
}

/**
 * What decides which checks are defined at all, before any runs (cli.ts's
 * options): a check that would fail every correct deployment of a common
 * stack is asked only when the user says the deployment's front refuses it.
 */
export interface DefineOptions {
  /**
   * --strict-http: the framing checks also send the RFC 9112 MUST-400s Node's
   * own HTTP server takes (two Host lines, a Host that is no host,
   * `Transfer-Encoding: gzip`; derived/framing.ts), and a cut percent-encoding
   * where the document gives a text reading of it (derived/parameters.ts).
   */
  strictHttp?: boolean;
  /** The run's seed (--seed): what a check chooses at random it chooses with it (the history room's order). */
  seed?: number;
}

/** Adds one check to the list being built (see checks.ts: the groups are called explicitly, in order); `rules` names the check's own rules. */
export type Define = (
  operation: OperationName,
  name: string,
  run: (context: CheckContext) => Promise<void>,
  rules?: readonly RuleId[],
) => void;

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
    context.expectError(steered, status, code, 'check.prefer');
  } else {
    context.expect(
      steered.status === plain.status,
      steered,
      `Prefer: code=${status} gave ${steered.status}; expected ${status}, or ${plain.status} from a deployment that ignores Prefer`,
      'check.prefer',
    );
    context.preferIgnored.add(operation);
  }
}
