// The per-exchange rule engine: one set of rules, two drivers. The active
// suite (CheckContext.call and the property run) and the passive proxy both
// hand it a request and the answer it got; neither re-implements a rule.
//
// judgeRequest derives from the served document alone (each operation's
// parameter schemas and security) what a request breaks and which statuses
// openapi.yaml allows as its answer: an undocumented, repeated or empty
// parameter, a value that breaks its schema (type, format, enum, minimum,
// maximum, minLength/maxLength counted in code points, pattern), a missing
// credential or one sent elsewhere than its scheme says, an unknown path or
// another method. Where the document leaves an order open (401 before 400 or
// after), both statuses are allowed.
//
// judgeResponse holds the answer to that request: its status, the full schema
// of its body, every header the response declares (on error statuses too),
// the error table of info.description (Code ↔ status), RFC 8259 for a JSON
// body, the list rules (echo, X-Total-Count, Link, order, every item matching
// every filter), the in-record rules (contract/record-rules.ts), and, given an
// ExchangeMemory, a Detail agreeing with the list rows already seen for that
// client. A status the request does not allow is reported alone (what the
// body then breaks follows from it), and a rule that reads a part of the
// answer which is itself broken (a missing header, a record that fails its
// schema) is not applied to it, so one fault is reported once. Every Violation carries a stable rule id, the ids of
// the spec sentences it enforces, whose side it is on and a cause key that
// groups the failures one fault causes.
import { isDeepStrictEqual } from 'node:util';
import type { ErrorObject } from 'ajv';
import { filterTerm, matchesFilter } from '../contract/text-folding';
import { recordProblems, type RecordProblem } from '../contract/record-rules';
import { checkJsonText } from './json-text';
import { compareClients } from '../contract/list-order';
import { linkRelations, parseLinkHeader } from './links';
import { sentencesFor } from './sentences';
import type { SpecContract, SpecOperation, SpecParameter, SpecResponse } from './spec-contract';
import { pointerSegment } from '../contract/spec';

type Json = Record<string, unknown>;

export type Side = 'request' | 'response';

export interface Violation {
  /** Stable rule id, e.g. `response.schema`, `list.link`, `request.unknown-parameter` (JUDGE_RULES lists them). */
  rule: string;
  /** Ids of the spec sentences this rule enforces (the sentence table, contract-suite/sentence-map.ts). */
  sentences: string[];
  side: Side;
  /** The operationId, or `routing` for a path that is no operation. */
  operation: string;
  /** One line. */
  expected: string;
  /** One line. */
  actual: string;
  /** Grouping key: the same operation, status, rule and place (schema path, header, parameter) → the same cause. */
  cause: string;
}

/** Every rule id the judge applies, with what it holds. The sentence table maps sentences to these (and to the checks' own rules). */
export const JUDGE_RULES = {
  'request.path': 'the path is one of the document (exact, case-sensitive, no trailing slash)',
  'request.method': 'the method is one the path documents',
  'request.unknown-parameter': 'every query parameter is documented for the operation',
  'request.repeated': 'no parameter is given twice',
  'request.value':
    'every parameter value keeps its schema (type, format, enum, bounds, length in code points, pattern), or is empty only where allowEmptyValue says so',
  'request.key-missing': 'the credential travels where the security scheme declares it',
  'request.key-unknown': 'the credential is one the deployment accepts',
  'response.status': 'the status is the one openapi.yaml gives for this request',
  'response.header': 'every header the response declares is present when required and keeps its schema',
  'response.media-type': 'the Content-Type is a documented media type, or there is no body where none is documented',
  'response.json':
    'an application/json body is RFC 8259 JSON: UTF-8, no byte order mark, strict grammar, unique member names, charset utf-8 if given',
  'response.schema': 'the body keeps the full schema of the documented response',
  'response.date': 'a 2xx, 3xx or 4xx answer carries a Date header (RFC 9110 §6.6.1)',
  'error.code': "the ErrorDto Code is the error table's for that status and request",
  'error.message': 'a 400 names the parameter, a 404 CLIENT_NOT_FOUND names the id',
  'error.no-stack': 'a 5xx Message holds no stack trace',
  'header.request-id': 'X-Request-Id is echoed when it keeps the stated rule, replaced otherwise',
  'cors.allow-origin': 'Access-Control-Allow-Origin is * or the request Origin',
  'cors.expose': 'Access-Control-Expose-Headers names X-Total-Count, Link and X-Request-Id',
  'cors.preflight': 'a preflight is 2xx with Access-Control-Allow-Methods naming GET and Access-Control-Allow-Headers naming X-Api-Key',
  'list.echo': 'Page and PageSize echo the request (or the defaults)',
  'list.total': 'Results holds the share of X-Total-Count that falls on the page',
  'list.link': 'Link carries first and last, prev and next where they apply, each naming its page of the same query',
  'list.order': 'Results are in the documented order (FullName, English collation at primary strength, then IdClient)',
  'list.unique': 'no client is listed twice on a page',
  'list.rows-agree': 'the same client has the same basic fields in every list row seen',
  'filter.active': 'active=true keeps Active clients only, false Inactive only',
  'filter.staff': "idStaff keeps that staff member's clients only (uuids compared case-insensitively)",
  'filter.location': "idLocation keeps that location's clients only (uuids compared case-insensitively)",
  'filter.text': 'every client of a filtered page matches the filter term as documented',
  'record.luhn': 'PersonalId ends in the Luhn digit of YYMMDDNNN',
  'record.birth-date': 'PersonalId begins with DateOfBirth without its dashes',
  'record.full-name': 'PersonalInfo.FullName is FirstName, one space, LastName',
  'record.basic-fields': "a row's FullName, PersonalId, Email and Phone repeat its sections",
  'record.staff-name': 'StaffName is null exactly when IdStaff is',
  'record.location-name': 'LocationName is null exactly when IdLocation is',
  'record.unique-personal-id': 'no two clients share a PersonalId',
  'detail.id': 'a Detail answers the client its path names',
  'detail.agrees-with-list': 'a Detail agrees with the list rows of that client (and is not 404 for a listed client)',
} as const;

export type JudgeRule = keyof typeof JUDGE_RULES;

export type HeaderValue = string | readonly string[] | undefined;
/** Request or response headers: a Fetch `Headers`, or a plain record (node:http's, any case of name; repeated lines as an array). */
export type HeaderBag = Headers | Readonly<Record<string, HeaderValue>>;

/** A header's value (several lines joined by `, `), or undefined. */
export function headerOf(bag: HeaderBag, name: string): string | undefined {
  if (typeof (bag as Headers).get === 'function') return (bag as Headers).get(name) ?? undefined;
  const lower = name.toLowerCase();
  for (const [key, value] of Object.entries(bag as Record<string, HeaderValue>)) {
    if (key.toLowerCase() !== lower || value === undefined) continue;
    return typeof value === 'string' ? value : value.join(', ');
  }
  return undefined;
}

export interface JudgedRequestInput {
  method: string;
  /** Path and query exactly as sent (percent-encoded), below the deployment's base path: `/api/v1/Client/Simple?pageSize=5`. */
  path: string;
  headers: HeaderBag;
  /** The absolute URL the request went to, for relative Link references (default `http://localhost` + path). */
  url?: string;
  /** Whether the deployment accepts the credential sent: the suite knows (its key or a wrong one); a proxy does not (undefined). */
  keyAccepted?: boolean;
}

export interface RequestJudgement {
  /** undefined: the path is no operation's. */
  operationId?: string;
  /** Side `request`: what the request breaks ([] = a valid request). */
  violations: Violation[];
  /** What openapi.yaml allows as the answer to this very request. */
  allowedStatuses: readonly number[];
  /** The request judged. */
  request: JudgedRequestInput;
  /** What kind of request: an operation's GET, a CORS preflight, another method on a known path, or a path that is no operation. */
  kind: 'operation' | 'preflight' | 'method' | 'unknown-path';
  /** The documented query parameters as decoded (the first value of each). */
  query: ReadonlyMap<string, string>;
  /** The path parameters, percent-decoded. */
  pathParams: Readonly<Record<string, string>>;
  /** The request asks a mock for a named example or a status (`Prefer`): the data and paging rules do not bind the answer. */
  mockControlled: boolean;
  /** Why these statuses, in words, for messages. */
  why: string;
  /** The parameters the request's violations name (a 400's Message must name one of them). */
  offending: readonly string[];
}

/** The answer as the judge reads it: the suite's http Exchange fits, and so does a proxy's (bytes after any content coding is removed). */
export interface JudgedExchange {
  status: number;
  headers: HeaderBag;
  /** The body's bytes, after Content-Encoding is undone. */
  bytes: Uint8Array;
}
export type Exchange = JudgedExchange;

export interface JudgeOptions {
  /** Collects the ids of the rules that were applied (the coverage of the sentence table). */
  applied?: Set<string>;
}

// ---------------------------------------------------------------- requests

interface QueryPair {
  name: string;
  value: string;
  /** `?name` without `=`. */
  bare: boolean;
  decodeError?: string;
}

function decodeComponent(text: string): string {
  return decodeURIComponent(text.replace(/\+/g, ' '));
}

/** The query as pairs, in order, names and values decoded as a form (`+` is a space). */
export function parseQuery(search: string): QueryPair[] {
  const pairs: QueryPair[] = [];
  for (const part of search.replace(/^\?/, '').split('&')) {
    if (part === '') continue;
    const at = part.indexOf('=');
    const rawName = at < 0 ? part : part.slice(0, at);
    const rawValue = at < 0 ? '' : part.slice(at + 1);
    try {
      pairs.push({ name: decodeComponent(rawName), value: decodeComponent(rawValue), bare: at < 0 });
    } catch {
      let name = rawName;
      try {
        name = decodeComponent(rawName);
      } catch {
        // the name itself is badly encoded: reported under its raw form
      }
      pairs.push({ name, value: rawValue, bare: at < 0, decodeError: `bad percent-encoding in ${JSON.stringify(part.slice(0, 60))}` });
    }
  }
  return pairs;
}

/** A parameter's raw text as the JSON value its schema types it as, so Ajv can judge it (`12` → 12 for an integer). */
function coerce(raw: string, schema: Json): unknown {
  const types = Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type];
  if (types.includes('integer') && /^-?\d+$/.test(raw)) return Number(raw);
  if (types.includes('number') && /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(raw)) return Number(raw);
  if (types.includes('boolean') && (raw === 'true' || raw === 'false')) return raw === 'true';
  return raw;
}

/** A parameter's schema in words: `an integer from 1 to 100`, `a uuid`, `at most 200 characters`. */
export function describeParameterSchema(schema: Json): string {
  const parts: string[] = [];
  const type = Array.isArray(schema.type) ? (schema.type as string[]).join(' or ') : String(schema.type ?? 'any value');
  if (schema.enum) parts.push(`one of ${(schema.enum as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`);
  else if (type === 'boolean') parts.push('true or false');
  else if (schema.format === 'uuid') parts.push('a uuid (8-4-4-4-12 hexadecimal digits)');
  else if (type === 'integer') parts.push('an integer written in decimal digits');
  else parts.push(`a ${type}${schema.format ? ` (${String(schema.format)})` : ''}`);
  if (typeof schema.minimum === 'number' || typeof schema.maximum === 'number')
    parts.push(`from ${String(schema.minimum ?? '…')} to ${String(schema.maximum ?? '…')}`);
  if (typeof schema.minLength === 'number') parts.push(`at least ${schema.minLength} characters`);
  if (typeof schema.maxLength === 'number' && schema.format !== 'uuid') parts.push(`at most ${schema.maxLength} characters`);
  if (typeof schema.pattern === 'string') parts.push(`matching ${schema.pattern}`);
  return parts.join(', ');
}

function ajvReason(error: ErrorObject | undefined): string {
  if (!error) return 'is not valid';
  return `${error.keyword}: ${error.message ?? 'is not valid'}`;
}

function requestViolation(
  operation: string,
  rule: JudgeRule,
  where: string,
  expected: string,
  actual: string,
  applied?: Set<string>,
): Violation {
  applied?.add(rule);
  return {
    rule,
    sentences: sentencesFor(rule),
    side: 'request',
    operation,
    expected,
    actual,
    cause: `${operation} request ${rule} ${where}`.trim(),
  };
}

function show(value: string, max = 80): string {
  return JSON.stringify(value.length > max ? `${value.slice(0, max)}…` : value);
}

/** The cookies of a request, name → value. */
function cookiesOf(headers: HeaderBag): Map<string, string> {
  const cookies = new Map<string, string>();
  for (const part of (headerOf(headers, 'cookie') ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at > 0) cookies.set(part.slice(0, at).trim(), part.slice(at + 1).trim());
  }
  return cookies;
}

/** Where the request carries a credential named `name` other than where the scheme declares it. */
function credentialElsewhere(name: string, declaredIn: string, headers: HeaderBag, pairs: readonly QueryPair[]): string | undefined {
  const lower = name.toLowerCase();
  if (declaredIn !== 'query' && pairs.some((pair) => pair.name.toLowerCase() === lower)) return `in the query (?${name}=…)`;
  if (declaredIn !== 'cookie' && [...cookiesOf(headers).keys()].some((cookie) => cookie.toLowerCase() === lower)) return 'in a cookie';
  if (declaredIn !== 'header' && headerOf(headers, name) !== undefined) return `in a ${name} header`;
  if (headerOf(headers, 'authorization') !== undefined) return 'in an Authorization header';
  return undefined;
}

interface PreferPlan {
  statuses: Set<number>;
  mockControlled: boolean;
}

/**
 * What a `Prefer` header can make the mock answer (openapi.yaml, parameter
 * Prefer): a documented `code=NNN`, the status of a named example, or `400`
 * for a bad value. A real deployment ignores the header, so the plain answer
 * stays allowed too.
 */
function preferPlan(contract: SpecContract, operation: SpecOperation, value: string): PreferPlan {
  const statuses = new Set<number>();
  const preferences = new Map<string, string>();
  for (const part of value.split(/[,;]/)) {
    const at = part.indexOf('=');
    const name = (at < 0 ? part : part.slice(0, at)).trim().toLowerCase();
    if (name !== '' && !preferences.has(name))
      preferences.set(
        name,
        at < 0
          ? ''
          : part
              .slice(at + 1)
              .trim()
              .replace(/^"|"$/g, ''),
      );
  }
  let mockControlled = false;
  const code = preferences.get('code');
  if (code !== undefined) {
    if (/^\d{3}$/.test(code) && operation.statuses.includes(code)) {
      statuses.add(Number(code));
      if (!code.startsWith('2')) mockControlled = true;
    } else statuses.add(400);
  }
  const delay = preferences.get('delay');
  if (delay !== undefined && !(/^\d+$/.test(delay) && Number(delay) <= 10_000)) statuses.add(400);
  const example = preferences.get('example');
  if (example !== undefined) {
    const withExample = operation.statuses.filter((status) => {
      const response = contract.response(operation, Number(status));
      const examples = (response?.node.content as Record<string, { examples?: Json }> | undefined)?.['application/json']?.examples;
      return examples !== undefined && example in examples;
    });
    if (withExample.length === 0) statuses.add(400);
    else {
      mockControlled = true;
      if (code !== undefined && withExample.includes(code)) statuses.add(Number(code));
      else statuses.add(Number(withExample[0]));
    }
  }
  return { statuses, mockControlled };
}

/** The statuses a valid request to the operation may get: its 2xx (and its 404 when a path parameter may name nothing), else its 5xx. */
function successStatuses(operation: SpecOperation): number[] {
  const documented = operation.statuses.filter((status) => /^\d{3}$/.test(status)).map(Number);
  const success = documented.filter((status) => status >= 200 && status < 300);
  if (success.length === 0) return documented.filter((status) => status >= 500);
  if (operation.parameters.some((p) => p.in === 'path') && documented.includes(404)) success.push(404);
  return success;
}

function isPreflight(request: JudgedRequestInput): boolean {
  return (
    request.method.toUpperCase() === 'OPTIONS' &&
    headerOf(request.headers, 'origin') !== undefined &&
    headerOf(request.headers, 'access-control-request-method') !== undefined
  );
}

/**
 * What the request breaks and which statuses openapi.yaml allows as its
 * answer, derived from the served document (operations, parameter schemas,
 * security schemes). Pure: no state, no I/O.
 */
export function judgeRequest(contract: SpecContract, request: JudgedRequestInput, options: JudgeOptions = {}): RequestJudgement {
  const { applied } = options;
  const [rawPath = '', search = ''] = request.path.split(/\?(.*)/s, 2);
  const found = contract.findOperation(rawPath);
  const base = { request, query: new Map<string, string>(), pathParams: {}, mockControlled: false, offending: [] };
  if (!found) {
    if (isPreflight(request))
      return {
        ...base,
        kind: 'preflight',
        violations: [],
        allowedStatuses: [200, 204, 404],
        why: 'a CORS preflight on a path that is no operation',
      };
    return {
      ...base,
      kind: 'unknown-path',
      violations: [
        requestViolation(
          'routing',
          'request.path',
          '',
          `a path of the document (${contract.operations.map((o) => o.template).join(', ')})`,
          `${request.method} ${rawPath}`,
          applied,
        ),
      ],
      allowedStatuses: [404],
      why: `${rawPath} is no path of the document`,
    };
  }
  const { operation } = found;
  const id = operation.operationId;
  if (isPreflight(request))
    return { ...base, operationId: id, kind: 'preflight', violations: [], allowedStatuses: [200, 204], why: 'a CORS preflight' };
  if (request.method.toUpperCase() !== 'GET') {
    return {
      ...base,
      operationId: id,
      kind: 'method',
      violations: [requestViolation(id, 'request.method', request.method, `GET on ${operation.template}`, request.method, applied)],
      allowedStatuses: [405],
      why: `${request.method} on a path that only answers GET`,
    };
  }

  const violations: Violation[] = [];
  const offending = new Set<string>();
  const pairs = parseQuery(search);
  const query = new Map<string, string>();
  const documented = new Map(operation.parameters.filter((p) => p.in === 'query').map((p) => [p.name, p]));
  const credentialNames = new Set(operation.credentials.filter((c) => c.in === 'query').map((c) => c.name));
  const counts = new Map<string, number>();
  for (const pair of pairs) counts.set(pair.name, (counts.get(pair.name) ?? 0) + 1);
  for (const pair of pairs) {
    if (pair.decodeError !== undefined) {
      violations.push(requestViolation(id, 'request.value', pair.name, 'percent-encoded UTF-8 (RFC 3986)', pair.decodeError, applied));
      continue;
    }
    const parameter = documented.get(pair.name);
    if (!parameter) {
      if (credentialNames.has(pair.name)) continue;
      violations.push(
        requestViolation(
          id,
          'request.unknown-parameter',
          pair.name,
          `only ${[...documented.keys()].join(', ') || 'no'} query parameters`,
          `${pair.name}=${pair.value}`,
          applied,
        ),
      );
      offending.add(pair.name);
      continue;
    }
    if (query.has(pair.name)) continue;
    if ((counts.get(pair.name) ?? 0) > 1) {
      violations.push(
        requestViolation(
          id,
          'request.repeated',
          pair.name,
          `${pair.name} given once`,
          `${pair.name} given ${counts.get(pair.name)} times`,
          applied,
        ),
      );
      offending.add(pair.name);
      query.set(pair.name, pair.value);
      continue;
    }
    query.set(pair.name, pair.value);
    const broken = parameterViolations(contract, id, parameter, pair.value, applied, pair.bare);
    if (broken.length > 0) offending.add(pair.name);
    violations.push(...broken);
  }
  for (const parameter of documented.values())
    if (parameter.required && !query.has(parameter.name))
      violations.push(requestViolation(id, 'request.value', parameter.name, `${parameter.name} (required)`, 'absent', applied));

  const pathParams: Record<string, string> = {};
  for (const [name, raw] of Object.entries(found.params)) {
    const parameter = operation.parameters.find((p) => p.in === 'path' && p.name === name);
    let value: string;
    try {
      value = decodeURIComponent(raw);
    } catch {
      violations.push(
        requestViolation(id, 'request.value', name, 'percent-encoded UTF-8 (RFC 3986)', `bad percent-encoding in ${show(raw)}`, applied),
      );
      continue;
    }
    pathParams[name] = value;
    const broken = parameter ? parameterViolations(contract, id, parameter, value, applied) : [];
    if (broken.length > 0) offending.add(name);
    violations.push(...broken);
  }
  // Bad values of a header a real deployment ignores (openapi.yaml says so of Prefer): still the caller's
  // violation, but the deployment may answer as if the header were absent, so they do not force a 400.
  const ignorable = new Set<Violation>();
  for (const parameter of operation.parameters.filter((p) => p.in === 'header')) {
    const value = headerOf(request.headers, parameter.name);
    if (value === undefined) {
      if (parameter.required)
        violations.push(requestViolation(id, 'request.value', parameter.name, `a ${parameter.name} header`, 'absent', applied));
      continue;
    }
    const broken = parameterViolations(contract, id, parameter, value, applied);
    if (parameter.ignoredByDeployment) for (const violation of broken) ignorable.add(violation);
    violations.push(...broken);
  }

  let keyBad = false;
  let keyMaybe = false;
  for (const credential of operation.credentials) {
    applied?.add('request.key-missing');
    const sent =
      credential.in === 'header'
        ? headerOf(request.headers, credential.name)
        : credential.in === 'query'
          ? pairs.find((pair) => pair.name === credential.name)?.value
          : cookiesOf(request.headers).get(credential.name);
    if (sent === undefined) {
      keyBad = true;
      const elsewhere = credentialElsewhere(credential.name, credential.in, request.headers, pairs);
      violations.push(
        requestViolation(
          id,
          'request.key-missing',
          credential.name,
          `the ${credential.name} ${credential.in} (security scheme ${credential.scheme})`,
          elsewhere
            ? `no ${credential.name} ${credential.in}; a credential travels ${elsewhere}`
            : `no ${credential.name} ${credential.in}`,
          applied,
        ),
      );
    } else if (request.keyAccepted === false || sent === '') {
      keyBad = true;
      violations.push(
        requestViolation(
          id,
          'request.key-unknown',
          credential.name,
          `a ${credential.name} the deployment accepts`,
          sent === '' ? 'an empty value' : 'a key it does not accept',
          applied,
        ),
      );
    } else if (request.keyAccepted === undefined) keyMaybe = true;
  }

  const parameterBad = violations.some((v) => v.rule !== 'request.key-missing' && v.rule !== 'request.key-unknown' && !ignorable.has(v));
  const allowed = new Set<number>();
  const why: string[] = violations.map((v) => `${v.rule}: ${v.actual}`);
  if (keyBad) {
    allowed.add(401);
    // The document leaves the order of authentication and validation open: 401 before 400 or after.
    if (parameterBad || ignorable.size > 0) allowed.add(400);
  } else if (parameterBad) allowed.add(400);
  else {
    for (const status of successStatuses(operation)) allowed.add(status);
    if (ignorable.size > 0) allowed.add(400);
  }
  if (keyMaybe) allowed.add(401);

  let mockControlled = false;
  const prefer = operation.parameters.some((p) => p.in === 'header' && p.name.toLowerCase() === 'prefer')
    ? headerOf(request.headers, 'prefer')
    : undefined;
  if (prefer !== undefined) {
    const plan = preferPlan(contract, operation, prefer);
    for (const status of plan.statuses) allowed.add(status);
    mockControlled = plan.mockControlled;
    if (plan.statuses.size > 0) why.push(`Prefer: ${prefer} (a mock control; a real deployment ignores it)`);
  }
  return {
    operationId: id,
    kind: 'operation',
    violations,
    allowedStatuses: [...allowed].sort((a, b) => a - b),
    request,
    query,
    pathParams,
    mockControlled,
    why: why.length > 0 ? why.join('; ') : 'a valid request',
    offending: [...offending],
  };
}

function parameterViolations(
  contract: SpecContract,
  operationId: string,
  parameter: SpecParameter,
  value: string,
  applied: Set<string> | undefined,
  bare = false,
): Violation[] {
  applied?.add('request.value');
  if (value === '' && parameter.allowEmptyValue) return [];
  const validate = contract.validator(parameter.schemaPointer);
  if (validate(coerce(value, parameter.schema))) return [];
  const expected = `${parameter.name}: ${describeParameterSchema(parameter.schema)}`;
  const actual =
    value === ''
      ? `${parameter.name} given ${bare ? 'without =' : 'with an empty value'}`
      : `${parameter.name}=${show(value)} (${ajvReason(validate.errors?.[0])})`;
  return [requestViolation(operationId, 'request.value', parameter.name, expected, actual, applied)];
}

// ---------------------------------------------------------------- memory

/** What the memory holds of one client: the last list rows and Detail seen. */
interface Remembered {
  simple?: Json;
  extended?: Json;
  detail?: Json;
}

/**
 * What the judge has seen of each client across exchanges, so a Detail can be
 * held to the list rows already seen for that client (and rows of one list to
 * rows of the other). Bounded: at most `maxClients` clients (default 10,000,
 * about 1 KB each as a list row, so ~10-20 MB), least recently seen evicted
 * first (a Map in insertion order; a client seen again moves to the end).
 * Only answers that passed their schema are remembered, and answers a mock
 * control (`Prefer: example=…`) shaped are not.
 */
export class ExchangeMemory {
  private readonly clients = new Map<string, Remembered>();

  constructor(readonly maxClients = 10_000) {}

  get size(): number {
    return this.clients.size;
  }

  recall(idClient: string): Readonly<Remembered> | undefined {
    return this.clients.get(idClient.toLowerCase());
  }

  remember(idClient: string, kind: keyof Remembered, record: Json): void {
    const key = idClient.toLowerCase();
    const entry = this.clients.get(key) ?? {};
    this.clients.delete(key);
    entry[kind] = record;
    this.clients.set(key, entry);
    while (this.clients.size > this.maxClients) this.clients.delete(this.clients.keys().next().value as string);
  }

  clear(): void {
    this.clients.clear();
  }
}

// ---------------------------------------------------------------- responses

const ECHOED_REQUEST_ID = /^[A-Za-z0-9_.:@-]{1,128}$/;
const STACK_TRACE = /\n\s*at\s|\bat\s+\S+\s+\([^)]*:\d+:\d+\)|\bat\s+[^\s()]+:\d+:\d+/;
const EXPOSED = ['X-Total-Count', 'Link', 'X-Request-Id'];
const PAGING = ['page', 'pageSize'];
const FILTER_RULES: Record<string, JudgeRule> = {
  active: 'filter.active',
  idStaff: 'filter.staff',
  idLocation: 'filter.location',
  filter: 'filter.text',
};

/** An instance path with array indexes as `*`: `/Results/3/PersonalId` → `/Results/*\/PersonalId`. */
function wildcard(path: string): string {
  return path.replace(/\/\d+(?=\/|$)/g, '/*') || '/';
}

function listOf(header: string | undefined): string[] {
  return (header ?? '')
    .split(',')
    .map((item) => item.trim().toLowerCase())
    .filter(Boolean);
}

class Judging {
  readonly violations: Violation[] = [];
  readonly operation: SpecOperation | undefined;
  readonly name: string;

  constructor(
    readonly contract: SpecContract,
    readonly judged: RequestJudgement,
    readonly exchange: JudgedExchange,
    readonly applied: Set<string> | undefined,
  ) {
    this.operation = judged.operationId === undefined ? undefined : contract.operation(judged.operationId);
    this.name = judged.operationId ?? 'routing';
  }

  apply(rule: JudgeRule): void {
    this.applied?.add(rule);
  }

  /** Adds a violation; its sentences come first when they stand at this operation or near `near` (a schema or header name). */
  add(rule: JudgeRule, where: string, expected: string, actual: string, near: readonly string[] = []): void {
    this.applied?.add(rule);
    const places = [...near, ...where.split(/[/ ,=]/).filter((part) => /^[A-Za-z-]{3,}$/.test(part))];
    const rank = (id: string) => {
      const location = id.slice(0, id.indexOf(':'));
      if (location === this.name || location.startsWith(`${this.name}.`)) return 0;
      return places.some((place) => location.includes(place)) ? 1 : 2;
    };
    this.violations.push({
      rule,
      sentences: [...sentencesFor(rule)].sort((a, b) => rank(a) - rank(b)),
      side: 'response',
      operation: this.name,
      expected,
      actual,
      cause: `${this.name} ${this.exchange.status} ${rule}${where ? ` ${where}` : ''}`,
    });
  }

  header(name: string): string | undefined {
    return headerOf(this.exchange.headers, name);
  }

  requestHeader(name: string): string | undefined {
    return headerOf(this.judged.request.headers, name);
  }
}

/**
 * The answer's violations (side `response`), given the request's judgement:
 * a correct 400 to a bad request is none; a 200 to it is one. With a memory,
 * the answer is also held to (and then remembered beside) what was seen of the
 * same clients before.
 */
export function judgeResponse(
  contract: SpecContract,
  judged: RequestJudgement,
  exchange: JudgedExchange,
  memory?: ExchangeMemory,
  options: JudgeOptions = {},
): Violation[] {
  const j = new Judging(contract, judged, exchange, options.applied);
  const { status } = exchange;

  j.apply('response.status');
  if (!judged.allowedStatuses.includes(status)) {
    const documented = j.operation ? j.operation.statuses.join(', ') : '404';
    const code = (() => {
      try {
        return (JSON.parse(new TextDecoder().decode(exchange.bytes)) as { Code?: unknown }).Code;
      } catch {
        return undefined;
      }
    })();
    j.add(
      'response.status',
      '',
      `${judged.allowedStatuses.join(' or ')} for ${judged.why}${j.operation && !j.operation.statuses.includes(String(status)) ? ` (documented: ${documented})` : ''}`,
      `${status}${typeof code === 'string' ? ` ${code}` : ''}`,
    );
  }

  // A status the request does not allow is the fault; what its body and headers then break follows from it (one fault, one cause).
  if (j.violations.length > 0) return j.violations;

  // RFC 9110 §6.6.1: an origin server with a clock sends Date in every 2xx, 3xx and 4xx answer.
  if (status >= 200 && status < 500) {
    j.apply('response.date');
    const date = j.header('date');
    if (date === undefined || Number.isNaN(Date.parse(date)))
      j.add(
        'response.date',
        'Date',
        'a Date header (RFC 9110 §6.6.1: an origin server sends it in every 2xx, 3xx and 4xx answer)',
        date === undefined ? 'absent' : show(date),
      );
  }

  if (judged.kind === 'preflight') {
    judgePreflight(j);
    return j.violations;
  }

  requestIdRule(j);
  const response = contract.response(j.operation, status);
  const badHeaders = response ? declaredHeaders(j, response) : new Set<string>();
  corsRules(j);
  if (!response) return j.violations;
  // RFC 9110 §9.3.2: the answer to HEAD carries the headers a GET answer would and never content: no body to hold.
  if (judged.request.method.toUpperCase() === 'HEAD') return j.violations;
  const body = content(j, response);
  if (!body.parsed) return j.violations;
  if (status >= 400) errorRules(j, response, body.value);
  if (status === 200 && !judged.mockControlled && j.operation) {
    const isList = 'X-Total-Count' in ((response.node.headers ?? {}) as Json);
    if (isList) listRules(j, body.value, body.invalid, badHeaders, memory);
    else detailRules(j, body.value, body.invalid, memory);
  }
  if (status === 404 && memory && !judged.mockControlled) listedButMissing(j, memory);
  return j.violations;
}

function judgePreflight(j: Judging): void {
  if (j.exchange.status < 200 || j.exchange.status >= 300) return;
  j.apply('cors.preflight');
  const origin = j.requestHeader('origin');
  const allowOrigin = j.header('access-control-allow-origin');
  // No Access-Control-Allow-Origin: the Origin is not one the deployment accepts (an origin list); nothing more to hold.
  if (allowOrigin === undefined) return;
  if (allowOrigin !== '*' && allowOrigin !== origin)
    j.add('cors.allow-origin', 'Access-Control-Allow-Origin', `* or ${origin}`, allowOrigin);
  const methods = listOf(j.header('access-control-allow-methods'));
  if (!methods.includes('get') && !methods.includes('*'))
    j.add('cors.preflight', 'Access-Control-Allow-Methods', 'a list naming GET', j.header('access-control-allow-methods') ?? '(absent)');
  const asked = listOf(j.requestHeader('access-control-request-headers'));
  const allowedHeaders = listOf(j.header('access-control-allow-headers'));
  const needed = asked.includes('x-api-key') || asked.length === 0 ? ['x-api-key'] : [];
  for (const name of needed)
    if (!allowedHeaders.includes(name) && !allowedHeaders.includes('*'))
      j.add(
        'cors.preflight',
        'Access-Control-Allow-Headers',
        'a list naming X-Api-Key',
        j.header('access-control-allow-headers') ?? '(absent)',
      );
}

function requestIdRule(j: Judging): void {
  const sent = j.requestHeader('x-request-id');
  const answered = j.header('x-request-id');
  if (answered === undefined) return; // a missing X-Request-Id is the declared header's violation
  j.apply('header.request-id');
  if (sent !== undefined && ECHOED_REQUEST_ID.test(sent)) {
    if (answered !== sent) j.add('header.request-id', 'echo', `the request's X-Request-Id ${show(sent)} echoed unchanged`, show(answered));
  } else if (sent !== undefined && answered === sent) {
    j.add('header.request-id', 'generated', `a generated id instead of ${show(sent)}, which breaks the rule`, `${show(answered)} echoed`);
  } else if (answered === '') j.add('header.request-id', 'generated', 'a generated id', 'an empty X-Request-Id');
}

/** Every header the response declares: present when required, keeping its schema. Returns the names found broken. */
function declaredHeaders(j: Judging, response: SpecResponse): Set<string> {
  const broken = new Set<string>();
  const headers = (response.node.headers ?? {}) as Json;
  for (const name of Object.keys(headers)) {
    j.apply('response.header');
    const declared = j.contract.resolve(`${response.pointer}/headers/${pointerSegment(name)}`);
    const raw = j.header(name);
    if (raw === undefined) {
      if (declared.node.required === true) {
        broken.add(name);
        j.add('response.header', name, `a ${name} header (required)`, 'absent');
      }
      continue;
    }
    if (!declared.node.schema) continue;
    const schema = declared.node.schema as Json;
    const validate = j.contract.validator(`${declared.pointer}/schema`);
    const value = schema.type === 'integer' || schema.type === 'number' ? (/^-?\d+$/.test(raw.trim()) ? Number(raw) : raw) : raw;
    if (!validate(value)) {
      broken.add(name);
      j.add('response.header', name, `${name}: ${describeParameterSchema(schema)}`, `${show(raw)} (${ajvReason(validate.errors?.[0])})`);
    }
  }
  return broken;
}

function corsRules(j: Judging): void {
  const origin = j.requestHeader('origin');
  const allowOrigin = j.header('access-control-allow-origin');
  if (origin === undefined || allowOrigin === undefined) return;
  j.apply('cors.allow-origin');
  if (allowOrigin !== '*' && allowOrigin !== origin)
    j.add('cors.allow-origin', 'Access-Control-Allow-Origin', `* or ${origin}`, allowOrigin);
  j.apply('cors.expose');
  const exposed = listOf(j.header('access-control-expose-headers'));
  const missing = EXPOSED.filter((name) => !exposed.includes(name.toLowerCase()) && !exposed.includes('*'));
  if (missing.length > 0)
    j.add(
      'cors.expose',
      'Access-Control-Expose-Headers',
      `a list naming ${EXPOSED.join(', ')}`,
      j.header('access-control-expose-headers') ?? '(absent)',
    );
}

interface Body {
  parsed: boolean;
  value?: unknown;
  /** Instance paths (with indexes) where the body breaks its schema. */
  invalid: string[];
}

/**
 * A Content-Type as RFC 9110 writes it: `type "/" subtype *( OWS ";" OWS [ parameter ] )`, a parameter being
 * `token "=" ( token / quoted-string )` (§8.3.1, §5.6.6). The media type alone is not enough: a parameter with no
 * name (`; =utf-8`), an empty value (`charset=`) or a value with `=` in it is no media type a client can parse.
 */
const TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
const MEDIA_TYPE = new RegExp(`^${TOKEN}/${TOKEN}(?:[ \\t]*;[ \\t]*(?:${TOKEN}=(?:${TOKEN}|"(?:[^"\\\\]|\\\\.)*"))?)*[ \\t]*$`);

function content(j: Judging, response: SpecResponse): Body {
  const documented = response.node.content as Json | undefined;
  const contentType = j.header('content-type');
  j.apply('response.media-type');
  if (!documented) {
    if (j.exchange.bytes.length > 0)
      j.add('response.media-type', 'body', 'no body (the response documents none)', `${j.exchange.bytes.length} bytes`);
    return { parsed: false, invalid: [] };
  }
  const mediaType = contentType?.split(';')[0]!.trim().toLowerCase();
  const key = Object.keys(documented).find((candidate) => candidate.toLowerCase() === mediaType);
  if (!key) {
    j.add('response.media-type', 'Content-Type', `Content-Type ${Object.keys(documented).join(' or ')}`, contentType ?? '(absent)');
    return { parsed: false, invalid: [] };
  }
  if (!MEDIA_TYPE.test(contentType!))
    j.add('response.media-type', 'Content-Type', 'a media type as RFC 9110 writes it (type/subtype; name=value)', contentType!);
  if (!/^application\/(.+\+)?json$/i.test(key)) return { parsed: false, invalid: [] };
  // The answer to HEAD carries the headers of the answer to GET and no body (RFC 9110 §9.3.2).
  if (j.judged.request.method.toUpperCase() === 'HEAD') return { parsed: false, invalid: [] };
  j.apply('response.json');
  const text = checkJsonText(j.exchange.bytes, contentType);
  for (const problem of text.problems) j.add('response.json', problem.kind, 'an RFC 8259 JSON text in UTF-8', problem.message);
  if (!text.parsed) return { parsed: false, invalid: [] };
  j.apply('response.schema');
  const schemaPointer = `${response.pointer}/content/${pointerSegment(key)}/schema`;
  const validate = j.contract.validator(schemaPointer);
  // The schema by its component name (`ClientDetail`), as a reader finds it in the document.
  const schemaName = j.contract.resolve(schemaPointer).pointer.split('/').pop() ?? 'the schema';
  if (validate(text.value)) return { parsed: true, value: text.value, invalid: [] };
  const errors = validate.errors ?? [];
  const byPlace = new Map<string, ErrorObject[]>();
  for (const error of errors) {
    const place = wildcard(error.instancePath);
    byPlace.set(place, [...(byPlace.get(place) ?? []), error]);
  }
  for (const [place, placed] of byPlace) {
    const described = placed.slice(0, 3).map((error) => {
      const params = error.params as { missingProperty?: string; additionalProperty?: string };
      if (error.keyword === 'required') return `${params.missingProperty} is required but missing`;
      if (error.keyword === 'additionalProperties') return `${params.additionalProperty} is not a documented property`;
      return `${error.keyword}: ${error.message ?? 'is not valid'}`;
    });
    const keywords = [...new Set(placed.map((error) => error.keyword))].join(', ');
    j.add(
      'response.schema',
      place,
      `${schemaName} at ${place} (${keywords})`,
      `${place}: ${[...new Set(described)].join('; ')}${placed.length > 3 ? ` (+${placed.length - 3} more)` : ''}`,
      [schemaName],
    );
  }
  return { parsed: true, value: text.value, invalid: errors.map((error) => error.instancePath) };
}

function errorRules(j: Judging, response: SpecResponse, body: unknown): void {
  if (typeof body !== 'object' || body === null || typeof (body as Json).Code !== 'string') return;
  const { Code: code, Message: message } = body as { Code: string; Message?: unknown };
  const status = j.exchange.status;
  const table = j.contract.codesFor(status);
  if (table.length === 0) return; // a status the table does not list: response.status says so
  j.apply('error.code');
  const expected = j.contract.codesOfResponse(response, status);
  if (!expected.includes(code))
    j.add(
      'error.code',
      String(status),
      `Code ${expected.join(' or ')} (the error table for ${status}${j.operation ? '' : ' on a path that is no operation'})`,
      `Code ${code}`,
    );
  if (typeof message !== 'string') return;
  if (status >= 500) {
    j.apply('error.no-stack');
    if (STACK_TRACE.test(message)) j.add('error.no-stack', 'Message', 'a generic Message, never a stack trace', show(message, 120));
  }
  const preferred = j.requestHeader('prefer') !== undefined;
  if (status === 400 && !preferred) {
    // `filter[]` is `filter` in the array syntax many query parsers read (qs, PHP, Rails): a Message naming either names it.
    const names = j.judged.offending.flatMap((name) => [name, ...(/^(.+?)\[[^\]]*\]$/.exec(name)?.slice(1) ?? [])]);
    if (names.length > 0) {
      j.apply('error.message');
      if (!names.some((name) => message.includes(name)))
        j.add('error.message', '400', `a Message naming ${names.join(' or ')}`, show(message, 120));
    }
  }
  if (status === 404 && !preferred && j.operation) {
    const values = Object.values(j.judged.pathParams);
    if (values.length > 0 && expected.length === 1 && expected[0] === code && code !== 'NOT_FOUND') {
      j.apply('error.message');
      if (!values.some((value) => message.toLowerCase().includes(value.toLowerCase())))
        j.add('error.message', '404', `a Message naming ${values.join(', ')}`, show(message, 120));
    }
  }
}

/** True when no schema error lies at or under this instance path. */
function validAt(invalid: readonly string[], path: string): boolean {
  return !invalid.some((where) => where === path || where.startsWith(`${path}/`));
}

function parameterDefault(j: Judging, name: string): number | undefined {
  const parameter = j.operation?.parameters.find((p) => p.in === 'query' && p.name === name);
  return typeof parameter?.schema.default === 'number' ? parameter.schema.default : undefined;
}

/** A paging parameter as the request sent it, else its documented default. */
function pagingValue(j: Judging, name: string): number | undefined {
  if (!j.operation?.parameters.some((p) => p.in === 'query' && p.name === name)) return undefined;
  const sent = j.judged.query.get(name);
  return sent !== undefined ? Number(sent) : parameterDefault(j, name);
}

function listRules(j: Judging, body: unknown, invalid: readonly string[], badHeaders: ReadonlySet<string>, memory?: ExchangeMemory): void {
  if (typeof body !== 'object' || body === null || !Array.isArray((body as Json).Results)) return;
  // A request the judge found invalid got a 200 anyway: response.status says so; its query cannot drive the list rules.
  if (j.judged.violations.length > 0) return;
  const page = body as { Page?: unknown; PageSize?: unknown; Results: Json[] };
  const requested = { page: pagingValue(j, 'page'), pageSize: pagingValue(j, 'pageSize') };
  j.apply('list.echo');
  if (requested.page !== undefined && validAt(invalid, '/Page') && page.Page !== requested.page)
    j.add(
      'list.echo',
      'Page',
      `Page ${requested.page} (the request's${j.judged.query.has('page') ? '' : ' default'})`,
      `Page ${String(page.Page)}`,
    );
  if (requested.pageSize !== undefined && validAt(invalid, '/PageSize') && page.PageSize !== requested.pageSize)
    j.add(
      'list.echo',
      'PageSize',
      `PageSize ${requested.pageSize} (the request's${j.judged.query.has('pageSize') ? '' : ' default'})`,
      `PageSize ${String(page.PageSize)}`,
    );

  const totalText = j.header('x-total-count');
  const total =
    totalText !== undefined && !badHeaders.has('X-Total-Count') && /^\d+$/.test(totalText.trim()) ? Number(totalText) : undefined;
  const { page: p, pageSize: size } = requested;
  if (total !== undefined && p !== undefined && size !== undefined) {
    j.apply('list.total');
    const expected = Math.max(0, Math.min(size, total - (p - 1) * size));
    if (page.Results.length !== expected)
      j.add(
        'list.total',
        'Results',
        `${expected} items (page ${p} of size ${size} over X-Total-Count ${total})`,
        `${page.Results.length} items`,
      );
    const link = j.header('link');
    if (link !== undefined && !badHeaders.has('Link')) linkRules(j, link, total, p, size);
  }

  const rows = page.Results.map((row, i) => ({ row, i })).filter(({ i }) => validAt(invalid, `/Results/${i}`));
  j.apply('list.order');
  j.apply('list.unique');
  const ids = new Map<string, number>();
  const personalIds = new Map<string, number>();
  for (let k = 0; k < rows.length; k += 1) {
    const { row, i } = rows[k]!;
    const id = String(row.IdClient).toLowerCase();
    if (ids.has(id)) {
      j.add(
        'list.unique',
        '/Results/*/IdClient',
        'each client once on a page',
        `${String(row.IdClient)} at Results[${ids.get(id)}] and Results[${i}]`,
      );
      continue;
    }
    ids.set(id, i);
    if (typeof row.PersonalId === 'string') {
      j.apply('record.unique-personal-id');
      if (personalIds.has(row.PersonalId))
        j.add(
          'record.unique-personal-id',
          '/Results/*/PersonalId',
          'a PersonalId no other client has',
          `${row.PersonalId} at Results[${personalIds.get(row.PersonalId)}] and Results[${i}]`,
        );
      personalIds.set(row.PersonalId, i);
    }
    const before = rows[k - 1];
    if (before && before.i === i - 1 && compareClients(before.row as never, row as never) >= 0)
      j.add(
        'list.order',
        '/Results',
        `Results[${i - 1}] before Results[${i}] in the documented order`,
        `${show(String(before.row.FullName), 40)} (${String(before.row.IdClient)}) before ${show(String(row.FullName), 40)} (${String(row.IdClient)})`,
      );
    recordRules(j, row, `/Results/${i}`);
  }

  for (const [name, value] of j.judged.query) {
    const rule = FILTER_RULES[name];
    if (!rule || !j.operation?.parameters.some((p) => p.in === 'query' && p.name === name)) continue;
    j.apply(rule);
    for (const { row, i } of rows) {
      const broken = filterBroken(name, value, row);
      if (broken !== undefined) j.add(rule, `/Results/*`, `every client matching ${name}=${show(value, 40)}`, `Results[${i}] ${broken}`);
    }
  }

  if (memory) {
    const kind = 'PersonalInfo' in (rows[0]?.row ?? {}) ? 'extended' : 'simple';
    for (const { row, i } of rows) {
      if (typeof row.IdClient !== 'string') continue;
      agreeWithMemory(j, memory, row.IdClient, kind, row, `/Results/${i}`);
      memory.remember(row.IdClient, kind, row);
    }
  }
}

/** True when a list row meets every filter of `query` as openapi.yaml states them (the rules the judge holds each row to). */
export function meetsFilters(row: Json, query: Readonly<Record<string, string | undefined>>): boolean {
  return Object.entries(query).every(([name, value]) => value === undefined || filterBroken(name, value, row) === undefined);
}

function filterBroken(name: string, value: string, row: Json): string | undefined {
  if (name === 'active' && (value === 'true' || value === 'false')) {
    const wanted = value === 'true' ? 'Active' : 'Inactive';
    return row.Status === wanted ? undefined : `has Status ${String(row.Status)}`;
  }
  if (name === 'idStaff' || name === 'idLocation') {
    const field = name === 'idStaff' ? 'IdStaff' : 'IdLocation';
    const got = row[field];
    return typeof got === 'string' && got.toLowerCase() === value.toLowerCase() ? undefined : `has ${field} ${JSON.stringify(got)}`;
  }
  if (name === 'filter') {
    if (filterTerm(value) === '') return undefined;
    const fields = { FullName: row.FullName, PersonalId: row.PersonalId, Email: row.Email, Phone: row.Phone };
    if (Object.values(fields).some((field) => typeof field !== 'string')) return undefined;
    return matchesFilter(fields as { FullName: string; PersonalId: string; Email: string; Phone: string }, value)
      ? undefined
      : `(${show(String(row.FullName), 40)}, ${String(row.Email)}, ${String(row.Phone)}) does not match the folded term ${show(filterTerm(value), 40)}`;
  }
  return undefined;
}

/**
 * The Link header against the paging arithmetic: with last = max(1,
 * ceil(total / pageSize)), first and last always, prev when page > 1 naming
 * min(page - 1, last), next when page < last naming page + 1; every target
 * the same path with that page, the same pageSize and every other query
 * parameter of the request with the same value.
 */
function linkRules(j: Judging, header: string, total: number, page: number, pageSize: number): void {
  j.apply('list.link');
  const problems: string[] = [];
  parseLinkHeader(header, problems);
  if (problems.length > 0)
    j.add('list.link', 'syntax', 'link-values separated by commas (RFC 8288 #link-value)', `${problems[0]}; Link: ${show(header, 200)}`);
  const links = linkRelations(header);
  const last = Math.max(1, Math.ceil(total / pageSize));
  for (const rel of ['first', 'last'])
    if (!links.has(rel)) j.add('list.link', `rel=${rel}`, `a rel="${rel}" link`, `Link: ${show(header, 200)}`);
  if (links.has('next') !== page < last)
    j.add('list.link', 'rel=next', `${page < last ? 'a' : 'no'} rel="next" on page ${page} of ${last}`, `Link: ${show(header, 200)}`);
  if (links.has('prev') !== page > 1)
    j.add('list.link', 'rel=prev', `${page > 1 ? 'a' : 'no'} rel="prev" on page ${page}`, `Link: ${show(header, 200)}`);
  const wanted: Record<string, number> = { first: 1, last, prev: Math.min(page - 1, last), next: page + 1 };
  const requestUrl = j.judged.request.url ?? `http://localhost${j.judged.request.path}`;
  const requestPath = new URL(requestUrl).pathname;
  for (const [rel, target] of links) {
    const named = wanted[rel];
    if (named === undefined) continue;
    let url: URL;
    try {
      url = new URL(target, requestUrl);
    } catch {
      j.add('list.link', `rel=${rel}`, 'a URI reference', show(target));
      continue;
    }
    const problems: string[] = [];
    // openapi.yaml: "page links as relative references" (RFC 3986 §4.2: no scheme, no authority).
    if (/^[A-Za-z][A-Za-z0-9+.-]*:/.test(target) || target.startsWith('//')) problems.push('is not a relative reference');
    if (url.pathname !== requestPath) problems.push(`leaves the path ${requestPath}`);
    const pairs = parseQuery(url.search);
    const got = new Map<string, string[]>();
    for (const pair of pairs) got.set(pair.name, [...(got.get(pair.name) ?? []), pair.value]);
    for (const [name, values] of got) if (values.length > 1) problems.push(`gives ${name} twice`);
    const value = (name: string) => got.get(name)?.[0];
    const defaults = { page: parameterDefault(j, 'page') ?? 1, pageSize: parameterDefault(j, 'pageSize') };
    if (Number(value('page') ?? defaults.page) !== named) problems.push(`names page ${value('page') ?? '(none)'}, not ${named}`);
    if (Number(value('pageSize') ?? defaults.pageSize) !== pageSize)
      problems.push(`names pageSize ${value('pageSize') ?? '(none)'}, not ${pageSize}`);
    const others = new Set([...j.judged.query.keys(), ...got.keys()].filter((name) => !PAGING.includes(name)));
    for (const name of others) {
      const sent = j.judged.query.get(name);
      const linked = value(name);
      const parameter = j.operation?.parameters.find((p) => p.name === name);
      const same = parameter?.schema.format === 'uuid' ? sent?.toLowerCase() === linked?.toLowerCase() : sent === linked;
      if (!same)
        problems.push(
          `has ${name}=${linked === undefined ? '(none)' : show(linked, 40)}, the request ${sent === undefined ? '(none)' : show(sent, 40)}`,
        );
    }
    if (problems.length > 0)
      j.add(
        'list.link',
        `rel=${rel}`,
        `rel="${rel}" naming page ${named} of the same query`,
        `<${target.length > 120 ? `${target.slice(0, 120)}…` : target}> ${problems.join('; ')}`,
      );
  }
}

/**
 * The Link rules alone, for a Link header given to a request with a total
 * (used on the document's own Link example): [] when it names the right pages.
 */
export function linkViolations(contract: SpecContract, request: JudgedRequestInput, header: string, total: number): Violation[] {
  const judged = judgeRequest(contract, request);
  const j = new Judging(contract, judged, { status: 200, headers: {}, bytes: new Uint8Array() }, undefined);
  const page = pagingValue(j, 'page');
  const size = pagingValue(j, 'pageSize');
  if (page !== undefined && size !== undefined) linkRules(j, header, total, page, size);
  return j.violations;
}

function recordRules(j: Judging, record: Json, at: string): void {
  for (const rule of [
    'record.luhn',
    'record.birth-date',
    'record.full-name',
    'record.basic-fields',
    'record.staff-name',
    'record.location-name',
  ] as const)
    j.apply(rule);
  for (const problem of recordProblems(record) as RecordProblem[]) {
    const field = problem.field.replace(/\./g, '/');
    j.add(
      problem.rule as JudgeRule,
      wildcard(`${at}/${field}`),
      problem.expected,
      `${at === '' ? '' : `${at.replace(/^\/Results\/(\d+)/, 'Results[$1]')} `}${String(record.IdClient ?? '')} ${problem.field}: ${problem.actual}`.trim(),
    );
  }
}

function detailRules(j: Judging, body: unknown, invalid: readonly string[], memory?: ExchangeMemory): void {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return;
  const record = body as Json;
  if (invalid.length === 0) recordRules(j, record, '');
  for (const [name, value] of Object.entries(j.judged.pathParams)) {
    const field = Object.keys(record).find((key) => key.toLowerCase() === name.toLowerCase());
    if (!field || typeof record[field] !== 'string') continue;
    j.apply('detail.id');
    if ((record[field] as string).toLowerCase() !== value.toLowerCase())
      j.add('detail.id', field, `${field} ${value} (the path's ${name}, compared case-insensitively)`, `${field} ${String(record[field])}`);
    if (memory && invalid.length === 0 && j.judged.violations.length === 0) {
      agreeWithMemory(j, memory, record[field] as string, 'detail', record, '');
      memory.remember(record[field] as string, 'detail', record);
    }
  }
}

/** A 404 for a client the memory has seen listed: the lists and Detail disagree. */
function listedButMissing(j: Judging, memory: ExchangeMemory): void {
  if (!j.operation || j.judged.violations.length > 0) return;
  for (const value of Object.values(j.judged.pathParams)) {
    const seen = memory.recall(value);
    if (!seen?.extended && !seen?.simple) continue;
    j.apply('detail.agrees-with-list');
    j.add('detail.agrees-with-list', 'status', `200 with the client ${value}, which a list returned`, `${j.exchange.status}`);
  }
}

/** The fields a Detail and a list row share, as the description of getClientDetail pairs them; undefined where the record lacks the section. */
function sharedFields(kind: 'simple' | 'extended' | 'detail', record: Json): Record<string, unknown> {
  const info = record.PersonalInfo as Json | undefined;
  const contact = record.ContactInfo as Json | undefined;
  if (kind === 'detail') {
    const staff = record.Staff as Json | null | undefined;
    const location = record.Location as Json | null | undefined;
    return {
      FullName: info?.FullName,
      PersonalId: info?.PersonalId,
      Email: contact?.Email,
      Phone: contact?.Phone,
      PersonalInfo: info,
      ContactInfo: contact,
      Status: record.Status,
      IdStaff: staff === undefined ? undefined : (staff?.IdStaff ?? null),
      StaffName: staff === undefined ? undefined : (staff?.FullName ?? null),
      IdLocation: location === undefined ? undefined : (location?.IdLocation ?? null),
      LocationName: location === undefined ? undefined : (location?.Name ?? null),
    };
  }
  const shared: Record<string, unknown> = {
    FullName: record.FullName,
    PersonalId: record.PersonalId,
    Email: record.Email,
    Phone: record.Phone,
  };
  if (kind === 'extended')
    Object.assign(shared, {
      PersonalInfo: info,
      ContactInfo: contact,
      Status: record.Status,
      IdStaff: record.IdStaff,
      StaffName: record.StaffName,
      IdLocation: record.IdLocation,
      LocationName: record.LocationName,
    });
  return shared;
}

function agreeWithMemory(
  j: Judging,
  memory: ExchangeMemory,
  idClient: string,
  kind: 'simple' | 'extended' | 'detail',
  record: Json,
  at: string,
): void {
  const seen = memory.recall(idClient);
  if (!seen) return;
  const mine = sharedFields(kind, record);
  for (const other of ['simple', 'extended', 'detail'] as const) {
    const earlier = seen[other];
    if (!earlier) continue;
    const theirs = sharedFields(other, earlier);
    const rule: JudgeRule = kind === 'detail' || other === 'detail' ? 'detail.agrees-with-list' : 'list.rows-agree';
    j.apply(rule);
    // JSON objects are unordered (RFC 8259): values are compared, not serializations.
    const differing = Object.keys(mine).filter(
      (field) => mine[field] !== undefined && theirs[field] !== undefined && !isDeepStrictEqual(mine[field], theirs[field]),
    );
    if (differing.length > 0) {
      const field = differing[0]!;
      j.add(
        rule,
        differing.join(','),
        `${field} ${JSON.stringify(theirs[field]).slice(0, 120)} (as the ${other === 'detail' ? 'Detail' : `${other === 'simple' ? 'Simple' : 'Extended'} row`} seen earlier for ${idClient})`,
        `${at ? `${at.replace(/^\/Results\/(\d+)/, 'Results[$1]')} ` : ''}${field} ${JSON.stringify(mine[field]).slice(0, 120)}${differing.length > 1 ? ` (also ${differing.slice(1).join(', ')})` : ''}`,
      );
    }
  }
}
