// Mock controls (openapi.yaml, the Prefer parameter): Prefer code and delay on every
// operation, LATENCY_MS and ERROR_RATE on the Client operations only. The
// operations and their documented statuses are read from openapi.yaml, so a
// status added to the spec is tested here without touching this file.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import YAML from 'yaml';
import { FaultInjector, type FaultDecision } from '../../server/pipeline/mock-controls';
import { methodNotAllowed } from '../../server/errors';
import type { ErrorCode, ErrorDto } from '../../contract/wire-types';
import { loadSpec, SPEC_PATH, SpecSchemas, type OpenApiDocument } from '../../contract/spec';
import { responseExamples } from '../../contract/response-examples';
import { get, startTestServer, testStore, API_KEY, type TestServer } from '../support/servers';

const spec = loadSpec();
const isErrorDto = new SpecSchemas(spec).validator('ErrorDto');
const isClientDetail = new SpecSchemas(spec).validator('ClientDetail');
const KNOWN_ID = testStore().client(0).IdClient;
const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

/** The Code a simulated error of each status carries (openapi.yaml, "Errors"; 500 is INTERNAL_ERROR, Exception included). */
const CODE_OF_STATUS: Record<number, ErrorCode> = {
  400: 'VALIDATION_ERROR',
  401: 'UNAUTHORIZED',
  404: 'CLIENT_NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  500: 'INTERNAL_ERROR',
};

interface OperationCase {
  operationId: string;
  /** The path as test names show it, e.g. `/Client/Detail/{idClient}`. */
  name: string;
  url: string;
  statuses: number[];
}

const OPERATIONS: OperationCase[] = Object.entries(spec.paths).map(([template, item]) => {
  const operation = item.get as { operationId: string; responses: Record<string, unknown> };
  return {
    operationId: operation.operationId,
    name: template.replace('/api/v1', ''),
    url: template.replace('{idClient}', KNOWN_ID),
    statuses: Object.keys(operation.responses).map(Number),
  };
});
const CLIENT_OPERATIONS = OPERATIONS.filter((operation) => operation.name.startsWith('/Client/'));

const errorCases = (statuses: number[]) =>
  statuses.filter((status) => status >= 300).map((status) => ({ status, code: CODE_OF_STATUS[status]! }));
const undocumented = (statuses: number[]) =>
  [200, 201, 204, 301, 400, 401, 403, 404, 405, 418, 500, 503].filter((status) => !statuses.includes(status));

async function timed(baseUrl: string, url: string, headers: Record<string, string> = { 'X-Api-Key': API_KEY }) {
  const started = performance.now();
  const response = await get(baseUrl, url, headers);
  const text = await response.text();
  return { response, text, ms: performance.now() - started };
}

/** Fake request contexts for FaultInjector unit checks: it only needs distinct objects to keep its decision in. */
const fakeContexts = (count: number) => Array.from({ length: count }, (): { fault: FaultDecision | undefined } => ({ fault: undefined }));

describe('Prefer: code and Prefer: delay', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.stop());

  test('the operations read from openapi.yaml are the five of the API', () => {
    expect(OPERATIONS.map((operation) => operation.operationId).sort()).toEqual(
      ['exception', 'getClientDetail', 'getClientsExtended', 'getClientsSimple', 'ping'].sort(),
    );
  });

  describe.each(OPERATIONS)('GET $name', ({ name, url, statuses }) => {
    test.each(errorCases(statuses))(`GET ${name} → $status $code when Prefer: code=$status`, async ({ status, code }) => {
      const response = await get(server.baseUrl, url, { 'X-Api-Key': API_KEY, Prefer: `code=${status}` });
      const body = (await response.json()) as ErrorDto;

      expect(response.status).toBe(status);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      expect(isErrorDto(body)).toBe(true);
      expect(body.Code).toBe(code);
      expect(body.Message).toContain(`simulated: Prefer code=${status}`);
    });

    test.each(undocumented(statuses))(
      `GET ${name} → 400 VALIDATION_ERROR when Prefer: code=%i is not documented for it`,
      async (status) => {
        const response = await get(server.baseUrl, url, { 'X-Api-Key': API_KEY, Prefer: `code=${status}` });
        const body = (await response.json()) as ErrorDto;

        expect(response.status).toBe(400);
        expect(isErrorDto(body)).toBe(true);
        expect(body).toEqual({ Code: 'VALIDATION_ERROR', Message: expect.stringContaining(`asks for status ${status}`) });
      },
    );

    if (statuses.includes(200)) {
      test(`GET ${name} → 200, the real answer, when Prefer: code=200`, async () => {
        const plain = await get(server.baseUrl, url);
        const preferred = await get(server.baseUrl, url, { 'X-Api-Key': API_KEY, Prefer: 'code=200' });

        expect(preferred.status).toBe(200);
        expect(await preferred.text()).toBe(await plain.text());
      });
    }

    if (statuses.includes(405)) {
      test(`GET ${name} → 405 carries Allow: GET when Prefer: code=405`, async () => {
        const response = await get(server.baseUrl, url, { 'X-Api-Key': API_KEY, Prefer: 'code=405' });

        expect(response.status).toBe(405);
        expect(response.headers.get('allow')).toBe('GET');
      });
    }
  });

  test('GET /Client/Detail/{idClient} → 404 CLIENT_NOT_FOUND naming the requested id when Prefer: code=404', async () => {
    const response = await get(server.baseUrl, `/api/v1/Client/Detail/${KNOWN_ID}`, { 'X-Api-Key': API_KEY, Prefer: 'code=404' });

    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({
      Code: 'CLIENT_NOT_FOUND',
      Message: `No client with IdClient ${KNOWN_ID} exists (simulated: Prefer code=404)`,
    });
  });

  test('GET /Client/Simple → 401 from the real key check comes before Prefer: code=500', async () => {
    const response = await get(server.baseUrl, '/api/v1/Client/Simple', { Prefer: 'code=500' });

    expect(response.status).toBe(401);
    expect(((await response.json()) as ErrorDto).Code).toBe('UNAUTHORIZED');
  });

  test.each(['code=5000', 'code=abc', 'code', 'delay=-1', 'delay=100000', 'code=500 delay=10', 'example=', 'return=minimal, delay=x'])(
    'GET /Diagnostics/Ping → 400 VALIDATION_ERROR naming Prefer when Prefer: %s',
    async (prefer) => {
      const response = await get(server.baseUrl, '/api/v1/Diagnostics/Ping', { Prefer: prefer });

      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({ Code: 'VALIDATION_ERROR', Message: expect.stringContaining("header 'Prefer'") });
    },
  );

  test.each(['return=minimal', 'handling=lenient', 'respond-async', 'wait=10', 'return=minimal; handling=lenient, respond-async'])(
    'GET /Client/Simple → 200, the real answer, when Prefer: %s is a preference the mock does not implement (RFC 7240)',
    async (prefer) => {
      const plain = await get(server.baseUrl, '/api/v1/Client/Simple?pageSize=3');
      const preferred = await get(server.baseUrl, '/api/v1/Client/Simple?pageSize=3', { 'X-Api-Key': API_KEY, Prefer: prefer });

      expect(preferred.status).toBe(200);
      expect(await preferred.text()).toBe(await plain.text());
    },
  );

  test('GET /Client/Simple → 500 when Prefer: return=minimal, code=500: our preference is read beside one we ignore', async () => {
    const response = await get(server.baseUrl, '/api/v1/Client/Simple', { 'X-Api-Key': API_KEY, Prefer: 'return=minimal, code=500' });

    expect(response.status).toBe(500);
  });

  test('GET /Client/Detail/{idClient} → 500, not 404, when Prefer: code=500, code=404: the first instance counts (RFC 7240)', async () => {
    const response = await get(server.baseUrl, `/api/v1/Client/Detail/${KNOWN_ID}`, { 'X-Api-Key': API_KEY, Prefer: 'code=500, code=404' });

    expect(response.status).toBe(500);
  });

  test('GET /Client/Simple → 405 with the text of the real 405 (methodNotAllowed) when Prefer: code=405', async () => {
    const response = await get(server.baseUrl, '/api/v1/Client/Simple', { 'X-Api-Key': API_KEY, Prefer: 'code=405' });

    expect(await response.json()).toEqual(methodNotAllowed('GET', ' (simulated: Prefer code=405)').toDto());
  });

  test('GET /Diagnostics/Ping → 400 VALIDATION_ERROR when Prefer: delay is above 10000', async () => {
    const response = await get(server.baseUrl, '/api/v1/Diagnostics/Ping', { Prefer: 'delay=10001' });

    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ Code: 'VALIDATION_ERROR', Message: "header 'Prefer' delay must be from 0 to 10000 ms" });
  });

  test.each([
    ['/Diagnostics/Ping', '/api/v1/Diagnostics/Ping'],
    ['/Client/Simple', '/api/v1/Client/Simple'],
  ])('GET %s → answered after at least the delay when Prefer: delay=300', async (_name, url) => {
    const { response, ms } = await timed(server.baseUrl, url, { 'X-Api-Key': API_KEY, Prefer: 'delay=300' });

    expect(response.status).toBe(200);
    expect(ms).toBeGreaterThanOrEqual(295);
  });

  test('GET /Diagnostics/Ping → answered at once when Prefer: delay=0', async () => {
    const { response, ms } = await timed(server.baseUrl, '/api/v1/Diagnostics/Ping', { Prefer: 'delay=0' });

    expect(response.status).toBe(200);
    expect(ms).toBeLessThan(1000);
  });

  test.each(['code=500, delay=300', 'delay=300;code=500'])(
    'GET /Client/Extended → 500 INTERNAL_ERROR after the delay when Prefer: %s',
    async (prefer) => {
      const { response, text, ms } = await timed(server.baseUrl, '/api/v1/Client/Extended', { 'X-Api-Key': API_KEY, Prefer: prefer });

      expect(response.status).toBe(500);
      expect((JSON.parse(text) as ErrorDto).Code).toBe('INTERNAL_ERROR');
      expect(ms).toBeGreaterThanOrEqual(295);
    },
  );

  test('GET /Client/Simple → Prefer: code=500 is answered even when the same URL is in the response cache', async () => {
    await get(server.baseUrl, '/api/v1/Client/Simple?pageSize=3');
    await get(server.baseUrl, '/api/v1/Client/Simple?pageSize=3');

    const response = await get(server.baseUrl, '/api/v1/Client/Simple?pageSize=3', { 'X-Api-Key': API_KEY, Prefer: 'code=500' });

    expect(response.status).toBe(500);
  });
});

describe('LATENCY_MS', () => {
  const LATENCY = 400;
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ latencyMs: { min: LATENCY, max: LATENCY } });
  });
  afterAll(() => server.stop());

  test.each(CLIENT_OPERATIONS)('GET $name → delayed by the fixed LATENCY_MS, first answer and cached repeat alike', async ({ url }) => {
    const hitsBefore = server.app.cache!.hits;

    const first = await timed(server.baseUrl, url);
    const repeat = await timed(server.baseUrl, url);

    expect([first.response.status, repeat.response.status]).toEqual([200, 200]);
    expect(server.app.cache!.hits).toBe(hitsBefore + 1);
    expect(first.ms).toBeGreaterThanOrEqual(LATENCY - 5);
    expect(repeat.ms).toBeGreaterThanOrEqual(LATENCY - 5);
  });

  test('GET /Client/Detail/{idClient} → 404 CLIENT_NOT_FOUND is delayed too', async () => {
    const { response, ms } = await timed(server.baseUrl, `/api/v1/Client/Detail/${UNKNOWN_ID}`);

    expect(response.status).toBe(404);
    expect(ms).toBeGreaterThanOrEqual(LATENCY - 5);
  });

  test.each([
    ['/Diagnostics/Ping', '/api/v1/Diagnostics/Ping', 200],
    ['/Diagnostics/Exception', '/api/v1/Diagnostics/Exception', 500],
  ])('GET %s → not delayed: the diagnostics stay exact', async (_name, url, status) => {
    const first = await timed(server.baseUrl, url, {});
    const repeat = await timed(server.baseUrl, url, {});

    expect([first.response.status, repeat.response.status]).toEqual([status, status]);
    expect(Math.max(first.ms, repeat.ms)).toBeLessThan(LATENCY / 2);
  });

  test('GET /Client/Simple?pageSize=0 → a 400 from the validator is not delayed, neither first nor cached', async () => {
    const first = await timed(server.baseUrl, '/api/v1/Client/Simple?pageSize=0');
    const repeat = await timed(server.baseUrl, '/api/v1/Client/Simple?pageSize=0');

    expect([first.response.status, repeat.response.status]).toEqual([400, 400]);
    expect(Math.max(first.ms, repeat.ms)).toBeLessThan(LATENCY / 2);
  });

  test('GET /Client/Simple → Prefer: delay adds to LATENCY_MS', async () => {
    const { response, ms } = await timed(server.baseUrl, '/api/v1/Client/Simple', { 'X-Api-Key': API_KEY, Prefer: 'delay=200' });

    expect(response.status).toBe(200);
    expect(ms).toBeGreaterThanOrEqual(LATENCY + 200 - 5);
  });

  test('GET /Client/Extended → a range LATENCY_MS (100-300) delays each request by at least 100 ms', async () => {
    const ranged = await startTestServer({ latencyMs: { min: 100, max: 300 } });
    try {
      const times: number[] = [];
      for (let page = 1; page <= 5; page++) times.push((await timed(ranged.baseUrl, `/api/v1/Client/Extended?page=${page}`)).ms);

      for (const ms of times) expect(ms).toBeGreaterThanOrEqual(95);
    } finally {
      await ranged.stop();
    }
  });

  test('FaultInjector → a range LATENCY_MS draws whole milliseconds across the whole range, the same for the same seed', () => {
    const draw = (seed: number) => {
      const faults = new FaultInjector({ seed, latencyMs: { min: 100, max: 400 }, errorRate: 0 });
      return fakeContexts(500).map((context) => faults.decide(context).delayMs);
    };

    const delays = draw(3);

    expect(delays.every((ms) => Number.isInteger(ms) && ms >= 100 && ms <= 400)).toBe(true);
    expect(Math.min(...delays)).toBeLessThan(120);
    expect(Math.max(...delays)).toBeGreaterThan(380);
    expect(draw(3)).toEqual(delays);
  });
});

describe('ERROR_RATE', () => {
  const REQUESTS = 50;

  /** Statuses of REQUESTS sequential Client requests on a fresh server: a mix of URLs, cache hits and misses. */
  async function statusPattern(overrides: Parameters<typeof startTestServer>[0]): Promise<number[]> {
    const server = await startTestServer(overrides);
    const clients = testStore(overrides?.seed ?? 1).clients();
    try {
      const statuses: number[] = [];
      for (let i = 0; i < REQUESTS; i++) {
        const operation = CLIENT_OPERATIONS[i % CLIENT_OPERATIONS.length]!;
        const url = operation.url.includes('/Detail/')
          ? `/api/v1/Client/Detail/${clients[i % 4]!.IdClient}`
          : `${operation.url}?page=${(i % 4) + 1}`;
        const response = await get(server.baseUrl, url);
        const body = (await response.json()) as ErrorDto;
        if (response.status === 500) {
          expect(isErrorDto(body)).toBe(true);
          expect(body).toEqual({ Code: 'INTERNAL_ERROR', Message: 'An unexpected error occurred (simulated: ERROR_RATE)' });
        }
        statuses.push(response.status);
      }
      return statuses;
    } finally {
      await server.stop();
    }
  }

  test('GET /Client/* → two fresh servers with the same seed fail the same requests of the same sequence', async () => {
    const first = await statusPattern({ seed: 7, errorRate: 0.5 });
    const second = await statusPattern({ seed: 7, errorRate: 0.5 });

    expect(second).toEqual(first);
    expect(new Set(first)).toEqual(new Set([200, 500]));
  });

  test('GET /Client/* → another seed gives another failure pattern', async () => {
    const seven = await statusPattern({ seed: 7, errorRate: 0.5 });
    const eight = await statusPattern({ seed: 8, errorRate: 0.5 });

    expect(eight).not.toEqual(seven);
  });

  test('GET /Client/* → the failure pattern does not depend on LATENCY_MS', async () => {
    const plain = await statusPattern({ seed: 7, errorRate: 0.3 });
    const slowed = await statusPattern({ seed: 7, errorRate: 0.3, latencyMs: { min: 0, max: 5 } });

    expect(slowed).toEqual(plain);
  });

  test('GET /Client/* → ERROR_RATE=0 fails no request', async () => {
    const statuses = await statusPattern({ errorRate: 0 });

    expect(statuses.filter((status) => status !== 200)).toEqual([]);
  });

  test('GET /Client/* → ERROR_RATE=1 fails every request, cached URLs included', async () => {
    const statuses = await statusPattern({ errorRate: 1 });

    expect(statuses.filter((status) => status !== 500)).toEqual([]);
  });

  test('FaultInjector → a higher rate fails a superset of the requests a lower rate fails, for the same seed', () => {
    const failures = (errorRate: number) => {
      const faults = new FaultInjector({ seed: 11, latencyMs: { min: 0, max: 0 }, errorRate });
      return fakeContexts(200).map((context) => faults.decide(context).fail);
    };

    const low = failures(0.2);
    const high = failures(0.6);

    expect(low.filter(Boolean).length).toBeGreaterThan(0);
    expect(low.every((failed, i) => !failed || high[i])).toBe(true);
  });

  describe('with ERROR_RATE=1', () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer({ errorRate: 1 });
    });
    afterAll(() => server.stop());

    test('GET /Diagnostics/Ping → 200 "Pong": the diagnostics stay exact', async () => {
      const response = await get(server.baseUrl, '/api/v1/Diagnostics/Ping', {});

      expect(response.status).toBe(200);
      expect(await response.text()).toBe('"Pong"');
    });

    test('GET /Diagnostics/Exception → 500 TEST_EXCEPTION, not a simulated INTERNAL_ERROR', async () => {
      const response = await get(server.baseUrl, '/api/v1/Diagnostics/Exception', {});

      expect(response.status).toBe(500);
      expect(((await response.json()) as ErrorDto).Code).toBe('TEST_EXCEPTION');
    });

    test('GET /Client/Simple → 401 UNAUTHORIZED without a key: the key check comes first', async () => {
      const response = await get(server.baseUrl, '/api/v1/Client/Simple', {});

      expect(response.status).toBe(401);
    });

    test('GET /Client/Simple → 200 when Prefer: code=200 asks for the real answer', async () => {
      const response = await get(server.baseUrl, '/api/v1/Client/Simple', { 'X-Api-Key': API_KEY, Prefer: 'code=200' });

      expect(response.status).toBe(200);
    });

    test('GET /Client/Detail/{idClient} → 404 CLIENT_NOT_FOUND when Prefer: code=404 asks for it', async () => {
      const response = await get(server.baseUrl, `/api/v1/Client/Detail/${UNKNOWN_ID}`, { 'X-Api-Key': API_KEY, Prefer: 'code=404' });

      expect(response.status).toBe(404);
    });
  });
});

describe('Prefer: example=NAME (named examples of openapi.yaml)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.stop());

  const LISTS = [
    { name: '/Client/Simple', url: '/api/v1/Client/Simple' },
    { name: '/Client/Extended', url: '/api/v1/Client/Extended' },
  ];
  const withExample = (example: string) => ({ 'X-Api-Key': API_KEY, Prefer: `example=${example}` });

  // Validated: responses are checked against openapi.yaml (VALIDATE_RESPONSES is on by default), so an example
  // that broke its schema would leave as 500 INTERNAL_ERROR, and so would wrong paging headers.
  test.each(LISTS)('GET $name → 200 Results [] and X-Total-Count 0, validated, when Prefer: example=empty', async ({ url }) => {
    const response = await get(server.baseUrl, url, withExample('empty'));

    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ Page: 1, PageSize: 25, Results: [] });
    expect(response.headers.get('x-total-count')).toBe('0');
    expect(response.headers.get('link')).toBe(`<${url}?page=1&pageSize=25>; rel="first", <${url}?page=1&pageSize=25>; rel="last"`);
  });

  test('GET /Client/Simple → a named example added to the served spec (SPEC_FILE) is answered, with no code change', async () => {
    const spec = YAML.parse(fs.readFileSync(SPEC_PATH, 'utf8')) as OpenApiDocument;
    const ok = (
      spec.paths['/api/v1/Client/Simple']!.get as {
        responses: Record<string, { content: Record<string, { examples: Record<string, unknown> }> }>;
      }
    ).responses['200']!.content['application/json']!.examples;
    ok.added = { summary: 'one more state', value: { Page: 1, PageSize: 25, Results: [] } };
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'spec-')), 'openapi.yaml');
    fs.writeFileSync(file, YAML.stringify(spec));
    const served = await startTestServer({ specFile: file });

    const response = await get(served.baseUrl, '/api/v1/Client/Simple', withExample('added'));
    await served.stop();

    expect(response.status).toBe(200);
    expect(response.headers.get('x-total-count')).toBe('0');
  });

  test('GET /Client/Simple → an absolute Link when PUBLIC_URL is set and Prefer: example=single, as on every list answer', async () => {
    const withPublicUrl = await startTestServer({ publicUrl: 'http://localhost:4000' });

    const response = await get(withPublicUrl.baseUrl, '/api/v1/Client/Simple', withExample('single'));
    await withPublicUrl.stop();

    expect(response.headers.get('link')).toMatch(/^<http:\/\/localhost:4000\/api\/v1\/Client\/Simple\?page=1&pageSize=25>; rel="first"/);
  });

  test.each(LISTS)('GET $name → one result and X-Total-Count 1 when Prefer: example=single', async ({ url }) => {
    const response = await get(server.baseUrl, url, withExample('single'));

    expect(((await response.json()) as { Results: unknown[] }).Results).toHaveLength(1);
    expect(response.headers.get('x-total-count')).toBe('1');
  });

  test.each(LISTS)('GET $name → FullName at its maximum of 120 characters when Prefer: example=longest', async ({ url }) => {
    const response = await get(server.baseUrl, url, withExample('longest'));
    const body = (await response.json()) as { Results: { FullName: string }[] };

    expect(response.status).toBe(200);
    expect(body.Results[0]!.FullName).toHaveLength(120);
  });

  test('GET /Client/Detail/{idClient} → Staff, Location and Insurance null when Prefer: example=nullSections', async () => {
    const response = await get(server.baseUrl, `/api/v1/Client/Detail/${KNOWN_ID}`, withExample('nullSections'));
    const body = (await response.json()) as Record<string, unknown>;

    expect(response.status).toBe(200);
    expect([body.Staff, body.Location, body.Insurance]).toEqual([null, null, null]);
    expect(isClientDetail(body)).toBe(true);
  });

  test('GET /Client/Simple → 400 naming the known examples when Prefer: example=nosuch', async () => {
    const response = await get(server.baseUrl, '/api/v1/Client/Simple', withExample('nosuch'));
    const body = (await response.json()) as ErrorDto;

    expect(response.status).toBe(400);
    expect(isErrorDto(body)).toBe(true);
    expect(body.Message).toMatch(/^header 'Prefer' example 'nosuch' is not a named example of \/api\/v1\/Client\/Simple; known: /);
    expect(body.Message).toContain('typical, empty, single, longest (200)');
  });

  test('GET /Client/Simple → 400 when Prefer: code=500, example=empty asks for an example that status does not have', async () => {
    const response = await get(server.baseUrl, '/api/v1/Client/Simple', { 'X-Api-Key': API_KEY, Prefer: 'code=500, example=empty' });

    expect(response.status).toBe(400);
    expect(((await response.json()) as ErrorDto).Message).toContain('known: internalError (500)');
  });

  test('GET /Client/Simple → 405 with Allow: GET when Prefer: code=405, example=postNotAllowed', async () => {
    const response = await get(server.baseUrl, '/api/v1/Client/Simple', {
      'X-Api-Key': API_KEY,
      Prefer: 'code=405, example=postNotAllowed',
    });

    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET');
    expect(await response.json()).toEqual(methodNotAllowed('POST').toDto());
  });

  test('GET /Client/Extended → the example after the delay when Prefer: example=empty, delay=300', async () => {
    const { response, text, ms } = await timed(server.baseUrl, '/api/v1/Client/Extended', {
      'X-Api-Key': API_KEY,
      Prefer: 'example=empty, delay=300',
    });

    expect(response.status).toBe(200);
    expect(JSON.parse(text)).toEqual({ Page: 1, PageSize: 25, Results: [] });
    expect(ms).toBeGreaterThanOrEqual(295);
  });

  test('GET /Client/Simple → 401 from the real key check comes before Prefer: example=empty', async () => {
    const response = await get(server.baseUrl, '/api/v1/Client/Simple', { Prefer: 'example=empty' });

    expect(response.status).toBe(401);
  });

  // Every named example of every operation, answered through response validation: an example that broke
  // its schema would leave as a 500 INTERNAL_ERROR, not as itself.
  const NAMED = OPERATIONS.flatMap(({ name, url, operationId }) =>
    [...responseExamples(spec, `/api/v1${name}`)].flatMap(([status, { examples }]) =>
      [...examples].map(([example, value]) => ({ name, url, operationId, status, example, value })),
    ),
  );

  test('openapi.yaml has the named examples a frontend needs for its edge states', () => {
    const names = (operationId: string) => NAMED.filter((n) => n.operationId === operationId && n.status === 200).map((n) => n.example);

    expect(names('getClientsSimple')).toEqual(['typical', 'empty', 'single', 'longest']);
    expect(names('getClientsExtended')).toEqual(['typical', 'empty', 'single', 'longest']);
    expect(names('getClientDetail')).toEqual(['typical', 'nullSections', 'longest']);
  });

  test.each(NAMED)(
    'GET $name → $status, the example $example itself, when Prefer: code=$status, example=$example',
    async ({ url, status, example, value }) => {
      const response = await get(server.baseUrl, url, { 'X-Api-Key': API_KEY, Prefer: `code=${status}, example=${example}` });

      expect(response.status).toBe(status);
      expect(await response.json()).toEqual(value);
    },
  );
});
