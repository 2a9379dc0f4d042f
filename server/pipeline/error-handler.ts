// The one error handler: anything thrown on the request path (an ApiError of
// the catalogue, the validator's errors, Express's and Node's 4xx, a bug) is
// mapped here to the catalogue's ApiError and leaves as a spec-valid ErrorDto.
// Nothing else writes an error body inside the app; the catalogue itself is
// server/errors.ts.
import type { PipelineRequest, PipelineResponse } from './exchange';
import type { Logger } from 'pino';
import { ApiError, describeCrash, INTERNAL_ERROR_MESSAGE, quoted } from '../errors';
import { contextOf, noteError } from './request';

/** The shape of express-openapi-validator's errors (HttpError and subclasses). */
interface ValidatorError {
  status: number;
  message: string;
  errors?: { path?: string; message?: string }[];
}

function isValidatorError(error: unknown): error is ValidatorError {
  return typeof error === 'object' && error !== null && 'status' in error && Array.isArray((error as ValidatorError).errors);
}

const LOCATION_NAMES: Record<string, string> = {
  query: 'query parameter',
  params: 'path parameter',
  headers: 'header',
  path: 'path parameter',
};
const HEADER_NAMES: Record<string, string> = { prefer: 'Prefer', 'x-api-key': 'X-Api-Key' };

/** `{path: '.query.pageSize', message: 'must be <= 100'}` → `query parameter 'pageSize' must be <= 100`. */
export function describeRequestError(error: ValidatorError): string {
  const first = error.errors?.[0];
  if (!first?.path) return error.message;
  const match = /^[./]?(query|params|headers|path)[./](.+)$/.exec(first.path);
  if (!match) return error.message;
  const [, location, rawName] = match as unknown as [string, string, string];
  const name = location === 'headers' ? (HEADER_NAMES[rawName] ?? rawName) : rawName;
  const rule = first.message ?? 'is not valid';
  if (/^Unknown query parameter/i.test(rule)) return `unknown query parameter ${quoted(name)}`;
  if (/^Empty value found/i.test(rule)) return `${LOCATION_NAMES[location]} ${quoted(name)} must not be empty`;
  return `${LOCATION_NAMES[location]} ${quoted(name)} ${rule}`;
}

/** Maps anything thrown to an ApiError. Unexpected errors are logged (without request data) and hidden. */
export function toApiError(error: unknown, logger: Logger): ApiError {
  if (error instanceof ApiError) return error;
  if (isValidatorError(error)) {
    if (error.status === 400) return new ApiError('VALIDATION_ERROR', describeRequestError(error));
    // Routing (404, 405) answers before the validator runs, so anything else from it is a response
    // that breaks openapi.yaml: a bug of ours, loudly logged.
    logger.error({ err: { message: error.message, errors: error.errors } }, 'response does not match openapi.yaml');
    return new ApiError('INTERNAL_ERROR', INTERNAL_ERROR_MESSAGE);
  }
  // Express and Node report a client's malformed request (e.g. bad percent-encoding) as a 4xx error.
  const status =
    (error as { status?: unknown; statusCode?: unknown } | null)?.status ?? (error as { statusCode?: unknown } | null)?.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return new ApiError('VALIDATION_ERROR', 'The request is malformed');
  }
  // Type and stack frames only: a message may quote request data.
  logger.error({ err: describeCrash(error) }, 'unexpected error');
  return new ApiError('INTERNAL_ERROR', INTERNAL_ERROR_MESSAGE);
}

const HANDLER_HEADERS = [
  'Content-Type',
  'Content-Length',
  'Content-Range',
  'Content-Disposition',
  'Accept-Ranges',
  'ETag',
  'Last-Modified',
  'X-Total-Count',
  'Link',
];

/** The error handler as every road calls it (Express calls a four-argument handler so): the error, the request, its response, next. */
export type ErrorHandler = (error: unknown, req: PipelineRequest, res: PipelineResponse, next: (error?: unknown) => void) => void;

/** `documented`: the served spec's parameter names (request.ts), the only ones a request line may name. */
export function errorHandler(logger: Logger, documented: ReadonlySet<string>): ErrorHandler {
  return (error, req, res, next) => {
    if (res.headersSent) {
      // Too late for an ErrorDto: end the broken response so the client sees a failure, not a hang.
      next(error);
      return;
    }
    const apiError = toApiError(error, logger);
    // The request line says why: the Code, and the parameter a validation error names.
    noteError(contextOf(req), apiError.code, isValidatorError(error) ? error.errors?.[0]?.path : undefined, documented);
    // Whatever the failed handler set for its own answer (type, length, range, paging) must not describe the ErrorDto.
    for (const name of HANDLER_HEADERS) res.removeHeader(name);
    res.status(apiError.status).set(apiError.headers).json(apiError.toDto());
  };
}
