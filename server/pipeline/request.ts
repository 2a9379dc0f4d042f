// What the pipeline learns about a request, kept beside it rather than on it:
// its id, start time, matched operation and key check. The cache fast path and
// the Express pipeline both read and fill it, so neither repeats the other's work.
import crypto from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type { KeyCheck } from './auth';
import type { RouteMatch } from '../../contract/operations';
import { loadSpec } from '../../contract/spec';

export interface RequestContext {
  id: string;
  startedAt: number;
  route?: RouteMatch;
  keyCheck?: KeyCheck;
  servedFromCache?: boolean;
  /** For an error answer: its ErrorDto Code, and the documented parameter it names, for the request line. */
  errorCode?: string;
  errorParam?: string;
  /** The path of a route outside the API (docs, spec), for the request line. */
  label?: string;
  /** How the body being sent can be made again from the client views, and the memory that recipe holds: the response cache keeps it instead of the bytes. */
  remake?: BodyRecipe;
}

export interface BodyRecipe {
  make(): Buffer;
  heldBytes: number;
  /** make() assembles new bytes (a list page), rather than returning a slice of bytes kept anyway (a Detail). */
  copies: boolean;
}

export const REQUEST_ID_HEADER = 'X-Request-Id';

const requestLineLoggers = new WeakMap<Logger, Logger>();

/**
 * The logger of the one line per request: the same logger without redaction.
 * That line is built from a fixed set of fields (request id, method, route
 * template, status, time), never a URL, key, filter or body, so the redaction
 * paths have nothing to find there, yet matching them cost 2.3 of the 3.2 µs
 * the line took to serialize.
 */
export function requestLineLogger(logger: Logger): Logger {
  let lines = requestLineLoggers.get(logger);
  if (!lines) {
    lines = logger.child({}, { redact: { paths: [] } });
    requestLineLoggers.set(logger, lines);
  }
  return lines;
}

const contexts = new WeakMap<IncomingMessage, RequestContext>();
// A caller's id is echoed only when it is short and printable: it goes into headers and logs.
const SAFE_REQUEST_ID = /^[\w.:@-]{1,128}$/;

export function contextOf(req: IncomingMessage): RequestContext {
  const context = contexts.get(req);
  if (!context) throw new Error('request has no context: beginRequest was not called');
  return context;
}

/**
 * Gives the request its id (echoed or generated) and logs one line when the
 * response ends. The caller sends the id as `X-Request-Id`, first of the
 * headers: the Express path with setHeader, the cache fast path in its one
 * writeHead (a header set here would make Node merge every replayed header
 * one by one).
 */
export function beginRequest(req: IncomingMessage, res: ServerResponse, logger: Logger): RequestContext {
  const existing = contexts.get(req);
  if (existing) return existing;
  const incoming = req.headers['x-request-id'];
  const id = typeof incoming === 'string' && SAFE_REQUEST_ID.test(incoming) ? incoming : crypto.randomUUID();
  // Every field present from the start: one object shape for all requests.
  const context: RequestContext = {
    id,
    startedAt: performance.now(),
    route: undefined,
    keyCheck: undefined,
    servedFromCache: false,
    errorCode: undefined,
    errorParam: undefined,
    label: undefined,
    remake: undefined,
  };
  contexts.set(req, context);
  // The level is fixed at start: when info is off, no listener at all.
  if (logger.isLevelEnabled('info')) {
    const lines = requestLineLogger(logger);
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

let documentedNames: ReadonlySet<string> | undefined;

/** Every parameter name openapi.yaml documents (query, path, header), in the spelling the validator reports. */
function documentedParameters(): ReadonlySet<string> {
  if (documentedNames) return documentedNames;
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
  const spec = loadSpec();
  visit(spec.paths);
  visit(spec.components.parameters);
  documentedNames = names;
  return names;
}

const VALIDATOR_LOCATIONS: Record<string, string> = { query: 'query', params: 'path', path: 'path', headers: 'header' };

/** Names a non-API route (/docs, /openapi.json, …) in its request line: a fixed path, never the raw URL. */
export function labelRoute(req: IncomingMessage, path: string): void {
  const context = contexts.get(req);
  if (context) context.label = path;
}

/**
 * Notes an error answer's Code for the request line, and the parameter the
 * validator named (`.query.pageSize` → `query.pageSize`). Only a name the spec
 * documents is kept: an unknown parameter's name is caller input, which the
 * log never holds.
 */
export function noteError(req: IncomingMessage, code: string, validatorPath?: string): void {
  const context = contexts.get(req);
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
  context.errorParam = documentedParameters().has(`${location}.${name}`) ? `${location}.${name}` : `${location}.(undocumented)`;
}
