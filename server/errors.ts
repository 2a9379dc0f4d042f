// One error type and one catalogue: every code with its status and its fixed
// messages, ApiError, the ErrorDto writer for the answers the app never sees
// (the HTTP server's raw-socket answers use it too), and the RFC 9112 framing
// faults those answers refuse (the listener and the proxy read one rule). Anything thrown
// anywhere leaves as a spec-valid ErrorDto through the one error handler
// (pipeline/error-handler.ts). A leaf, as Fastify keeps errors.js: it imports
// nothing at run time (only the wire types of contract/), so every room may
// use it and it depends on none (.dependency-cruiser.cjs checks this).
import type { ErrorCode, ErrorDto } from '../contract/wire-types';
import type { components as ControlComponents } from '../generated/control';

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

/** Codes only the control API answers with, by status (control.openapi.yaml, "Errors"): the shared state store is unreachable. */
export const CONTROL_ERROR_CATALOGUE = {
  STORE_UNAVAILABLE: 503,
} as const satisfies Partial<Record<ControlComponents['schemas']['ErrorDto']['Code'], number>>;

/** A code of the API's catalogue or of the control API's own. */
export type AnyErrorCode = ErrorCode | keyof typeof CONTROL_ERROR_CATALOGUE;

const statusOf = (code: AnyErrorCode): number =>
  code in CONTROL_ERROR_CATALOGUE
    ? CONTROL_ERROR_CATALOGUE[code as keyof typeof CONTROL_ERROR_CATALOGUE]
    : ERROR_CATALOGUE[code as ErrorCode];

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
    readonly code: AnyErrorCode,
    message: string,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message.length > MAX_MESSAGE_LENGTH ? `${message.slice(0, MAX_MESSAGE_LENGTH - 1)}…` : message);
    this.name = 'ApiError';
    this.status = statusOf(code);
  }

  toDto(): { Code: AnyErrorCode; Message: ErrorDto['Message'] } {
    return { Code: this.code, Message: this.message };
  }
}

/** A caller's parameter name as messages quote it: cut to a readable length. */
export function quoted(name: string): string {
  return `'${name.slice(0, MAX_QUOTED_NAME)}'`;
}

/**
 * RFC 3986's host (an IP-literal in brackets, or an IPv4 address or reg-name:
 * unreserved, percent-encoded and sub-delims characters) and an optional port,
 * the grammar RFC 9112 §3.2 gives the Host header. Empty is allowed: a target
 * without an authority is sent with an empty Host.
 */
const HOST_VALUE = /^(?:\[[0-9A-Za-z:._~!$&'()*+,;=-]+\]|(?:[A-Za-z0-9._~!$&'()*+,;=-]|%[0-9A-Fa-f]{2})*)(?::[0-9]*)?$/;

/** What the framing rules read of a request (node:http's IncomingMessage has it all). */
export interface RequestHead {
  rawHeaders: readonly string[];
  httpVersion: string;
  headers: { host?: string; 'transfer-encoding'?: string };
}

/**
 * What breaks the framing rules Node's parser leaves to the server, named for
 * the 400's Message, or undefined: RFC 9112 §3.2 (a server MUST answer 400 to
 * an HTTP/1.1 request without Host, with more than one Host line, or with an
 * invalid Host) and §6.3 (MUST answer 400 and close when Transfer-Encoding's
 * final coding is not chunked: the body's length cannot be known).
 */
export function framingFault(req: RequestHead): { header: string; message: string } | undefined {
  const hostLines = req.rawHeaders.filter((_, i) => i % 2 === 0 && /^host$/i.test(req.rawHeaders[i]!)).length;
  if (hostLines === 0 && req.httpVersion === '1.1') return { header: 'Host', message: `header ${quoted('Host')} is required` };
  if (hostLines > 1) return { header: 'Host', message: `header ${quoted('Host')} is given more than once` };
  if (hostLines === 1 && !HOST_VALUE.test(req.headers.host ?? ''))
    return { header: 'Host', message: `header ${quoted('Host')} is not a host and optional port` };
  const codings = req.headers['transfer-encoding'];
  if (codings !== undefined && codings.split(',').at(-1)!.trim().toLowerCase() !== 'chunked')
    return { header: 'Transfer-Encoding', message: `header ${quoted('Transfer-Encoding')} must end with chunked` };
  return undefined;
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

/**
 * The Content-Security-Policy of every API answer, as openapi.yaml states it (the OWASP REST Security
 * Cheat Sheet's for API answers): a body opened as a page loads and runs nothing, no page frames it.
 * One value for the app (http-hygiene.ts) and the raw answers alike.
 */
export const API_CSP = "default-src 'none'; frame-ancestors 'none'";

// What helmet and the no-store policy give every app response, for the few answers written before the app runs.
export const BARE_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'Content-Type': 'application/json; charset=utf-8',
  'Cache-Control': 'no-store',
  'Content-Security-Policy': API_CSP,
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
  const headers = {
    'X-Request-Id': globalThis.crypto.randomUUID(),
    ...BARE_HEADERS,
    ...extra,
    'Content-Length': String(Buffer.byteLength(body)),
  };
  return { status, headers, body };
}

/**
 * What is logged of an unexpected error or a crash: the error's type, code and
 * stack frames. Not its message: a message may quote request data (an id, a
 * filter, a body), and the frames already say where the code failed.
 */
export function describeCrash(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { type: typeof error };
  const frames = (error.stack ?? '')
    .split('\n')
    .filter((line) => /^\s+at /.test(line))
    .map((line) => line.trim());
  const code = (error as { code?: unknown }).code;
  return { type: error.name, ...(typeof code === 'string' ? { code } : {}), frames };
}
