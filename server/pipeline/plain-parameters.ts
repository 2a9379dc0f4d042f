// Why this file exists: the in-process lean path (lean-path.ts) answers without express-openapi-validator,
// so it may answer only a request that validator would pass untouched. This module decides that from the
// served spec's own parameter objects, for each operation: every query name documented, every required
// parameter present, no documented header sent (Prefer goes through the validator), and every value inside
// what its schema allows by a rule simple enough to be certain of (type, int32/int64, uuid, minimum/maximum,
// minLength/maxLength in code points). A schema with any other keyword, a style, or a value that is only
// probably valid makes the answer "not proven", and the request takes the full pipeline, whose validator
// answers it (and words its 400). So "proven" is a subset of "valid": the two paths can never disagree.
import type { Operation, OperationId, Parameter } from '../../contract/operations';

/** Keywords that only annotate a schema: they allow and forbid nothing. */
const ANNOTATIONS = new Set(['description', 'example', 'examples', 'default', 'title', 'deprecated', 'readOnly', 'writeOnly']);
/** What a value prover understands; a schema with anything else is never proven. */
const UNDERSTOOD = new Set(['type', 'format', 'minimum', 'maximum', 'minLength', 'maxLength', ...ANNOTATIONS]);
/** Parameter fields that change nothing about how its value is read. */
const PARAMETER_FIELDS = new Set([
  'name',
  'in',
  'required',
  'allowEmptyValue',
  'allowReserved',
  'schema',
  'description',
  'example',
  'examples',
  'deprecated',
]);
// RFC 9562's hex-and-hyphens form, either case; the format also allows a `urn:uuid:` prefix, which is left to the validator.
const UUID = /^[0-9a-f]{8}-(?:[0-9a-f]{4}-){3}[0-9a-f]{12}$/i;
// Plain decimal digits without a leading zero, short enough that Number() reads them exactly.
const PLAIN_INTEGER = /^-?(?:0|[1-9]\d{0,14})$/;
const INT32 = { min: -(2 ** 31), max: 2 ** 31 - 1 };

type ValueProof = (text: string) => boolean;

function numberOr(value: unknown, fallback: number): number {
  return typeof value === 'number' ? value : fallback;
}

/** A proof for one schema, or undefined when no value of it can be proven valid here. */
function valueProof(schema: Record<string, unknown> | undefined, allowEmpty: boolean): ValueProof | undefined {
  if (!schema || Object.keys(schema).some((keyword) => !UNDERSTOOD.has(keyword))) return undefined;
  const { type, format } = schema;
  if (type === 'boolean' && format === undefined) return (text) => text === 'true' || text === 'false';
  if (type === 'integer' && (format === undefined || format === 'int32' || format === 'int64')) {
    const min = Math.max(numberOr(schema.minimum, -Infinity), format === 'int32' ? INT32.min : -Infinity);
    const max = Math.min(numberOr(schema.maximum, Infinity), format === 'int32' ? INT32.max : Infinity);
    return (text) => PLAIN_INTEGER.test(text) && Number(text) >= min && Number(text) <= max;
  }
  if (type === 'string' && (format === undefined || format === 'uuid')) {
    const minLength = numberOr(schema.minLength, 0);
    const maxLength = numberOr(schema.maxLength, Infinity);
    return (text) => {
      if (text === '') return allowEmpty && minLength === 0 && format === undefined;
      if (format === 'uuid' && !UUID.test(text)) return false;
      // JSON Schema counts length in code points: a surrogate pair is one.
      let length = 0;
      for (let at = 0; at < text.length; at += text.codePointAt(at)! > 0xffff ? 2 : 1) if (++length > maxLength) return false;
      return length >= minLength;
    };
  }
  return undefined;
}

interface OperationProof {
  query: ReadonlyMap<string, ValueProof | undefined>;
  path: ReadonlyMap<string, ValueProof | undefined>;
  required: readonly Parameter[];
  /** Documented header parameters, lower case: a request that sends one goes through the validator. */
  headers: readonly string[];
  /** A parameter in a place or with a field this module does not read (a cookie, a style): nothing is proven. */
  unreadable: boolean;
}

function operationProof(operation: Operation): OperationProof {
  const query = new Map<string, ValueProof | undefined>();
  const path = new Map<string, ValueProof | undefined>();
  const headers: string[] = [];
  let unreadable = false;
  for (const parameter of operation.parameters) {
    if (Object.keys(parameter).some((field) => !PARAMETER_FIELDS.has(field))) unreadable = true;
    const proof = valueProof(parameter.schema, parameter.allowEmptyValue === true);
    if (parameter.in === 'query') query.set(parameter.name, proof);
    else if (parameter.in === 'path') path.set(parameter.name, proof);
    else if (parameter.in === 'header') headers.push(parameter.name.toLowerCase());
    else unreadable = true;
  }
  return { query, path, required: operation.parameters.filter((p) => p.required), headers, unreadable };
}

/** What the proof reads of a request: its headers, its decoded query (one value each) and its raw path parameters. */
export interface PlainRequest {
  headers: Readonly<Record<string, unknown>>;
  query: Readonly<Record<string, unknown>>;
  pathParams: Readonly<Record<string, string>>;
}

/**
 * The served spec's operations → a test that is true only when express-openapi-validator would pass the
 * request's parameters as they are. Path parameters are read raw (a percent-encoded one is not proven).
 */
export function plainParameters(operations: readonly Operation[]): (operationId: OperationId, request: PlainRequest) => boolean {
  const proofs = new Map(operations.map((operation) => [operation.operationId, operationProof(operation)]));
  return (operationId, { headers, query, pathParams }) => {
    const proof = proofs.get(operationId);
    if (!proof || proof.unreadable) return false;
    if (proof.headers.some((name) => headers[name] !== undefined)) return false;
    for (const parameter of proof.required) {
      const given = parameter.in === 'query' ? query[parameter.name] : parameter.in === 'path' ? pathParams[parameter.name] : undefined;
      if (given === undefined) return false;
    }
    for (const name of Object.keys(query)) {
      const value = query[name];
      const valid = proof.query.get(name);
      if (!valid || typeof value !== 'string' || !valid(value)) return false;
    }
    for (const [name, value] of Object.entries(pathParams)) {
      const valid = proof.path.get(name);
      if (!valid || !valid(value)) return false;
    }
    return true;
  };
}
