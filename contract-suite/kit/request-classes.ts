// The classes of request a run sent, measured from the requests themselves (never from what the checks meant to
// send), so a kind of question the suite never asks shows as a 0 rather than as silence. Each dimension's classes
// are derived from the document in use and from HTTP: every method of RFC 9110 (and PATCH, an extension method a
// stack knows and one it does not) on a path of the document and on one it does not have; CORS preflights with and
// without a query; each precondition header with the target's own validators, `*` or another value; every header
// parameter and credential header absent, empty, white space only, with white space around its value, on two
// lines; where the credential travels; what the query breaks (the judge's request rules); broken framing.
import { fieldLines, judgeRequest } from '../../contract/judge';
import type { ApiRequest } from '../../contract/exchange';
import type { SpecContract } from '../../contract/spec-contract';

export interface RequestClass {
  dimension: string;
  class: string;
}

/** The methods a run is expected to send: RFC 9110's, PATCH, a cache's PURGE and one no stack knows (derived/document.ts). */
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'CONNECT', 'OPTIONS', 'TRACE', 'PATCH', 'PURGE', 'BREW'];
const ON_PATH = 'a path of the document';
const OFF_PATH = 'a path it does not have';
const PRECONDITIONS = ['If-None-Match', 'If-Match', 'If-Modified-Since', 'If-Unmodified-Since', 'If-Range'];
const FORMS = ['absent', 'a value', 'empty', 'white space only', 'white space around the value', 'on two lines'];
const QUERY = [
  'none',
  'documented, valid',
  'a value its schema refuses',
  'a cut percent-encoding',
  'an undocumented parameter',
  'a parameter twice',
];
const KEY = ['the accepted key', 'no key', 'an unknown key', 'a near miss of the key', 'the key elsewhere too'];
const CORS = ['no Origin', 'an Origin', 'a preflight, no query', 'a preflight, documented query', 'a preflight, a query it refuses'];

/** The header parameters and credential headers of the document, each name once, in the document's order. */
function headerNames(contract: SpecContract): string[] {
  const names = contract.operations.flatMap((operation) => [
    ...operation.credentials.filter((c) => c.in === 'header').map((c) => c.name),
    ...operation.parameters.filter((p) => p.in === 'header').map((p) => p.name),
  ]);
  return [...new Set(names)];
}

/**
 * The classes a target that sent no ETag gives no way to reach (If-Match and If-None-Match compare entity tags;
 * RFC 9110 §13.1.1-2), listed as not applicable instead of as never asked.
 */
export function withoutEntityTags(): RequestClass[] {
  return PRECONDITIONS.filter((name) => name.endsWith('Match')).map((name) => ({
    dimension: 'precondition',
    class: `${name} · a validator the target sent`,
  }));
}

/** Every class the run is expected to reach, in order: those it never reached are reported with 0. */
export function expectedClasses(contract: SpecContract): RequestClass[] {
  const of = (dimension: string, classes: readonly string[]) => classes.map((name) => ({ dimension, class: name }));
  return [
    ...of(
      'method · path',
      METHODS.flatMap((method) => [`${method} · ${ON_PATH}`, `${method} · ${OFF_PATH}`]),
    ),
    ...of('CORS', CORS),
    ...of(
      'precondition',
      PRECONDITIONS.flatMap((name) => [
        ...(name.endsWith('Match') ? [`${name} · *`] : []),
        `${name} · a validator the target sent`,
        `${name} · another value`,
      ]),
    ),
    ...headerNames(contract).flatMap((name) => of(`header ${name}`, FORMS)),
    ...of('credential', KEY),
    ...of('query', QUERY),
  ];
}

/**
 * What the run learned of the target's validators so far (its ETag, Last-Modified and Date values), so a
 * precondition can be classed as using one of them. Bounded: a run sees one Date a second.
 */
export class ValidatorsSeen {
  private readonly values = new Set<string>();
  /** Whether the target ever sent an ETag: If-Match and If-None-Match take nothing else it sends. */
  entityTags = false;

  note(headers: Headers): void {
    for (const name of ['etag', 'last-modified', 'date']) {
      const value = headers.get(name);
      if (value !== null && this.values.size < 100_000) this.values.add(value.trim());
    }
    if (headers.has('etag')) this.entityTags = true;
  }

  has(value: string): boolean {
    return this.values.has(value.trim());
  }
}

function headerForm(lines: readonly (readonly [string, string])[], name: string): string {
  const values = lines.filter(([field]) => field.toLowerCase() === name.toLowerCase()).map(([, value]) => value);
  if (values.length === 0) return 'absent';
  if (values.length > 1) return 'on two lines';
  const value = values[0]!;
  if (value === '') return 'empty';
  if (/^[ \t]+$/.test(value)) return 'white space only';
  return value !== value.replace(/^[ \t]+|[ \t]+$/g, '') ? 'white space around the value' : 'a value';
}

/**
 * The classes one request belongs to, one per dimension it has a class in. `lines` are its field lines as sent
 * (kit/http.ts requestLines), `seen` the validators the target had sent before it.
 */
export function classify(
  contract: SpecContract,
  request: ApiRequest,
  lines: readonly (readonly [string, string])[],
  seen: ValidatorsSeen,
): RequestClass[] {
  const bag: Record<string, string[]> = {};
  for (const [name, value] of lines) (bag[name.toLowerCase()] ??= []).push(value);
  const judged = judgeRequest(contract, { method: request.method, path: request.path, headers: bag });
  const classes: RequestClass[] = [];
  const add = (dimension: string, name: string) => classes.push({ dimension, class: name });
  if (request.framing) add('framing', `broken: ${request.framing.rule.replace(/\s*\(.*$/, '')}`);

  const method = request.method.toUpperCase();
  add('method · path', `${method} · ${judged.operationId === undefined ? OFF_PATH : ON_PATH}`);

  const query = request.path.includes('?');
  // What the query alone breaks: the path's GET judged without any header.
  const queryRules = new Set(
    judgeRequest(contract, { method: 'GET', path: request.path, headers: {}, keyAccepted: true }).violations.map((v) =>
      v.actual.startsWith('bad percent-encoding') ? 'cut' : v.rule,
    ),
  );
  const queryRefused = ['cut', 'request.unknown-parameter', 'request.repeated', 'request.value'].some((rule) => queryRules.has(rule));
  if (judged.kind === 'preflight')
    add('CORS', !query ? 'a preflight, no query' : queryRefused ? 'a preflight, a query it refuses' : 'a preflight, documented query');
  else add('CORS', fieldLines(bag, 'origin') === undefined ? 'no Origin' : 'an Origin');

  for (const name of PRECONDITIONS) {
    const value = fieldLines(bag, name)?.join(', ');
    if (value === undefined) continue;
    add(
      'precondition',
      `${name} · ${value === '*' && name.endsWith('Match') ? '*' : seen.has(value) ? 'a validator the target sent' : 'another value'}`,
    );
  }
  for (const name of headerNames(contract)) add(`header ${name}`, headerForm(lines, name));

  const credentials = judged.operationId === undefined ? [] : contract.operation(judged.operationId).credentials;
  const inOwnLines = (request.lines ?? []).some(([name]) => credentials.some((c) => c.name.toLowerCase() === name.toLowerCase()));
  // A credential in the request's own lines is classed by its header's form above.
  if (credentials.length > 0 && !inOwnLines)
    add(
      'credential',
      request.keyAt
        ? 'the key elsewhere too'
        : request.key === 'valid'
          ? 'the accepted key'
          : request.key === 'none'
            ? 'no key'
            : request.key === 'wrong'
              ? 'an unknown key'
              : 'a near miss of the key',
    );

  if (judged.kind === 'operation')
    add(
      'query',
      !query
        ? 'none'
        : queryRules.has('cut')
          ? 'a cut percent-encoding'
          : queryRules.has('request.unknown-parameter')
            ? 'an undocumented parameter'
            : queryRules.has('request.repeated')
              ? 'a parameter twice'
              : queryRules.has('request.value')
                ? 'a value its schema refuses'
                : 'documented, valid',
    );
  return classes;
}
