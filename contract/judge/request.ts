// judgeRequest derives from the served document alone (each operation's
// parameter schemas and security) what a request breaks and which statuses
// openapi.yaml allows as its answer: an undocumented, repeated or empty
// parameter, a value that breaks its schema (type, format, enum, minimum,
// maximum, minLength/maxLength counted in code points, pattern), a missing
// credential or one sent elsewhere than its scheme says, an unknown path or
// another method. Where the document leaves an order open (401 before 400 or
// after), both statuses are allowed.
import { fieldLines, headerOf, type HeaderBag } from '../headers';
import { preferPlan } from './prefer';
import { parseQuery, type QueryPair } from './query';
import type { JudgeRule } from './rules';
import { sentencesFor } from './sentences';
import type { JudgedRequestInput, JudgeOptions, RequestJudgement, Violation } from './types';
import { ajvReason, describeParameterSchema, show } from './words';
import type { SpecContract, SpecOperation, SpecParameter } from '../spec-contract';

type Json = Record<string, unknown>;

/** A parameter's raw text as the JSON value its schema types it as, so Ajv can judge it (`12` → 12 for an integer). */
function coerce(raw: string, schema: Json): unknown {
  const types = Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type];
  if (types.includes('integer') && /^-?\d+$/.test(raw)) return Number(raw);
  if (types.includes('number') && /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(raw)) return Number(raw);
  if (types.includes('boolean') && (raw === 'true' || raw === 'false')) return raw === 'true';
  return raw;
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
    cause: `${rule} ${where}`.trim(),
  };
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
  // Violations the deployment may answer as if they were not there: bad values of a header a real deployment
  // ignores (openapi.yaml says so of Prefer), a cut percent-encoding read as text (below).
  const ignorable = new Set<Violation>();
  /** A value was read as text: no list rule can say what that text matches. */
  let readAsText = false;
  const pairs = parseQuery(search);
  const query = new Map<string, string>();
  const documented = new Map(operation.parameters.filter((p) => p.in === 'query').map((p) => [p.name, p]));
  const credentialNames = new Set(operation.credentials.filter((c) => c.in === 'query').map((c) => c.name));
  const counts = new Map<string, number>();
  for (const pair of pairs) counts.set(pair.name, (counts.get(pair.name) ?? 0) + 1);
  for (const pair of pairs) {
    if (pair.decodeError !== undefined) {
      const violation = requestViolation(id, 'request.value', pair.name, 'percent-encoded UTF-8 (RFC 3986)', pair.decodeError, applied);
      violations.push(violation);
      // RFC 3986 §2.1 makes a cut encoding no URI, but the document states only `+` and `%20`: unless strictHttp, a
      // deployment may answer the value read as text, where the parameter's schema takes that text.
      const parameter = documented.get(pair.name);
      const asText = pair.asText ?? '';
      if (!options.strictHttp && parameter && parameterViolations(contract, id, parameter, asText, undefined).length === 0) {
        ignorable.add(violation);
        readAsText = true;
      }
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
    // A credential header on several lines (RFC 9110 §5.3 gives a singleton no combined value): the document says
    // nothing of it, so the deployment may take a line, refuse the key (401) or refuse the request (400).
    if (credential.in === 'header' && (fieldLines(request.headers, credential.name)?.length ?? 0) > 1) {
      const violation = requestViolation(
        id,
        'request.repeated',
        credential.name,
        `one ${credential.name} line`,
        `${fieldLines(request.headers, credential.name)!.length} ${credential.name} lines`,
        applied,
      );
      violations.push(violation);
      ignorable.add(violation);
      keyMaybe = true;
      continue;
    }
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
    mockControlled: mockControlled || readAsText,
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
