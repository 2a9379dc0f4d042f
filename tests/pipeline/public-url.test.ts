// The address a browser uses: PUBLIC_URL makes paging links absolute (for a
// page on another origin) and names the server in /openapi.json; without it,
// /openapi.json names the address it was fetched from.
import { loadConfig } from '../../server/process/config';
import { get, startTestServer, type TestServer } from '../support/servers';

describe('PUBLIC_URL', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ publicUrl: 'http://mock.example:8080/base' });
  });
  afterAll(() => server.stop());

  test('GET /Client/Simple?page=2&pageSize=10 → Link holds absolute URLs under PUBLIC_URL', async () => {
    const link = (await get(server.baseUrl, '/api/v1/Client/Simple?page=2&pageSize=10')).headers.get('link');

    expect(link).toContain('<http://mock.example:8080/base/api/v1/Client/Simple?page=1&pageSize=10>; rel="first"');
    expect(link).toContain('<http://mock.example:8080/base/api/v1/Client/Simple?page=3&pageSize=10>; rel="next"');
  });

  test('GET /openapi.json → names PUBLIC_URL as its server', async () => {
    const spec = (await (await get(server.baseUrl, '/openapi.json')).json()) as { servers: { url: string }[] };

    expect(spec.servers).toEqual([{ url: 'http://mock.example:8080/base', description: 'This server' }]);
  });

  test.each([['ftp://x'], ['not a url'], ['http://x/?q=1']])('PUBLIC_URL=%s → a one-line ConfigError', (value) => {
    expect(() => loadConfig([], { PUBLIC_URL: value })).toThrow(/^invalid PUBLIC_URL=.*must be an absolute http\(s\) URL/);
  });
});

describe('GET /openapi.json without PUBLIC_URL', () => {
  test('→ names the address the request was sent to', async () => {
    const server = await startTestServer();
    try {
      const spec = (await (await get(server.baseUrl, '/openapi.json')).json()) as { servers: { url: string }[] };

      expect(spec.servers[0]!.url).toBe(server.baseUrl);
    } finally {
      await server.stop();
    }
  });
});
