// The request log as a person and a machine read it: LOG_FORMAT=pretty gives
// one readable line per request (pino-pretty), with the error Code and the
// documented parameter a 4xx names; LOG_FORMAT=json (the default off a
// terminal) gives the same fields as JSON.
import { get, spawnServer, type SpawnedServer } from '../support/servers';

const SECRET_FILTER = 'FILTERSECRET';

async function traffic(server: SpawnedServer): Promise<void> {
  await get(server.baseUrl, '/api/v1/Client/Simple?pageSize=500');
  await get(server.baseUrl, '/api/v1/Client/Simple', {});
  await get(server.baseUrl, `/api/v1/Client/Extended?filter=${SECRET_FILTER}&${SECRET_FILTER}=1`);
  await get(server.baseUrl, '/openapi.json');
}

/** Waits (bounded) until the output holds `count` request lines. */
async function requestLines(output: () => string, count: number): Promise<string[]> {
  const lines = () =>
    output()
      .split('\n')
      .filter((line) => line.includes('request'));
  for (const started = Date.now(); Date.now() - started < 5_000 && lines().length < count;) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return lines();
}

describe('LOG_FORMAT=pretty', () => {
  let server: SpawnedServer;
  let lines: string[];

  beforeAll(async () => {
    server = await spawnServer([], { LOG_LEVEL: 'info', LOG_FORMAT: 'pretty' });
    await traffic(server);
    lines = await requestLines(server.stdout, 4);
  }, 30_000);
  afterAll(() => server.stop());

  test('a 400 → one readable line with method, route template, status, duration, Code and the parameter', () => {
    expect(lines[0]).toMatch(
      /^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: request GET \/api\/v1\/Client\/Simple 400 [\d.]+ ms VALIDATION_ERROR query\.pageSize$/,
    );
  });

  test('a 401 → its Code and the header it is about', () => {
    expect(lines[1]).toMatch(/ request GET \/api\/v1\/Client\/Simple 401 [\d.]+ ms UNAUTHORIZED header\.X-Api-Key$/);
  });

  test('an unknown parameter → named as undocumented, its name (caller input) never logged', () => {
    expect(lines[2]).toMatch(/ 400 [\d.]+ ms VALIDATION_ERROR query\.\(undocumented\)$/);
    expect(server.stdout()).not.toContain(SECRET_FILTER);
  });

  test('/openapi.json → logs its own route, not "(no route)"', () => {
    expect(lines[3]).toMatch(/ request GET \/openapi\.json 200 /);
  });

  test('no line is JSON', () => {
    expect(lines.filter((line) => line.startsWith('{'))).toEqual([]);
  });
});

describe('LOG_FORMAT=json', () => {
  test('the same request → a JSON line with code and param fields', async () => {
    const server = await spawnServer([], { LOG_LEVEL: 'info', LOG_FORMAT: 'json' });
    try {
      await get(server.baseUrl, '/api/v1/Client/Simple?pageSize=500');

      const [line] = await requestLines(server.stdout, 1);

      expect(JSON.parse(line!)).toMatchObject({
        msg: 'request',
        route: '/api/v1/Client/Simple',
        status: 400,
        code: 'VALIDATION_ERROR',
        param: 'query.pageSize',
      });
    } finally {
      await server.stop();
    }
  }, 30_000);
});
