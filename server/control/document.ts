// control.openapi.yaml at run time: the control API's own document, read once
// per process from beside openapi.yaml (the package ships both). The control
// routes take their paths, methods, parameters, bodies and limits from it, so
// a rule written there is a rule enforced, and /docs shows it beside the API's.
// Its parsed form comes from the build when that was made from the same text
// (contract/spec.ts, derivedDocument), and each operation's validators are
// compiled when a request first needs them: a process that never calls the
// control API (most in-process test files) pays for neither (issue 26 item 6).
import fs from 'node:fs';
import path from 'node:path';
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020';
import type { default as Ajv2020Class } from 'ajv/dist/2020';
import type { default as addFormatsFunction } from 'ajv-formats';
import type * as YamlModule from 'yaml';
import { derivedDocument, type OpenApiDocument, pointerSegment, resolvePointer, SPEC_PATH } from '../../contract/spec';

/** Every path of the control API begins with it; no path of the served spec may (checked at start). */
export const CONTROL_PREFIX = '/__control/';

export const CONTROL_SPEC_PATH = path.join(path.dirname(SPEC_PATH), 'control.openapi.yaml');

const DOCUMENT_ID = 'control.json';

interface ParameterObject {
  name: string;
  in: 'query' | 'path' | 'header' | 'cookie';
  required?: boolean;
  schema?: { type?: string | string[]; default?: unknown; $ref?: string };
  $ref?: string;
}

/** One operation of the control document, with validators for what a request brings. */
export interface ControlOperation {
  operationId: string;
  template: string;
  method: string;
  query: { name: string; integer: boolean; fallback: unknown; validate: ValidateFunction }[];
  path: { name: string; validate: ValidateFunction }[];
  body: ValidateFunction | undefined;
}

export interface ControlDocument {
  text: string;
  document: OpenApiDocument;
  operations: ControlOperation[];
  /** A path's operations by method, for 405's Allow. */
  methodsOf(template: string): string[];
  /** The template a request path matches, with its path parameters (raw), or undefined. */
  match(path: string): { template: string; params: Record<string, string> } | undefined;
}

let loaded: ControlDocument | undefined;

/** The control document, read and compiled once per process. */
export function controlDocument(): ControlDocument {
  loaded ??= compile(fs.readFileSync(CONTROL_SPEC_PATH, 'utf8'));
  return loaded;
}

/** The document as the build parsed it from this text, else parsed now. */
function parsed(text: string): OpenApiDocument {
  const derived = derivedDocument(CONTROL_SPEC_PATH, text) as OpenApiDocument | undefined;
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the YAML parser only when the build's parse is missing or stale.
  return derived ?? (require('yaml') as typeof YamlModule).parse(text);
}

/** One Ajv for the document, made when the first validator is needed. */
function validatorsOf(document: OpenApiDocument): (ref: string) => ValidateFunction {
  let ajv: Ajv2020Class | undefined;
  return (ref) => {
    if (!ajv) {
      /* eslint-disable @typescript-eslint/no-require-imports -- Ajv only once a control request needs a validator. */
      const Ajv2020 = (require('ajv/dist/2020') as { default: typeof Ajv2020Class }).default;
      const addFormats = (require('ajv-formats') as { default: typeof addFormatsFunction }).default;
      /* eslint-enable @typescript-eslint/no-require-imports */
      // strict off: the document around the schemas is not itself a schema; OpenAPI's numeric formats are documentation.
      ajv = new Ajv2020({ strict: false, allErrors: false, formats: { int32: true, int64: true, double: true } });
      addFormats(ajv, ['date-time']);
      // Not checked against the meta-schema: the document's top level holds no schema keyword (see contract/spec.ts).
      ajv.addSchema(structuredClone(document), DOCUMENT_ID, undefined, false);
    }
    const validate = ajv.getSchema(`${DOCUMENT_ID}${ref}`);
    if (!validate) throw new Error(`control.openapi.yaml: no schema at ${ref}`);
    return validate;
  };
}

/**
 * A validator compiled on its first call, carrying `errors` as Ajv's own does.
 * The pointer is checked at once against the document, so a schema that is
 * not there still fails at load, as it did when every validator was compiled then.
 */
function lazyValidator(document: OpenApiDocument, compile: (ref: string) => ValidateFunction, ref: string): ValidateFunction {
  if (resolvePointer(document, ref.slice(1)) === undefined) throw new Error(`control.openapi.yaml: no schema at ${ref}`);
  let compiled: ValidateFunction | undefined;
  const validate = ((data: unknown) => {
    compiled ??= compile(ref);
    const valid = compiled(data);
    validate.errors = compiled.errors;
    return valid;
  }) as ValidateFunction;
  validate.errors = null;
  return validate;
}

function compile(text: string): ControlDocument {
  const document = parsed(text);
  const compileAt = validatorsOf(document);
  const pointer = (...segments: string[]) => `#/${segments.map((s) => pointerSegment(s)).join('/')}`;
  const schemaAt = (ref: string): ValidateFunction => lazyValidator(document, compileAt, ref);
  const shared = (document.components.parameters ?? {}) as Record<string, ParameterObject>;
  const operations: ControlOperation[] = [];
  for (const [template, item] of Object.entries(document.paths)) {
    const common = ((item.parameters as ParameterObject[] | undefined) ?? []).map((p, i) => ({
      p,
      at: pointer('paths', template, 'parameters', String(i)),
    }));
    for (const method of ['get', 'put', 'post', 'delete', 'patch']) {
      const operation = item[method] as { operationId: string; parameters?: ParameterObject[]; requestBody?: unknown } | undefined;
      if (!operation) continue;
      const own = (operation.parameters ?? []).map((p, i) => ({ p, at: pointer('paths', template, method, 'parameters', String(i)) }));
      const resolved = [...common, ...own].map(({ p, at }) => {
        if (!p.$ref) return { parameter: p, at };
        const name = p.$ref.replace('#/components/parameters/', '');
        return { parameter: shared[name]!, at: pointer('components', 'parameters', name) };
      });
      operations.push({
        operationId: operation.operationId,
        template,
        method: method.toUpperCase(),
        query: resolved
          .filter(({ parameter }) => parameter.in === 'query')
          .map(({ parameter, at }) => ({
            name: parameter.name,
            integer: parameter.schema?.type === 'integer',
            fallback: parameter.schema?.default,
            validate: schemaAt(`${at}/schema`),
          })),
        path: resolved
          .filter(({ parameter }) => parameter.in === 'path')
          .map(({ parameter, at }) => ({ name: parameter.name, validate: schemaAt(`${at}/schema`) })),
        body: operation.requestBody
          ? schemaAt(`${pointer('paths', template, method, 'requestBody', 'content', 'application/json', 'schema')}`)
          : undefined,
      });
    }
  }
  const matchers = Object.keys(document.paths).map((template) => {
    const names: string[] = [];
    const pattern = template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{(\w+)\\?\}/g, (_m, name: string) => {
      names.push(name);
      return '([^/]+)';
    });
    const regex = new RegExp(`^${pattern}$`);
    return (path: string) => {
      const found = regex.exec(path);
      return found ? { template, params: Object.fromEntries(names.map((name, i) => [name, found[i + 1]!])) } : undefined;
    };
  });
  return {
    text,
    document,
    operations,
    methodsOf: (template) => operations.filter((operation) => operation.template === template).map((operation) => operation.method),
    match: (path) => {
      for (const matcher of matchers) {
        const found = matcher(path);
        if (found) return found;
      }
      return undefined;
    },
  };
}

/** An Ajv error of a value as one phrase: `must be <= 10000`, `must match pattern "…"`, `is not a documented field 'x'`. */
export function describeValueError(error: ErrorObject | undefined): { field: string; rule: string } {
  if (!error) return { field: '', rule: 'is not valid' };
  const field = error.instancePath.replace(/^\//, '').replace(/\//g, '.');
  if (error.keyword === 'required') {
    const missing = String((error.params as { missingProperty?: string }).missingProperty);
    return { field: field ? `${field}.${missing}` : missing, rule: 'is required' };
  }
  if (error.keyword === 'additionalProperties') {
    const extra = String((error.params as { additionalProperty?: string }).additionalProperty);
    return { field: field ? `${field}.${extra}` : extra, rule: 'is not a documented field' };
  }
  return { field, rule: error.message ?? 'is not valid' };
}
