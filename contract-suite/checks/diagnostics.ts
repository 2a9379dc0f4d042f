// Checks of the two public diagnostics operations (ping, exception).
import { expectPreferred, operationPaths, testExceptionMessage, type Define } from '../kit/context';
import type { SpecContract } from '../../contract/spec-contract';

export function diagnosticsChecks(check: Define, contract: SpecContract): void {
  const PATHS = operationPaths(contract);
  const MESSAGE = testExceptionMessage(contract);
  // ---------------------------------------------------------------- ping

  check(
    'ping',
    'GET /Diagnostics/Ping → 200 "Pong" without a key',
    async (context) => {
      const exchange = await context.get(PATHS.ping, 'none');

      context.expectStatus(exchange, 200);
      context.expect(exchange.json === 'Pong', exchange, 'the body is not the JSON string "Pong"', 'check.ping');
    },
    ['check.ping', 'check.public'],
  );
  check(
    'ping',
    'GET /Diagnostics/Ping → 200 "Pong" with a key too',
    async (context) => {
      const exchange = await context.get(PATHS.ping, 'valid');

      context.expectStatus(exchange, 200);
      context.expect(exchange.json === 'Pong', exchange, 'the body is not the JSON string "Pong"', 'check.ping');
    },
    ['check.ping'],
  );
  check(
    'ping',
    'GET /Diagnostics/Ping with Prefer: code=500 → 500 INTERNAL_ERROR',
    (context) => expectPreferred(context, 'ping', PATHS.ping, 500, 'INTERNAL_ERROR', 'none'),
    ['check.prefer'],
  );

  // ---------------------------------------------------------------- exception

  check(
    'exception',
    'GET /Diagnostics/Exception → 500 TEST_EXCEPTION with the exact message, without a key',
    async (context) => {
      const exchange = await context.get(PATHS.exception, 'none');

      const body = context.expectError(exchange, 500, 'TEST_EXCEPTION');
      context.expect(body.Message === MESSAGE, exchange, `the Message is not "${MESSAGE}"`, 'check.exception');
    },
    ['check.exception', 'check.public'],
  );
  check(
    'exception',
    'GET /Diagnostics/Exception → the same 500 TEST_EXCEPTION every time',
    async (context) => {
      const exchanges = [await context.get(PATHS.exception, 'valid'), await context.get(PATHS.exception, 'none')];

      for (const exchange of exchanges) context.expectError(exchange, 500, 'TEST_EXCEPTION', 'check.exception');
    },
    ['check.exception'],
  );
  check(
    'exception',
    'GET /Diagnostics/Exception with Prefer: code=500 → 500 INTERNAL_ERROR (a simulated failure), or TEST_EXCEPTION where Prefer is ignored',
    async (context) => {
      const exchange = await context.get(PATHS.exception, 'none', { Prefer: 'code=500' });

      const body = context.expectError(
        exchange,
        500,
        (exchange.json as { Code?: string } | undefined)?.Code === 'TEST_EXCEPTION' ? 'TEST_EXCEPTION' : 'INTERNAL_ERROR',
        'check.prefer',
      );
      if (body.Code === 'TEST_EXCEPTION') context.preferIgnored.add('exception');
    },
    ['check.prefer'],
  );
}
