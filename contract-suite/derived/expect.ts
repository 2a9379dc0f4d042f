// How a derived check holds one exchange to the document: the error answer a
// response object documents (status, Code, headers, body), an accepted request
// (a documented answer that is no rejection of it), and the plain answer of an
// operation's own path, asked once per run, to compare a near miss with.
import type { ErrorDto } from '../../contract/wire-types';
import type { CheckContext } from '../context';
import type { ApiRequest, Exchange } from '../http';
import { listViolations, type ListQuery } from '../semantics';
import type { SpecOperation } from '../spec-contract';
import { operationError, type ErrorAnswer } from './document';

const LIST_PARAMETERS = new Set(['page', 'pageSize', 'active', 'filter', 'idStaff', 'idLocation']);

/** What a status other than the expected one says, in words (a redirect names its Location). */
function describeStatus(exchange: Exchange): string {
  if (exchange.status === 0) return 'no answer (the connection closed)';
  if (exchange.status >= 300 && exchange.status < 400)
    return `${exchange.status}, a redirect to ${exchange.headers.get('location') ?? '(no Location)'}: the document documents none`;
  const code = (exchange.json as Partial<ErrorDto> | undefined)?.Code;
  return `${exchange.status}${code ? ` ${code}` : ''}`;
}

/** Fails unless the exchange conforms to the document (status documented, headers, media type, body). */
export function expectConforming(context: CheckContext, exchange: Exchange): void {
  const problems = context.contract.check(exchange);
  if (problems.length > 0) context.fail(exchange, `the response breaks openapi.yaml:\n    ${problems.join('\n    ')}`);
}

/** The documented error answer: its status and one of its Codes, conforming to the document. */
export function expectErrorAnswer(context: CheckContext, exchange: Exchange, answer: ErrorAnswer): ErrorDto {
  context.expect(
    exchange.status === answer.status,
    exchange,
    `expected ${answer.status} ${answer.codes.join(' or ')}${answer.when ? ` (error table: ${answer.when})` : ''}, got ${describeStatus(exchange)}`,
  );
  expectConforming(context, exchange);
  const body = exchange.json as ErrorDto;
  // The answer to HEAD is the GET answer's headers without its content (RFC 9110 §9.3.2): no Code to read.
  if (exchange.request.method === 'HEAD') return body;
  context.expect(
    answer.codes.length === 0 || answer.codes.includes(body.Code),
    exchange,
    `expected Code ${answer.codes.join(' or ')}, got ${body.Code}`,
  );
  return body;
}

/** A 400 whose Message names the parameter (error table: "the Message names it"). */
export function expectRejected(context: CheckContext, exchange: Exchange, answer: ErrorAnswer, parameter: string): void {
  const body = expectErrorAnswer(context, exchange, answer);
  context.expect(body.Message.includes(parameter), exchange, `the Message ${JSON.stringify(body.Message)} does not name ${parameter}`);
}

/**
 * The request was accepted: a documented status that rejects nothing (no 400,
 * 401, 405, no redirect; a 5xx only from an operation that documents no 2xx,
 * as Exception), conforming to the document, and a list keeps the list rules
 * for the documented list parameters it was sent.
 */
export function expectAccepted(context: CheckContext, exchange: Exchange, operation: SpecOperation, query?: ListQuery): void {
  const succeeds = operation.statuses.some((status) => status.startsWith('2'));
  const rejection = [400, 401, 405].includes(exchange.status) || exchange.status < 200 || exchange.status >= 300;
  const designed = !succeeds && exchange.status >= 500;
  // Detail of a well-formed id no client has: the operation's own 404 (CLIENT_NOT_FOUND), not the error table's NOT_FOUND.
  const notFound =
    exchange.status === 404 &&
    (operationError(context.contract, operation, 404)?.codes ?? []).includes(
      String((exchange.json as Partial<ErrorDto> | undefined)?.Code),
    );
  context.expect(
    !rejection || designed || notFound,
    exchange,
    `expected the request to be accepted (a ${succeeds ? '2xx' : 'documented'} answer of ${operation.operationId}), got ${describeStatus(exchange)}`,
  );
  expectConforming(context, exchange);
  if (exchange.status === 200 && query && operation.parameters.some((p) => p.name === 'pageSize')) {
    const listed = Object.fromEntries(Object.entries(query).filter(([name]) => LIST_PARAMETERS.has(name))) as ListQuery;
    const problems = listViolations(exchange, listed);
    if (problems.length > 0) context.fail(exchange, `the list breaks the paging or filter rules:\n    ${problems.join('\n    ')}`);
  }
}

const plainAnswers = new WeakMap<CheckContext, Map<string, Promise<Exchange>>>();

/** The answer to a request the checks compare near misses with, sent once per run and held to the document. */
export function plainAnswer(context: CheckContext, request: ApiRequest): Promise<Exchange> {
  let answers = plainAnswers.get(context);
  if (!answers) {
    answers = new Map();
    plainAnswers.set(context, answers);
  }
  const key = JSON.stringify([request.method, request.path, request.key, request.headers ?? {}]);
  let answer = answers.get(key);
  if (!answer) {
    answer = context.call(request);
    answers.set(key, answer);
  }
  return answer;
}

/** A header value as a list of lower-case items (`GET, HEAD` → ['get', 'head']). */
export function headerItems(exchange: Exchange, name: string): string[] {
  return (exchange.headers.get(name) ?? '')
    .split(',')
    .map((item) => item.trim().toLowerCase())
    .filter(Boolean);
}

/** `Access-Control-Allow-Origin` is `*` or the suite's origin, with the hint a deployment with an origin list needs. */
export function expectAllowedOrigin(context: CheckContext, exchange: Exchange): void {
  const allowed = exchange.headers.get('access-control-allow-origin');
  context.expect(
    allowed === '*' || allowed === context.origin,
    exchange,
    `Access-Control-Allow-Origin is ${allowed} for Origin ${context.origin}` +
      (allowed === null ? ' (a deployment that accepts only listed origins needs --origin with one of them)' : ''),
  );
}
