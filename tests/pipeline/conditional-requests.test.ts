// Conditional requests (openapi.yaml, "Conditional requests"; docs/decisions.md; issue 35 item 4): the API sends
// no validators, so If-None-Match, If-Match, If-Modified-Since, If-Unmodified-Since and If-Range change nothing.
// The same conditional request, sent before and after the plain one, gets the plain one's answer (status, body,
// every header but X-Request-Id and Date) on each road of this package: the server over HTTP (the Express app
// and its response cache; the proxy's fallback is this app, createMock) and the Node MSW handlers (the lean path,
// and the Express app behind light-my-request). The browser handlers answer the same requests in the same order
// in tests/browser/corpus.test.ts, each held to the server's answer.
import { getResponse, http } from 'msw';
import { startServer, type RunningMock } from '../../server/index';
import { createHandlersWith } from '../../server/msw-core';

const PATHS = [
  '/api/v1/Diagnostics/Ping',
  '/api/v1/Client/Simple',
  '/api/v1/Client/Extended?filter=an&pageSize=5',
  '/api/v1/Client/Detail/00000000-0000-4000-8000-000000000000',
];
const CONDITIONS: Record<string, string>[] = [
  { 'If-None-Match': '*' },
  { 'If-None-Match': '"abc", W/"def"' },
  { 'If-Match': '"abc"' },
  { 'If-Match': '*' },
  { 'If-Modified-Since': 'Sun, 29 Nov 2026 00:00:00 GMT' },
  { 'If-Unmodified-Since': 'Sat, 01 Jan 2000 00:00:00 GMT' },
  { Range: 'bytes=0-1', 'If-Range': '"abc"' },
];
const KEY = { 'X-Api-Key': 'dev-key' };
const PER_REQUEST = new Set(['x-request-id', 'date', 'connection', 'keep-alive']);

interface Answer {
  status: number;
  headers: [string, string][];
  body: string;
}

async function answerOf(response: Response): Promise<Answer> {
  const headers = [...response.headers].filter(([name]) => !PER_REQUEST.has(name));
  return { status: response.status, headers, body: await response.text() };
}

/** For each path and method: the conditional request cold, the plain one, the conditional one again; all three the same. */
async function sequences(send: (method: string, path: string, headers: Record<string, string>) => Promise<Answer>): Promise<string[]> {
  const differing: string[] = [];
  for (const method of ['GET', 'HEAD']) {
    for (const path of PATHS) {
      for (const condition of CONDITIONS) {
        const before = await send(method, path, { ...KEY, ...condition });
        const plain = await send(method, path, KEY);
        const after = await send(method, path, { ...KEY, ...condition });
        if (JSON.stringify(before) !== JSON.stringify(plain) || JSON.stringify(after) !== JSON.stringify(plain)) {
          differing.push(`${method} ${path} ${JSON.stringify(condition)}: ${before.status}/${plain.status}/${after.status}`);
        }
      }
    }
  }
  return differing;
}

describe("conditional requests → the plain request's answer, whatever came before", () => {
  let server: RunningMock;

  beforeAll(async () => {
    server = await startServer({ port: 0 });
  });

  afterAll(async () => {
    await server?.close();
  });

  test('the server over HTTP (the Express app and its response cache) → the plain answer before and after the plain request', async () => {
    const differing = await sequences(async (method, path, headers) =>
      answerOf(await fetch(server.url + path, { method, headers, signal: AbortSignal.timeout(10_000) })),
    );

    expect(differing).toEqual([]);
  }, 60_000);

  test('the Node MSW handlers (lean path and Express app) → the plain answer before and after the plain request', async () => {
    const base = 'http://127.0.0.1:4999';
    const handlers = createHandlersWith(http, { baseUrl: base });

    const differing = await sequences(async (method, path, headers) => {
      const response = await getResponse(handlers, new Request(base + path, { method, headers }));
      if (!response) throw new Error(`no handler answered ${method} ${path}`);
      return answerOf(response);
    });

    expect(differing).toEqual([]);
  }, 60_000);

  test('the server and the Node MSW handlers → the same conditional answers as each other', async () => {
    const base = 'http://127.0.0.1:4998';
    const handlers = createHandlersWith(http, { baseUrl: base });
    const differing: string[] = [];

    for (const path of PATHS) {
      for (const condition of CONDITIONS) {
        const headers = { ...KEY, ...condition };
        const overHttp = await answerOf(await fetch(server.url + path, { headers }));
        const inProcess = await answerOf((await getResponse(handlers, new Request(base + path, { headers })))!);
        if (JSON.stringify(overHttp) !== JSON.stringify(inProcess)) differing.push(`${path} ${JSON.stringify(condition)}`);
      }
    }

    expect(differing).toEqual([]);
  }, 60_000);
});
