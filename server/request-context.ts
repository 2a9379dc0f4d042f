// What the pipeline learns about a request, kept beside it rather than on it:
// its id, start time, matched operation and key check. The cache fast path and
// the Express pipeline both read and fill it, so neither repeats the other's work.
import crypto from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type { KeyCheck } from './auth';
import { requestLineLogger } from './logger';
import type { RouteMatch } from '../contract/operations';

export interface RequestContext {
  id: string;
  startedAt: number;
  route?: RouteMatch;
  keyCheck?: KeyCheck;
  servedFromCache?: boolean;
}

export const REQUEST_ID_HEADER = 'X-Request-Id';

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
  const context: RequestContext = { id, startedAt: performance.now(), route: undefined, keyCheck: undefined, servedFromCache: false };
  contexts.set(req, context);
  // The level is fixed at start: when info is off, no listener at all.
  if (logger.isLevelEnabled('info')) {
    const lines = requestLineLogger(logger);
    res.on('close', () => {
      const line: Record<string, unknown> = {
        reqId: id,
        method: req.method,
        // The template, never the raw URL: ids and filter values stay out of the log.
        route: context.route?.operation.template ?? '(no route)',
        status: res.statusCode,
        ms: Math.round((performance.now() - context.startedAt) * 100) / 100,
      };
      if (context.servedFromCache) line.cache = 'hit';
      if (!res.writableFinished) line.aborted = true;
      lines.info(line, 'request');
    });
  }
  return context;
}
