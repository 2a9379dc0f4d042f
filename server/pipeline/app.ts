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
import express, { type ErrorRequestHandler, type RequestHandler } from 'express';
import type { Logger } from 'pino';
import type { SpecSource } from '../../contract/spec';
import type { Operation } from '../../contract/operations';
import { apiPath, runSteps, type ApiPath, type AppSettings } from './api-path';
import { docsRoutes } from './docs';
import { errorHandler } from './error-handler';
import {
  beginRequest,
  contextOf,
  documentedParameters,
  REQUEST_ID_HEADER,
  type ApiStep,
  type ControlPort,
  type RequestContext,
} from './request';
import type { ResponseCache } from './response-cache';
import type { ClientStore } from '../engine/store';
import type { PipelineRequest, PipelineResponse } from './exchange';
import { digestMatcher } from './key-digest';
import { openApiValidator } from './validator';

export type { AppSettings };

export interface App {
  (req: IncomingMessage, res: ServerResponse): void;
  /** Answers a request whose context is made (beginRequest and the control room's begin ran): the lean path hands on what it cannot answer. */
  respond(req: IncomingMessage, res: ServerResponse, context: RequestContext): void;
  cache: ResponseCache | undefined;
  /**
   * The work a listening server does once ready, in slices between requests
   * (background.ts) until done or `signal` aborts: the search index's frequent
   * substrings (store.ts), then the records as JSON outside the heap
   * (client-records.ts), then the client views (projections.ts).
   */
  prebuild(signal?: AbortSignal): Promise<void>;
}

/** The docs and spec routes, skipped by API requests: they would otherwise test each of its routes against every API path. */
function outsideApi(docs: RequestHandler, operations: readonly Operation[]): RequestHandler {
  const prefixes = [...new Set(operations.map((operation) => operation.template.split('/').slice(0, 2).join('/') + '/'))];
  return (req, res, next) => {
    if (prefixes.some((prefix) => req.path.startsWith(prefix))) return next();
    docs(req, res, next);
  };
}

/**
 * The API's steps as one Express layer (api-path.ts runs them): the router
 * would otherwise match the path, process parameters and allocate its
 * closures again for every one of a dozen layers on every request (about 13%
 * of what an uncached request allocated). Errors go to the error handler, as
 * Express would send them.
 */
function inSequence(steps: readonly ApiStep[]): RequestHandler {
  return (req, res, fail) => {
    // Made by this app's handler (beginRequest) before Express ran. Express's request and response have every
    // member the steps use (exchange.ts): this road's adapter is this cast.
    runSteps(steps, req as unknown as PipelineRequest, res as unknown as PipelineResponse, contextOf(req)!, fail);
  };
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
  return appOn(apiPath(config, store, logger, source, control, digestMatcher));
}

/** The Express app over an API path: the one the in-process lean path hands on to shares its views, cache and fault sequence. */
export function appOn(path: ApiPath): App {
  const { config, store, logger, source, control, operations, cache, parts, lines } = path;
  const spec = source.document;
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('case sensitive routing', true);
  app.set('strict routing', true);
  app.set('query parser', 'simple');
  // The API sends no validators (no ETag, no Last-Modified) and every answer is no-store: a conditional request
  // is answered as the plain one (openapi.yaml, "Conditional requests"; docs/decisions.md). Express's res.send
  // would otherwise answer 304 to `If-None-Match: *` (its freshness check needs no ETag to match a `*`).
  Object.defineProperty(app.request, 'fresh', { configurable: true, get: () => false });

  app.use(path.hygiene as unknown as RequestHandler);
  if (control) app.use(control.routes as unknown as RequestHandler);
  app.use(outsideApi(docsRoutes(source, config.publicUrl, control?.steering ?? false), operations));
  app.use(
    inSequence(
      path.steps({
        ...(cache ? { capture: cache.capture() } : {}),
        validator: openApiValidator(spec, config.validateResponses || config.fullResponseValidation),
      }),
    ),
  );
  app.use(errorHandler(logger, documentedParameters(spec)) as unknown as ErrorRequestHandler);

  const respond = (req: IncomingMessage, res: ServerResponse, context: RequestContext) => {
    if (cache?.serve(req, res, context)) return;
    res.setHeader(REQUEST_ID_HEADER, context.id);
    app(req as express.Request, res as express.Response);
  };
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    const context = beginRequest(req, res, lines);
    control?.begin(req, res, context);
    respond(req, res, context);
  };
  const prebuild = async (signal?: AbortSignal) => {
    await store.prebuildSearch(signal);
    // Before the views: every full GC until then marks the records again, and the views' build is long enough to see several.
    await store.compact(signal);
    await parts.prebuild(signal);
  };
  return Object.assign(handler, { respond, cache, prebuild });
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
