// Why this file exists: issue 26 item 6. A test file's in-process handlers (msw-core.ts) paid for
// loading Express and express-openapi-validator, and for the validator's first compile, before their
// first answer: about half a second of a fresh process, several times what a hand-written MSW handler
// costs. Most requests a frontend test sends are plain (a list page, a Detail, with a good key), and for
// those the validator has nothing to say. This path answers such a request with the API path's very
// steps (api-path.ts: routing, scenario check, key, raw query, mock controls, the handler, the one error
// handler), after the same security headers and CORS, on Node's own request and response with the few
// members of Express's that the steps use (expressLike, below, written to send Express 5's exact bytes).
// It answers only what it can prove the full pipeline would answer the same: a GET whose parameters
// plain-parameters.ts proves valid, with no Prefer, no scenario, no LATENCY_MS or ERROR_RATE, no
// conditional or body headers. Anything else returns false before any step ran, and the caller hands the
// request to the Express app built on the same ApiPath (app.ts, appOn). Bodies sent through res.json
// (errors, Ping) are checked against the operation's documented response schema, as the validator's
// response check would; client views are checked when made (api-path.ts, clientParts), on both paths.
// tests/msw/byte-equality.test.ts holds both paths to the HTTP server's bytes and headers.
import type { IncomingMessage, ServerResponse } from 'node:http';
import querystring from 'node:querystring';
import type { Request, Response } from 'express';
import { findOperation, type RouteMatch } from '../../contract/operations';
import { followRefs, pointerSegment, SpecSchemas, type OpenApiDocument } from '../../contract/spec';
import { runSteps, type ApiPath } from './api-path';
import type { App } from './app';
import { errorHandler } from './error-handler';
import { plainParameters } from './plain-parameters';
import { checkRawQuery } from './raw-query';
import { beginRequest, documentedParameters, REQUEST_ID_HEADER, type RequestContext } from './request';

/** Answers the request and returns true, or returns false having changed nothing (the full pipeline answers it). */
export type LeanPath = (req: IncomingMessage, res: ServerResponse, context: RequestContext) => boolean;

/** Request headers under which Express or the validator may answer otherwise: a conditional GET (a 304) or a body. */
const FULL_PATH_HEADERS = ['if-none-match', 'if-modified-since', 'content-type', 'content-length', 'transfer-encoding'];
/** Characters that take Express's URL parser (parseurl) off its fast path: such URLs are left to Express itself. */
const UNUSUAL_URL = /[\t\n\f\r #\u00a0\ufeff]/;

/** The validator's error shape (error-handler.ts reads it): a response that breaks the spec is logged and answered 500. */
interface BodyMismatch {
  status: 500;
  message: string;
  errors: { path: string; message: string }[];
}

/** What a JSON body sent with this status must be, by the operation's documented response; undefined when it matches. */
function jsonBodyCheck(spec: OpenApiDocument, on: boolean): (route: RouteMatch, status: number, body: unknown) => BodyMismatch | undefined {
  let schemas: SpecSchemas | undefined;
  const validators = new Map<string, ((body: unknown) => BodyMismatch | undefined) | undefined>();
  // A documented response may be a $ref (`'500': $ref: '#/components/responses/InternalError'`): responseSchema follows it.
  const compile = (template: string, status: number) => {
    const responses = (spec.paths[template]?.get as { responses?: Record<string, unknown> } | undefined)?.responses ?? {};
    if (!(String(status) in responses)) return undefined;
    schemas ??= new SpecSchemas(spec);
    const validate = responseSchema(spec, schemas, template, status);
    return (body: unknown): BodyMismatch | undefined =>
      validate(body)
        ? undefined
        : {
            status: 500,
            message: '.response should match the documented schema',
            errors: (validate.errors ?? []).map((e) => ({ path: `.response${e.instancePath}`, message: e.message ?? 'is not valid' })),
          };
  };
  return (route, status, body) => {
    if (!on) return undefined;
    const key = `${status} ${route.operation.template}`;
    if (!validators.has(key)) validators.set(key, compile(route.operation.template, status));
    const validate = validators.get(key);
    return validate
      ? validate(body)
      : {
          status: 500,
          message: `no response documented for status ${status}`,
          errors: [{ path: '.response', message: 'is not documented' }],
        };
  };
}

/** Express's setCharset (send() of text): the type with `charset=utf-8`, its other parameters kept in Express's order. */
function withUtf8(type: string): string {
  const [essence = '', ...parameters] = type.split(';').map((part) => part.trim());
  const named = new Map(
    parameters.filter(Boolean).map((part) => [part.slice(0, part.indexOf('=')).toLowerCase(), part.slice(part.indexOf('=') + 1)]),
  );
  named.set('charset', 'utf-8');
  return [essence.toLowerCase(), ...[...named.keys()].sort().map((name) => `${name}=${named.get(name)!}`)].join('; ');
}

/**
 * The members of Express's response that the API path's steps call (status, get, set, send, json), on
 * Node's response, sending the bytes and headers Express 5.3's would: res.set adds `charset=utf-8` to a
 * JSON Content-Type (as mime-types does), send() sets Content-Length, strips a 204/304's body headers and
 * sends no body to HEAD; json() stringifies and, here, checks the body against the documented response.
 */
function expressLike(
  res: ServerResponse,
  method: string,
  checkBody: (status: number, body: unknown) => BodyMismatch | undefined,
  fail: (error: unknown) => void,
): Response {
  const response = res as unknown as Response & Record<string, unknown>;
  const set = (field: string | Record<string, unknown>, value?: unknown): Response => {
    if (typeof field !== 'string') {
      for (const name of Object.keys(field)) set(name, field[name]);
      return response;
    }
    let text = Array.isArray(value) ? value.map(String) : String(value);
    if (field.toLowerCase() === 'content-type' && typeof text === 'string' && /^application\/json$/i.test(text.trim())) {
      text = `${text}; charset=utf-8`;
    }
    res.setHeader(field, text);
    return response;
  };
  const send = (body: unknown): Response => {
    let chunk = body as string | Buffer | undefined;
    if (typeof chunk === 'string') {
      const type = res.getHeader('Content-Type');
      set('Content-Type', typeof type === 'string' ? withUtf8(type) : 'text/html; charset=utf-8');
    } else if (chunk !== undefined && !Buffer.isBuffer(chunk)) {
      return json(chunk);
    } else if (chunk !== undefined && !res.getHeader('Content-Type')) {
      set('Content-Type', 'application/octet-stream');
    }
    if (chunk !== undefined && !res.getHeader('Transfer-Encoding')) set('Content-Length', Buffer.byteLength(chunk));
    if (res.statusCode === 204 || res.statusCode === 304) {
      for (const name of ['Content-Type', 'Content-Length', 'Transfer-Encoding']) res.removeHeader(name);
      chunk = '';
    }
    if (method === 'HEAD') res.end();
    else res.end(chunk);
    return response;
  };
  let mismatched = false;
  const json = (body: unknown): Response => {
    // Once per response: the error handler's own 500 goes out as it is, even where a spec documents no 500.
    const mismatch = mismatched ? undefined : checkBody(res.statusCode, body);
    if (mismatch) {
      mismatched = true;
      fail(mismatch);
      return response;
    }
    if (!res.getHeader('Content-Type')) set('Content-Type', 'application/json');
    return send(JSON.stringify(body));
  };
  return Object.assign(response, {
    status: (code: number) => {
      res.statusCode = code;
      return response;
    },
    get: (name: string) => res.getHeader(name),
    set,
    header: set,
    send,
    json,
  });
}

/** The lean path over an API path (api-path.ts): the same steps, views, key gate and control room as its Express app. */
export function leanPath(path: ApiPath): LeanPath {
  const { operations, gate, faults, logger, source, config } = path;
  const steps = path.steps({});
  const provenPlain = plainParameters(operations);
  const errors = errorHandler(logger, documentedParameters(source.document));
  const checkBody = jsonBodyCheck(source.document, config.validateResponses || config.fullResponseValidation);
  return (req, res, context) => {
    if (req.method !== 'GET' || faults.active || context.scenario !== undefined || context.scenarioProblem !== undefined) return false;
    if (FULL_PATH_HEADERS.some((name) => req.headers[name] !== undefined)) return false;
    const url = req.url ?? '';
    if (url[0] !== '/' || UNUSUAL_URL.test(url)) return false;
    const at = url.indexOf('?');
    const pathname = at < 0 ? url : url.slice(0, at);
    const route = findOperation(operations, pathname);
    if (!route) return false;
    // The key check is kept in the context, as the full pipeline keeps it: asking again gives the same verdict.
    if (!route.operation.isPublic && (context.keyCheck ??= gate.check(req)) !== 'accepted') return false;
    const request = req as unknown as Request;
    try {
      // A pure check: it throws or returns, and has nothing to hand on later.
      checkRawQuery(request, res as unknown as Response, { ...context, route }, () => undefined);
    } catch {
      return false;
    }
    // Express's 'simple' query parser is querystring.parse (app.ts sets it): the handlers read the same values.
    const query = at < 0 ? {} : querystring.parse(url.slice(at + 1));
    if (!provenPlain(route.operation.operationId, { headers: req.headers, query, pathParams: route.params })) return false;

    Object.assign(request, { path: pathname, query, params: {} });
    const fail = (error: unknown) => {
      errors(error, request, response, () => {
        // Too late for an ErrorDto (headers sent): end the broken response, as Express's final handler does.
        res.destroy();
      });
    };
    const response = expressLike(res, req.method, (status, body) => checkBody(context.route ?? route, status, body), fail);
    res.setHeader(REQUEST_ID_HEADER, context.id);
    path.hygiene(request, response, (error?: unknown) => {
      if (error) fail(error);
      else runSteps(steps, request, response, context, fail);
    });
    return true;
  };
}

/**
 * A request handler that makes the request's context as the Express app's own handler does (its id, the
 * control room's hook), answers by the lean path what it can, and hands the rest, untouched, to the Express
 * app on the same API path, which `full` makes when first asked. `beforeFull` readies a request for Express
 * (msw-core.ts: light-my-request's objects). The in-process handlers use it; so do the tests that run the
 * whole contract suite through it behind a real socket (tests/contract/lean-path.test.ts, the mutation killer).
 */
export function leanFirst(
  path: ApiPath,
  full: () => Promise<App>,
  beforeFull?: (req: IncomingMessage, res: ServerResponse) => void,
): (req: IncomingMessage, res: ServerResponse) => void {
  const lean = leanPath(path);
  return (req, res) => {
    const context = beginRequest(req, res, path.lines);
    path.control?.begin(req, res, context);
    if (lean(req, res, context)) return;
    beforeFull?.(req, res);
    full().then(
      (app) => app.respond(req, res, context),
      (error: unknown) => res.destroy(error as Error),
    );
  };
}

/**
 * The validator of a GET's documented JSON body for a status: the response object as the document writes it or
 * the one its local `$ref` names (the validator cannot read a pointer through a `$ref`), and one that accepts
 * anything when the response documents no JSON body. Before 2026-11-28 a `$ref`'d response threw here, inside
 * the error handler's own answer, and the request was never answered (the 500 of a handler that failed).
 */
function responseSchema(spec: OpenApiDocument, schemas: SpecSchemas, template: string, status: number): ValidateFunction {
  const response = followRefs(spec, `#/paths/${pointerSegment(template)}/get/responses/${status}`);
  const schema = response && followRefs(spec, `${response.pointer}/content/${pointerSegment('application/json')}/schema`);
  return schema ? schemas.validator(schema.pointer) : ANY_BODY;
}

type ValidateFunction = ReturnType<SpecSchemas['validator']>;
const ANY_BODY = Object.assign(() => true, { errors: null }) as unknown as ValidateFunction;
