// Why this file exists: a handler that fails unexpectedly (a bug of ours, a data set that breaks an assumption)
// must still get the error table's `500 INTERNAL_ERROR` answer, on both roads a request takes: the Express app
// and the in-process handlers' lean path. Until 2026-11-28 the lean path checked that 500 against a pointer
// through the document's `$ref` to `components/responses/InternalError`, threw inside the error handler's own
// answer, and left the request unanswered (found by mutation testing, docs/mutation.md).
import { ClientStore } from '../../server/engine/store';
import { API_KEY, startLeanTestServer, startTestServer, type TestServer } from '../support/servers';

const roads: [string, () => Promise<TestServer>][] = [
  ['the Express app', () => startTestServer({ clients: 50 })],
  ['the lean path (in-process handlers)', () => startLeanTestServer({ seed: 1, clients: 50 })],
];

describe.each(roads)('a list handler that throws, through %s', (_road, start) => {
  const page = ClientStore.prototype.page;
  let server: TestServer;
  const escaped: unknown[] = [];
  const record = (error: unknown) => escaped.push(error);
  beforeAll(async () => {
    process.on('uncaughtException', record);
    process.on('unhandledRejection', record);
    ClientStore.prototype.page = () => {
      throw new TypeError('a fault of the store');
    };
    server = await start();
  });
  afterAll(async () => {
    ClientStore.prototype.page = page;
    await server?.stop();
    process.off('uncaughtException', record);
    process.off('unhandledRejection', record);
  });

  test.each(['/api/v1/Client/Simple', '/api/v1/Client/Extended?active=true'])(
    'GET %s → 500 INTERNAL_ERROR, the generic Message, nothing thrown past the answer',
    async (path) => {
      const response = await fetch(`${server.baseUrl}${path}`, { headers: { 'X-Api-Key': API_KEY }, signal: AbortSignal.timeout(10_000) });

      expect(response.status).toBe(500);
      expect(await response.json()).toEqual({ Code: 'INTERNAL_ERROR', Message: 'An unexpected error occurred' });
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(escaped).toEqual([]);
    },
  );
});
