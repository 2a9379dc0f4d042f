// Property-based requests, generated from the parameter schemas of
// openapi.yaml: for every parameter, values its schema accepts and values it
// rejects (wrong type, out of range, empty, oversized, reserved characters,
// unicode), plus undocumented and repeated parameters and missing or wrong
// keys. Each generated request knows, from the schema alone, whether it is
// valid (and the judge, reading the same schemas, must agree: a disagreement
// is a bug of the suite); verify() holds the answer to the judge's rules.
import fc from 'fast-check';
import { judgedInput, type Sample } from '../kit/context';
import type { ApiRequest, Exchange, KeyRole } from '../../contract/exchange';
import { judgeRequest, judgeResponse } from '../../contract/judge';
import type { ListQuery } from '../kit/semantics';
import type { SpecContract, SpecOperation, SpecParameter } from '../../contract/spec-contract';
import type { Target } from '../kit/target';

type Json = Record<string, unknown>;

export interface GeneratedValue {
  /** The value as the server should see it, after percent-decoding. */
  value: string;
  valid: boolean;
  /** What kind of value this is, e.g. `above maximum`, `unicode`. */
  kind: string;
}

/** How a query value travels: fully percent-encoded, reserved characters left as they are (allowReserved), or spaces as `+`. */
type Encoding = 'encoded' | 'reserved' | 'plus';

export interface GeneratedRequest {
  operationId: string;
  request: ApiRequest;
  /** True when every parameter is valid and nothing undocumented or repeated was sent. */
  valid: boolean;
  /** The documented list parameters sent (for the list rules); undefined for other operations. */
  listQuery?: ListQuery;
  /** For Detail: the id was taken from the deployment's own lists. */
  knownId?: string;
  /** Why the request is invalid, e.g. `pageSize: above maximum`. */
  reasons: string[];
}

const UUID = /^(?:urn:uuid:)?[0-9a-f]{8}-(?:[0-9a-f]{4}-){3}[0-9a-f]{12}$/i;
const notANumber = (text: string) => Number.isNaN(Number(text));
const unicode = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 12 });
const RESERVED = ['!', '*', "'", '(', ')', ';', ':', '@', '&', '=', '+', '$', ',', '/', '?', '#', '[', ']', '%', ' '];
const reservedText = fc
  .array(fc.oneof(fc.constantFrom(...RESERVED), fc.constantFrom('a', 'b', '1', 'é')), { minLength: 1, maxLength: 10 })
  .map((parts) => parts.join(''));

const valid =
  (kind: string) =>
  (value: string | number): GeneratedValue => ({ value: String(value), valid: true, kind });
const invalid =
  (kind: string) =>
  (value: string | number): GeneratedValue => ({ value: String(value), valid: false, kind });

function integerValues(schema: Json): { good: fc.Arbitrary<GeneratedValue>; bad: fc.Arbitrary<GeneratedValue> } {
  const min = typeof schema.minimum === 'number' ? schema.minimum : -(2 ** 31);
  const max = typeof schema.maximum === 'number' ? schema.maximum : 2 ** 31 - 1;
  const good = fc.oneof(
    fc.integer({ min, max: Math.min(max, min + 200) }).map(valid('small in range')),
    fc.integer({ min, max }).map(valid('in range')),
    fc.constantFrom(min, max).map(valid('boundary')),
  );
  const bad = fc.oneof(
    fc.integer({ min: min - 1000, max: min - 1 }).map(invalid('below minimum')),
    fc.integer({ min: max + 1, max: max + 1_000_000 }).map(invalid('above maximum')),
    fc
      .string({ unit: fc.constantFrom(...'0123456789'), minLength: 19, maxLength: 400 })
      .map((digits) => `9${digits}`)
      .map(invalid('oversized number')),
    fc
      .tuple(fc.integer({ min, max: Math.min(max, 10_000) }), fc.integer({ min: 1, max: 99 }))
      .map(([whole, part]) => `${whole}.${part}`)
      .map(invalid('fraction')),
    fc.constantFrom('true', 'false', 'null', 'abc', '[1]', '{}', 'NaN', 'one', '1a', '--1').map(invalid('wrong type')),
    fc.constant('').map(invalid('empty')),
    reservedText.filter(notANumber).map(invalid('reserved characters')),
    fc.oneof(fc.constantFrom('٣', '１', '五', '²', 'Ⅻ'), unicode.filter(notANumber)).map(invalid('unicode')),
  );
  return { good, bad };
}

function booleanValues(): { good: fc.Arbitrary<GeneratedValue>; bad: fc.Arbitrary<GeneratedValue> } {
  const good = fc.constantFrom('true', 'false').map(valid('boolean'));
  const notBoolean = (text: string) => text !== 'true' && text !== 'false';
  const bad = fc.oneof(
    fc.constantFrom('TRUE', 'True', 'FALSE', '1', '0', 'yes', 'no', 'on', 't', 'null', 'truee').map(invalid('wrong type')),
    fc.constant('').map(invalid('empty')),
    reservedText.filter(notBoolean).map(invalid('reserved characters')),
    unicode.filter(notBoolean).map(invalid('unicode')),
  );
  return { good, bad };
}

function uuidValues(
  schema: Json,
  knownIds: readonly string[],
  allowEmpty: boolean,
): { good: fc.Arbitrary<GeneratedValue>; bad: fc.Arbitrary<GeneratedValue> } {
  const maxLength = typeof schema.maxLength === 'number' ? schema.maxLength : 36;
  const good = fc.oneof(
    ...(knownIds.length > 0 ? [{ arbitrary: fc.constantFrom(...knownIds).map(valid('known id')), weight: 3 }] : []),
    {
      arbitrary: fc
        .constantFrom(...knownIds.slice(0, 5), '00000000-0000-4000-8000-000000000000')
        .map((id) => id.toUpperCase())
        .map(valid('upper-case uuid')),
      weight: 1,
    },
    { arbitrary: fc.uuid().map(valid('random uuid')), weight: 2 },
  );
  const notUuid = (text: string) => !UUID.test(text) || text.length > maxLength;
  const bad = fc.oneof(
    fc
      .uuid()
      .map((id) => id.slice(0, -1))
      .map(invalid('too short')),
    fc
      .uuid()
      .map((id) => `${id}0`)
      .map(invalid('oversized')),
    fc.string({ unit: 'grapheme-ascii', minLength: maxLength + 1, maxLength: 300 }).map(invalid('oversized')),
    fc
      .uuid()
      .map((id) => id.replace(/-/g, ''))
      .map(invalid('no dashes')),
    fc
      .uuid()
      .map((id) => `g${id.slice(1)}`)
      .map(invalid('not hexadecimal')),
    fc.constantFrom('12345', 'true', 'null', 'not-a-uuid').map(invalid('wrong type')),
    reservedText.filter(notUuid).map(invalid('reserved characters')),
    unicode.filter(notUuid).map(invalid('unicode')),
    ...(allowEmpty ? [fc.constant('').map(invalid('empty'))] : []),
  );
  return { good, bad };
}

function stringValues(schema: Json, terms: readonly string[]): { good: fc.Arbitrary<GeneratedValue>; bad: fc.Arbitrary<GeneratedValue> } {
  const maxLength = typeof schema.maxLength === 'number' ? schema.maxLength : 200;
  const fits = (text: string) => [...text].length <= maxLength;
  const good = fc.oneof(
    ...(terms.length > 0 ? [fc.constantFrom(...terms).map(valid('listed name fragment'))] : []),
    fc.string({ unit: 'grapheme-ascii', maxLength: 20 }).map(valid('ascii')),
    unicode.filter(fits).map(valid('unicode')),
    reservedText.map(valid('reserved characters')),
    fc.constantFrom('', ' ', '   ').map(valid('empty or blank')),
    fc.string({ unit: 'grapheme-ascii', minLength: maxLength, maxLength }).map(valid('longest allowed')),
    fc.string({ unit: fc.constantFrom(...'0123456789 -'), minLength: 1, maxLength: 12 }).map(valid('digits')),
  );
  const bad = fc.oneof(
    fc.string({ unit: 'grapheme-ascii', minLength: maxLength + 1, maxLength: maxLength + 100 }).map(invalid('oversized')),
    fc
      .string({ unit: fc.constantFrom('é', 'å', '李', '😀'), minLength: maxLength + 1, maxLength: maxLength + 20 })
      .map(invalid('oversized unicode')),
  );
  return { good, bad };
}

function valuesFor(parameter: SpecParameter, sample: Sample): { good: fc.Arbitrary<GeneratedValue>; bad: fc.Arbitrary<GeneratedValue> } {
  const { schema } = parameter;
  if (schema.type === 'integer') return integerValues(schema);
  if (schema.type === 'boolean') return booleanValues();
  if (schema.format === 'uuid') {
    const ids =
      parameter.name === 'idStaff'
        ? sample.staffIds
        : parameter.name === 'idLocation'
          ? sample.locationIds
          : sample.clients.map((c) => c.IdClient);
    return uuidValues(schema, ids, parameter.in !== 'path');
  }
  const terms = sample.clients.slice(0, 30).map((client) => client.PersonalInfo.LastName.slice(0, 4));
  return stringValues(schema, terms);
}

/** The value once in `every` draws, else undefined (fc.option's freq is the chance of undefined instead). */
function rarely<T>(arbitrary: fc.Arbitrary<T>, every: number): fc.Arbitrary<T | undefined> {
  return fc.oneof({ arbitrary: fc.constant(undefined), weight: every - 1 }, { arbitrary, weight: 1 });
}

/** A value that is valid three times in four. */
function mixed(values: { good: fc.Arbitrary<GeneratedValue>; bad: fc.Arbitrary<GeneratedValue> }): fc.Arbitrary<GeneratedValue> {
  return fc.oneof({ arbitrary: values.good, weight: 3 }, { arbitrary: values.bad, weight: 1 });
}

function encodeValue(value: string, encoding: Encoding, allowReserved: boolean): string {
  const encoded = encodeURIComponent(value);
  if (encoding === 'plus') return encoded.replace(/%20/g, '+');
  // allowReserved: RFC 3986 reserved characters that do not delimit a query pair travel as they are.
  if (encoding === 'reserved' && allowReserved)
    return encoded.replace(/%(21|27|28|29|2A|2C|2F|3A|3B|3F|40|24)/g, (m) => decodeURIComponent(m));
  return encoded;
}

const UNKNOWN_NAMES = ['pagesize', 'Page', 'PAGESIZE', 'limit', 'offset', 'sort', 'q', 'x', 'filter[]', 'ünï', 'idclient'];

/**
 * Requests for one operation of the spec, from its query and path parameters.
 * The `Prefer` header parameter is left out: it is a mock control that a real
 * deployment ignores, so no invariant about it holds for every deployment
 * (the named checks cover it, accepting a deployment that ignores it).
 */
function operationRequests(operation: SpecOperation, contract: SpecContract, sample: Sample): fc.Arbitrary<GeneratedRequest> {
  const query = operation.parameters.filter((p) => p.in === 'query');
  const path = operation.parameters.filter((p) => p.in === 'path');
  const documented = new Set(query.map((p) => p.name));
  const otherNames = contract.operations
    .flatMap((o) => o.parameters.filter((p) => p.in === 'query').map((p) => p.name))
    .filter((name) => !documented.has(name));
  const unknownNames = [...UNKNOWN_NAMES, ...new Set(otherNames)];

  return fc
    .record({
      query: fc.tuple(...query.map((p) => fc.option(mixed(valuesFor(p, sample)), { nil: undefined, freq: 2 }))),
      path: fc.tuple(...path.map((p) => mixed(valuesFor(p, sample)))),
      encoding: fc.constantFrom<Encoding>('encoded', 'reserved', 'plus'),
      key: operation.isPublic
        ? fc.constantFrom<KeyRole>('none', 'none', 'valid', 'wrong')
        : fc.oneof(
            { arbitrary: fc.constant<KeyRole>('valid'), weight: 17 },
            { arbitrary: fc.constantFrom<KeyRole>('none', 'wrong'), weight: 3 },
          ),
      unknown: rarely(fc.tuple(fc.constantFrom(...unknownNames), fc.constantFrom('1', 'x', 'true', '')), 8),
      repeat: rarely(fc.nat(), 16),
    })
    .map(({ query: values, path: pathValues, encoding, key, unknown, repeat }) => {
      const reasons: string[] = [];
      const pairs: string[] = [];
      const listQuery: ListQuery = {};
      values.forEach((generated, i) => {
        if (!generated) return;
        const parameter = query[i]!;
        if (!generated.valid) reasons.push(`${parameter.name}: ${generated.kind}`);
        pairs.push(`${encodeURIComponent(parameter.name)}=${encodeValue(generated.value, encoding, parameter.allowReserved)}`);
        (listQuery as Record<string, string>)[parameter.name] = generated.value;
      });
      if (repeat !== undefined && pairs.length > 0) {
        const again = pairs[repeat % pairs.length]!;
        pairs.push(again);
        reasons.push(`${decodeURIComponent(again.split('=')[0]!)}: given twice`);
      }
      if (unknown) {
        pairs.push(`${encodeURIComponent(unknown[0])}=${encodeURIComponent(unknown[1])}`);
        reasons.push(`${unknown[0]}: not a parameter of ${operation.operationId}`);
      }
      let pathname = operation.template;
      let knownId: string | undefined;
      pathValues.forEach((generated, i) => {
        const parameter = path[i]!;
        if (!generated.valid) reasons.push(`${parameter.name}: ${generated.kind}`);
        if (generated.kind === 'known id') knownId = generated.value;
        pathname = pathname.replace(`{${parameter.name}}`, encodeURIComponent(generated.value));
      });
      const isList = documented.has('pageSize');
      return {
        operationId: operation.operationId,
        request: { method: 'GET', path: pathname + (pairs.length > 0 ? `?${pairs.join('&')}` : ''), key },
        valid: reasons.length === 0,
        listQuery: isList ? listQuery : undefined,
        knownId,
        reasons,
      };
    });
}

/** How often an operation's requests are drawn: one more than its query and path parameters. */
export function operationWeight(operation: SpecOperation): number {
  return 1 + operation.parameters.filter((p) => p.in !== 'header').length;
}

/**
 * The weight of the valid requests for one listed record (a path parameter that is a uuid: Detail) beside the
 * operations' own: what makes a Detail that disagrees with its list row for one client in 30 found by the default
 * run with at least 99 % probability (properties.ts detectionProbability computes it from these weights).
 */
export const LISTED_RECORD_WEIGHT = 3;

/** The operations that answer one record named by a uuid in the path (Detail): what a listed id is asked of. */
export function recordOperations(contract: SpecContract): SpecOperation[] {
  return contract.operations.filter((operation) => operation.parameters.some((p) => p.in === 'path' && p.schema.format === 'uuid'));
}

/** A valid request for one listed record, the id drawn from `listed` with every id as likely (constantFrom draws uniformly). */
function listedRecordRequests(operation: SpecOperation, listed: readonly string[]): fc.Arbitrary<GeneratedRequest> {
  return fc.constantFrom(...listed).map((id) => ({
    operationId: operation.operationId,
    request: {
      method: 'GET',
      path: operation.template.replace(/\{\w+\}/, encodeURIComponent(id)),
      key: operation.isPublic ? 'none' : 'valid',
    },
    valid: true,
    knownId: id,
    reasons: [],
  }));
}

/**
 * Requests over every operation of the spec, the ones with more parameters drawn more often, and valid requests
 * for records of `listed` ids (the clients whose list rows the judge remembers: a Detail is held to its row).
 */
export function requestArbitrary(contract: SpecContract, sample: Sample, listed: readonly string[] = []): fc.Arbitrary<GeneratedRequest> {
  return fc.oneof(
    ...contract.operations.map((operation) => ({
      arbitrary: operationRequests(operation, contract, sample),
      weight: operationWeight(operation),
    })),
    ...(listed.length === 0
      ? []
      : recordOperations(contract).map((operation) => ({
          arbitrary: listedRecordRequests(operation, listed),
          weight: LISTED_RECORD_WEIGHT,
        }))),
  );
}

/**
 * The invariants for one generated request and its answer, as the judge holds
 * them (contract/judge/, the same rules as every named check and the proxy): the
 * status openapi.yaml gives for this very request (400 for invalid input, 401
 * without a key, either where the order is open, 2xx for valid input, 404 for
 * a Detail of an id no client has), the schema, the declared headers, the
 * error table, RFC 8259, the list and record rules. Returns the violations as lines.
 */
export function verify(
  generated: GeneratedRequest,
  exchange: Exchange,
  contract: SpecContract,
  target: Target = GENERATED_TARGET,
): string[] {
  const judged = judgeRequest(contract, judgedInput(target, generated.request, exchange.url));
  return judgeResponse(contract, judged, exchange).map((v) => `${v.rule}: expected ${v.expected}; got ${v.actual}`);
}

/** For verify() without a target: the key's value does not matter to the judge, only its role. */
const GENERATED_TARGET: Target = { baseUrl: 'http://localhost', apiKey: 'contract-suite-key' };
