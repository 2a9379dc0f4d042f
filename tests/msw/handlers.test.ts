// createHandlers' own options: settings checked at once, a base URL with a path
// prefix, and the `prefer` default header that forces a state per test.
import { setupServer } from 'msw/node';
import { ConfigError } from '../../server/process/config';
import { createHandlers } from '../../server/msw';
import { API_KEY } from '../support/servers';

describe('createHandlers options', () => {
  test('a bad setting → a ConfigError naming it, thrown by createHandlers itself', () => {
    expect(() => createHandlers({ baseUrl: 'http://api.test', clients: -1 })).toThrow(ConfigError);
    expect(() => createHandlers({ baseUrl: 'http://api.test', clients: -1 })).toThrow(/clients/i);
  });

  describe('with a path prefix and a default Prefer', () => {
    const server = setupServer(...createHandlers({ baseUrl: 'http://api.test/backend/', clients: 10, prefer: 'example=empty' }));
    beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
    afterAll(() => server.close());

    test('GET {baseUrl}/api/v1/Diagnostics/Ping → "Pong": the prefix is stripped', async () => {
      // Ping has no example named empty: its own Prefer replaces the default.
      const response = await fetch('http://api.test/backend/api/v1/Diagnostics/Ping', { headers: { Prefer: 'delay=0' } });

      expect(await response.json()).toBe('Pong');
    });

    test('GET /api/v1/Client/Simple → the example the default Prefer names', async () => {
      const response = await fetch('http://api.test/backend/api/v1/Client/Simple', { headers: { 'X-Api-Key': API_KEY } });

      expect(response.headers.get('x-total-count')).toBe('0');
    });

    test("GET /api/v1/Client/Simple → the request's own Prefer wins over the default", async () => {
      const response = await fetch('http://api.test/backend/api/v1/Client/Simple', {
        headers: { 'X-Api-Key': API_KEY, Prefer: 'code=200' },
      });

      expect(response.headers.get('x-total-count')).toBe('10');
    });

    test("GET /api/v1/Client/Simple?pageSize=2 → Link targets keep the base URL's prefix, so a client can follow them", async () => {
      const response = await fetch('http://api.test/backend/api/v1/Client/Simple?pageSize=2', {
        headers: { 'X-Api-Key': API_KEY, Prefer: 'code=200' },
      });
      const next = /<([^>]+)>; rel="next"/.exec(response.headers.get('link') ?? '')?.[1];

      expect(next).toBe('http://api.test/backend/api/v1/Client/Simple?page=2&pageSize=2');
      expect((await fetch(next!, { headers: { 'X-Api-Key': API_KEY, Prefer: 'code=200' } })).status).toBe(200);
    });

    test('a method fetch sends but Node never parses (BREW, any RFC 9110 token) → the 405 ErrorDto every method other than GET gets, or the 404 of a path the document lacks', async () => {
      const brew = await fetch('http://api.test/backend/api/v1/Client/Simple', { method: 'BREW', headers: { 'X-Api-Key': API_KEY } });
      const patch = await fetch('http://api.test/backend/api/v1/Client/Simple', { method: 'PATCH', headers: { 'X-Api-Key': API_KEY } });
      const nowhere = await fetch('http://api.test/backend/api/v1/Nope', { method: 'BREW' });

      expect([brew.status, brew.headers.get('allow'), await brew.json()]).toEqual([
        405,
        'GET',
        { Code: 'METHOD_NOT_ALLOWED', Message: 'BREW is not allowed on this path; use GET' },
      ]);
      expect([patch.status, patch.headers.get('allow')]).toEqual([405, 'GET']);
      expect([nowhere.status, await nowhere.json()]).toEqual([404, { Code: 'NOT_FOUND', Message: 'No route BREW /api/v1/Nope' }]);
    });
  });
});
