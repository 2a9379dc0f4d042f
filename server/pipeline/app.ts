// createApp builds the whole request pipeline and never listens. It reads like
// a table of contents: request id and log → the control room's session and
// scenario → response cache → security and CORS → control API → docs → route →
// scenario check → auth → validator → mock controls → the operation's handler
// → errors. It is given everything it reads (settings as values, the store,
// the logger, the served spec, the control port) and passes it down; the API path's steps get
// the request's context as an argument and hand their results to the next
// step by returning (ARCHITECTURE.md draws a request through them).
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import express, { type RequestHandler } from 'express';
import type { Logger } from 'pino';
import { describeSchemaError, SpecSchemas, type OpenApiDocument, type SpecSource } from '../../contract/spec';
import { ApiKeyGate, unauthorized } from './auth';
import { docsRoutes } from './docs';
import { ApiError, methodNotAllowed, noRoute, UNKNOWN_KEY_MESSAGE } from '../errors';
import { errorHandler } from './error-handler';
import { responseHygiene, type HygieneSettings } from './http-hygiene';
import { FaultInjector, mockControls, type FaultSettings } from './mock-controls';
import { findOperation, readOperations, type Operation, type OperationId } from '../../contract/operations';
import {
  beginRequest,
  contextOf,
  documentedParameters,
  DONE,
  listParameters,
  REQUEST_ID_HEADER,
  requestLineLogger,
  type ApiStep,
  type ControlPort,
  type OperationHandler,
} from './request';
import { pagingHeaders } from './paging';
import { ResponseCache } from './response-cache';
import { clientHandlers } from './handlers/clients';
import { diagnosticsHandlers } from './handlers/diagnostics';
import { ClientParts, type ClientView, type ViewCheck } from '../engine/projections';
import type { ClientStore } from '../engine/store';
import { checkRawQuery, openApiValidator } from './validator';

export interface App {
  (req: IncomingMessage, res: ServerResponse): void;
  cache: ResponseCache | undefined;
  /**
   * The work a listening server does once ready, in slices between requests
   * (background.ts) until done or `signal` aborts: the search index's frequent
   * substrings (store.ts), then the records as JSON outside the heap
   * (client-records.ts), then the client views (projections.ts).
   */
  prebuild(signal?: AbortSignal): Promise<void>;
}

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

/** The docs and spec routes, skipped by API requests: they would otherwise test each of its routes against every API path. */
function outsideApi(docs: RequestHandler, operations: readonly Operation[]): RequestHandler {
  const prefixes = [...new Set(operations.map((operation) => operation.template.split('/').slice(0, 2).join('/') + '/'))];
  return (req, res, next) => {
    if (prefixes.some((prefix) => req.path.startsWith(prefix))) return next();
    docs(req, res, next);
  };
}

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

/**
 * The API's steps as one Express layer, run in order with the request's
 * context passed to each: a step returns to go on (the loop calls the next
 * one, nobody calls back into this file), throws to answer with an error,
 * returns DONE when the request needs nothing more, or returns a promise
 * (the validator, a delay) the path waits for. The router would otherwise
 * match the path, process parameters and allocate its closures again for
 * every one of a dozen layers on every request (about 13% of what an uncached
 * request allocated). Errors go to the error handler, as Express would send them.
 */
function inSequence(steps: readonly ApiStep[]): RequestHandler {
  return (req, res, fail) => {
    // Made by this app's handler (beginRequest) before Express ran.
    const context = contextOf(req)!;
    let at = 0;
    const run = (): void => {
      try {
        while (at < steps.length) {
          const result = steps[at++]!(req, res, context);
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

/**
 * `source` is the served spec (SPEC_FILE, a --watch reload, or the package's
 * own), read once by the caller (mock.ts) and passed down: the validator, the
 * route table, the list parameters, the docs page and the request log all
 * take theirs from it. `control` is the control API (server/control, through
 * the pipeline's ControlPort), or undefined when it is off.
 */
export function createApp(
  config: Readonly<AppSettings>,
  store: ClientStore,
  logger: Logger,
  source: SpecSource,
  control?: ControlPort,
): App {
  const spec = source.document;
  const operations = readOperations(spec);
  const gate = new ApiKeyGate(config.apiKeys, config.auth);
  const faults = new FaultInjector(config);
  const cache = config.cache ? new ResponseCache(config.cacheMb * 1024 * 1024, gate, (context) => faults.decide(context)) : undefined;
  const parts = clientParts(store, spec, config.validateResponses);
  const list = listParameters(spec);
  const paging = pagingHeaders(list, config.publicUrl);

  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('case sensitive routing', true);
  app.set('strict routing', true);
  app.set('query parser', 'simple');

  app.use(responseHygiene(config, control));
  if (control) app.use(control.routes);
  app.use(outsideApi(docsRoutes(source, config.publicUrl, control?.steering ?? false), operations));
  app.use(
    inSequence([
      resolveOperation(operations),
      ...(control?.steering ? [checkScenario] : []),
      requireApiKey(gate),
      ...(cache ? [cache.capture()] : []),
      checkRawQuery,
      openApiValidator(spec, config.validateResponses || config.fullResponseValidation),
      mockControls(faults, { parameters: list, paging }),
      dispatch({
        ...diagnosticsHandlers(),
        ...clientHandlers(store, { parts, listParameters: list, paging, objectPath: config.fullResponseValidation }),
      }),
    ]),
  );
  app.use(errorHandler(logger, documentedParameters(spec)));

  const lines = requestLineLogger(logger);
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    const context = beginRequest(req, res, lines);
    control?.begin(req, res, context);
    if (cache?.serve(req, res, context)) return;
    res.setHeader(REQUEST_ID_HEADER, context.id);
    app(req as express.Request, res as express.Response);
  };
  const prebuild = async (signal?: AbortSignal) => {
    await store.prebuildSearch(signal);
    // Before the views: every full GC until then marks the records again, and the views' build is long enough to see several.
    await store.compact(signal);
    await parts.prebuild(signal);
  };
  return Object.assign(handler, { cache, prebuild });
}

/**
 * express-openapi-validator prepares the spec and compiles a route's validators
 * on the first request that needs them (about 0.3 s for the first of all).
 * One Ping, run in-process before the server listens, pays that at start, so
 * the first caller and a readiness probe meet a ready server. Ping is public
 * and outside LATENCY_MS / ERROR_RATE: the warm-up draws nothing from the
 * seeded fault sequence and writes no request log line (no socket, no close).
 * Resolves to Ping's status: anything but 200 means the spec did not load.
 */
export function warmUp(app: App): Promise<number> {
  return new Promise((resolve) => {
    const req = new IncomingMessage(new Socket());
    req.method = 'GET';
    req.url = '/api/v1/Diagnostics/Ping';
    req.headers = { host: '127.0.0.1' };
    req.push(null);
    const res = new ServerResponse(req);
    const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
    (res as { end: (...args: unknown[]) => ServerResponse }).end = (...args: unknown[]) => {
      // The status tells a reload (watch.ts) whether the validator could use the spec.
      resolve(res.statusCode);
      return end(...args);
    };
    app(req, res);
  });
}
