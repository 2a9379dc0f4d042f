// The pipeline's neutral road: the API path's steps (api-path.ts) over a request value and an
// AnswerRecorder (exchange.ts), so that Node's in-process handlers (lean-path.ts) and the browser's
// (server/browser.ts) answer through the very steps, error handler and response checks of the Express
// app (app.ts) with no Express, no validator and no Node built-in. Issue 26 item 6 made its first use:
// most requests a frontend test sends are plain (a list page, a Detail, with a good key), and for those
// the validator has nothing to say. Without a validation step the road answers only what it can prove
// the Express app would answer the same: a GET whose parameters plain-parameters.ts proves valid, with
// no Prefer, no scenario, no LATENCY_MS or ERROR_RATE, no body headers; anything else returns false
// before any step ran, and the Node road hands it to the Express app built on the same ApiPath. With a
// validation step (the browser's, validation.ts, derived from the served spec with the server's message
// writer) it answers everything. Bodies sent through res.json (errors, Ping) are checked against the
// operation's documented response schema, as the validator's response check would; client views are
// checked when made (api-path.ts, clientParts), on every road. tests/msw/byte-equality.test.ts holds
// the Node road to the HTTP server's bytes and headers, tests/browser/corpus.test.ts the browser's.
import { findOperation, type RouteMatch } from '../../contract/operations';
import { followRefs, pointerSegment, SpecSchemas, type OpenApiDocument } from '../../contract/spec-document';
import { runSteps, type ApiPath } from './api-path';
import { errorHandler } from './error-handler';
import { AnswerRecorder, neutralRequest, UNUSUAL_URL, type ApiRequest, type PipelineRequest } from './exchange';
import { plainParameters } from './plain-parameters';
import { checkRawQuery } from './raw-query';
import { documentedParameters, REQUEST_ID_HEADER, type ApiStep, type RequestContext } from './request';

/** Request headers under which Express or the validator may answer otherwise: a body. (Conditional requests are answered as plain ones: app.ts.) */
const FULL_PATH_HEADERS = ['content-type', 'content-length', 'transfer-encoding'];
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

/** Whether the lean road may answer a request with no validation step: one it can prove the Express app would answer the same. */
function leanCondition(path: ApiPath): (req: PipelineRequest, context: RequestContext) => boolean {
  const { operations, gate, faults } = path;
  const provenPlain = plainParameters(operations);
  return (req, context) => {
    if (req.method !== 'GET' || faults.active || context.scenario !== undefined || context.scenarioProblem !== undefined) return false;
    if (FULL_PATH_HEADERS.some((name) => req.headers[name] !== undefined)) return false;
    const url = req.url;
    if (url[0] !== '/' || UNUSUAL_URL.test(url)) return false;
    const route = findOperation(operations, req.path);
    if (!route) return false;
    // The key check is kept in the context, as the full pipeline keeps it: asking again gives the same verdict.
    if (!route.operation.isPublic && (context.keyCheck ??= gate.check(req)) !== 'accepted') return false;
    try {
      // A pure check: it throws or returns, and has nothing to hand on later.
      checkRawQuery(req, undefined as never, { ...context, route }, () => undefined);
    } catch {
      return false;
    }
    return provenPlain(route.operation.operationId, { headers: req.headers, query: req.query, pathParams: route.params });
  };
}

/**
 * Answers a request value on an AnswerRecorder and returns true, or returns false having changed nothing.
 * `res` is made by the road's adapter before the request's context (the control room watches its end).
 */
export type NeutralRoad = (request: ApiRequest, res: AnswerRecorder, context: RequestContext) => boolean;

/**
 * The API path's steps over request and answer values (exchange.ts): hygiene, then the very steps of the
 * Express app but its cache capture, with the same error handler and the documented response check of a
 * JSON body. Without `validation` it answers only what it can prove the Express app would answer the same
 * (leanCondition) and returns false for the rest: the Node road hands those to Express. With it (the
 * browser road, validation.ts) it answers everything, and runs the validation step on every request whose
 * parameters are not proven plain.
 */
export function neutralRoad(path: ApiPath, validation?: ApiStep): NeutralRoad {
  const { logger, source, config } = path;
  const lean = path.steps({});
  const validated = validation ? path.steps({ validator: validation }) : undefined;
  const isLean = leanCondition(path);
  const errors = errorHandler(logger, documentedParameters(source.document));
  const checkBody = jsonBodyCheck(source.document, config.validateResponses || config.fullResponseValidation);
  return (request, res, context) => {
    const req = neutralRequest(request);
    let steps = lean;
    if (!isLean(req, context)) {
      if (!validated) return false;
      steps = validated;
    }
    // Too late for an ErrorDto (the answer is sent): the broken answer is dropped, as Express's final handler drops the socket.
    const fail = (error: unknown) => errors(error, req, res, () => res.destroy());
    res.fail = fail;
    res.checkBody = (status, body) => (context.route ? checkBody(context.route, status, body) : undefined);
    res.setHeader(REQUEST_ID_HEADER, context.id);
    path.hygiene(req, res, (error?: unknown) => {
      if (error) fail(error);
      else runSteps(steps, req, res, context, fail);
    });
    return true;
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
