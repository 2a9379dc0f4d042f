// Connections under pressure: the MAX_CONNECTIONS cap (idle ones closed first
// so a fresh client gets in), the summary log of what was refused, half-closed
// requests, and what a stop that had to cut requests reports.
import net from 'node:net';
import { createApp } from '../../server/pipeline/app';
import { bundledSpec } from '../../contract/spec';
import { createLogger } from '../../server/process/logger';
import { startHttpServer, type RunningServer } from '../../server/listener/http-server';
import { API_KEY, get, LogCapture, spawnServer, startTestServer, testConfig, testStore, type TestServer } from '../support/servers';
import { parseResponses, rawRequest } from '../support/raw-http';

const CAP = 5;
const SUMMARY = 'connections rejected or closed by the HTTP server';

/** Opens a connection that sends nothing; resolves once connected, with a promise of its close. */
function idleSocket(port: number): Promise<{ socket: net.Socket; closed: Promise<void> }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const closed = new Promise<void>((done) => socket.once('close', () => done()));
    socket.once('error', () => undefined);
    socket.once('connect', () => resolve({ socket, closed }));
    socket.once('error', reject);
  });
}

/** Sends the request, then half-closes (FIN) at once, and reads every byte until the server closes. */
function halfClosedRequest(port: number, bytes: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = net.connect({ port, host: '127.0.0.1', allowHalfOpen: true }, () => socket.end(bytes));
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error('no answer in 5 s'));
    }, 5_000);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(Buffer.concat(chunks));
    });
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('MAX_CONNECTIONS', () => {
  let server: TestServer;
  const sockets: net.Socket[] = [];
  beforeEach(async () => {
    server = await startTestServer({ maxConnections: CAP, logLevel: 'info' });
  });
  afterEach(async () => {
    for (const socket of sockets.splice(0)) socket.destroy();
    await server.stop();
  });

  test('the cap full of idle connections → a fresh client still gets its Ping; the longest-idle connection is closed', async () => {
    const idle = [];
    for (let i = 0; i < CAP; i++) idle.push(await idleSocket(server.running.port));
    sockets.push(...idle.map((entry) => entry.socket));

    const response = await get(server.baseUrl, '/api/v1/Diagnostics/Ping', {});

    expect(response.status).toBe(200);
    await idle[0]!.closed;
    expect(idle[0]!.socket.destroyed).toBe(true);
    expect(idle.slice(1).every((entry) => !entry.socket.destroyed)).toBe(true);
    expect(server.running.connections()).toBeLessThanOrEqual(CAP);
  });

  test('a flood of idle connections, 4 × the cap → never more than the cap open, and a fresh client gets in', async () => {
    for (let i = 0; i < CAP * 4; i++) sockets.push((await idleSocket(server.running.port)).socket);
    await sleep(50);

    const open = server.running.connections();
    const response = await get(server.baseUrl, '/api/v1/Diagnostics/Ping', {});

    expect(open).toBeLessThanOrEqual(CAP);
    expect(response.status).toBe(200);
  });

  test('every connection busy → a new one is refused (closed at once), and counted in one summary line', async () => {
    const slow = rawRequest('GET', '/api/v1/Client/Simple', [`X-Api-Key: ${API_KEY}`, 'Prefer: delay=1500']);
    const busy = Array.from({ length: CAP }, () => halfClosedRequest(server.running.port, slow));
    await sleep(300);

    const refused = await idleSocket(server.running.port);
    await refused.closed;
    const answers = await Promise.all(busy);
    await server.stop();

    expect(answers.map((bytes) => parseResponses(bytes)[0]?.status)).toEqual(Array(CAP).fill(200));
    const summaries = server.logs.records.filter((record) => record.msg === SUMMARY);
    expect(summaries).toHaveLength(1);
    expect(summaries[0]!.counts).toEqual({ 'refused: MAX_CONNECTIONS all busy': 1 });
  });

  test('idle connections closed at the cap → counted per interval, one line per interval, not one per connection', async () => {
    for (let i = 0; i < CAP + 7; i++) sockets.push((await idleSocket(server.running.port)).socket);
    await sleep(50);
    await server.stop();

    const summaries = server.logs.records.filter((record) => record.msg === SUMMARY);
    expect(summaries).toHaveLength(1);
    expect(summaries[0]!.counts).toEqual({ 'idle closed: MAX_CONNECTIONS reached': 7 });
  });
});

describe('a client that half-closes after sending its request', () => {
  let server: TestServer;
  let slowServer: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ logLevel: 'silent' });
    slowServer = await startTestServer({ latencyMs: { min: 300, max: 300 } });
  });
  afterAll(async () => {
    await server.stop();
    await slowServer.stop();
  });

  test.each([
    ['no delay', () => server, []],
    ['Prefer: delay=500', () => server, ['Prefer: delay=500']],
    ['LATENCY_MS=300', () => slowServer, []],
  ])('%s → answered 200 in full, then the connection closes', async (_name, which, extra) => {
    const bytes = rawRequest('GET', '/api/v1/Client/Simple?pageSize=2', [`X-Api-Key: ${API_KEY}`, ...extra]);

    const [response] = parseResponses(await halfClosedRequest(which().running.port, bytes));

    expect(response?.status).toBe(200);
    expect((JSON.parse(response!.body) as { Results: unknown[] }).Results).toHaveLength(2);
  });
});

describe('a stop that has to cut requests', () => {
  test('a request still unanswered after the drain time → stop() reports it cut', async () => {
    const config = testConfig();
    const logger = createLogger('silent', new LogCapture());
    const running: RunningServer = await startHttpServer(createApp(config, testStore(), logger, bundledSpec()), 0, '127.0.0.1', logger, {
      drainMs: 300,
    });
    const slow = halfClosedRequest(
      running.port,
      rawRequest('GET', '/api/v1/Client/Simple', [`X-Api-Key: ${API_KEY}`, 'Prefer: delay=3000']),
    );
    await sleep(200);

    const result = await running.stop();

    expect(result).toEqual({ cut: 1 });
    expect(parseResponses(await slow)).toEqual([]);
  });

  test('nothing in flight → stop() reports nothing cut', async () => {
    const server = await startTestServer();
    await get(server.baseUrl, '/api/v1/Diagnostics/Ping', {});

    expect(await server.running.stop()).toEqual({ cut: 0 });
  });

  test('the CLI, SIGTERM with a request outlasting the 8 s drain → exit code 3 (0 is kept for a clean stop)', async () => {
    const server = await spawnServer([], { LATENCY_MS: '20000' });
    const slow = get(server.baseUrl, '/api/v1/Client/Simple').then(
      (response) => response.status,
      () => 'cut',
    );
    await sleep(500);

    const code = await server.stop('SIGTERM');

    expect(code).toBe(3);
    expect(await slow).toBe('cut');
  }, 20_000);
});
