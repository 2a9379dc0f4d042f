// The browser road's validation step (neutral-road.ts): the request checks express-openapi-validator
// makes on the server (validator.ts), derived the same way from the served spec's parameter objects
// and run by the same Ajv with the same options, so that a bad request gets the same 400 with the same
// ErrorDto Message on every road. Its errors have the validator's shape ({status, errors: [{path,
// message}]}) and go to the one error handler, whose message writer (error-handler.ts,
// describeRequestError) words them: the text cannot drift between the roads. tests/browser/corpus.test.ts
// replays thousands of requests, bad ones included, in Chromium and compares each answer with the server's.
//
// The checks, in the validator's order (express-openapi-validator 5.6: openapi.request.validator.js and
// parsers/req.parameter.mutator.js): a query parameter's raw value must not hold a reserved character
// (RFC 3986 gen-delims and sub-delims) unless it allows them; a query name with brackets is read as qs
// reads it, with qs as the validator does (`page[x]` is an object named page); then every query name must be documented and non-empty
// unless `allowEmptyValue`; then one Ajv validation of query, headers and path parameters together, with
// types coerced and defaults applied, which reports its first error.
import type { default as Ajv2020Class, ErrorObject, ValidateFunction } from 'ajv/dist/2020';
import type { default as addFormatsFunction } from 'ajv-formats';
import { parse as parseQs } from 'qs';
import type { Operation, Parameter } from '../../contract/operations';
import type { OpenApiDocument } from '../../contract/spec-document';
import type { PipelineRequest } from './exchange';
import type { ApiStep } from './request';

/* eslint-disable @typescript-eslint/no-require-imports -- loaded when the first request needs validating, not with the module. */
const ajv2020 = (): typeof Ajv2020Class => (require('ajv/dist/2020') as { default: typeof Ajv2020Class }).default;
const ajvFormats = (): typeof addFormatsFunction => (require('ajv-formats') as { default: typeof addFormatsFunction }).default;
/* eslint-enable @typescript-eslint/no-require-imports */

/** The validator's error (its HttpError's shape): the error handler maps it as it maps the validator's own. */
interface RequestError {
  status: 400;
  message: string;
  errors: { path: string; message: string }[];
}

function badRequest(path: string, message: string): RequestError {
  return { status: 400, message, errors: [{ path, message }] };
}

// req.parameter.mutator.js's RESERVED_CHARS.
const RESERVED = /[:/?#[\]@!$&'()*+,;=]/;
// Characters Node's url.parse escapes in a URL before the validator reads its raw query (autoEscapeChars).
const AUTO_ESCAPED = /[\t\n\r "'<>\\^`{|}]/g;

/** The validator's formats beside ajv-formats' (framework/ajv/formats.js). */
const MAX_FLOAT = (2 - 2 ** -23) * 2 ** 127;
const MIN_POSITIVE_FLOAT = 2 ** -126;
const VALIDATOR_FORMATS = {
  int32: { type: 'number', validate: (i: number) => Number.isInteger(i) && i <= 2 ** 31 - 1 && i >= (-2) ** 31 },
  int64: { type: 'number', validate: (i: number) => Number.isInteger(i) && i <= 2 ** 63 - 1 && i >= (-2) ** 63 },
  float: {
    type: 'number',
    validate: (i: number) => i === 0 || (i <= MAX_FLOAT && i >= MIN_POSITIVE_FLOAT) || (i >= -MAX_FLOAT && i <= -MIN_POSITIVE_FLOAT),
  },
  double: { type: 'number', validate: (i: number) => typeof i === 'number' },
  byte: (b: string) => b.length % 4 === 0 && /^[A-Za-z0-9+/]*(=|==)?$/.test(b),
  binary: true,
  password: true,
} as const;

/** An Ajv as the validator makes its request Ajv (framework/ajv/options.js, request: types coerced, defaults applied). */
function requestAjv(spec: OpenApiDocument): Ajv2020Class {
  const Ajv2020 = ajv2020();
  const ajv = new Ajv2020({
    strict: false,
    strictNumbers: true,
    strictTuples: true,
    allowUnionTypes: false,
    validateSchema: false,
    coerceTypes: true,
    useDefaults: true,
    removeAdditional: false,
    validateFormats: true,
  });
  ajv.addFormat('media-range', true);
  ajvFormats()(ajv, { mode: 'fast' });
  for (const [name, format] of Object.entries(VALIDATOR_FORMATS)) ajv.addFormat(name, format as never);
  for (const [id, schema] of Object.entries(spec.components.schemas)) ajv.addSchema(schema as object, `#/components/schemas/${id}`);
  return ajv;
}

const PLACES = { query: 'query', header: 'headers', path: 'params', cookie: 'cookies' } as const;

interface OperationCheck {
  query: readonly Parameter[];
  knownQuery: ReadonlySet<string>;
  allowEmpty: ReadonlySet<string>;
  validate: ValidateFunction;
}

/** The schema the validator compiles for an operation (Validator._schemaGeneral): one object per place, in its order. */
function operationCheck(ajv: Ajv2020Class, operation: Operation): OperationCheck {
  const places: Record<string, { type?: string; properties?: Record<string, unknown>; required?: string[] }> = {
    query: {},
    headers: {},
    params: {},
    cookies: {},
  };
  for (const parameter of operation.parameters) {
    const place = places[PLACES[parameter.in as keyof typeof PLACES]]!;
    place.type = 'object';
    const name = parameter.in === 'header' ? parameter.name.toLowerCase() : parameter.name;
    (place.properties ??= {})[name] = structuredClone(parameter.schema ?? {});
    if (parameter.required) (place.required ??= []).push(name);
  }
  const query = operation.parameters.filter((parameter) => parameter.in === 'query');
  return {
    query,
    knownQuery: new Set(query.map((parameter) => parameter.name)),
    allowEmpty: new Set(query.filter((parameter) => parameter.allowEmptyValue === true).map((parameter) => parameter.name)),
    validate: ajv.compile({ required: ['query', 'headers', 'params'], properties: { ...places, body: {} } }),
  };
}

/** The raw query as the validator splits it (parseQueryStringUndecoded): name → the raw values, each up to a second `=`. */
function rawQueryValues(url: string): Map<string, (string | undefined)[]> {
  const values = new Map<string, (string | undefined)[]>();
  const at = url.indexOf('?');
  if (at < 0) return values;
  const search = url.slice(at + 1).replace(AUTO_ESCAPED, (character) => encodeURIComponent(character));
  if (search === '') return values;
  for (const pair of search.split('&')) {
    const [name = '', value] = pair.split('=');
    const list = values.get(name) ?? [];
    list.push(value);
    values.set(name, list);
  }
  return values;
}

/** The validator's bracket reading (BracketNotationHandler.process): `page[x]=1` becomes page: {x: '1'}; the bracketed name goes. */
function withBrackets(query: Record<string, unknown>, literal: ReadonlySet<string>): Record<string, unknown> {
  for (const name of Object.keys(query)) {
    if (!name.includes('[') || literal.has(name)) continue;
    const base = name.split('[')[0]!;
    // As the validator reads it: the pair written back and parsed by qs, the very library it calls.
    const parsed = (parseQs(`${name}=${String(query[name])}`) as Record<string, unknown>)[base];
    if (parsed !== undefined) {
      const known = query[base];
      query[base] =
        known && typeof known === 'object' && typeof parsed === 'object' && !Array.isArray(parsed) ? { ...known, ...parsed } : parsed;
    }
    delete query[name];
  }
  return query;
}

/** The first Ajv error as the validator reports it (util.js: ajvErrorsToValidatorError, augmentAjvErrors). */
function ajvError(errors: ErrorObject[] | null | undefined): RequestError {
  const reported = (errors ?? []).map((e) => {
    const params = e.params as {
      missingProperty?: string;
      additionalProperty?: string;
      unevaluatedProperty?: string;
      allowedValues?: unknown[];
    };
    const message =
      e.keyword === 'enum' && params.allowedValues ? `${e.message ?? ''}: ${params.allowedValues.join(', ')}` : (e.message ?? '');
    const named = params.missingProperty ?? params.additionalProperty ?? params.unevaluatedProperty;
    return { path: named !== undefined ? `${e.instancePath}/${named}` : e.instancePath, message };
  });
  // ajv.errorsText(errors, { dataVar: 'request' }), as the validator words its error's own message.
  const message = (errors ?? []).map((e) => `request${e.instancePath} ${e.message ?? ''}`).join(', ');
  return { status: 400, message, errors: reported };
}

/**
 * The validation step for the served spec: compiled per operation when its first request needs it. A request's
 * query, headers and path parameters are checked as copies: the handlers read the request as the other roads do.
 */
export function specValidation(spec: OpenApiDocument): ApiStep {
  let ajv: Ajv2020Class | undefined;
  const checks = new Map<string, OperationCheck>();
  return (req: PipelineRequest, _res, context) => {
    const route = context.route!;
    const { operation } = route;
    let check = checks.get(operation.operationId);
    if (!check) {
      ajv ??= requestAjv(spec);
      check = operationCheck(ajv, operation);
      checks.set(operation.operationId, check);
    }
    const raw = rawQueryValues(req.url);
    for (const parameter of check.query) {
      if (parameter.allowReserved === true) continue;
      for (const value of raw.get(parameter.name) ?? []) {
        if (value !== undefined && RESERVED.test(value)) {
          const message = `Parameter '${parameter.name}' must be url encoded. Its value may not contain reserved characters.`;
          throw badRequest(`/query/${parameter.name}`, message);
        }
      }
    }
    const literal = new Set([...check.knownQuery].filter((name) => name.includes('[')));
    const query = withBrackets({ ...req.query }, literal);
    for (const name of Object.keys(query)) {
      if (!check.knownQuery.has(name)) throw badRequest(`/query/${name}`, `Unknown query parameter '${name}'`);
      if (!check.allowEmpty.has(name) && query[name] === '') {
        throw badRequest(`/query/${name}`, `Empty value found for query parameter '${name}'`);
      }
    }
    const params: Record<string, string> = {};
    for (const name in route.params) params[name] = decodeURIComponent(route.params[name]!);
    const data = { query, headers: { ...req.headers }, params, cookies: undefined, body: undefined };
    if (!check.validate(data)) throw ajvError(check.validate.errors);
  };
}
