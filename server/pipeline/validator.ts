// express-openapi-validator, driven by the served spec: requests are checked
// before any handler runs, responses before any byte is sent. A step of the
// API path (app.ts), after what the raw query says that a parsed one hides
// (raw-query.ts): the validator's own middleware, run as one step.
import path from 'node:path';
import * as OpenApiValidator from 'express-openapi-validator';
import type { RequestHandler } from 'express';
import type { OpenApiDocument } from '../../contract/spec';
import type { ApiStep } from './request';

interface PathToRegexpModule {
  pathToRegexp: (route: string, options?: Record<string, unknown>) => { regexp: RegExp; keys: unknown[] };
}

/**
 * express-openapi-validator 5.6 compiles every route's pattern again with
 * path-to-regexp on every request (lookupRoute in openapi.metadata.js walks
 * the routes and calls pathToRegexp for each until one matches): about 4% of
 * the CPU of an uncached request. The compile is a pure function of the route
 * and the two options the validator passes, and the regexps carry no `g`/`y`
 * state, so the export the validator calls through is memoized. Any other
 * caller or option passes straight through.
 */
function memoizeValidatorPathCompile(): void {
  const validatorDir = path.dirname(require.resolve('express-openapi-validator/package.json'));
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the copy the validator resolves, by path, is the one to memoize.
  const module = require(require.resolve('path-to-regexp', { paths: [validatorDir] })) as PathToRegexpModule;
  const compile = module.pathToRegexp;
  if ((compile as { memoized?: boolean }).memoized) return;
  const compiled = new Map<string, ReturnType<PathToRegexpModule['pathToRegexp']>>();
  const memoized = (route: string, options: Record<string, unknown> = {}) => {
    const names = Object.keys(options);
    if (typeof route !== 'string' || names.some((name) => name !== 'sensitive' && name !== 'strict')) return compile(route, options);
    const key = `${options.sensitive ? 1 : 0}${options.strict ? 1 : 0}${route}`;
    let result = compiled.get(key);
    if (!result) {
      result = compile(route, options);
      // Routes come from the spec, so the map stays as small as the spec; the bound only guards against misuse.
      if (compiled.size < 1024) compiled.set(key, result);
    }
    return result;
  };
  module.pathToRegexp = Object.assign(memoized, { memoized: true });
}

interface SchemaValidatorModule {
  OpenAPISchemaValidator: new (options: { version: string; validateApiSpec: boolean }) => unknown;
}

/**
 * express-openapi-validator 5.6 builds its validator of OpenAPI documents (an
 * Ajv compile of the whole OpenAPI 3.1 meta-schema) at every start, even with
 * validateApiSpec off, when it is never called (framework/index.js only
 * validates the document when validateApiSpec is on). That compile was the
 * largest single cost of an in-process set-up's first answer (~0.3-0.5 s of a
 * fresh process, issue 26 item 6). With the option off the class now makes
 * nothing; with it on, the validator's own class runs as before.
 */
function skipUnusedSpecValidator(): void {
  const validatorDir = path.dirname(require.resolve('express-openapi-validator/package.json'));
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the module the validator reads the class from at each start, by path.
  const module = require(path.join(validatorDir, 'dist', 'framework', 'openapi.schema.validator.js')) as SchemaValidatorModule;
  const Original = module.OpenAPISchemaValidator as SchemaValidatorModule['OpenAPISchemaValidator'] & { skipsUnused?: boolean };
  if (Original.skipsUnused) return;
  function OpenAPISchemaValidator(options: { version: string; validateApiSpec: boolean }): unknown {
    if (options.validateApiSpec) return new Original(options);
    // Never called with validateApiSpec off; were it ever, it would say what it checked: nothing.
    return { validate: () => ({ errors: [] }) };
  }
  module.OpenAPISchemaValidator = Object.assign(OpenAPISchemaValidator, {
    skipsUnused: true,
  }) as unknown as SchemaValidatorModule['OpenAPISchemaValidator'];
}

interface PreprocessorModule {
  SchemaPreprocessor: {
    prototype: {
      resolveSchema(this: Preprocessor, schema: unknown): unknown;
      resolvesWithoutCompile?: boolean;
    };
  };
}

interface Preprocessor {
  ajv: { schemas: Record<string, { schema: unknown } | undefined> };
  resolvedSchemaCache: Map<string, unknown>;
}

/**
 * express-openapi-validator 5.6's schema preprocessor, at its first request,
 * reads each `$ref` it meets through `ajv.getSchema(ref).schema`: it compiles
 * every referenced component schema only to read back the object it was given
 * (~0.15 s of the first in-process answer, issue 26 item 6). A component schema
 * (`#/components/schemas/X`, added to that Ajv by the validator's createAjv) is
 * now read from Ajv's registry instead: the same object, not compiled. Any other
 * `$ref` goes through the validator's own code. The validators that check
 * requests and responses are compiled as before, per route, when first needed;
 * what moves is only this redundant compile (a schema Ajv cannot compile fails
 * at that route's first request, as an inline one always did).
 */
function resolveComponentsWithoutCompile(): void {
  const validatorDir = path.dirname(require.resolve('express-openapi-validator/package.json'));
  const file = path.join(validatorDir, 'dist', 'middlewares', 'parsers', 'schema.preprocessor.js');
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the class whose method the validator calls, by path.
  const { prototype } = (require(file) as PreprocessorModule).SchemaPreprocessor;
  if (prototype.resolvesWithoutCompile) return;
  const original = prototype.resolveSchema;
  prototype.resolveSchema = function resolveSchema(this: Preprocessor, schema: unknown): unknown {
    const ref = (schema as { $ref?: unknown } | null | undefined)?.$ref;
    if (typeof ref !== 'string' || !ref.startsWith('#/components/schemas/') || this.resolvedSchemaCache.has(ref)) {
      return original.call(this, schema);
    }
    const registered = this.ajv.schemas[ref];
    if (!registered) return original.call(this, schema);
    this.resolvedSchemaCache.set(ref, registered.schema);
    return registered.schema;
  };
  prototype.resolvesWithoutCompile = true;
}

/**
 * The validator's Express middleware as one step: it resolves when they all called next, rejects with the first
 * error. An error passed to next after that comes from the response check the validator leaves on res.json (a
 * body that breaks the served spec, found when the handler sends it): it goes to the error handler through
 * `fail`. Rejecting the settled promise would drop it, and the request would never be answered.
 */
function asStep(middlewares: readonly RequestHandler[]): ApiStep {
  return (req, res, _context, fail) =>
    new Promise<void>((resolve, reject) => {
      let at = 0;
      let settled = false;
      const next = (error?: unknown): void => {
        if (error !== undefined && error !== null) {
          if (settled) return fail(error);
          settled = true;
          return reject(error);
        }
        const middleware = middlewares[at++];
        if (!middleware) {
          settled = true;
          return resolve();
        }
        try {
          // The Express app's own request and response: the validator is a step of that road only.
          void middleware(req as never, res as never, next);
        } catch (thrown) {
          reject(thrown);
        }
      };
      next();
    });
}

export function openApiValidator(spec: OpenApiDocument, validateResponses: boolean): ApiStep {
  memoizeValidatorPathCompile();
  skipUnusedSpecValidator();
  resolveComponentsWithoutCompile();
  const middlewares = OpenApiValidator.middleware({
    // The validator annotates the document it is given; it gets its own copy.
    apiSpec: structuredClone(spec) as unknown as string,
    validateRequests: { allowUnknownQueryParameters: false },
    validateResponses: validateResponses ? { removeAdditional: false } : false,
    // Routing (404/405) and X-Api-Key are ours: they answer before validation, with the documented messages.
    validateSecurity: false,
    ignoreUndocumented: true,
    // openapi.yaml is linted in CI (npm run lint:spec); re-checking it here would only slow start-up.
    validateApiSpec: false,
  }) as unknown as RequestHandler[];
  return asStep(middlewares);
}
