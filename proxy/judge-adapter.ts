// A stand-in for contract-suite/judge.ts (PLAN.md, "The seam"), with its exact
// signatures, until the suite-core branch lands it: then this file is deleted
// and proxy/ imports judge.ts instead. It writes no rule of its own where the
// suite has one: the exchange is held to openapi.yaml by SpecContract.check()
// (status, media type, headers, body schema), the lists by semantics.ts
// (listViolations, recordViolations, compareClients), the Exception message by
// the checks' own testExceptionMessage(). What it adds is the glue a passive
// driver needs: which statuses the spec allows for this very request (from
// the request's own validity), a rule id for each message, and a bounded
// memory of list rows so that a Detail is held to what the lists said.
import { isDeepStrictEqual } from 'node:util';
import type { ClientDetail, ClientExtended, ErrorDto } from '../contract/wire-types';
import { testExceptionMessage } from '../contract-suite/context';
import type { Exchange } from '../contract-suite/http';
import {
  compareClients,
  fold,
  listViolations,
  matchesFilter,
  recordViolations,
  totalCount,
  type ListQuery,
  type PageBody,
} from '../contract-suite/semantics';
import type { SpecContract, SpecOperation, SpecParameter } from '../contract-suite/spec-contract';

export type Side = 'request' | 'response';

export interface Violation {
  rule: string;
  sentences: string[];
  side: Side;
  operation: string;
  expected: string;
  actual: string;
  cause: string;
}

/** The request as the caller sent it: method, path and query exactly as on the wire, header names in lower case. */
export interface JudgedRequestInput {
  method: string;
  path: string;
  headers: Readonly<Record<string, string | undefined>>;
}

export interface RequestJudgement {
  operationId?: string;
  violations: Violation[];
  allowedStatuses: readonly number[];
}

const ROUTING = 'routing';
const UUIDISH = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** openapi.yaml, components/headers/X-Request-Id: echoed when 1 to 128 of letters, digits, `_ . : @ -`. */
const ECHOED_REQUEST_ID = /^[A-Za-z0-9_.:@-]{1,128}$/;
const SUCCESS = [200, 201, 202, 203, 204, 205, 206];

function violation(side: Side, operation: string, rule: string, expected: string, actual: string, detail = ''): Violation {
  return { rule, sentences: [], side, operation, expected, actual, cause: [side, operation, rule, detail].filter(Boolean).join(' ') };
}

function isPreflight(request: JudgedRequestInput): boolean {
  return (
    request.method === 'OPTIONS' && request.headers.origin !== undefined && request.headers['access-control-request-method'] !== undefined
  );
}

function splitTarget(target: string): { pathname: string; query: string | undefined } {
  const at = target.indexOf('?');
  const raw = at < 0 ? target : target.slice(0, at);
  let pathname = raw;
  try {
    pathname = new URL(raw, 'http://base.invalid').pathname;
  } catch {
    // Not a path a URL can hold: matched as it is, so it matches no operation.
  }
  return { pathname, query: at < 0 ? undefined : target.slice(at + 1) };
}

/** A query or path value as the schema's type: `12` → 12, `true` → true, text otherwise. */
function typedValue(text: string, schema: Record<string, unknown>): unknown {
  if (schema.type === 'integer' || schema.type === 'number') return /^-?\d+(\.\d+)?$/.test(text) ? Number(text) : text;
  if (schema.type === 'boolean') return text === 'true' ? true : text === 'false' ? false : text;
  return text;
}

function decodeQueryPart(part: string): string | undefined {
  try {
    return decodeURIComponent(part.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
}

function parameterPointer(contract: SpecContract, operation: SpecOperation, index: number): string {
  return `${contract.resolve(`${operation.pointer}/parameters/${index}`).pointer}/schema`;
}

function valueViolation(
  contract: SpecContract,
  operation: SpecOperation,
  parameter: SpecParameter,
  text: string,
  where: string,
): Violation | undefined {
  const index = operation.parameters.indexOf(parameter);
  const validate = contract.validator(parameterPointer(contract, operation, index));
  if (validate(typedValue(text, parameter.schema))) return undefined;
  const error = validate.errors?.[0];
  const shown = text.length > 80 ? `${text.slice(0, 80)}…` : text;
  return violation(
    'request',
    operation.operationId,
    'request.value',
    `${where} ${parameter.name} ${error?.message ?? 'as its schema says'}`,
    `${parameter.name}=${JSON.stringify(shown)}`,
    `${parameter.name} ${error?.keyword ?? ''}`,
  );
}

/** The request's violations (side `request`) and the statuses openapi.yaml allows as the answer to it. */
export function judgeRequest(contract: SpecContract, request: JudgedRequestInput): RequestJudgement {
  const { pathname, query } = splitTarget(request.path);
  const found = contract.findOperation(pathname);
  const preflight = isPreflight(request);
  if (!found) {
    return {
      violations: [violation('request', ROUTING, 'request.path', 'a path of openapi.yaml', pathname.slice(0, 200))],
      allowedStatuses: preflight ? [404, ...SUCCESS] : [404],
    };
  }
  const { operation, params } = found;
  const operationId = operation.operationId;
  if (preflight) return { operationId, violations: [], allowedStatuses: SUCCESS };
  if (request.method !== 'GET') {
    return {
      operationId,
      violations: [violation('request', operationId, 'request.method', 'GET', request.method)],
      allowedStatuses: [405],
    };
  }
  const violations: Violation[] = [];
  const seen = new Map<string, number>();
  for (const part of query === undefined || query === '' ? [] : query.split('&')) {
    const eq = part.indexOf('=');
    const name = decodeQueryPart(eq < 0 ? part : part.slice(0, eq));
    const value = eq < 0 ? '' : decodeQueryPart(part.slice(eq + 1));
    if (name === undefined || value === undefined) {
      violations.push(violation('request', operationId, 'request.value', 'percent-encoding as RFC 3986 writes it', part.slice(0, 80)));
      continue;
    }
    seen.set(name, (seen.get(name) ?? 0) + 1);
    const parameter = operation.parameters.find((p) => p.in === 'query' && p.name === name);
    if (!parameter) {
      violations.push(
        violation(
          'request',
          operationId,
          'request.unknown-parameter',
          `only ${
            operation.parameters
              .filter((p) => p.in === 'query')
              .map((p) => p.name)
              .join(', ') || 'no'
          } query parameters`,
          name.slice(0, 80),
          name.slice(0, 40),
        ),
      );
      continue;
    }
    if (seen.get(name) === 2)
      violations.push(violation('request', operationId, 'request.repeated', `${name} at most once`, `${name} given twice`, name));
    if (value === '' && (parameter.schema.type === 'string' ? false : true)) {
      violations.push(violation('request', operationId, 'request.value', `a value for ${name}`, `${name}= (empty)`, `${name} empty`));
      continue;
    }
    const bad = valueViolation(contract, operation, parameter, value, 'query parameter');
    if (bad) violations.push(bad);
  }
  for (const parameter of operation.parameters) {
    if (parameter.in === 'path') {
      let text = params[parameter.name] ?? '';
      try {
        text = decodeURIComponent(text);
      } catch {
        // Bad percent-encoding: judged as it came.
      }
      const bad = valueViolation(contract, operation, parameter, text, 'path parameter');
      if (bad) violations.push(bad);
    } else if (parameter.in === 'header') {
      const text = request.headers[parameter.name.toLowerCase()];
      const bad = text === undefined ? undefined : valueViolation(contract, operation, parameter, text, 'header');
      if (bad) violations.push(bad);
    }
  }
  const keyMissing = !operation.isPublic && request.headers['x-api-key'] === undefined;
  if (keyMissing) violations.push(violation('request', operationId, 'request.key-missing', 'X-Api-Key', 'no X-Api-Key header'));
  const auth = operation.isPublic ? [] : [401];
  const documented = operation.statuses.filter((s) => /^\d{3}$/.test(s)).map(Number);
  let allowed: number[];
  if (violations.length > 0) {
    // openapi.yaml leaves open whether the key or the parameters are checked first: both answers are allowed.
    allowed = keyMissing && violations.length === 1 ? [401] : [400, ...auth];
  } else if (request.headers.prefer !== undefined) {
    // Prefer steers the mock to any documented status (openapi.yaml, "Mock controls"); a real deployment ignores it.
    allowed = documented;
  } else {
    const successes = documented.filter((s) => s < 300);
    // An operation without a success (Exception) answers its documented 5xx; the others answer 5xx only when something broke.
    const failures = successes.length === 0 ? documented.filter((s) => s >= 500) : [];
    const notFound = documented.includes(404) ? [404] : [];
    allowed = [...successes, ...failures, ...notFound, ...auth];
  }
  return { operationId, violations, allowedStatuses: [...new Set(allowed)] };
}

/** One list row as remembered: what a Detail must agree with. */
type Row = Partial<ClientExtended> & { IdClient: string };

/**
 * Bounded memory across exchanges: list rows by IdClient (LRU: a row seen again
 * moves to the back; past `capacity` the least recently seen goes), the
 * origins a preflight accepted (at most 64), and the two 401 Messages.
 */
export class ExchangeMemory {
  private readonly rows = new Map<string, Row>();
  /** Each Extended row's four searchable fields, folded once when a filter first needs them. */
  private readonly folded = new Map<string, string[]>();
  private readonly origins = new Set<string>();
  readonly unauthorized: { missing?: string; unknown?: string } = {};

  constructor(readonly capacity = 10_000) {}

  get size(): number {
    return this.rows.size;
  }

  remember(row: Row): void {
    if (this.capacity === 0) return;
    const id = row.IdClient.toLowerCase();
    const known = this.rows.get(id);
    this.rows.delete(id);
    // Extended rows hold more than Simple rows: a Simple row seen later does not erase what Extended said.
    this.rows.set(id, known ? { ...known, ...row } : row);
    this.folded.delete(id);
    if (this.rows.size > this.capacity) {
      const oldest = this.rows.keys().next().value!;
      this.rows.delete(oldest);
      this.folded.delete(oldest);
    }
  }

  /** The remembered Extended rows (they carry Status and the ids the filters select by). */
  *extendedRows(): IterableIterator<Row & { folded: string[] }> {
    for (const [id, row] of this.rows) {
      if (row.Status === undefined || typeof row.FullName !== 'string') continue;
      let folded = this.folded.get(id);
      if (!folded) {
        folded = [row.FullName, row.PersonalId, row.Email, row.Phone].map((text) => fold(String(text ?? '')));
        this.folded.set(id, folded);
      }
      yield { ...row, folded };
    }
  }

  row(idClient: string): Row | undefined {
    return this.rows.get(idClient.toLowerCase());
  }

  acceptOrigin(origin: string): void {
    if (this.origins.size < 64) this.origins.add(origin);
  }

  accepted(origin: string): boolean {
    return this.origins.has(origin);
  }
}

/** Rule id for each of SpecContract.check()'s messages. */
function checkRule(message: string): { rule: string; detail: string } {
  if (/: status \d+ is not documented/.test(message)) return { rule: 'response.status', detail: '' };
  if (/: (required )?header /.test(message)) return { rule: 'response.header', detail: /header (\S+)/.exec(message)?.[1] ?? '' };
  if (/: content-type /.test(message)) return { rule: 'response.media-type', detail: '' };
  if (/: the body is not JSON/.test(message)) return { rule: 'response.json', detail: '' };
  if (/documents no body/.test(message)) return { rule: 'response.schema', detail: 'body' };
  const path = /: (body[^:]*):/.exec(message)?.[1] ?? 'body';
  return { rule: 'response.schema', detail: path.replace(/\[\d+\]/g, '[]') };
}

/** The value at a described path (`body.Results[0].Page`), for the `actual` of a schema violation. */
function valueAt(json: unknown, path: string): string {
  let current: unknown = json;
  for (const step of path.replace(/^body/, '').match(/\.[^.[\]]+|\[\d+\]/g) ?? []) {
    const key = step.startsWith('[') ? Number(step.slice(1, -1)) : step.slice(1);
    current = current !== null && typeof current === 'object' ? (current as Record<string | number, unknown>)[key] : undefined;
  }
  if (current === undefined) return 'absent';
  const text = JSON.stringify(current) ?? String(current);
  return text.length > 120 ? `${text.slice(0, 120)}…` : text;
}

/** Rule id for each of semantics.ts's list messages. */
function listRule(message: string): string {
  if (/^(Page|PageSize) is /.test(message)) return 'list.echo';
  if (/X-Total-Count|^Results holds/.test(message)) return 'list.total';
  if (/^Link /.test(message)) return 'list.link';
  if (/\.Status is .* although active/.test(message)) return 'filter.active';
  if (/\.IdStaff is /.test(message)) return 'filter.staff';
  if (/\.IdLocation is /.test(message)) return 'filter.location';
  if (/does not match filter/.test(message)) return 'filter.text';
  return 'response.schema';
}

const LIST_EXPECTED: Record<string, string> = {
  'list.echo': 'Page and PageSize echo the request (defaults 1 and 25)',
  'list.total': "Results holds the page's share of X-Total-Count",
  'list.link': 'Link as openapi.yaml states it: first and last always, prev and next where they apply, targets with the same query',
  'filter.active': 'every client matches active',
  'filter.staff': 'every client has that IdStaff',
  'filter.location': 'every client has that IdLocation',
  'filter.text': 'every client matches filter as openapi.yaml folds it',
};

/** Rule id for each of recordViolations()'s messages. */
function recordRule(message: string): string {
  if (/Luhn/.test(message)) return 'record.luhn';
  if (/does not begin with DateOfBirth/.test(message)) return 'record.personal-id';
  if (/FirstName LastName|FullName differs/.test(message)) return 'record.full-name';
  if (/StaffName|LocationName/.test(message)) return 'record.staff-location';
  return 'record.repeated-fields';
}

function listQueryOf(target: string): ListQuery {
  const query: ListQuery = {};
  const { query: raw } = splitTarget(target);
  for (const part of raw ? raw.split('&') : []) {
    const eq = part.indexOf('=');
    const name = decodeQueryPart(eq < 0 ? part : part.slice(0, eq));
    const value = decodeQueryPart(eq < 0 ? '' : part.slice(eq + 1)) ?? '';
    if (name && ['page', 'pageSize', 'active', 'filter', 'idStaff', 'idLocation'].includes(name))
      (query as Record<string, string>)[name] = value;
  }
  return query;
}

const headerList = (exchange: Exchange, name: string) =>
  (exchange.headers.get(name) ?? '')
    .split(',')
    .map((item) => item.trim().toLowerCase())
    .filter(Boolean);

function detailAgreement(operation: string, detail: ClientDetail, listed: Row): Violation[] {
  const problems: [string, unknown, unknown][] = [];
  if (listed.PersonalInfo && !isDeepStrictEqual(detail.PersonalInfo, listed.PersonalInfo))
    problems.push(['PersonalInfo', listed.PersonalInfo, detail.PersonalInfo]);
  if (listed.ContactInfo && !isDeepStrictEqual(detail.ContactInfo, listed.ContactInfo))
    problems.push(['ContactInfo', listed.ContactInfo, detail.ContactInfo]);
  if (listed.Status !== undefined && detail.Status !== listed.Status) problems.push(['Status', listed.Status, detail.Status]);
  if ('IdStaff' in listed && ((detail.Staff?.IdStaff ?? null) !== listed.IdStaff || (detail.Staff?.FullName ?? null) !== listed.StaffName))
    problems.push(['Staff', { IdStaff: listed.IdStaff, StaffName: listed.StaffName }, detail.Staff]);
  if (
    'IdLocation' in listed &&
    ((detail.Location?.IdLocation ?? null) !== listed.IdLocation || (detail.Location?.Name ?? null) !== listed.LocationName)
  )
    problems.push(['Location', { IdLocation: listed.IdLocation, LocationName: listed.LocationName }, detail.Location]);
  for (const [field, key] of [
    ['FullName', 'FullName'],
    ['PersonalId', 'PersonalId'],
  ] as const) {
    if (listed[field] !== undefined && detail.PersonalInfo?.[key] !== listed[field])
      problems.push([field, listed[field], detail.PersonalInfo?.[key]]);
  }
  for (const field of ['Email', 'Phone'] as const) {
    if (listed[field] !== undefined && detail.ContactInfo?.[field] !== listed[field])
      problems.push([field, listed[field], detail.ContactInfo?.[field]]);
  }
  const short = (value: unknown) => {
    const text = JSON.stringify(value) ?? 'absent';
    return text.length > 140 ? `${text.slice(0, 140)}…` : text;
  };
  return problems.map(([field, expected, actual]) =>
    violation(
      'response',
      operation,
      'detail.agrees-with-list',
      `${field} as the list showed it for ${listed.IdClient}: ${short(expected)}`,
      short(actual),
      field,
    ),
  );
}

/** What the answer breaks (side `response`), given the request's judgement; `memory` carries rules across exchanges. */
export function judgeResponse(contract: SpecContract, judged: RequestJudgement, exchange: Exchange, memory?: ExchangeMemory): Violation[] {
  const operation = judged.operationId ?? ROUTING;
  const status = exchange.status;
  const headers = Object.fromEntries(Object.entries(exchange.request.headers ?? {}).map(([name, value]) => [name.toLowerCase(), value]));
  const request: JudgedRequestInput = { method: exchange.request.method, path: exchange.request.path, headers };
  const out: Violation[] = [];
  const push = (rule: string, expected: string, actual: string, detail = '') =>
    out.push(violation('response', operation, rule, expected, actual, `${status} ${detail}`.trim()));

  if (isPreflight(request)) {
    if (!judged.allowedStatuses.includes(status)) push('cors.preflight', 'a 2xx answer to a CORS preflight', String(status));
    else if (status < 300) {
      const origin = exchange.headers.get('access-control-allow-origin');
      if (origin !== '*' && origin !== headers.origin)
        push('cors.preflight', `Access-Control-Allow-Origin * or ${headers.origin}`, String(origin));
      else memory?.acceptOrigin(headers.origin!);
      const methods = headerList(exchange, 'access-control-allow-methods');
      if (!methods.includes('get') && !methods.includes('*'))
        push('cors.preflight', 'Access-Control-Allow-Methods naming GET', methods.join(', ') || 'absent');
      const allowHeaders = headerList(exchange, 'access-control-allow-headers');
      if (!allowHeaders.includes('x-api-key') && !allowHeaders.includes('*'))
        push('cors.preflight', 'Access-Control-Allow-Headers naming X-Api-Key', allowHeaders.join(', ') || 'absent');
    }
    return out;
  }

  const problems = contract.check(exchange);
  const statusUndocumented = problems.some((message) => checkRule(message).rule === 'response.status');
  if (!statusUndocumented && !judged.allowedStatuses.includes(status)) {
    const why = judged.violations.length > 0 ? `for this request (it breaks ${judged.violations[0]!.rule})` : 'for a valid request';
    push('response.status', `${judged.allowedStatuses.join(' or ')} ${why}`, String(status));
  }
  for (const message of problems) {
    const { rule, detail } = checkRule(message);
    const text = message.replace(/^[^:]*: /, '');
    if (rule === 'response.schema' && detail !== 'body')
      push(
        rule,
        text.replace(/^body[^:]*: /, `${detail.replace(/\[\]/g, '[i]')} `),
        valueAt(exchange.json, /: (body[^:]*):/.exec(message)?.[1] ?? 'body'),
        detail,
      );
    else if (rule === 'response.status')
      push(
        rule,
        `one of ${(contract.findOperation(splitTarget(request.path).pathname)?.operation.statuses ?? ['404']).join(', ')}`,
        String(status),
      );
    else if (rule === 'response.header') {
      const missing = /required header (\S+) is missing/.exec(text);
      const bad = /header (\S+) ("(?:[^"\\]|\\.)*")(.*)$/.exec(text);
      if (missing) push(rule, `header ${missing[1]} (required)`, 'absent', detail);
      else if (bad) push(rule, `header ${bad[1]} as its schema says${bad[3]}`, bad[2]!, detail);
      else push(rule, text, text, detail);
    } else if (rule === 'response.media-type')
      push(
        rule,
        text.replace(/^content-type .* is not documented \((.*)\)$/, 'Content-Type $1'),
        String(exchange.headers.get('content-type')),
        detail,
      );
    else if (rule === 'response.json') push(rule, 'a JSON body (RFC 8259)', JSON.stringify(exchange.text.slice(0, 80)), detail);
    else push(rule, text, text, detail);
  }

  const requestId = headers['x-request-id'];
  const answeredId = exchange.headers.get('x-request-id');
  if (answeredId !== null) {
    if (requestId !== undefined && ECHOED_REQUEST_ID.test(requestId) && answeredId !== requestId)
      push('response.request-id', `X-Request-Id ${requestId} echoed`, answeredId, 'echo');
    if (requestId !== undefined && !ECHOED_REQUEST_ID.test(requestId) && answeredId === requestId)
      push('response.request-id', 'a generated X-Request-Id (the request id breaks the rule)', `${requestId} echoed`, 'generated');
  }
  const origin = headers.origin;
  if (origin !== undefined) {
    const allowed = exchange.headers.get('access-control-allow-origin');
    if (allowed === null && memory?.accepted(origin))
      push('cors.allow-origin', `Access-Control-Allow-Origin for ${origin}, which a preflight accepted`, 'absent');
    if (allowed !== null) {
      const exposed = headerList(exchange, 'access-control-expose-headers');
      const missing = ['x-total-count', 'link', 'x-request-id'].filter((name) => !exposed.includes(name) && !exposed.includes('*'));
      if (missing.length > 0)
        push('cors.expose', 'Access-Control-Expose-Headers naming X-Total-Count, Link, X-Request-Id', exposed.join(', ') || 'absent');
    }
  }

  const error = status >= 400 ? (exchange.json as Partial<ErrorDto> | undefined) : undefined;
  if (error && typeof error === 'object' && typeof error.Code === 'string') {
    const expected = expectedCodes(operation, status, headers.prefer !== undefined);
    if (expected.length > 0 && !expected.includes(error.Code))
      push('error.code', `Code ${expected.join(' or ')} with ${status}`, error.Code, error.Code);
    if (operation === 'exception' && error.Code === 'TEST_EXCEPTION' && error.Message !== testExceptionMessage(contract))
      push('exception.message', JSON.stringify(testExceptionMessage(contract)), JSON.stringify(error.Message));
    if (status === 401 && memory) {
      const which = headers['x-api-key'] === undefined ? 'missing' : 'unknown';
      memory.unauthorized[which] ??= error.Message;
      const { missing, unknown } = memory.unauthorized;
      if (missing !== undefined && unknown !== undefined && missing === unknown)
        push('auth.message', 'different 401 Messages for a missing and an unknown key', JSON.stringify(missing));
    }
  }

  if (status === 200 && exchange.json !== undefined && !statusUndocumented) {
    if (operation === 'getClientsSimple' || operation === 'getClientsExtended') out.push(...judgeList(operation, exchange, memory));
    if (operation === 'getClientDetail') {
      const detail = exchange.json as ClientDetail;
      const asked = decodeURIComponent(splitTarget(request.path).pathname.split('/').pop() ?? '');
      if (UUIDISH.test(asked) && typeof detail.IdClient === 'string' && detail.IdClient.toLowerCase() !== asked.toLowerCase())
        push('detail.id', `the client ${asked}`, `client ${detail.IdClient}`);
      if (detail.PersonalInfo && typeof detail.PersonalInfo === 'object')
        for (const message of recordViolations({
          IdClient: detail.IdClient,
          PersonalInfo: detail.PersonalInfo,
          ContactInfo: detail.ContactInfo,
        } as never))
          push(recordRule(message), 'the in-record rules of openapi.yaml', message, recordRule(message));
      const listed = typeof detail.IdClient === 'string' ? memory?.row(detail.IdClient) : undefined;
      if (listed) out.push(...detailAgreement(operation, detail, listed));
    }
  }
  return out;
}

function judgeList(operation: string, exchange: Exchange, memory: ExchangeMemory | undefined): Violation[] {
  const out: Violation[] = [];
  const query = listQueryOf(exchange.request.path);
  for (const message of listViolations(exchange, query)) {
    const rule = listRule(message);
    out.push(violation('response', operation, rule, LIST_EXPECTED[rule] ?? 'a page as openapi.yaml states it', message, `200 ${rule}`));
  }
  const results = (exchange.json as PageBody<Row>).Results;
  if (!Array.isArray(results)) return out;
  for (let i = 1; i < results.length; i++) {
    const [a, b] = [results[i - 1]!, results[i]!];
    if (
      typeof a.FullName === 'string' &&
      typeof b.FullName === 'string' &&
      typeof a.IdClient === 'string' &&
      typeof b.IdClient === 'string' &&
      compareClients(a as ClientExtended, b as ClientExtended) >= 0
    ) {
      out.push(
        violation(
          'response',
          operation,
          'list.order',
          'FullName (en, primary strength), then IdClient, each client once',
          `Results[${i - 1}] ${a.FullName} (${a.IdClient}) before Results[${i}] ${b.FullName} (${b.IdClient})`,
          '200 list.order',
        ),
      );
      break;
    }
  }
  for (const item of results) {
    if (item && typeof item === 'object' && item.PersonalInfo && typeof item.PersonalInfo === 'object') {
      for (const message of recordViolations(item as ClientExtended)) {
        const rule = recordRule(message);
        out.push(violation('response', operation, rule, 'the in-record rules of openapi.yaml', message, `200 ${rule}`));
      }
    }
  }
  if (memory && operation === 'getClientsExtended') out.push(...missingFromFilter(operation, exchange, query, results, memory));
  for (const item of results) if (memory && item && typeof item.IdClient === 'string' && UUIDISH.test(item.IdClient)) memory.remember(item);
  return out;
}

/**
 * A filtered page that holds the whole filtered list (X-Total-Count fits on it)
 * must hold every remembered client the filters keep: the same rule the suite's
 * walk checks hold a filter to (semantics.ts matchesFilter), over the rows the
 * proxy has seen instead of a walk. Folded fields are kept per row, so the scan
 * costs a substring search per remembered row.
 */
function missingFromFilter(operation: string, exchange: Exchange, query: ListQuery, results: Row[], memory: ExchangeMemory): Violation[] {
  const filtered =
    query.active !== undefined || query.filter !== undefined || query.idStaff !== undefined || query.idLocation !== undefined;
  const total = totalCount(exchange);
  const page = query.page === undefined ? 1 : Number(query.page);
  if (!filtered || total === undefined || page !== 1 || results.length !== total) return [];
  const term = query.filter === undefined ? '' : fold(query.filter.trim()).replace(/\s+/g, ' ');
  const listed = new Set(results.map((row) => String(row.IdClient).toLowerCase()));
  for (const row of memory.extendedRows()) {
    if (listed.has(row.IdClient.toLowerCase())) continue;
    if (query.active !== undefined && row.Status !== (query.active === 'true' ? 'Active' : 'Inactive')) continue;
    if (query.idStaff !== undefined && row.IdStaff?.toLowerCase() !== query.idStaff.toLowerCase()) continue;
    if (query.idLocation !== undefined && row.IdLocation?.toLowerCase() !== query.idLocation.toLowerCase()) continue;
    // The cheap test on the folded fields first; the suite's own matchesFilter decides.
    if (term !== '' && !row.folded.some((field) => field.includes(term)) && !/\d/.test(term)) continue;
    if (query.filter !== undefined && !matchesFilter(row as ClientExtended, query.filter)) continue;
    return [
      violation(
        'response',
        operation,
        'filter.complete',
        `every client the filters keep, among them ${row.IdClient} (${row.FullName}) seen in an earlier list`,
        `X-Total-Count ${total} without it`,
        '200 filter.complete',
      ),
    ];
  }
  return [];
}

/** The Codes openapi.yaml's error table allows with a status, narrowed by where the answer came from. */
function expectedCodes(operation: string, status: number, preferred: boolean): string[] {
  switch (status) {
    case 400:
      return ['VALIDATION_ERROR'];
    case 401:
      return ['UNAUTHORIZED'];
    case 404:
      return operation === ROUTING ? ['NOT_FOUND'] : ['CLIENT_NOT_FOUND'];
    case 405:
      return ['METHOD_NOT_ALLOWED'];
    case 500:
      return operation === 'exception' && !preferred
        ? ['TEST_EXCEPTION']
        : preferred
          ? ['INTERNAL_ERROR', 'TEST_EXCEPTION']
          : ['INTERNAL_ERROR'];
    default:
      return [];
  }
}
