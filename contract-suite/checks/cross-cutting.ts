// Rules that hold for every operation: X-Request-Id (echoed exactly when the
// spec says, generated otherwise), CORS for a request with an Origin, and keys
// that almost match the real one. Preflights are derived per path (derived/methods.ts).
import { nearMissKeys, type ApiRequest, type Exchange, type NearMissKey } from '../http';
import type { OperationId } from '../../contract/operations';
import { operationPaths, type CheckContext, type Define, type OperationName } from '../context';

/** One request per operation (Detail with a listed id), with the key the operation needs. */
async function operationRequests(context: CheckContext): Promise<{ operation: OperationName; request: ApiRequest }[]> {
  const paths = operationPaths(context.contract);
  const { clients } = await context.sample();
  return context.contract.operations.map((operation) => ({
    operation: operation.operationId as OperationId,
    request: {
      method: 'GET',
      path:
        operation.operationId === 'getClientDetail'
          ? `${paths.getClientDetail}/${clients[0]!.IdClient}`
          : paths[operation.operationId as OperationId],
      key: operation.isPublic ? 'none' : 'valid',
    },
  }));
}

const headerList = (exchange: Exchange, name: string) =>
  (exchange.headers.get(name) ?? '')
    .split(',')
    .map((item) => item.trim().toLowerCase())
    .filter(Boolean);

export function crossCuttingChecks(check: Define): void {
  check(
    'cross-cutting',
    'GET every operation, and a 401 and a 404 → X-Request-Id echoed when it is 1-128 of [A-Za-z0-9_.:@-] (X-Request-Id rule)',
    async (context) => {
      const requests = await operationRequests(context);
      requests.push({ operation: 'getClientsSimple', request: { method: 'GET', path: operationPaths().getClientsSimple, key: 'none' } });
      requests.push({ operation: 'routing', request: { method: 'GET', path: '/api/v1/Nothing', key: 'none' } });

      for (const [i, { request }] of requests.entries()) {
        const id = `cs-${i}_A.b:c@d-${'x'.repeat(i)}`;
        const exchange = await context.call({ ...request, headers: { 'X-Request-Id': id } });

        context.expect(exchange.headers.get('x-request-id') === id, exchange, `X-Request-Id ${id} is not echoed`);
      }
      const longest = 'L'.repeat(128);
      const exchange = await context.call({ ...requests[0]!.request, headers: { 'X-Request-Id': longest } });
      context.expect(exchange.headers.get('x-request-id') === longest, exchange, 'a 128-character X-Request-Id is not echoed');
    },
  );
  check(
    'cross-cutting',
    'GET every operation with an X-Request-Id outside the rule (129 characters, a space, a slash) → a generated X-Request-Id instead (X-Request-Id rule)',
    async (context) => {
      const requests = await operationRequests(context);
      const outside = ['R'.repeat(129), 'has space', 'a/b'];

      for (const [i, { request }] of requests.entries()) {
        const id = outside[i % outside.length]!;
        const exchange = await context.call({ ...request, headers: { 'X-Request-Id': id } });

        const sent = exchange.headers.get('x-request-id');
        context.expect(sent !== null && sent !== '' && sent !== id, exchange, `X-Request-Id ${JSON.stringify(id)} was echoed`);
      }
    },
  );
  check(
    'cross-cutting',
    'GET every operation with an Origin → Access-Control-Allow-Origin (* or that origin) and X-Total-Count, Link, X-Request-Id exposed (CORS)',
    async (context) => {
      const origin = context.origin;
      for (const { request } of await operationRequests(context)) {
        const exchange = await context.call({ ...request, headers: { Origin: origin } });

        const allowed = exchange.headers.get('access-control-allow-origin');
        context.expect(allowed === '*' || allowed === origin, exchange, `Access-Control-Allow-Origin is ${allowed} for Origin ${origin}`);
        const exposed = headerList(exchange, 'access-control-expose-headers');
        for (const name of ['x-total-count', 'link', 'x-request-id']) {
          context.expect(exposed.includes(name) || exposed.includes('*'), exchange, `Access-Control-Expose-Headers does not name ${name}`);
        }
      }
    },
  );
  check(
    'cross-cutting',
    'GET every Client operation without a key and with an unknown key → two 401 UNAUTHORIZED whose Messages differ (authentication: the Message tells the cases apart)',
    async (context) => {
      for (const { request } of (await operationRequests(context)).filter((r) => r.request.key === 'valid')) {
        const missing = await context.call({ ...request, key: 'none' });
        const unknown = await context.call({ ...request, key: 'wrong' });

        const a = context.expectError(missing, 401, 'UNAUTHORIZED');
        const b = context.expectError(unknown, 401, 'UNAUTHORIZED');
        context.expect(a.Message !== b.Message, unknown, `the same Message for a missing and an unknown key: ${JSON.stringify(a.Message)}`);
      }
    },
  );
  check(
    'cross-cutting',
    'GET every Client operation with a near-miss X-Api-Key (other case, all but the last character, one character more) → 401 UNAUTHORIZED (authentication)',
    async (context) => {
      const misses = [...nearMissKeys(context.target.apiKey).keys()] as NearMissKey[];
      for (const { request } of (await operationRequests(context)).filter((r) => r.request.key === 'valid')) {
        for (const key of misses) {
          const exchange = await context.call({ ...request, key });

          context.expectError(exchange, 401, 'UNAUTHORIZED');
        }
      }
    },
  );
}
