// Rules that hold for every operation: X-Request-Id (echoed exactly when the
// spec says, generated otherwise), CORS for a request with an Origin, and keys
// that almost match the real one (preflights are derived per path:
// derived/methods.ts). None needs a client: on
// an empty deployment Detail is asked for an unknown id (a 404 has the same
// headers). A deployment that accepts only listed origins answers the
// default Origin without Access-Control-Allow-Origin: then the CORS checks
// skip and say that --origin must name one of its origins.
import { isDeepStrictEqual } from 'node:util';
import type { ErrorDto } from '../../contract/wire-types';
import { nearMissKeys } from '../kit/http';
import { type ApiRequest, type Exchange, type NearMissKey } from '../../contract/exchange';
import type { OperationId } from '../../contract/operations';
import { operationPaths, UNKNOWN_ID, type CheckContext, type Define, type OperationName } from '../kit/context';
import { headerOf, listOf } from '../../contract/judge';
import { totalCount } from '../kit/semantics';

/** One request per operation (Detail with a listed id, or an unknown one when none is listed), with the key the operation needs. */
async function operationRequests(context: CheckContext): Promise<{ operation: OperationName; request: ApiRequest }[]> {
  const { clients } = await context.sample();
  return context.contract.operations.map((operation) => ({
    operation: operation.operationId as OperationId,
    request: {
      method: 'GET',
      path: operation.template.replace(/\{(\w+)\}/g, () => clients[0]?.IdClient ?? UNKNOWN_ID),
      key: operation.isPublic ? 'none' : 'valid',
    },
  }));
}

/** The Message of one named example of an operation's 401 (`missingKey`, `unknownKey`), when the document has it. */
function unauthorizedExample(context: CheckContext, operationId: string, name: string): string | undefined {
  const examples = examplesByStatus(context, operationId).find(([status]) => status === 401)?.[1];
  const message = (examples?.[name]?.value as { Message?: unknown } | undefined)?.Message;
  return typeof message === 'string' ? message : undefined;
}

/** No Access-Control-Allow-Origin for the Origin sent: a skip with the --origin hint for the default Origin, a failure for one the user named. */
export function noAllowOrigin(context: CheckContext, exchange: Exchange): never {
  const hint = `no Access-Control-Allow-Origin for Origin ${context.origin}: a deployment that accepts only listed origins needs --origin with one of them`;
  if (!context.originGiven) context.skip(`${hint} (the CORS rules were not checked)`);
  context.fail(exchange, `${hint}; --origin ${context.origin} was given, so this deployment should accept it`, 'check.cors');
}

/** The `Prefer: delay` the mock checks are asked for: long enough to measure, short enough to cost little. */
const PREFER_DELAY_MS = 120;
/** A timer may fire a few ms before its time as a client measures it (the server's loop reads its clock once a turn). */
export const TIMER_SLACK_MS = 5;

/** A list header's elements in lower case, over all its lines (RFC 9110 §5.6.1). */
export const headerList = (exchange: Exchange, name: string) => listOf(headerOf(exchange.headers, name));

type Check = (context: CheckContext) => Promise<void>;

/** X-Request-Id echoed on every operation, a 401 and a 404, when it keeps the rule (1-128 of [A-Za-z0-9_.:@-]), 128 characters included. */
const requestIdEchoed: Check = async (context) => {
  const requests = await operationRequests(context);
  requests.push({
    operation: 'getClientsSimple',
    request: { method: 'GET', path: operationPaths(context.contract).getClientsSimple, key: 'none' },
  });
  requests.push({ operation: 'routing', request: { method: 'GET', path: '/api/v1/Nothing', key: 'none' } });

  for (const [i, { request }] of requests.entries()) {
    const id = `cs-${i}_A.b:c@d-${'x'.repeat(i)}`;
    const exchange = await context.call({ ...request, headers: { 'X-Request-Id': id } });

    context.expect(headerOf(exchange.headers, 'x-request-id') === id, exchange, `X-Request-Id ${id} is not echoed`, 'header.request-id');
  }
  const longest = 'L'.repeat(128);
  const exchange = await context.call({ ...requests[0]!.request, headers: { 'X-Request-Id': longest } });
  context.expect(
    headerOf(exchange.headers, 'x-request-id') === longest,
    exchange,
    'a 128-character X-Request-Id is not echoed',
    'header.request-id',
  );
};

/** X-Request-Id outside the rule (129 characters, a space, a slash): a generated one instead. */
const requestIdReplaced: Check = async (context) => {
  const requests = await operationRequests(context);
  const outside = ['R'.repeat(129), 'has space', 'a/b'];

  for (const [i, { request }] of requests.entries()) {
    const id = outside[i % outside.length]!;
    const exchange = await context.call({ ...request, headers: { 'X-Request-Id': id } });

    const sent = headerOf(exchange.headers, 'x-request-id');
    context.expect(
      sent !== undefined && sent !== '' && sent !== id,
      exchange,
      `X-Request-Id ${JSON.stringify(id)} was echoed`,
      'header.request-id',
    );
  }
};

/** An accepted Origin gets Access-Control-Allow-Origin and the paging headers exposed on every answer, errors included. */
const corsOnEveryAnswer: Check = async (context) => {
  const origin = context.origin;
  const simple = operationPaths(context.contract).getClientsSimple;
  // The CORS headers go with every answer to an accepted Origin, errors included: a browser script must read a 401 as well as a 200.
  const errors: ApiRequest[] = [
    { method: 'GET', path: `${simple}?pageSize=0`, key: 'valid' },
    { method: 'GET', path: simple, key: 'none' },
    { method: 'GET', path: '/api/v1/Nothing', key: 'none' },
  ];
  let accepted = false;
  for (const request of [...(await operationRequests(context)).map((r) => r.request), ...errors]) {
    const exchange = await context.call({ ...request, headers: { Origin: origin } });

    const allowed = headerOf(exchange.headers, 'access-control-allow-origin');
    // No header on the very first answer: the Origin is not one this deployment accepts. Once it was accepted, a missing header is a failure.
    if (allowed === undefined && !accepted) noAllowOrigin(context, exchange);
    accepted = true;
    context.expect(
      allowed === '*' || allowed === origin,
      exchange,
      `Access-Control-Allow-Origin is ${allowed} for Origin ${origin}`,
      'cors.allow-origin',
    );
    const exposed = headerList(exchange, 'access-control-expose-headers');
    for (const name of ['x-total-count', 'link', 'x-request-id']) {
      context.expect(
        exposed.includes(name) || exposed.includes('*'),
        exchange,
        `Access-Control-Expose-Headers does not name ${name}`,
        'cors.expose',
      );
    }
  }
};

/** A missing and an unknown key: two 401 whose Messages differ, neither the other case's example Message. */
const authMessagesTellCasesApart: Check = async (context) => {
  for (const { operation, request } of (await operationRequests(context)).filter((r) => r.request.key === 'valid')) {
    const missing = await context.call({ ...request, key: 'none' });
    const unknown = await context.call({ ...request, key: 'wrong' });

    const a = context.expectError(missing, 401, 'UNAUTHORIZED');
    const b = context.expectError(unknown, 401, 'UNAUTHORIZED');
    context.expect(
      a.Message !== b.Message,
      unknown,
      `the same Message for a missing and an unknown key: ${JSON.stringify(a.Message)}`,
      'check.auth-messages',
    );
    // The 401's description: the wording is free, but the missingKey and unknownKey examples' Messages are each
    // for its own case, so a deployment that answers with the other case's example Message has swapped them.
    const missingExample = unauthorizedExample(context, operation, 'missingKey');
    const unknownExample = unauthorizedExample(context, operation, 'unknownKey');
    context.expect(
      a.Message !== unknownExample && b.Message !== missingExample,
      a.Message === unknownExample ? missing : unknown,
      `a missing key got ${JSON.stringify(a.Message)} and an unknown key ${JSON.stringify(b.Message)}: the other case's example Message (the 401's missingKey and unknownKey examples)`,
      'check.auth-example-messages',
    );
  }
};

/** A near-miss key (other case, a prefix, one character more): 401 UNAUTHORIZED. */
const nearMissKeysRefused: Check = async (context) => {
  const misses = [...nearMissKeys(context.target.apiKey).keys()] as NearMissKey[];
  for (const { request } of (await operationRequests(context)).filter((r) => r.request.key === 'valid')) {
    for (const key of misses) {
      const exchange = await context.call({ ...request, key });

      context.expectError(exchange, 401, 'UNAUTHORIZED');
    }
  }
};

/** Unimplemented preferences ignored, the first of a repeated one counting, a semicolon separating the mock's own (RFC 7240). */
async function preferListRead(context: CheckContext, path: string, plain: Exchange): Promise<void> {
  const ignored = await context.get(path, 'valid', { Prefer: 'return=minimal, handling=lenient' });
  context.expect(
    ignored.status === plain.status,
    ignored,
    `an unimplemented preference gave ${ignored.status}, not the plain ${plain.status}`,
    'check.prefer-mock',
  );
  const repeated = await context.get(path, 'valid', { Prefer: 'code=500, code=401' });
  context.expect(
    repeated.status === 500,
    repeated,
    `Prefer: code=500, code=401 gave ${repeated.status}: the first instance counts`,
    'check.prefer-mock',
  );
  const semicolon = await context.get(path, 'valid', { Prefer: 'code=500; delay=0' });
  context.expect(
    semicolon.status === 500,
    semicolon,
    `Prefer: code=500; delay=0 gave ${semicolon.status}: a semicolon separates the mock's own`,
    'check.prefer-mock',
  );
}

/**
 * RFC 7240 §2 as the description cites it: names are case-insensitive, white space may surround "=", a value may
 * be a quoted-string; a 2xx code asks for the real answer.
 */
async function preferSpellings(context: CheckContext, path: string, plain: Exchange): Promise<void> {
  for (const value of ['CODE=500', 'code = 500', 'code="500"']) {
    const spelled = await context.get(path, 'valid', { Prefer: value });
    context.expect(spelled.status === 500, spelled, `Prefer: ${value} gave ${spelled.status}, not 500 (RFC 7240 §2)`, 'check.prefer-mock');
  }
  const real = await context.get(path, 'valid', { Prefer: 'code=200' });
  context.expect(real.status === plain.status, real, `Prefer: code=200 gave ${real.status}, not the real answer`, 'check.prefer-mock');
}

/** A bad code, delay or example: 400 VALIDATION_ERROR naming it (or the Prefer header it travels in). */
async function badPreferValuesNamed(context: CheckContext, path: string): Promise<void> {
  for (const [value, name] of [
    ['code=418', 'code'],
    ['code=50', 'code'],
    ['code=5000', 'code'],
    ['code=abc', 'code'],
    ['delay=10001', 'delay'],
    ['delay=-1', 'delay'],
    ['delay=1.5', 'delay'],
    ['delay=soon', 'delay'],
    ['example=no-such-example', 'example'],
    ['example=', 'example'],
    ['example', 'example'],
  ] as const) {
    const bad = await context.get(path, 'valid', { Prefer: value });
    const body = context.expectError(bad, 400, 'VALIDATION_ERROR');
    // "naming it": the preference, or the Prefer header it travels in (the error table: a header that breaks the document is named).
    context.expect(
      body.Message.includes(name) || body.Message.includes('Prefer'),
      bad,
      `the Message for Prefer: ${value} names neither ${name} nor Prefer`,
      'check.prefer-mock',
    );
  }
}

/** The named examples of one status of Simple, from this document. */
function simpleExamples(context: CheckContext, status: number): string[] {
  type Content = Record<string, { examples?: Record<string, unknown> }> | undefined;
  const operation = context.contract.operation('getClientsSimple');
  return Object.keys((context.contract.response(operation, status)?.node.content as Content)?.['application/json']?.examples ?? {});
}

/**
 * "for the status code asks for": an error status's own example (e.g. code=401, example=missingKey) is that
 * status. (A name that status lacks: the description's "else" reads either way, so neither answer is held.)
 * Not 400: a bad Prefer is a 400 too, so a 400 would not tell the two readings apart.
 */
async function errorExampleKeepsItsStatus(context: CheckContext, path: string): Promise<void> {
  const operation = context.contract.operation('getClientsSimple');
  const errorStatuses = operation.statuses.filter((status) => /^[45]\d\d$/.test(status) && status !== '400').map(Number);
  const withOwn = errorStatuses.find((status) => simpleExamples(context, status).length > 0);
  if (withOwn === undefined) return;
  const value = `code=${withOwn}, example=${simpleExamples(context, withOwn)[0]}`;
  const own = await context.get(path, 'valid', { Prefer: value });
  context.expect(own.status === withOwn, own, `Prefer: ${value} gave ${own.status}, not ${withOwn}`, 'check.prefer-mock');
}

/**
 * "delays the response by that many milliseconds", alone and combined with a code: at least that long (a lower
 * bound only, which a slow or loaded machine can only lengthen).
 */
async function preferDelays(context: CheckContext, path: string, plain: Exchange): Promise<void> {
  for (const [value, status] of [
    // code=200 beside it: a mock's ERROR_RATE may fail a request Prefer does not steer, and code=200 overrides that.
    [`code=200, delay=${PREFER_DELAY_MS}`, plain.status],
    [`code=500, delay=${PREFER_DELAY_MS}`, 500],
  ] as const) {
    const delayed = await context.get(path, 'valid', { Prefer: value });
    context.expect(delayed.status === status, delayed, `Prefer: ${value} gave ${delayed.status}, not ${status}`, 'check.prefer-mock');
    context.expect(
      delayed.ms >= PREFER_DELAY_MS - TIMER_SLACK_MS,
      delayed,
      `Prefer: ${value} should delay the answer by ${PREFER_DELAY_MS} ms; it came after ${delayed.ms.toFixed(0)} ms`,
      'check.prefer-mock',
    );
  }
}

/**
 * "an unknown example name lists the known ones" (every named example of the 200, from this document), and the
 * counted examples ("where X-Total-Count is the example's number of results"), one spelled quoted.
 */
async function namedExamplesAnswered(context: CheckContext, path: string): Promise<void> {
  const unknown = await context.get(path, 'valid', { Prefer: 'example=no-such-example' });
  const listed = context.expectError(unknown, 400, 'VALIDATION_ERROR');
  const unlisted = simpleExamples(context, 200).filter((name) => !listed.Message.includes(name));
  context.expect(
    unlisted.length === 0,
    unknown,
    `the Message for an unknown example does not list ${unlisted.join(', ')}`,
    'check.prefer-mock',
  );
  for (const [value, count] of [
    ['example=empty', 0],
    ['example="single"', 1],
  ] as const) {
    const named = await context.get(path, 'valid', { Prefer: value });
    context.expectStatus(named, 200);
    context.expect(
      (named.json as { Results: unknown[] }).Results.length === count && totalCount(named) === count,
      named,
      `Prefer: ${value} did not answer ${count} result(s) with X-Total-Count ${count}`,
      'check.prefer-mock',
    );
  }
}

/** On a deployment that honours Prefer (the mock): Prefer read as RFC 7240 and the Prefer parameter's description say. */
const preferReadAsTheMockReadsIt: Check = async (context) => {
  const path = operationPaths(context.contract).getClientsSimple;
  const steered = await context.get(path, 'valid', { Prefer: 'code=500' });
  if (steered.status !== 500)
    context.skip('the deployment ignores Prefer, as a real deployment does: how the mock reads it is not checked');
  const plain = await context.get(path);

  await preferListRead(context, path, plain);
  await preferSpellings(context, path, plain);
  await badPreferValuesNamed(context, path);
  await errorExampleKeepsItsStatus(context, path);
  await preferDelays(context, path, plain);
  await namedExamplesAnswered(context, path);
};

/** On a deployment that honours Prefer: code=NNN of each documented error status is that status, example=NAME the example itself. */
const preferOnEveryOperation: Check = async (context) => {
  const probe = await context.get(operationPaths(context.contract).getClientsSimple, 'valid', { Prefer: 'code=500' });
  if (probe.status !== 500) context.skip('the deployment ignores Prefer, as a real deployment does: how the mock reads it is not checked');
  for (const { operation, request } of await operationRequests(context)) {
    const documented = context.contract.operation(operation);
    for (const status of documented.statuses.filter((s) => /^[45]\d\d$/.test(s)).map(Number)) {
      // "code=NNN: answer that status, which the operation must document, with a valid ErrorDto" (the judge holds
      // the ErrorDto and its Code to the error table and to that response, e.g. the 405's Allow header).
      const steered = await context.call({ ...request, headers: { Prefer: `code=${status}` } });

      context.expectStatus(steered, status);
      const id = /\/Detail\/([^/?]+)/.exec(request.path)?.[1];
      if (status === 404 && id !== undefined)
        context.expect(
          String((steered.json as Partial<ErrorDto> | undefined)?.Message ?? '')
            .toLowerCase()
            .includes(decodeURIComponent(id).toLowerCase()),
          steered,
          `the Message of Prefer: code=404 does not name the id ${id} (the 404: "the Message names the id")`,
          'check.prefer-mock',
        );
    }
    for (const [status, examples] of examplesByStatus(context, operation)) {
      for (const [name, value] of Object.entries(examples)) {
        // "example=NAME: answer the operation's named example NAME from this document, for the status code asks for".
        const prefer = status < 300 ? `example=${name}` : `code=${status}, example=${name}`;
        const named = await context.call({ ...request, headers: { Prefer: prefer } });

        context.expectStatus(named, status);
        context.expect(
          isDeepStrictEqual(named.json, value.value),
          named,
          `Prefer: ${prefer} did not answer the example ${name} of ${operation}'s ${status}`,
          'check.prefer-mock',
        );
      }
    }
  }
};

/** An operation's named examples by status, from this document (`content.application/json.examples`). */
function examplesByStatus(context: CheckContext, operationId: string): [number, Record<string, { value?: unknown }>][] {
  type Content = Record<string, { examples?: Record<string, { value?: unknown }> }> | undefined;
  const operation = context.contract.operation(operationId);
  return operation.statuses
    .filter((status) => /^\d{3}$/.test(status))
    .map((status) => {
      const content = context.contract.response(operation, Number(status))?.node.content as Content;
      return [Number(status), content?.['application/json']?.examples ?? {}] as [number, Record<string, { value?: unknown }>];
    })
    .filter(([, examples]) => Object.keys(examples).length > 0);
}

export function crossCuttingChecks(check: Define): void {
  check(
    'cross-cutting',
    'GET every operation, and a 401 and a 404 → X-Request-Id echoed when it is 1-128 of [A-Za-z0-9_.:@-] (X-Request-Id rule)',
    requestIdEchoed,
    ['header.request-id'],
  );
  check(
    'cross-cutting',
    'GET every operation with an X-Request-Id outside the rule (129 characters, a space, a slash) → a generated X-Request-Id instead (X-Request-Id rule)',
    requestIdReplaced,
    ['header.request-id'],
  );
  check(
    'cross-cutting',
    'GET every operation with an Origin, and a 400, a 401 and a 404 → Access-Control-Allow-Origin (* or that origin) and X-Total-Count, Link, X-Request-Id exposed (CORS)',
    corsOnEveryAnswer,
    ['check.cors', 'cors.allow-origin', 'cors.expose'],
  );
  check(
    'cross-cutting',
    'GET every Client operation without a key and with an unknown key → two 401 UNAUTHORIZED whose Messages differ (authentication: the Message tells the cases apart)',
    authMessagesTellCasesApart,
    ['check.auth-messages', 'check.auth-example-messages'],
  );
  check(
    'cross-cutting',
    'GET every Client operation with a near-miss X-Api-Key (other case, all but the last character, one character more) → 401 UNAUTHORIZED (authentication)',
    nearMissKeysRefused,
    ['check.auth-near-miss', 'request.key-unknown'],
  );
  check(
    'getClientsSimple',
    'GET /Client/Simple with Prefer, on a deployment that honours it (the mock) → unimplemented and repeated preferences ignored (RFC 7240), a bad code, delay or example 400 naming it, example=empty the empty page',
    preferReadAsTheMockReadsIt,
    ['check.prefer-mock', 'check.prefer'],
  );
  check(
    'cross-cutting',
    'GET every operation with Prefer, on a deployment that honours it (the mock) → code=NNN of each error status it documents is that status (the 404 naming the id), example=NAME of each named example is the example itself',
    preferOnEveryOperation,
    ['check.prefer-mock', 'check.prefer'],
  );
}
