// One error type, one catalogue, one handler. Anything thrown anywhere ends
// here and leaves as a spec-valid ErrorDto; nothing else writes an error body:
// the HTTP server's answers on raw sockets (parser errors, missing Host,
// CONNECT) are written by rawErrorResponse below.
import crypto from 'node:crypto';
import http from 'node:http';
import type { ErrorRequestHandler } from 'express';
import type { Logger } from 'pino';
import type { ErrorCode, ErrorDto } from '../contract/wire-types';
import { describeCrash } from './crash-policy';
import { noteError } from './request-context';

/** Status of every code, as openapi.yaml documents it (info.description, "Errors"). */
export const ERROR_CATALOGUE = {
  VALIDATION_ERROR: 400,
  UNAUTHORIZED: 401,
  CLIENT_NOT_FOUND: 404,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  TEST_EXCEPTION: 500,
  INTERNAL_ERROR: 500,
} as const satisfies Record<ErrorCode, number>;

export const TEST_EXCEPTION_MESSAGE = 'This is a test exception from /Exception endpoint';
export const INTERNAL_ERROR_MESSAGE = 'An unexpected error occurred';
export const MISSING_KEY_MESSAGE = 'The X-Api-Key header is required';
export const UNKNOWN_KEY_MESSAGE = 'The X-Api-Key header does not hold a valid key';
/** ErrorDto.Message's maxLength in openapi.yaml; messages that quote request input are cut to it. */
const MAX_MESSAGE_LENGTH = 500;
/** How much of a caller's parameter name a message quotes. */
const MAX_QUOTED_NAME = 50;

export class ApiError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message.length > MAX_MESSAGE_LENGTH ? `${message.slice(0, MAX_MESSAGE_LENGTH - 1)}…` : message);
    this.name = 'ApiError';
    this.status = ERROR_CATALOGUE[code];
  }

  toDto(): ErrorDto {
    return { Code: this.code, Message: this.message };
  }
}

/** A caller's parameter name as messages quote it: cut to a readable length. */
export function quoted(name: string): string {
  return `'${name.slice(0, MAX_QUOTED_NAME)}'`;
}

/** 404 for a path that is no operation. */
export function noRoute(method: string | undefined, path: string): ApiError {
  return new ApiError('NOT_FOUND', `No route ${method ?? ''} ${path.slice(0, 200)}`);
}

/** 404 for a Detail id that no client has; `note` marks a simulated one. */
export function clientNotFound(idClient: string, note = ''): ApiError {
  return new ApiError('CLIENT_NOT_FOUND', `No client with IdClient ${idClient} exists${note}`);
}

/** 405 for any method but GET on a known path; `note` marks a simulated one. */
export function methodNotAllowed(method: string, note = ''): ApiError {
  return new ApiError('METHOD_NOT_ALLOWED', `${method.slice(0, 20)} is not allowed on this path; use GET${note}`, { Allow: 'GET' });
}

// What helmet and the no-store policy give every app response, for the few answers written before the app runs.
export const BARE_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'Content-Type': 'application/json; charset=utf-8',
  'Cache-Control': 'no-store',
  'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
  Connection: 'close',
});

/**
 * An ErrorDto answer the app never sees, as status, headers and body. The
 * status is passed, not looked up: Node's parser limits answer 408, 413 and 431
 * with VALIDATION_ERROR, statuses the catalogue's one-per-code table cannot hold.
 */
export function bareError(
  status: number,
  code: ErrorCode,
  message: string,
  extra: Readonly<Record<string, string>> = {},
): { status: number; headers: Record<string, string>; body: string } {
  return errorAnswer(status, code, message, extra);
}

/**
 * The writer behind bareError, for a catalogue that extends this one: the
 * validating proxy (proxy/) answers with the same shape and headers, with
 * codes of its own (UPSTREAM_TIMEOUT, ...) that proxy.openapi.yaml documents.
 */
export function errorAnswer<Code extends string>(
  status: number,
  code: Code,
  message: string,
  extra: Readonly<Record<string, string>> = {},
): { status: number; headers: Record<string, string>; body: string } {
  const dto: { Code: Code; Message: string } = { Code: code, Message: message };
  const body = JSON.stringify(dto);
  // openapi.yaml: X-Request-Id is on every response; these requests never reached the app, so the id is a fresh one.
  const headers = { 'X-Request-Id': crypto.randomUUID(), ...BARE_HEADERS, ...extra, 'Content-Length': String(Buffer.byteLength(body)) };
  return { status, headers, body };
}

/** The same answer as a complete HTTP/1.1 response, for a raw socket. */
export function rawErrorResponse(status: number, code: ErrorCode, message: string, extra: Readonly<Record<string, string>> = {}): string {
  const answer = bareError(status, code, message, extra);
  const lines = Object.entries(answer.headers).map(([name, value]) => `${name}: ${value}\r\n`);
  return `HTTP/1.1 ${status} ${http.STATUS_CODES[status] ?? 'Error'}\r\n${lines.join('')}\r\n${answer.body}`;
}

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

export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (error, req, res, next) => {
    if (res.headersSent) {
      // Too late for an ErrorDto: end the broken response so the client sees a failure, not a hang.
      next(error);
      return;
    }
    const apiError = toApiError(error, logger);
    // The request line says why: the Code, and the parameter a validation error names.
    noteError(req, apiError.code, isValidatorError(error) ? error.errors?.[0]?.path : undefined);
    // Whatever the failed handler set for its own answer (type, length, range, paging) must not describe the ErrorDto.
    for (const name of HANDLER_HEADERS) res.removeHeader(name);
    res.status(apiError.status).set(apiError.headers).json(apiError.toDto());
  };
}
