// How a derived check holds one exchange to the document: first to what the
// check itself derived (the status and Code of an error answer, a Message that
// names the parameter, an accepted request), then to every rule of the judge
// (contract/judge/: status, headers, media type, RFC 8259, body schema, list and
// record rules), the same rules CheckContext.call and the proxy apply. Also:
// the plain answer of an operation's own path, asked once per run, to compare
// a near miss with.
import type { ErrorDto } from '../../contract/wire-types';
import type { CheckContext } from '../kit/context';
import type { ApiRequest, Exchange } from '../../contract/exchange';
import { headerOf, judgeResponse, listOf } from '../../contract/judge';
import { listViolations, type ListQuery } from '../kit/semantics';
import type { SpecOperation } from '../../contract/spec-contract';
import { errorBodySchema, examplePath, operationError, type ErrorAnswer } from './document';

const LIST_PARAMETERS = new Set(['page', 'pageSize', 'active', 'filter', 'idStaff', 'idLocation']);

/** What a status other than the expected one says, in words (a redirect names its Location). */
export function describeStatus(exchange: Exchange): string {
  if (exchange.status === 0 && exchange.bytes.length > 0) return `${exchange.bytes.length} bytes that are no HTTP answer`;
  if (exchange.status === 0) return 'no answer (the connection closed)';
  if (exchange.status >= 300 && exchange.status < 400)
    return `${exchange.status}, a redirect to ${exchange.headers.get('location') ?? '(no Location)'}: the document documents none`;
  const code = (exchange.json as Partial<ErrorDto> | undefined)?.Code;
  return `${exchange.status}${code ? ` ${code}` : ''}`;
}

/**
 * True when the answer is in the HTTP layer's own format (a gateway's page, a
 * bare status line from the server before any route), not the application's
 * JSON: what the document says of bodies and headers binds the application.
 */
export function fromHttpLayer(exchange: Exchange): boolean {
  return !/\bjson\b/i.test(exchange.headers.get('content-type') ?? '') && exchange.json === undefined;
}

/**
 * A request a front server refuses itself, before any application (nginx
 * answers CONNECT and TRACE with its own 405 page, without `Allow`, and a
 * request-target that is not percent-encoded UTF-8 with its own 400): an
 * answer in the HTTP layer's own format is held to the status alone, as the
 * framing checks hold a gateway's answers.
 */
export function expectRefusedByFront(context: CheckContext, exchange: Exchange, statuses: readonly number[], answer: string): void {
  context.expect(
    statuses.includes(exchange.status),
    exchange,
    `expected ${answer} (or, from a front server's own page, ${statuses.join(' or ')}), got ${describeStatus(exchange)}`,
    'response.status',
  );
}

/** RFC 9110 §9.1: an origin server SHOULD answer a method it does not recognise with 501. */
const NOT_IMPLEMENTED = 501;

/**
 * The answer to a method no route can take (document.ts UNKNOWN_METHOD, which a parser may not know; CONNECT, whose
 * target is no path): the document's answer for any other method (`documented`, checked by `asDocumented`), or a
 * refusal before any route is looked at, 501 (RFC 9110 §9.1) or 400 (a parser that takes only the methods it
 * knows), and the `more` statuses the caller names: an ErrorDto from the application, the status alone from a
 * front's own page.
 */
export function expectUnknownMethodAnswer(
  context: CheckContext,
  exchange: Exchange,
  documented: ErrorAnswer,
  asDocumented: () => void,
  more: readonly number[] = [],
): void {
  if (exchange.status === documented.status) return asDocumented();
  const refusals = [NOT_IMPLEMENTED, 400, ...more];
  const answer = `${documented.status} ${documented.codes.join('/')}, or refused before any route (${refusals.join(' or ')})`;
  context.expect(refusals.includes(exchange.status), exchange, `expected ${answer}, got ${describeStatus(exchange)}`, 'response.status');
  if (fromHttpLayer(exchange)) return;
  const validate = context.contract.validator(errorBodySchema(context.contract));
  context.expect(
    validate(exchange.json) === true,
    exchange,
    `the ${exchange.status} is not an ErrorDto ("every non-2xx response is an ErrorDto"): ${exchange.text.slice(0, 120)}`,
    'response.schema',
  );
}

/**
 * Fails unless the judge finds the answer right for the request, or for the
 * request it stands for (`as`: the canonical path a normalising server took a
 * near miss for, or the plain request a deployment that ignores a mock control answered).
 */
export function expectConforming(context: CheckContext, exchange: Exchange, as: ApiRequest = exchange.request): void {
  const judged = context.judge(as, exchange.url);
  const violations = judgeResponse(context.contract, judged, exchange, context.memory, { applied: context.applied });
  if (violations.length > 0) context.failWith(exchange, violations);
}

/** The documented error answer: its status and one of its Codes, conforming to the document. */
export function expectErrorAnswer(context: CheckContext, exchange: Exchange, answer: ErrorAnswer, as?: ApiRequest): ErrorDto {
  // The judge first: its violations carry the cause a fault shares with every other check it breaks (one fault, one headline).
  expectConforming(context, exchange, as);
  context.expect(
    exchange.status === answer.status,
    exchange,
    `expected ${answer.status} ${answer.codes.join(' or ')}${answer.when ? ` (error table: ${answer.when})` : ''}, got ${describeStatus(exchange)}`,
    'response.status',
  );
  const body = exchange.json as ErrorDto;
  // The answer to HEAD is the GET answer's headers without its content (RFC 9110 §9.3.2): no Code to read.
  if (exchange.request.method === 'HEAD') return body;
  context.expect(
    answer.codes.length === 0 || answer.codes.includes(body.Code),
    exchange,
    `expected Code ${answer.codes.join(' or ')}, got ${body.Code}`,
    'error.code',
  );
  return body;
}

/** A 400 whose Message names the parameter (error table: "the Message names it"). */
export function expectRejected(context: CheckContext, exchange: Exchange, answer: ErrorAnswer, parameter: string, as?: ApiRequest): void {
  const body = expectErrorAnswer(context, exchange, answer, as);
  context.expect(
    body.Message.includes(parameter),
    exchange,
    `the Message ${JSON.stringify(body.Message)} does not name ${parameter}`,
    'error.message',
  );
}

/**
 * The request was accepted: a documented status that rejects nothing (no 400,
 * 401, 405, no redirect; a 5xx only from an operation that documents no 2xx,
 * as Exception), conforming to the document, and a list keeps the list rules
 * for the documented list parameters it was sent.
 */
export function expectAccepted(
  context: CheckContext,
  exchange: Exchange,
  operation: SpecOperation,
  query?: ListQuery,
  as?: ApiRequest,
): void {
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
    'response.status',
  );
  expectConforming(context, exchange, as);
  if (exchange.status === 200 && query && operation.parameters.some((p) => p.name === 'pageSize')) {
    const listed = Object.fromEntries(Object.entries(query).filter(([name]) => LIST_PARAMETERS.has(name))) as ListQuery;
    const problems = listViolations(exchange, listed, context.contract);
    if (problems.length > 0) context.fail(exchange, `the list breaks the paging or filter rules:\n    ${problems.join('\n    ')}`);
  }
}

/**
 * The operation's GET with its path parameters taken from a client the deployment lists (a parameter named as a
 * member of a list row, in any case: `idClient` ← `IdClient`), so it names something that exists; the document's
 * examples where the lists hold none.
 */
export async function listedRequest(context: CheckContext, operation: SpecOperation): Promise<ApiRequest> {
  const values: Record<string, string> = {};
  const pathParameters = operation.parameters.filter((parameter) => parameter.in === 'path');
  if (pathParameters.length > 0) {
    const row = (await context.sample()).clients[0] as unknown as Record<string, unknown> | undefined;
    for (const parameter of pathParameters) {
      const member = Object.keys(row ?? {}).find((name) => name.toLowerCase() === parameter.name.toLowerCase());
      const value = member === undefined ? undefined : row?.[member];
      if (typeof value === 'string') values[parameter.name] = value;
    }
  }
  return { method: 'GET', path: examplePath(context.contract, operation, values), key: operation.isPublic ? 'none' : 'valid' };
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

/** A list header's elements in lower case (`GET, HEAD` → ['get', 'head']), over all its lines (RFC 9110 §5.6.1). */
export function headerItems(exchange: Exchange, name: string): string[] {
  return listOf(headerOf(exchange.headers, name));
}

/**
 * `Access-Control-Allow-Origin` is `*` or the suite's origin. Absent, the
 * deployment may accept only listed origins: without --origin the check skips
 * and says so; with it, the deployment should have accepted that origin.
 */
export function expectAllowedOrigin(context: CheckContext, exchange: Exchange): void {
  const allowed = headerOf(exchange.headers, 'access-control-allow-origin');
  if (allowed === undefined) {
    const hint = `no Access-Control-Allow-Origin for Origin ${context.origin}: a deployment that accepts only listed origins needs --origin with one of them`;
    if (!context.originGiven) context.skip(`${hint} (the CORS rules were not checked)`);
    context.fail(exchange, `${hint}; --origin ${context.origin} was given, so this deployment should accept it`, 'cors.allow-origin');
  }
  context.expect(
    allowed === '*' || allowed === context.origin,
    exchange,
    `Access-Control-Allow-Origin is ${allowed} for Origin ${context.origin}`,
    'cors.allow-origin',
  );
}
