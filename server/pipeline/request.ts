// One request as the pipeline knows it. The app's handler makes its context
// once (beginRequest: the id, the start time, the request line) and hands it,
// as an argument, to the cache fast path and to every step of the API path
// (app.ts): the route it matched, its key check, its fault decision, and what
// its answer leaves for the response cache and the log (an error's Code and
// parameter, the recipe of its body). Only the two places Express reaches on
// its own, the error handler and the docs routes, look it up by request.
// The list query is parsed once into a typed value (ListQuery, the engine's
// vocabulary) with the served spec's own parameter names and defaults.
import type { Logger } from 'pino';
import type { PipelineRequest, PipelineResponse, RequestHeaders } from './exchange';
import type { KeyCheck } from './auth';
import type { RouteMatch } from '../../contract/operations';
import type { OpenApiDocument } from '../../contract/spec-document';
import type { ListQuery } from '../engine/list-query';

/** A failure or delay the mock controls decided for a request (LATENCY_MS, ERROR_RATE); decided once per request. */
export interface FaultDecision {
  delayMs: number;
  fail: boolean;
}

export interface RequestContext {
  id: string;
  startedAt: number;
  route: RouteMatch | undefined;
  keyCheck: KeyCheck | undefined;
  /** The mock controls' decision, when one was taken (mock-controls.ts): the cache replays it on hits. */
  fault: FaultDecision | undefined;
  servedFromCache: boolean;
  /** For an error answer: its ErrorDto Code, and the documented parameter it names, for the request line. */
  errorCode: string | undefined;
  errorParam: string | undefined;
  /** The path of a route outside the API (docs, spec), for the request line. */
  label: string | undefined;
  /** How the body being sent can be made again from the client views, and the memory that recipe holds: the response cache keeps it instead of the bytes. */
  remake: BodyRecipe | undefined;
  /** The scenario the request is answered in, when it changes anything (server/control chooses it; undefined: normal). */
  scenario: ScenarioEffect | undefined;
  /** A bad X-Mock-Session or X-Mock-Scenario: the 400's message, answered once the route is known. */
  scenarioProblem: string | undefined;
}

/**
 * What a scenario (control.openapi.yaml, "Scenarios") asks of the pipeline,
 * on the Client operations only: the mock controls apply it as they apply
 * Prefer, LATENCY_MS and ERROR_RATE, the key check as an unknown key. The
 * object is the scenario's identity: a seeded sequence (`faults`) goes on
 * from request to request of the same object.
 */
export interface ScenarioEffect {
  readonly name: string;
  /** Answer this named 2xx example where the operation has one (as `Prefer: example=NAME`). */
  readonly example?: string;
  /** Answer 500 INTERNAL_ERROR. */
  readonly fail?: boolean;
  /** Reject every key (401 UNAUTHORIZED). */
  readonly rejectKeys?: boolean;
  /** Delays and failures from a seeded sequence, as LATENCY_MS, ERROR_RATE and SEED give the server's own. */
  readonly faults?: {
    readonly latencyMs: { readonly min: number; readonly max: number };
    readonly errorRate: number;
    readonly seed: number;
  };
}

/**
 * The control API as the pipeline is given it (server/control implements it;
 * mock.ts wires it): the pipeline never imports the control room.
 */
export interface ControlPort {
  /** First for every request: decides its session and scenario (into the context) and journals it when it ends. */
  begin(req: RequestLine, res: AnswerEnd, context: RequestContext): void;
  /** The control paths (/__control/...), after the security headers and CORS, before the API (an Express handler). */
  routes: MiddlewareOf<never, never>;
  /** The control API is on: its paths answer and the docs page shows its document (off, the port only counts coverage). */
  steering: boolean;
  /** Request headers browsers may send to the API and the control paths (CORS): X-Mock-Session, X-Mock-Scenario. */
  requestHeaders: readonly string[];
  /** The control paths' prefix, and the methods its preflights allow. */
  prefix: string;
  methods: readonly string[];
}

export interface BodyRecipe {
  make(): Buffer;
  heldBytes: number;
  /** make() assembles new bytes (a list page), rather than returning a slice of bytes kept anyway (a Detail). */
  copies: boolean;
}

/** No delay, no failure: what a request the mock controls do not shape gets. */
export const NO_FAULT: FaultDecision = Object.freeze({ delayMs: 0, fail: false });

/** The mock controls' decision for a request, taken once and kept in its context (FaultInjector.decide). */
export type DecideFault = (context: Pick<RequestContext, 'fault'>) => FaultDecision;

/** What the context's maker and the control room read of a request: its line and headers. */
export interface RequestLine {
  method?: string | undefined;
  url?: string | undefined;
  headers: RequestHeaders;
  /** The header lines as sent, name and value by turns (the journal keeps them). */
  rawHeaders: readonly string[];
}

/** What they watch of its answer: its status once sent, and its end (Node's response and the AnswerRecorder both emit 'close'). */
export interface AnswerEnd {
  readonly statusCode: number;
  readonly headersSent: boolean;
  readonly writableFinished?: boolean;
  on(event: 'close', listener: () => void): unknown;
}

/** A middleware as Express and the hygiene step call it: request, response, next. */
export type MiddlewareOf<Req = PipelineRequest, Res = PipelineResponse> = (req: Req, res: Res, next: (error?: unknown) => void) => void;

/** Writes X-Total-Count and Link for a list answer of `query` at `path` with `total` matches (paging.ts). */
export type PagingHeaders = (res: PipelineResponse, path: string, query: ListQuery, total: number) => void;

/** What a step of the API path returns: nothing to go on, DONE when the request needs nothing more, or a promise of either. */
export const DONE = Symbol('done');
export type StepResult = void | typeof DONE | Promise<void | typeof DONE>;

/**
 * A step of the API path (app.ts): given the request, its response and its context; it throws an ApiError to answer
 * with it. `fail` hands an error to the error handler later, after the step has returned: a check the step leaves
 * on the response (the validator's check of a JSON body) fails when the handler sends it.
 */
export type ApiStep = (req: PipelineRequest, res: PipelineResponse, context: RequestContext, fail: (error: unknown) => void) => StepResult;

export const REQUEST_ID_HEADER = 'X-Request-Id';

/**
 * The logger of the one line per request: the same logger without redaction.
 * That line is built from a fixed set of fields (request id, method, route
 * template, status, time), never a URL, key, filter or body, so the redaction
 * paths have nothing to find there, yet matching them cost 2.3 of the 3.2 µs
 * the line took to serialize. Undefined when the level leaves the line out:
 * the level is fixed at start, so the app asks once.
 */
export function requestLineLogger(logger: Logger): Logger | undefined {
  return logger.isLevelEnabled('info') ? logger.child({}, { redact: { paths: [] } }) : undefined;
}

const contexts = new WeakMap<object, RequestContext>();
// The Web Crypto object of Node and of browsers alike, looked up once: globalThis.crypto is a getter in Node.
const webCrypto = globalThis.crypto;
// A caller's id is echoed only when it is short and printable: it goes into headers and logs.
const SAFE_REQUEST_ID = /^[\w.:@-]{1,128}$/;

/** The context of a request Express hands to the error handler or a docs route (the API path is given it). */
export function contextOf(req: object): RequestContext | undefined {
  return contexts.get(req);
}

/**
 * Gives the request its id (echoed or generated) and logs one line when the
 * response ends (`lines`: requestLineLogger's, or undefined for no line). The
 * caller sends the id as `X-Request-Id`, first of the headers: the Express
 * path with setHeader, the cache fast path in its one writeHead (a header set
 * here would make Node merge every replayed header one by one).
 */
export function beginRequest(req: RequestLine, res: AnswerEnd, lines: Logger | undefined): RequestContext {
  const existing = contexts.get(req);
  if (existing) return existing;
  const incoming = req.headers['x-request-id'];
  const id = typeof incoming === 'string' && SAFE_REQUEST_ID.test(incoming) ? incoming : webCrypto.randomUUID();
  // Every field present from the start: one object shape for all requests.
  const context: RequestContext = {
    id,
    startedAt: performance.now(),
    route: undefined,
    keyCheck: undefined,
    fault: undefined,
    servedFromCache: false,
    errorCode: undefined,
    errorParam: undefined,
    label: undefined,
    remake: undefined,
    scenario: undefined,
    scenarioProblem: undefined,
  };
  contexts.set(req, context);
  // When the level leaves the line out, no listener at all.
  if (lines) {
    res.on('close', () => {
      const line: Record<string, unknown> = {
        reqId: id,
        method: req.method,
        // The template, never the raw URL: ids and filter values stay out of the log.
        route: context.route?.operation.template ?? context.label ?? '(no route)',
        status: res.statusCode,
        ms: Math.round((performance.now() - context.startedAt) * 100) / 100,
      };
      if (context.servedFromCache) line.cache = 'hit';
      if (context.errorCode !== undefined) line.code = context.errorCode;
      if (context.errorParam !== undefined) line.param = context.errorParam;
      if (!res.writableFinished) line.aborted = true;
      lines.info(line, 'request');
    });
  }
  return context;
}

/** Every parameter name the served spec documents (query, path, header), in the spelling the validator reports. */
export function documentedParameters(spec: OpenApiDocument): ReadonlySet<string> {
  const names = new Set<string>();
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(visit);
    if (typeof value !== 'object' || value === null) return;
    const record = value as Record<string, unknown>;
    if (typeof record.name === 'string' && typeof record.in === 'string') {
      names.add(`${record.in}.${record.in === 'header' ? record.name.toLowerCase() : record.name}`);
    }
    Object.values(record).forEach(visit);
  };
  visit(spec.paths);
  visit(spec.components.parameters);
  return names;
}

const VALIDATOR_LOCATIONS: Record<string, string> = { query: 'query', params: 'path', path: 'path', headers: 'header' };

/** Names a non-API route (/docs, /openapi.json, …) in its request line: a fixed path, never the raw URL. */
export function labelRoute(req: object, path: string): void {
  const context = contextOf(req);
  if (context) context.label = path;
}

/**
 * Notes an error answer's Code for the request line, and the parameter the
 * validator named (`.query.pageSize` → `query.pageSize`). Only a name the
 * served spec documents (`documented`) is kept: an unknown parameter's name is
 * caller input, which the log never holds.
 */
export function noteError(
  context: RequestContext | undefined,
  code: string,
  validatorPath: string | undefined,
  documented: ReadonlySet<string>,
): void {
  if (!context) return;
  context.errorCode = code;
  if (code === 'UNAUTHORIZED') {
    context.errorParam = 'header.X-Api-Key';
    return;
  }
  const match = validatorPath === undefined ? null : /^[./]?(query|params|headers|path)[./](.+)$/.exec(validatorPath);
  if (!match) return;
  const location = VALIDATOR_LOCATIONS[match[1]!]!;
  const name = location === 'header' ? match[2]!.toLowerCase() : match[2]!;
  context.errorParam = documented.has(`${location}.${name}`) ? `${location}.${name}` : `${location}.(undocumented)`;
}

/** The list parameters as the served spec names them, with its defaults (components.parameters Page and PageSize). */
export interface ListParameters {
  page: { name: string; default: number };
  pageSize: { name: string; default: number };
}

export function listParameters(spec: OpenApiDocument): ListParameters {
  const shared = (spec.components.parameters ?? {}) as Record<string, { name?: unknown; schema?: { default?: unknown } } | undefined>;
  const read = (key: 'Page' | 'PageSize') => {
    const parameter = shared[key];
    const fallback = parameter?.schema?.default;
    if (typeof parameter?.name !== 'string' || typeof fallback !== 'number') {
      throw new Error(`the served spec's components.parameters.${key} has no name or no numeric default`);
    }
    return { name: parameter.name, default: fallback };
  };
  return { page: read('Page'), pageSize: read('PageSize') };
}

function single(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  return String(value);
}

/**
 * The list query of a validated request (the validator has checked every
 * value against the served spec), parsed once: the engine's page(query), the
 * page's echo and its Link header all read this value, never the raw query.
 */
export function readListQuery(query: PipelineRequest['query'], parameters: ListParameters): ListQuery {
  const list: ListQuery = {
    page: Number(single(query[parameters.page.name]) ?? parameters.page.default),
    pageSize: Number(single(query[parameters.pageSize.name]) ?? parameters.pageSize.default),
  };
  const active = single(query.active);
  if (active !== undefined) list.active = active === 'true';
  const filter = single(query.filter);
  if (filter !== undefined) list.filter = filter;
  // uuids compare case-insensitively, as the uuid format allows either case.
  const idStaff = single(query.idStaff);
  if (idStaff !== undefined) list.idStaff = idStaff.toLowerCase();
  const idLocation = single(query.idLocation);
  if (idLocation !== undefined) list.idLocation = idLocation.toLowerCase();
  return list;
}

/** The API path's handler of one operation: its answer, or a thrown ApiError. */
export type OperationHandler = (req: PipelineRequest, res: PipelineResponse, context: RequestContext) => void;
