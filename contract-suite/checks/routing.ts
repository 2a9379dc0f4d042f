// Paths that are no operation: 404 NOT_FOUND (exact, case-sensitive).
import { type Define } from '../context';

export function routingChecks(check: Define): void {
  // ---------------------------------------------------------------- routing

  for (const path of [
    '/api/v1/client/simple',
    '/api/v1/Client/Simple/',
    '/api/v1/Client/Detail',
    '/api/v2/Diagnostics/Ping',
    '/api/v1/Nothing',
  ]) {
    check(
      'routing',
      `GET ${path} → 404 NOT_FOUND (paths are exact and case-sensitive)`,
      async (context) => {
        const exchange = await context.get(path);

        context.expectError(exchange, 404, 'NOT_FOUND');
      },
      ['request.path'],
    );
  }
}
