// What the pipeline learns about a request, kept beside it rather than on it:
// its id, start time, matched operation and key check. The cache fast path and
// the Express pipeline both read and fill it, so neither repeats the other's work.
import crypto from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type { KeyCheck } from './auth';
import type { RouteMatch } from './operations';

export interface RequestContext {
  id: string;
  startedAt: number;
  route?: RouteMatch;
  keyCheck?: KeyCheck;
  servedFromCache?: boolean;
}

const contexts = new WeakMap<IncomingMessage, RequestContext>();
// A caller's id is echoed only when it is short and printable: it goes into headers and logs.
const SAFE_REQUEST_ID = /^[\w.:@-]{1,128}$/;

export function contextOf(req: IncomingMessage): RequestContext {
  const context = contexts.get(req);
  if (!context) throw new Error('request has no context: beginRequest was not called');
  return context;
}

/** Gives the request its id (echoed or generated) and logs one line when the response ends. */
export function beginRequest(req: IncomingMessage, res: ServerResponse, logger: Logger): RequestContext {
  const existing = contexts.get(req);
  if (existing) return existing;
  const incoming = req.headers['x-request-id'];
  const id = typeof incoming === 'string' && SAFE_REQUEST_ID.test(incoming) ? incoming : crypto.randomUUID();
  const context: RequestContext = { id, startedAt: performance.now() };
  contexts.set(req, context);
  res.setHeader('X-Request-Id', id);
  res.once('close', () => {
    if (!logger.isLevelEnabled('info')) return;
    logger.info(
      {
        reqId: id,
        method: req.method,
        // The template, never the raw URL: ids and filter values stay out of the log.
        route: context.route?.operation.template ?? '(no route)',
        status: res.statusCode,
        ms: Math.round((performance.now() - context.startedAt) * 100) / 100,
        ...(context.servedFromCache ? { cache: 'hit' } : {}),
        ...(res.writableFinished ? {} : { aborted: true }),
      },
      'request',
    );
  });
  return context;
}
