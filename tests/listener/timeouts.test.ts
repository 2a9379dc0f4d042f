// Timeouts: a client that trickles its headers, one that says nothing and an
// idle keep-alive connection are all cut off on time. The server here has
// short timeouts so the test takes a second, not the production 10 s.
import net from 'node:net';
import { createApp } from '../../server/pipeline/app';
import { bundledSpec } from '../../contract/spec';
import { createLogger } from '../../server/process/logger';
import { startHttpServer, TIMEOUTS, type RunningServer, type Timeouts } from '../../server/listener/http-server';
import { LogCapture, startTestServer, testConfig, testStore } from '../support/servers';
import { parseResponses, rawRequest } from '../support/raw-http';

const SHORT: Timeouts = { headersMs: 600, requestMs: 1_200, keepAliveMs: 300, checkIntervalMs: 100, drainMs: 1_000 };
// Node checks the header timer every checkIntervalMs; the rest is scheduling slack on a busy CI machine.
// Generous: a loaded 2-core CI machine may be late by a second; the point is "cut off", not "cut off exactly".
const SLACK_MS = 2_000;

let running: RunningServer;
beforeAll(async () => {
  const config = testConfig();
  const logger = createLogger(config.logLevel, new LogCapture());
  running = await startHttpServer(createApp(config, testStore(), logger, bundledSpec()), 0, '127.0.0.1', logger, SHORT);
});
afterAll(() => running.stop());

interface Outcome {
  closedAfterMs: number;
  received: Buffer;
  bytesSent: number;
}

/** Opens a connection, sends `first`, then one byte of `trickle` every `everyMs` until the server closes. */
function slowClient(first: string, trickle: string, everyMs: number): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const startedAt = performance.now();
    const chunks: Buffer[] = [];
    let bytesSent = 0;
    const socket = net.connect(running.port, '127.0.0.1', () => {
      if (first) {
        socket.write(first);
        bytesSent += first.length;
      }
    });
    let at = 0;
    const timer = setInterval(() => {
      if (at >= trickle.length || !socket.writable) return;
      socket.write(trickle[at++]!);
      bytesSent++;
    }, everyMs);
    const giveUp = setTimeout(() => {
      socket.destroy();
      reject(new Error('the server never cut the connection off'));
    }, 10_000);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearInterval(timer);
      clearTimeout(giveUp);
      resolve({ closedAfterMs: performance.now() - startedAt, received: Buffer.concat(chunks), bytesSent });
    });
  });
}

describe('header timeout (slowloris)', () => {
  test('a client trickling its headers one byte at a time → 408 ErrorDto and closed within headersTimeout', async () => {
    const endless = 'X-Slow: ' + 'a'.repeat(10_000);

    const outcome = await slowClient('GET /api/v1/Diagnostics/Ping HTTP/1.1\r\nHost: 127.0.0.1\r\n', endless, 20);

    const [response] = parseResponses(outcome.received);
    expect(response?.status).toBe(408);
    expect(JSON.parse(response!.body)).toEqual({ Code: 'VALIDATION_ERROR', Message: 'The request took too long to arrive' });
    expect(outcome.closedAfterMs).toBeLessThan(SHORT.headersMs + SHORT.checkIntervalMs + SLACK_MS);
    // Not cut before its time: the server holds the limit it was given. Not timed from here: Node's own connection
    // check cuts such a client early while other connections open and close beside it (60 and 69 ms in two whole
    // jest runs; a script with no project code: 2-3 of 60-90 tries at 61-115 ms, on Node 22 and 24, 0 of 57 without
    // the other connections). That is Node's to fix, or ours with a header deadline of our own, not this test's.
    expect(running.server.headersTimeout).toBe(SHORT.headersMs);
    expect(running.server.requestTimeout).toBe(SHORT.requestMs);
  });

  test('a client that connects and sends nothing → closed within headersTimeout', async () => {
    const outcome = await slowClient('', '', 1_000);

    expect(outcome.closedAfterMs).toBeLessThan(SHORT.headersMs + SHORT.checkIntervalMs + SLACK_MS);
  });
});

describe('keep-alive timeout', () => {
  test('an idle keep-alive connection → closed by the server after keepAliveTimeout', async () => {
    const request = rawRequest('GET', '/api/v1/Diagnostics/Ping', ['Connection: keep-alive']).toString('latin1');

    const outcome = await slowClient(request, '', 1_000);

    const [response] = parseResponses(outcome.received);
    expect(response?.status).toBe(200);
    expect(response?.headers['connection']).toBe('keep-alive');
    // Node closes 1 s after the advertised timeout, so a client never sends on a connection being closed.
    expect(outcome.closedAfterMs).toBeLessThan(SHORT.keepAliveMs + 1_000 + SLACK_MS);
  });
});

describe('production timeouts', () => {
  test('startHttpServer without overrides → headers 10 s, request 30 s, keep-alive 5 s, checked every second', async () => {
    const server = await startTestServer();

    const { headersTimeout, requestTimeout, keepAliveTimeout } = server.running.server;
    await server.stop();

    expect({ headersTimeout, requestTimeout, keepAliveTimeout }).toEqual({
      headersTimeout: 10_000,
      requestTimeout: 30_000,
      keepAliveTimeout: 5_000,
    });
    expect(TIMEOUTS.checkIntervalMs).toBeLessThanOrEqual(1_000);
    expect(TIMEOUTS.headersMs).toBeLessThan(TIMEOUTS.requestMs);
  });
});
