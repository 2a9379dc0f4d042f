// Every path × every method: the methods RFC 9110 defines, PATCH (RFC 5789)
// and one no RFC defines, each answered as the error table says (405 with the
// `Allow` header naming the path item's methods), plus the headers that turn a
// request into something else:
//   - a CORS preflight (info.description, CORS: `OPTIONS` with `Origin` and
//     `Access-Control-Request-Method`), answered as that section says, and the
//     requests that only look like one (an `OPTIONS` with one of the two
//     headers is "a method like any other"; a GET or a POST with both is no
//     preflight at all);
//   - method overrides that stacks honour (ASP.NET Web API and Google's
//     `X-HTTP-Method-Override`, OData's `X-HTTP-Method`, `X-Method-Override`,
//     the `_method` query parameter of Rails, Laravel and Express's
//     method-override): the method on the request line is the method.
// CONNECT's request-target is an authority (`host:port`, RFC 9110 §9.3.6), so
// a CONNECT to a path may also be refused as malformed (RFC 9112 §3.2: 400,
// or the connection closed) before any route is looked at; the document
// leaves that open, and the check accepts it. CONNECT and TRACE are also what
// front servers refuse themselves (nginx's own 405 page, without `Allow`): an
// answer in the HTTP layer's own format is held to the status alone (expect.ts, expectRefusedByFront).
import type { CheckContext, Define, OperationName } from '../kit/context';
import type { Exchange, KeyRole } from '../../contract/exchange';
import { conformance } from '../../contract/conformance';
import { headerOf, listOf } from '../../contract/judge';
import type { SpecContract, SpecOperation } from '../../contract/spec-contract';
import {
  declaredMethods,
  everywhereHeaders,
  EXTENSION_METHOD,
  examplePath,
  exampleValue,
  schemaAccepts,
  operationError,
  preflightRule,
  RFC_METHODS,
  UNKNOWN_METHOD,
  type ErrorAnswer,
  checkOperation,
} from './document';
import {
  describeStatus,
  expectAllowedOrigin,
  expectConforming,
  expectErrorAnswer,
  expectRejected,
  expectRefusedByFront,
  expectUnknownMethodAnswer,
  fromHttpLayer,
  headerItems,
  plainAnswer,
} from './expect';

/** An entity-tag no deployment gives (RFC 9110 §8.8.3 syntax), and the earliest HTTP-date. */
const UNMATCHED_TAG = '"contract-suite-no-such-tag"';
const EPOCH = 'Thu, 01 Jan 1970 00:00:00 GMT';

/** Request headers HTTP stacks read as "treat this request as that method". */
const OVERRIDE_HEADERS = ['X-HTTP-Method-Override', 'X-HTTP-Method', 'X-Method-Override'];
/** The query parameter form-based stacks read the same way. */
const OVERRIDE_PARAMETER = '_method';

/** A 405 as the error table says, with `Allow` naming exactly the path item's methods (RFC 9110 §15.5.6: MUST). */
function expectNotAllowed(context: CheckContext, exchange: Exchange, answer: ErrorAnswer, declared: readonly string[]): void {
  expectErrorAnswer(context, exchange, answer);
  // Allow is a list (RFC 9110 §10.2.1), its methods case-sensitive (§9.1): read as a list, in the case sent.
  const allow = listOf(headerOf(exchange.headers, 'allow'), { caseSensitive: true });
  context.expect(
    new Set(allow).size === declared.length && declared.every((method) => allow.includes(method)),
    exchange,
    `expected Allow: ${declared.join(', ')}, got ${headerOf(exchange.headers, 'allow') ?? '(none)'}`,
  );
}

function operationChecks(check: Define, contract: SpecContract, operation: SpecOperation): void {
  const notAllowed = operationError(contract, operation, 405);
  if (!notAllowed) return; // The document gives this operation no 405: nothing to hold another method to.
  const declared = declaredMethods(contract, operation);
  const path = examplePath(contract, operation);
  const key: KeyRole = operation.isPublic ? 'none' : 'valid';
  const id = checkOperation(operation);
  const allow = `Allow: ${declared.join(', ')}`;
  const answer = `${notAllowed.status} ${notAllowed.codes.join('/')} with ${allow}`;
  const others = [...RFC_METHODS, EXTENSION_METHOD].filter((method) => !declared.includes(method));

  check(
    id,
    `${UNKNOWN_METHOD} ${path} (a method no stack knows) → ${answer}, or refused before any route (501, RFC 9110 §9.1, or 400)`,
    async (context) => {
      const exchange = await context.send({ method: UNKNOWN_METHOD, path, key });

      expectUnknownMethodAnswer(context, exchange, notAllowed, () => expectNotAllowed(context, exchange, notAllowed, declared));
    },
    // response.status: a refusal before any route is held to its status alone (expectUnknownMethodAnswer).
    ['request.method', 'response.status'],
  );
  for (const method of others) {
    if (method === 'CONNECT') {
      check(
        id,
        `CONNECT ${path} → ${answer}, or refused as a malformed CONNECT (400, or the connection closed)`,
        async (context) => {
          const exchange = await context.send({ method, path, key });

          // RFC 9112 §3.2.3: a CONNECT's target is host:port; closing is a refusal (bytes that are no HTTP answer are not).
          if (exchange.status === 0 && exchange.bytes.length === 0) return context.held('request.method');
          context.expect(exchange.status !== 0, exchange, `expected ${answer}, got ${describeStatus(exchange)}`, 'response.status');
          if (fromHttpLayer(exchange)) return expectRefusedByFront(context, exchange, [notAllowed.status, 400], answer);
          if (exchange.status !== 400) return expectNotAllowed(context, exchange, notAllowed, declared);
          // Refused as malformed before any route: still the document's 400, an ErrorDto with the declared headers.
          const problems = conformance(context.contract, exchange);
          context.expect(
            problems.length === 0,
            exchange,
            `the 400 breaks openapi.yaml:\n    ${problems.join('\n    ')}`,
            'response.schema',
          );
        },
        // response.status: a front's own refusal is held to its status alone (expectRefusedByFront).
        ['request.method', 'response.status'],
      );
      continue;
    }
    const what = method === EXTENSION_METHOD ? ' (a method no RFC defines)' : method === 'HEAD' ? ', no content (RFC 9110 §9.3.2)' : '';
    check(
      id,
      `${method} ${path}${what} → ${answer}`,
      async (context) => {
        // HEAD on the raw socket, so content sent after its answer is seen, not dropped by fetch.
        const exchange = await context.send({ method, path, key, raw: method === 'HEAD' ? true : undefined });

        if (method === 'TRACE' && fromHttpLayer(exchange)) return expectRefusedByFront(context, exchange, [notAllowed.status], answer);
        expectNotAllowed(context, exchange, notAllowed, declared);
        if (method === 'HEAD')
          context.expect(
            !exchange.unexpectedContent,
            exchange,
            `${exchange.unexpectedContent} bytes of content after the answer to HEAD (RFC 9110 §9.3.2: never content)`,
            'response.media-type',
          );
      },
      method === 'HEAD' ? ['request.method', 'check.head-no-content'] : ['request.method', 'response.status'],
    );
  }

  const rule = preflightRule(contract);
  if (rule) preflightChecks(check, contract, operation, rule, { path, key, declared, notAllowed, answer });

  const overridden = others.find((method) => method !== 'HEAD' && method !== 'OPTIONS') ?? 'POST';
  check(
    id,
    `${overridden} ${path} with ${OVERRIDE_HEADERS.map((name) => `${name}: GET`).join(' / ')} → ${answer} (no method override)`,
    async (context) => {
      for (const name of OVERRIDE_HEADERS) {
        const exchange = await context.send({ method: overridden, path, key, headers: { [name]: 'GET' } });

        expectNotAllowed(context, exchange, notAllowed, declared);
      }
    },
    ['request.method', 'check.no-method-override'],
  );
  check(
    id,
    `${overridden} ${path}?${OVERRIDE_PARAMETER}=GET → ${answer}, or 400 naming ${OVERRIDE_PARAMETER} (no method override)`,
    async (context) => {
      const exchange = await context.send({ method: overridden, path: `${path}?${OVERRIDE_PARAMETER}=GET`, key });

      // The document orders neither the method nor the query first: an undocumented parameter is a 400 too.
      if (exchange.status === 400)
        expectRejected(context, exchange, operationError(contract, operation, 400)!, OVERRIDE_PARAMETER, {
          ...exchange.request,
          method: 'GET',
        });
      else expectNotAllowed(context, exchange, notAllowed, declared);
    },
    ['request.method', 'check.no-method-override'],
  );
  const get = declared[0];
  if (get)
    check(
      id,
      `${get} ${path} with X-HTTP-Method-Override: ${overridden} → the plain ${get} answer (no method override)`,
      async (context) => {
        const plain = await plainAnswer(context, { method: get, path, key });

        const exchange = await context.call({ method: get, path, key, headers: { 'X-HTTP-Method-Override': overridden } });

        context.expect(
          exchange.status === plain.status,
          exchange,
          `expected the ${plain.status} that ${get} ${path} gets, got ${exchange.status}`,
        );
      },
      ['check.no-method-override'],
    );
  if (get) preconditionCheck(check, id, get, path, key);
}

/**
 * A GET with preconditions no representation can meet the usual way, which a cache or a framework in front of the
 * route may still take for a revalidation: an entity-tag no answer has is no match (RFC 9110 §13.1.2) and every
 * representation was modified since 1970 (§13.1.3), so the answer is the plain one, never a 304 or a hang.
 */
function preconditionCheck(check: Define, id: OperationName, get: string, path: string, key: KeyRole): void {
  check(
    id,
    `${get} ${path} with If-None-Match: ${UNMATCHED_TAG} and If-Modified-Since: ${EPOCH} → the plain ${get} answer (RFC 9110 §13.1)`,
    async (context) => {
      const plain = await plainAnswer(context, { method: get, path, key });

      const exchange = await context.call({
        method: get,
        path,
        key,
        headers: { 'If-None-Match': UNMATCHED_TAG, 'If-Modified-Since': EPOCH },
      });

      context.expect(
        exchange.status === plain.status,
        exchange,
        `expected the ${plain.status} that ${get} ${path} gets, got ${exchange.status}`,
      );
    },
    ['check.preconditions'],
  );
}

interface PreflightTarget {
  path: string;
  key: KeyRole;
  declared: readonly string[];
  notAllowed: ErrorAnswer;
  answer: string;
}

function preflightChecks(
  check: Define,
  contract: SpecContract,
  operation: SpecOperation,
  rule: NonNullable<ReturnType<typeof preflightRule>>,
  { path, key, declared, notAllowed, answer }: PreflightTarget,
): void {
  const id = checkOperation(operation);
  const everywhere = everywhereHeaders(contract);
  /** The rule's request headers with the suite's Origin, asking for the headers the answer must allow. */
  const preflightHeaders = (context: CheckContext) => {
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(rule.requestHeaders)) headers[name] = /^origin$/i.test(name) ? context.origin : value;
    const wanted = rule.answerHeaders.filter((h) => /allow-headers$/i.test(h.name) && h.includes).map((h) => h.includes!);
    if (wanted.length > 0) headers['Access-Control-Request-Headers'] = wanted.join(', ').toLowerCase();
    return headers;
  };
  const [originName = 'Origin', methodName = 'Access-Control-Request-Method'] = Object.keys(rule.requestHeaders);

  /** The preflight answer the CORS section states, whatever the query of the path it is asked for. */
  const expectPreflightAnswer = (context: CheckContext, exchange: Exchange) => {
    // The sentence is about an Origin the deployment accepts: one with an origin list may refuse ours (403, no
    // Access-Control-Allow-Origin), so the origin comes first (a skip naming --origin, unless --origin was given).
    if (headerOf(exchange.headers, 'access-control-allow-origin') === undefined) expectAllowedOrigin(context, exchange);
    context.expect(
      Math.floor(exchange.status / 100) === rule.statusClass,
      exchange,
      `the preflight got ${exchange.status}, expected ${rule.statusClass}xx (${rule.sentence})`,
      'cors.preflight',
    );
    expectConforming(context, exchange);
    for (const header of rule.answerHeaders) {
      if (/allow-origin$/i.test(header.name)) {
        expectAllowedOrigin(context, exchange);
        continue;
      }
      const items = headerItems(exchange, header.name);
      context.expect(items.length > 0, exchange, `${header.name} is missing`, 'cors.preflight', header.name);
      if (header.includes)
        context.expect(
          items.includes(header.includes.toLowerCase()) || items.includes('*'),
          exchange,
          `${header.name} does not include ${header.includes}: ${headerOf(exchange.headers, header.name)}`,
          'cors.preflight',
          header.name,
        );
    }
    for (const header of everywhere) {
      const value = headerOf(exchange.headers, header.name);
      context.expect(
        value !== undefined,
        exchange,
        `${header.name} is missing (the document puts it on every response)`,
        'response.header',
        header.name,
      );
      const validate = context.contract.validator(header.schema);
      context.expect(
        validate(value) === true,
        exchange,
        `${header.name} ${JSON.stringify(value)} breaks its schema`,
        'response.header',
        header.name,
      );
    }
  };
  const answered = `${rule.statusClass}xx with ${rule.answerHeaders
    .map((h) => (h.includes ? `${h.name} including ${h.includes}` : h.name))
    .join(', ')}${everywhere.length > 0 ? `, ${everywhere.map((h) => h.name).join(', ')}` : ''}`;

  check(
    id,
    `${rule.method} ${path} as a CORS preflight (${Object.keys(rule.requestHeaders).join(', ')}) → ${answered} (info: CORS)`,
    async (context) => {
      // A preflight's answer is not an operation's response: held to the CORS sentence, not to the operation's statuses.
      const exchange = await context.send({ method: rule.method, path, key: 'none', headers: preflightHeaders(context) });

      expectPreflightAnswer(context, exchange);
    },
    ['cors.preflight', 'cors.allow-origin', 'check.preflight'],
  );
  // A browser sends the preflight to the very URL of the request, query and all: the sentence is about the path, so
  // each documented query parameter, and one the operation refuses, leave the answer as it is.
  const queries = preflightQueries(contract, operation);
  if (queries.length > 0)
    check(
      id,
      `${rule.method} ${path}?<${queries.map((q) => q.why).join(' | ')}> as a CORS preflight → ${answered}, whatever the query (info: CORS, "on any path")`,
      async (context) => {
        for (const { query } of queries) {
          const exchange = await context.send({
            method: rule.method,
            path: `${path}?${query}`,
            key: 'none',
            headers: preflightHeaders(context),
          });

          expectPreflightAnswer(context, exchange);
        }
      },
      ['cors.preflight', 'cors.allow-origin', 'check.preflight'],
    );
  check(
    id,
    `${rule.method} ${path} with ${originName} but no ${methodName} (no preflight) → ${answer} and Access-Control-Allow-Origin`,
    async (context) => {
      const exchange = await context.send({ method: rule.method, path, key, headers: { [originName]: context.origin } });

      expectNotAllowed(context, exchange, notAllowed, declared);
      expectAllowedOrigin(context, exchange);
    },
    ['request.method', 'cors.allow-origin', 'check.preflight'],
  );
  check(
    id,
    `${rule.method} ${path} with ${methodName} but no ${originName} (no preflight) → ${answer}`,
    async (context) => {
      const exchange = await context.send({
        method: rule.method,
        path,
        key,
        headers: { [methodName]: rule.requestHeaders[methodName] ?? 'GET' },
      });

      expectNotAllowed(context, exchange, notAllowed, declared);
    },
    ['request.method', 'check.preflight'],
  );
  const get = declared[0];
  if (get)
    check(
      id,
      `${get} ${path} with the preflight headers → the plain ${get} answer with Access-Control-Allow-Origin (no preflight)`,
      async (context) => {
        const plain = await plainAnswer(context, { method: get, path, key });

        const exchange = await context.send({ method: get, path, key, headers: preflightHeaders(context) });

        context.expect(
          exchange.status === plain.status,
          exchange,
          `expected the ${plain.status} that ${get} ${path} gets, got ${exchange.status}`,
        );
        expectConforming(context, exchange);
        expectAllowedOrigin(context, exchange);
      },
      ['cors.allow-origin', 'check.preflight'],
    );
  const post = [...RFC_METHODS, EXTENSION_METHOD].find(
    (method) => !declared.includes(method) && !['HEAD', 'OPTIONS', 'CONNECT', 'TRACE'].includes(method),
  );
  if (post)
    check(
      id,
      `${post} ${path} with the preflight headers → ${answer} and Access-Control-Allow-Origin (no preflight)`,
      async (context) => {
        const exchange = await context.send({ method: post, path, key, headers: preflightHeaders(context) });

        expectNotAllowed(context, exchange, notAllowed, declared);
        expectAllowedOrigin(context, exchange);
      },
      ['request.method', 'cors.allow-origin', 'check.preflight'],
    );
}

/** A query string per documented query parameter (its example value) and one with a parameter the operation does not document. */
function preflightQueries(contract: SpecContract, operation: SpecOperation): { why: string; query: string }[] {
  const queries = operation.parameters
    .filter((parameter) => parameter.in === 'query')
    .map((parameter) => ({ parameter, value: exampleValue(contract, parameter) }))
    .filter(({ parameter, value }) => value !== undefined && schemaAccepts(contract, parameter, value))
    .map(({ parameter, value }) => ({ why: parameter.name, query: `${encodeURIComponent(parameter.name)}=${encodeURIComponent(value!)}` }));
  const documented = new Set(operation.parameters.map((parameter) => parameter.name));
  const unknown = ['contract-suite-unknown', 'x'].find((name) => !documented.has(name))!;
  return [...queries, { why: `${unknown} (not documented)`, query: `${unknown}=1` }];
}

/** Every operation's path with every method and with the headers that change what a request is. */
export function methodMatrixChecks(check: Define, contract: SpecContract): void {
  for (const operation of contract.operations) operationChecks(check, contract, operation);
}
