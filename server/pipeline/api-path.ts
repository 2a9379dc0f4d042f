// The API path's steps and the pieces they share, without Express: what both
// drivers of a request run. The Express app (app.ts) runs them as one layer
// after the security headers, CORS, the control and docs routes, with
// express-openapi-validator as its validation step; the in-process lean path
// (lean-path.ts) runs the very same steps on a request whose parameters are
// proven valid (plain-parameters.ts), without loading Express or the validator.
// Both are made from one ApiPath, so they share the data's views, the key
// gate, the response cache and the fault injector's seeded sequence.
import type { Logger } from 'pino';
import { describeSchemaError, SpecSchemas, type OpenApiDocument, type SpecSource } from '../../contract/spec-document';
import { findOperation, readOperations, type Operation, type OperationId } from '../../contract/operations';
import { ApiError, methodNotAllowed, noRoute, UNKNOWN_KEY_MESSAGE } from '../errors';
import { ClientParts, type ClientView, type ViewCheck } from '../engine/projections';
import type { ClientStore } from '../engine/store';
import { ApiKeyGate, unauthorized, type KeyMatcher } from './auth';
import { clientHandlers } from './handlers/clients';
import { diagnosticsHandlers } from './handlers/diagnostics';
import { responseHygiene, type HygieneSettings } from './http-hygiene';
import { FaultInjector, mockControls, type FaultSettings } from './mock-controls';
import { pagingHeaders } from './paging';
import { checkRawQuery } from './raw-query';
import {
  DONE,
  listParameters,
  requestLineLogger,
  type ApiStep,
  type ControlPort,
  type MiddlewareOf,
  type OperationHandler,
  type RequestContext,
} from './request';
import { ResponseCache } from './response-cache';
import type { PipelineRequest, PipelineResponse } from './exchange';

// Stores are immutable and tests build many apps over one store: its parts are made once.
const partsOf = new WeakMap<ClientStore, { parts: ClientParts; validated: boolean }>();

/** Every client's three views as JSON, each checked against openapi.yaml once when responses are validated. */
function clientParts(store: ClientStore, spec: OpenApiDocument, validate: boolean): ClientParts {
  const known = partsOf.get(store);
  if (known && (known.validated || !validate)) return known.parts;
  let check: ViewCheck | undefined;
  if (validate) {
    // Compiled when the first view of each kind is made, not at start (~0.1 s): a listening
    // server makes its views in the background right after it is ready, and an in-process
    // set-up whose first answer is a Simple page compiles only ClientSimple (issue 26 item 6).
    let schemas: SpecSchemas | undefined;
    const validators: Partial<Record<ClientView, ReturnType<SpecSchemas['validator']>>> = {};
    check = (view, client, position) => {
      schemas ??= new SpecSchemas(spec);
      const validator = (validators[view] ??= schemas.validator(view));
      if (!validator(client)) throw new Error(`client ${position} as ${view}${describeSchemaError(validator.errors?.[0])}`);
    };
  }
  const parts = new ClientParts(store.records, check);
  partsOf.set(store, { parts, validated: validate });
  return parts;
}

/** 404 for a path that is no operation, 405 for a method other than GET on one that is; the route goes into the context. */
function resolveOperation(operations: readonly Operation[]): ApiStep {
  return (req, _res, context) => {
    const route = findOperation(operations, req.path);
    if (!route) throw noRoute(req.method, req.path);
    context.route = route;
    if (req.method !== 'GET') throw methodNotAllowed(req.method);
  };
}

/**
 * 401 unless the operation is public or the key is accepted (checked once:
 * the cache's key may have checked it). In the `unauthorised` scenario every
 * key is rejected, as an unknown one would be.
 */
function requireApiKey(gate: ApiKeyGate): ApiStep {
  return (req, _res, context) => {
    if (context.route!.operation.isPublic) return;
    context.keyCheck ??= gate.check(req);
    if (context.keyCheck !== 'accepted') throw unauthorized(context.keyCheck);
    if (context.scenario?.rejectKeys) {
      if (!req.headers['x-api-key']) throw unauthorized('missing');
      throw new ApiError('UNAUTHORIZED', `${UNKNOWN_KEY_MESSAGE} (simulated: scenario ${context.scenario.name})`);
    }
  };
}

/** A bad X-Mock-Session or X-Mock-Scenario (the control room found it): 400 naming the header, once the route is known. */
const checkScenario: ApiStep = (_req, _res, context) => {
  if (context.scenarioProblem !== undefined) throw new ApiError('VALIDATION_ERROR', context.scenarioProblem);
};

/**
 * The operation's handler, by the operationId resolveOperation matched: the
 * route was found once, against the spec's templates, and is not looked up
 * again. The table's type names every operationId openapi.yaml declares, so an
 * operation without a handler does not compile.
 */
function dispatch(handlers: Readonly<Record<OperationId, OperationHandler>>): ApiStep {
  return (req, res, context) => {
    const route = context.route!;
    const handler = handlers[route.operation.operationId] as OperationHandler | undefined;
    // An operation added to a watched spec has no handler until the code has one.
    if (!handler) throw noRoute(req.method, req.path);
    // Express resets req.params at every layer: the path's own parameters, decoded (checkRawQuery proved they decode).
    for (const name in route.params) req.params[name] = decodeURIComponent(route.params[name]!);
    handler(req, res, context);
    return DONE;
  };
}

/** The settings the pipeline reads, as values (process/config.ts parses and checks them; its Config has them all). */
export interface AppSettings extends FaultSettings, HygieneSettings {
  apiKeys: readonly string[];
  auth: boolean;
  validateResponses: boolean;
  fullResponseValidation: boolean;
  cache: boolean;
  cacheMb: number;
  publicUrl: string | undefined;
}

/** What one app is made of, shared by its two drivers (the Express app, the lean path). */
export interface ApiPath {
  config: Readonly<AppSettings>;
  store: ClientStore;
  logger: Logger;
  source: SpecSource;
  control: ControlPort | undefined;
  operations: readonly Operation[];
  gate: ApiKeyGate;
  faults: FaultInjector;
  cache: ResponseCache | undefined;
  parts: ClientParts;
  /** The request-line logger (requestLineLogger), or undefined when the level leaves the line out. */
  lines: Logger | undefined;
  /** Security headers, no-store and CORS (http-hygiene.ts). */
  hygiene: MiddlewareOf;
  /** The steps from routing to the handler; `validator` and `capture` are the Express app's (the lean path needs neither). */
  steps(extra: { capture?: ApiStep; validator?: ApiStep }): ApiStep[];
}

/**
 * `source` is the served spec (SPEC_FILE, a --watch reload, or the package's
 * own), read once by the caller (mock.ts) and passed down: the route table, the
 * list parameters and the views' checks take theirs from it. `control` is the
 * control API (server/control, through the pipeline's ControlPort), or
 * undefined when it is off. `matchKeys` compares a given key with the
 * accepted ones (key-digest.ts in Node; the browser's own there).
 */
export function apiPath(
  config: Readonly<AppSettings>,
  store: ClientStore,
  logger: Logger,
  source: SpecSource,
  control: ControlPort | undefined,
  matchKeys: KeyMatcher,
): ApiPath {
  const spec = source.document;
  const operations = readOperations(spec);
  const gate = new ApiKeyGate(config.apiKeys, config.auth, matchKeys);
  const faults = new FaultInjector(config);
  const cache = config.cache ? new ResponseCache(config.cacheMb * 1024 * 1024, gate, (context) => faults.decide(context)) : undefined;
  const parts = clientParts(store, spec, config.validateResponses);
  const list = listParameters(spec);
  const paging = pagingHeaders(list, config.publicUrl);
  const handlers = {
    ...diagnosticsHandlers(),
    ...clientHandlers(store, { parts, listParameters: list, paging, objectPath: config.fullResponseValidation }),
  };
  return {
    config,
    store,
    logger,
    source,
    control,
    operations,
    gate,
    faults,
    cache,
    parts,
    lines: requestLineLogger(logger),
    hygiene: responseHygiene(config, control),
    steps: ({ capture, validator }) => [
      resolveOperation(operations),
      ...(control?.steering ? [checkScenario] : []),
      requireApiKey(gate),
      ...(capture ? [capture] : []),
      checkRawQuery,
      ...(validator ? [validator] : []),
      mockControls(faults, { parameters: list, paging }),
      dispatch(handlers),
    ],
  };
}

/**
 * Runs the API's steps in order with the request's context passed to each: a
 * step returns to go on (the loop calls the next one, nobody calls back into
 * this file), throws to answer with an error, returns DONE when the request
 * needs nothing more, or returns a promise (the validator, a delay) the path
 * waits for. Anything thrown or rejected goes to `fail`, the error handler.
 */
export function runSteps(
  steps: readonly ApiStep[],
  req: PipelineRequest,
  res: PipelineResponse,
  context: RequestContext,
  fail: (error: unknown) => void,
): void {
  let at = 0;
  const run = (): void => {
    try {
      while (at < steps.length) {
        const result = steps[at++]!(req, res, context, fail);
        if (result === DONE) return;
        if (result !== undefined) {
          result.then((after) => {
            if (after !== DONE) run();
          }, fail);
          return;
        }
      }
    } catch (thrown) {
      fail(thrown);
    }
  };
  run();
}
