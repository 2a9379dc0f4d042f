// Every parameter × every keyword of its schema: the values just inside each
// bound are accepted and the values just outside are rejected with the
// documented 400 and a Message that names the parameter (error table: "a
// parameter or header breaks this document; the Message names it").
//   type (an integer in decimal digits: not `1e1`, not `0x10`), format (RFC
//   9562 uuids of every version and either case; other spellings are not
//   uuids; int32), enum, minimum/maximum and their exclusive forms,
//   minLength/maxLength in code points (JSON Schema counts code points, not
//   UTF-16 units, bytes or graphemes), pattern; and what OpenAPI adds to a
//   query parameter: presence without a value (allowEmptyValue), repetition,
//   percent-encoding that does not decode (a path parameter's too),
//   allowReserved (reserved characters sent as they are mean what their
//   percent-encoded form means). Query parameters the operation does not
//   document, including another case of one it does and bracketed names such
//   as `x[__proto__]`, are rejected by name.
// Every value is held to the document's own schema first (schemaAccepts), so
// a check never expects what the schema does not say.
import type { CheckContext, Define, DefineOptions } from '../kit/context';
import type { ApiRequest, Exchange, KeyRole } from '../../contract/exchange';
import type { ListQuery } from '../kit/semantics';
import { readAsText, type RuleId } from '../../contract/judge';
import type { SpecContract, SpecOperation, SpecParameter } from '../../contract/spec-contract';
import { checkOperation, examplePath, exampleValue, operationError, schemaAccepts, type ErrorAnswer } from './document';
import { expectAccepted, expectConforming, expectRefusedByFront, expectRejected, fromHttpLayer, plainAnswer } from './expect';
import { sameBody } from '../kit/answers';

type Json = Record<string, unknown>;

/** How a value travels: as `name=value` (percent-encoded unless `raw`), or the name alone (presence without a value). */
export interface ParameterValue {
  text: string;
  /** Sent without percent-encoding (allowReserved). */
  raw?: boolean;
  /** A query parameter written as its name alone, `?name`, no `=`. */
  bare?: boolean;
  /** A query parameter written twice with this value. */
  twice?: boolean;
  /** Sent as it is, percent-encoding that does not decode to UTF-8 (RFC 3986): bad whatever the schema. */
  undecodable?: boolean;
  /** How the check's title shows it. */
  shown?: string;
}

export interface KeywordCase {
  parameter: SpecParameter;
  /** The schema keyword (or OpenAPI field) the values probe, e.g. `maximum 100`. */
  keyword: string;
  accepted: ParameterValue[];
  rejected: ParameterValue[];
  /** For a header the document says a real deployment ignores: its answer may equal the accepted one instead of 400. */
  mayBeIgnored?: boolean;
  /** allowReserved: each accepted raw value must mean what its encoded form means. */
  sameAsEncoded?: boolean;
}

const INT32 = { min: -(2 ** 31), max: 2 ** 31 - 1 };

/** RFC 9562 Appendix A's example uuids (v1, v4, v7, v8) in either case, and the Nil and Max uuids (§5.9, §5.10). */
export const UUIDS_OF_EVERY_VERSION = [
  'c232ab00-9414-11ec-b3c8-9f6bdeced846',
  '919108F7-52D1-4320-9BAC-F847DB4148A8',
  '017F22e2-79B0-7cc3-98C4-DC0C0C07398F',
  '2489e9ad-2ee2-8e00-8ec9-32d5f69181c0',
  '00000000-0000-0000-0000-000000000000',
  'FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF',
];

/**
 * Spellings of a uuid that are not the uuid string of RFC 9562 §4 (8-4-4-4-12 hex digits), derived from the
 * grammar's groups: each group, and the groups that share a length (which a checker may well match by one repeated
 * rule), in turn of one digit, one digit short, and of letters that are not hex digits; a run of groups sharing a
 * length cut to one of them and to none; values of other types (a boolean, an integer). A server that checks a uuid
 * by a looser rule than the grammar's, in any group, is told from one that does not.
 */
function otherUuidSpellings(uuid: string): ParameterValue[] {
  const groups = uuid.split('-');
  const sameLength = [...new Set(groups.map((group) => group.length))]
    .map((length) => groups.flatMap((group, i) => (group.length === length ? [i] : [])))
    .filter((members) => members.length > 1);
  const selections = [...groups.map((_, i) => [i]), ...sameLength];
  const named = (members: number[]) =>
    members.length === 1 ? `group ${members[0]! + 1}` : `groups ${members.map((i) => i + 1).join(', ')}`;
  const changed = (members: number[], change: (group: string) => string) =>
    groups.map((group, i) => (members.includes(i) ? change(group) : group)).join('-');
  return [
    { text: uuid.replace(/-/g, ''), shown: 'no dashes' },
    { text: `{${uuid}}`, shown: 'braces' },
    { text: `urn:uuid:${uuid}`, shown: 'urn:uuid:' },
    { text: uuid.slice(0, -1), shown: '35 characters' },
    { text: `g${uuid.slice(1)}`, shown: 'a non-hex digit' },
    { text: `${uuid.slice(0, 7)}-${uuid[7]}${uuid.slice(9)}`, shown: 'a dash moved' },
    ...selections.flatMap((members) => [
      { text: changed(members, (group) => group[0]!), shown: `${named(members)} of one digit` },
      { text: changed(members, (group) => group.slice(1)), shown: `${named(members)} one digit short` },
      { text: changed(members, (group) => 'z'.repeat(group.length)), shown: `${named(members)} of non-hex letters` },
    ]),
    // A run of groups that share a length, down to one of them or none: a repeated rule's count.
    ...sameLength.flatMap((members) => [
      { text: groups.filter((_, i) => !members.includes(i) || i === members[0]).join('-'), shown: `${named(members)}: only the first` },
      { text: groups.filter((_, i) => !members.includes(i)).join('-'), shown: `${named(members)} missing` },
    ]),
    { text: 'true', shown: 'a boolean' },
    { text: '12345678', shown: 'an integer' },
  ];
}

const show = (text: string) => (text.length > 45 ? `<${[...text].length} code points>` : JSON.stringify(text));
const named = (values: readonly string[]): ParameterValue[] => values.map((text) => ({ text }));

/** `n` code points of text made of `unit` (astral units count once each). */
const codePoints = (unit: string, n: number) => unit.repeat(Math.max(0, n));

function numberCases(parameter: SpecParameter, schema: Json, integer: boolean): KeywordCase[] {
  const cases: KeywordCase[] = [];
  const int32 = schema.format === 'int32';
  const step = integer ? 1 : 0.5;
  const bound = (keyword: 'minimum' | 'maximum') => {
    const exclusive = schema[keyword === 'minimum' ? 'exclusiveMinimum' : 'exclusiveMaximum'];
    const sign = keyword === 'minimum' ? 1 : -1;
    if (typeof schema[keyword] === 'number') return { value: schema[keyword] as number, label: `${keyword} ${schema[keyword] as number}` };
    if (typeof exclusive === 'number')
      return { value: exclusive + sign * step, label: `exclusive${keyword[0]!.toUpperCase()}${keyword.slice(1)} ${exclusive}` };
    if (int32) return { value: keyword === 'minimum' ? INT32.min : INT32.max, label: 'format int32' };
    return undefined;
  };
  for (const keyword of ['minimum', 'maximum'] as const) {
    const found = bound(keyword);
    if (!found) continue;
    const outside = found.value + (keyword === 'minimum' ? -step : step);
    const label =
      int32 && (outside < INT32.min || outside > INT32.max) && !found.label.startsWith('format')
        ? `${found.label}, format int32`
        : found.label;
    cases.push({ parameter, keyword: label, accepted: named([String(found.value)]), rejected: named([String(outside)]) });
  }
  const low = bound('minimum')?.value ?? 0;
  // An integer is written in decimal digits (as schemaAccepts and the judge read one): an exponent or a hex literal
  // names a number in range, but is not how an integer is written, however a number parser would read it.
  cases.push({
    parameter,
    keyword: `type ${integer ? 'integer' : 'number'}`,
    accepted: [],
    rejected: [
      ...named(integer ? [`${low}.5`, 'one', '1e1', '0x10'] : ['one']),
      // In a query `+` is a space (form encoding), so `1+` is "1 ": not digits either, though a number parser trims it.
      ...(integer && parameter.in === 'query' ? [{ text: '1+', raw: true, shown: '"1+" (a space)' }] : []),
    ],
  });
  return cases;
}

function stringCases(contract: SpecContract, parameter: SpecParameter, schema: Json): KeywordCase[] {
  const cases: KeywordCase[] = [];
  const unicode = parameter.in !== 'header'; // Header values are ASCII in practice (RFC 9110 §5.5: other octets are opaque).
  if (schema.format === 'uuid') {
    cases.push({
      parameter,
      keyword: 'format uuid (RFC 9562: any version, either case)',
      accepted: UUIDS_OF_EVERY_VERSION.map((text) => ({ text })),
      rejected: otherUuidSpellings(UUIDS_OF_EVERY_VERSION[0]!),
    });
  }
  if (Array.isArray(schema.enum)) {
    const values = schema.enum.map(String);
    const first = values[0] ?? 'x';
    const other = first === first.toUpperCase() ? first.toLowerCase() : first.toUpperCase();
    cases.push({
      parameter,
      keyword: `enum ${values.join(', ')}`,
      accepted: named(values),
      rejected: named([other, `${first}-not-listed`]),
    });
  }
  const formatted = schema.format !== undefined || Array.isArray(schema.enum) || typeof schema.pattern === 'string';
  /** A valid value of exactly n code points, where the format allows one. */
  const ofLength = (n: number, unit: string): string | undefined => {
    if (!formatted) return codePoints(unit, n);
    const known = [exampleValue(contract, parameter), ...UUIDS_OF_EVERY_VERSION].find(
      (text) => text !== undefined && [...text].length === n,
    );
    return known;
  };
  if (typeof schema.maxLength === 'number') {
    const max = schema.maxLength;
    const inside = [ofLength(max, 'x'), unicode && !formatted ? codePoints('😀', max) : undefined].filter(
      (t): t is string => t !== undefined,
    );
    const insideShown = inside.map((text, i) => ({
      text,
      shown: i === 0 ? `${max} code points` : `${max} astral code points (${2 * max} UTF-16 units)`,
    }));
    const base = inside[0] ?? codePoints('x', max);
    const outside: ParameterValue[] = [{ text: `${base}${formatted ? '0' : 'x'}`, shown: `${max + 1} code points` }];
    if (unicode && !formatted) {
      // e + U+0301: max + 1 code points in about half as many graphemes, so a grapheme count would let it through.
      const pairs = Math.floor((max + 1) / 2);
      outside.push({
        text: codePoints('e\u0301', pairs) + ((max + 1) % 2 === 1 ? 'e' : ''),
        shown: `${max + 1} code points, ${pairs + ((max + 1) % 2)} graphemes`,
      });
      // U+FFFF, the last code point of one UTF-16 unit: a count that takes it for a surrogate pair lets this through.
      outside.push({ text: codePoints('\uffff', max + 1), shown: `${max + 1} code points U+FFFF` });
    }
    cases.push({ parameter, keyword: `maxLength ${max} (code points)`, accepted: insideShown, rejected: outside });
  }
  if (typeof schema.minLength === 'number' && schema.minLength > 0) {
    const min = schema.minLength;
    const inside = ofLength(min, 'x');
    cases.push({
      parameter,
      keyword: `minLength ${min}`,
      accepted: inside === undefined ? [] : [{ text: inside, shown: `${min} code points` }],
      rejected: [{ text: codePoints('x', min - 1), shown: `${min - 1} code points` }],
    });
  }
  if (typeof schema.pattern === 'string') {
    const example = exampleValue(contract, parameter);
    const candidates = [example === undefined ? undefined : `${example}!`, '', ' ', example?.slice(1), 'x'].filter(
      (t): t is string => t !== undefined,
    );
    const pattern = new RegExp(schema.pattern, 'u');
    cases.push({
      parameter,
      keyword: `pattern ${schema.pattern}`,
      accepted: example !== undefined && pattern.test(example) ? [{ text: example }] : [],
      rejected: candidates
        .filter((text) => !pattern.test(text))
        .slice(0, 1)
        .map((text) => ({ text })),
    });
  }
  return cases;
}

/** A value the schema accepts, for the probes that need one (repetition): the example, else the first accepted bound. */
function validValue(contract: SpecContract, parameter: SpecParameter, cases: readonly KeywordCase[]): string | undefined {
  const candidates = [exampleValue(contract, parameter), ...cases.flatMap((c) => c.accepted.map((v) => v.text))];
  return candidates.find((text) => text !== undefined && schemaAccepts(contract, parameter, text));
}

/** RFC 3986 reserved characters that do not delimit a query pair (`&`, `#`, `+` would: `+` means a space here). */
const RESERVED_IN_VALUE = ":/?@!$'()*,;=[]";

/** A percent-encoding cut inside a UTF-8 sequence: no URI by RFC 3986 §2.1. */
const CUT_ENCODING = '%E0%A4%A';

/**
 * The keyword cases of one parameter, each value checked against the document's schema (a case the schema
 * contradicts is dropped). A cut percent-encoding is refused by every reading only where the schema refuses its
 * text too (an integer, a uuid); elsewhere (a free text) only RFC 3986 refuses it, so only --strict-http asks.
 */
export function parameterCases(contract: SpecContract, parameter: SpecParameter, options: DefineOptions = {}): KeywordCase[] {
  if (parameter.in === 'cookie') return []; // No cookie parameter in this document's style to send; none derived.
  const schema = parameter.schema;
  const types = ([] as unknown[]).concat(schema.type ?? []);
  let cases: KeywordCase[] = [];
  if (types.includes('integer')) cases = numberCases(parameter, schema, true);
  else if (types.includes('number')) cases = numberCases(parameter, schema, false);
  else if (types.includes('boolean'))
    cases = [
      {
        parameter,
        keyword: 'type boolean (only true and false)',
        accepted: named(['true', 'false']),
        rejected: named(['True', 'FALSE', '1', '0']),
      },
    ];
  else if (types.includes('string') || types.length === 0) cases = stringCases(contract, parameter, schema);

  const textReadingAccepted = schemaAccepts(contract, parameter, readAsText(CUT_ENCODING));
  if ((parameter.in === 'query' || parameter.in === 'path') && (options.strictHttp || !textReadingAccepted))
    // A value that is not percent-encoded UTF-8 (RFC 3986 §2.1, the judge's request.value).
    cases.push({
      parameter,
      keyword: `percent-encoding (RFC 3986${textReadingAccepted ? ', --strict-http: the document states no reading' : ''})`,
      accepted: [],
      rejected: [{ text: CUT_ENCODING, raw: true, undecodable: true, shown: `${CUT_ENCODING} (a cut UTF-8 sequence)` }],
    });
  if (parameter.in === 'query') {
    const emptyOk = parameter.allowEmptyValue || schemaAccepts(contract, parameter, '');
    const empty: ParameterValue[] = [
      { text: '', shown: `${parameter.name}=` },
      { text: '', bare: true, shown: `${parameter.name} alone` },
    ];
    cases.push({
      parameter,
      keyword: `presence without a value (allowEmptyValue: ${parameter.allowEmptyValue})`,
      accepted: emptyOk ? empty : [],
      rejected: emptyOk ? [] : empty,
    });
    const value = validValue(contract, parameter, cases);
    if (value !== undefined && !types.includes('array'))
      cases.push({
        parameter,
        keyword: 'given twice',
        accepted: [],
        rejected: [{ text: value, twice: true, shown: `${show(value)} twice` }],
      });
    if (parameter.allowReserved && schemaAccepts(contract, parameter, RESERVED_IN_VALUE))
      cases.push({
        parameter,
        keyword: 'allowReserved (reserved characters as they are)',
        accepted: [{ text: RESERVED_IN_VALUE, raw: true, shown: RESERVED_IN_VALUE }],
        rejected: [],
        sameAsEncoded: true,
      });
  }
  // A header the document says a real deployment ignores: a value outside its schema may be ignored too.
  const mayBeIgnored = parameter.ignoredByDeployment;
  return cases
    .map((c) => ({
      ...c,
      mayBeIgnored,
      accepted: c.accepted.filter((v) => schemaAccepts(contract, parameter, v.text)),
      rejected: c.rejected.filter((v) => !schemaAccepts(contract, parameter, v.text) || v.twice || v.undecodable),
    }))
    .filter((c) => c.accepted.length > 0 || c.rejected.length > 0);
}

/** The request that carries one value of one parameter, every other parameter at its example (path) or left out. */
export function requestWith(contract: SpecContract, operation: SpecOperation, parameter: SpecParameter, value: ParameterValue): ApiRequest {
  const key: KeyRole = operation.isPublic ? 'none' : 'valid';
  if (parameter.in === 'path')
    return {
      method: 'GET',
      path: examplePath(contract, operation, { [parameter.name]: value.text }, value.raw ? [parameter.name] : []),
      key,
    };
  const path = examplePath(contract, operation);
  if (parameter.in === 'header') return { method: 'GET', path, key, headers: { [parameter.name]: value.text } };
  const name = encodeURIComponent(parameter.name);
  const pair = value.bare ? name : `${name}=${value.raw ? value.text : encodeURIComponent(value.text)}`;
  return { method: 'GET', path: `${path}?${value.twice ? `${pair}&${pair}` : pair}`, key };
}

const query = (parameter: SpecParameter, value: ParameterValue): ListQuery | undefined =>
  parameter.in === 'query' && !value.twice ? ({ [parameter.name]: value.text } as ListQuery) : undefined;

/** 400 naming the header, or, from a deployment that ignores it (as its description allows), the answer without it. */
async function expectIgnoredOrRejected(
  context: CheckContext,
  exchange: Exchange,
  rejection: ErrorAnswer,
  parameter: SpecParameter,
): Promise<void> {
  if (exchange.status === rejection.status) return expectRejected(context, exchange, rejection, parameter.name);
  const headers = Object.fromEntries(Object.entries(exchange.request.headers ?? {}).filter(([name]) => name !== parameter.name));
  const without: ApiRequest = { ...exchange.request, headers };
  const plain = await plainAnswer(context, without);
  context.expect(
    exchange.status === plain.status,
    exchange,
    `expected ${rejection.status} naming ${parameter.name}, or the ${plain.status} of a deployment that ignores ${parameter.name} (its description), got ${exchange.status}`,
    'response.status',
  );
  expectConforming(context, exchange, without);
}

function caseTitle(operation: SpecOperation, c: KeywordCase, rejection: ErrorAnswer): string {
  const where = `${c.parameter.in} parameter ${c.parameter.name}`;
  const parts: string[] = [];
  if (c.accepted.length > 0)
    parts.push(
      `${c.accepted.map((v) => v.shown ?? show(v.text)).join(', ')} accepted${c.sameAsEncoded ? ' as their percent-encoded form' : ''}`,
    );
  if (c.rejected.length > 0)
    parts.push(
      `${c.rejected.map((v) => v.shown ?? show(v.text)).join(', ')} → ${rejection.status} ${rejection.codes.join('/')} naming ${c.parameter.name}${c.mayBeIgnored ? ' (or ignored)' : ''}`,
    );
  return `GET ${operation.template} ${where}, ${c.keyword}: ${parts.join('; ')}`;
}

/** The query parameter names the operation does not document: another case of each it does, and every other operation's. */
export function undocumentedNames(contract: SpecContract, operation: SpecOperation): { name: string; value: string }[] {
  const documented = operation.parameters.filter((p) => p.in === 'query');
  const names = new Map<string, string>();
  for (const parameter of documented) {
    const other = parameter.name === parameter.name.toLowerCase() ? parameter.name.toUpperCase() : parameter.name.toLowerCase();
    names.set(other, validValue(contract, parameter, parameterCases(contract, parameter)) ?? '1');
  }
  for (const parameter of contract.operations.flatMap((o) => o.parameters.filter((p) => p.in === 'query'))) {
    if (!documented.some((p) => p.name === parameter.name) && !names.has(parameter.name))
      names.set(parameter.name, validValue(contract, parameter, parameterCases(contract, parameter)) ?? '1');
  }
  // Bracketed names a query parser may read as members of an object, here members of Object.prototype: a parser
  // that guards against prototype pollution drops them, but they are names the operation does not document either.
  const first = documented[0]?.name ?? 'x';
  names.set(`x[__proto__]`, '1');
  names.set(`${first}[constructor]`, '1');
  return [...names].filter(([name]) => !documented.some((p) => p.name === name)).map(([name, value]) => ({ name, value }));
}

/** The rule ids a keyword case enforces (the sentence table maps sentences to them). */
function caseRules(c: KeywordCase): RuleId[] {
  if (c.keyword === 'given twice') return ['request.repeated', 'error.message'];
  if (c.sameAsEncoded) return ['request.value', 'check.allow-reserved'];
  // response.status: a front's own refusal of a value it cannot decode is held to its status alone (expectRefusedByFront).
  return c.rejected.length > 0 ? ['request.value', 'error.message', 'response.status'] : ['request.value'];
}

/** Every operation × every parameter × every keyword, and the undocumented query parameters of each operation. */
export function parameterChecks(check: Define, contract: SpecContract, options: DefineOptions = {}): void {
  for (const operation of contract.operations) {
    const rejection = operationError(contract, operation, 400);
    if (!rejection) continue; // The operation documents no 400: the document says nothing about rejecting a value.
    for (const parameter of operation.parameters) {
      for (const c of parameterCases(contract, parameter, options)) {
        check(
          checkOperation(operation),
          caseTitle(operation, c, rejection),
          async (context) => {
            for (const value of c.accepted) {
              const exchange = await context.send(requestWith(contract, operation, parameter, value));

              expectAccepted(context, exchange, operation, query(parameter, value));
              if (c.sameAsEncoded) {
                const encoded = await context.send(requestWith(contract, operation, parameter, { ...value, raw: false }));
                // The same answer as a client reads it: JSON bodies as values (member order is free, RFC 8259 §4).
                context.expect(
                  encoded.status === exchange.status && sameBody(encoded, exchange),
                  exchange,
                  `${parameter.name} sent as it is and percent-encoded got different answers (${exchange.status}, ${encoded.status})`,
                  'check.allow-reserved',
                );
              }
            }
            for (const value of c.rejected) {
              const exchange = await context.send(requestWith(contract, operation, parameter, value));

              if (c.mayBeIgnored) await expectIgnoredOrRejected(context, exchange, rejection, parameter);
              else if (value.undecodable && fromHttpLayer(exchange))
                expectRefusedByFront(context, exchange, [rejection.status], `${rejection.status} naming ${parameter.name}`);
              else expectRejected(context, exchange, rejection, parameter.name);
            }
          },
          caseRules(c),
        );
      }
    }
    const unknown = undocumentedNames(contract, operation);
    if (unknown.length > 0)
      check(
        checkOperation(operation),
        `GET ${operation.template}?${unknown.map((u) => u.name).join('|')}=… (query parameters it does not document) → ${rejection.status} ${rejection.codes.join('/')} naming each`,
        async (context) => {
          for (const { name, value } of unknown) {
            const path = `${examplePath(contract, operation)}?${encodeURIComponent(name)}=${encodeURIComponent(value)}`;

            const exchange = await context.send({ method: 'GET', path, key: operation.isPublic ? 'none' : 'valid' });

            expectRejected(context, exchange, rejection, name);
          }
        },
        ['request.unknown-parameter', 'error.message'],
      );
  }
}
