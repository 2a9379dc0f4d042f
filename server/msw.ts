// MSW handlers that answer from this very mock, in-process (issue 15; docs/frontend.md).
// Each intercepted fetch is injected into the real app's request handler with
// light-my-request: no port, no socket, yet routing, auth, validation, paging,
// filters, headers and Prefer run exactly as over HTTP, because it is the same app.
// What remains different is socket-level behaviour only (server timeouts,
// keep-alive and connection handling, raw-socket answers to malformed HTTP).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { inject } from 'light-my-request';
import { http, type HttpHandler } from 'msw';
import { configFromOptions, type Config, type ConfigOptions } from './process/config';
import { createLogger } from './process/logger';
import { mockFromConfig, type Mock } from './mock';

export interface HandlerOptions extends ConfigOptions {
  /** Where the code under test sends its requests, e.g. `http://127.0.0.1:4000` (a path prefix is stripped). */
  baseUrl: string;
  /**
   * A `Prefer` header for every request that sends none (openapi.yaml, parameter Prefer), e.g.
   * `example=empty` or `code=500`: a test forces a state with `server.use(...createHandlers({ baseUrl, prefer }))`.
   */
  prefer?: string;
}

/** Headers the Fetch API manages itself; copying them onto a Response would describe the wrong body framing. */
const FRAMING_HEADERS = new Set(['transfer-encoding', 'connection', 'keep-alive']);

function toFetchHeaders(headers: Record<string, string | string[] | number | undefined>): Headers {
  const result = new Headers();
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || FRAMING_HEADERS.has(name)) continue;
    for (const item of Array.isArray(value) ? value : [value]) result.append(name, String(item));
  }
  return result;
}

/**
 * Express gives every request and response its own prototype (app.request,
 * app.response); light-my-request captures the answer in methods of its own
 * Request and Response prototypes (write, end, writeHead, destroy, ...). Copying
 * those onto the objects first keeps them in force after Express's swap.
 */
function pinOwnMethods(target: object): void {
  const prototype = Object.getPrototypeOf(target) as Record<string, unknown>;
  for (const name of Object.getOwnPropertyNames(prototype)) {
    const method = prototype[name];
    if (name !== 'constructor' && typeof method === 'function') Object.defineProperty(target, name, { value: method, writable: true });
  }
}

function dispatchTo(app: Mock['app']) {
  return (req: IncomingMessage, res: ServerResponse) => {
    pinOwnMethods(req);
    pinOwnMethods(res);
    app(req, res);
  };
}

// Mocks by their settings: the handlers a test adds for one state (`prefer`) reuse the app the suite's
// handlers built with the same options, instead of building the data, indexes and validator again.
const mocks = new Map<string, Promise<Mock<Config>>>();

function mockFor(config: Readonly<Config>): Promise<Mock<Config>> {
  const key = JSON.stringify(config);
  let mock = mocks.get(key);
  if (!mock) {
    mock = mockFromConfig(config, createLogger(config.logLevel, undefined, config.logFormat));
    mocks.set(key, mock);
    // A bad data file is not remembered: the next call tries again.
    mock.catch(() => mocks.delete(key));
  }
  return mock;
}

/**
 * Handlers for msw's `setupServer` (vitest, jest). Options are the mock's own
 * (seed, clients, dataFile, apiKeys, auth, latencyMs, errorRate, ...), checked at
 * once: a bad option throws a ConfigError here, not at the first request. The
 * data is built once per set of options, in the background, and shared by every
 * handler call and every createHandlers call with the same options (pass the
 * suite's options along with `prefer`). Behind a base URL with a path prefix,
 * Link headers are absolute and keep the prefix, unless `publicUrl` says otherwise.
 */
export function createHandlers(options: Readonly<HandlerOptions>): HttpHandler[] {
  const { baseUrl, prefer, ...mockOptions } = options;
  const base = new URL(baseUrl);
  const prefix = base.pathname.replace(/\/+$/, '');
  const linksKeepPrefix = prefix !== '' && mockOptions.publicUrl === undefined ? { publicUrl: base.origin + prefix } : {};
  const config = configFromOptions({ logLevel: 'silent', ...linksKeepPrefix, ...mockOptions });
  const ready: Promise<Mock<Config>> = mockFor(config);
  // A bad data file rejects here; it is reported at the first request, not as an unhandled rejection.
  ready.catch(() => undefined);

  const handler = http.all(`${base.origin}${prefix}/*`, async ({ request }) => {
    const mock = await ready;
    const url = new URL(request.url);
    const body = request.method === 'GET' || request.method === 'HEAD' ? undefined : Buffer.from(await request.arrayBuffer());
    const answer = await inject(dispatchTo(mock.app), {
      method: request.method as 'GET',
      // The raw path and query, as the client encoded them: the app's own parsing must see what a socket would carry.
      url: url.pathname.slice(prefix.length) + url.search,
      headers: { ...(prefer === undefined ? {} : { prefer }), ...Object.fromEntries(request.headers) },
      ...(body ? { payload: body } : {}),
      remoteAddress: '127.0.0.1',
    });
    const noBody = answer.statusCode === 204 || answer.statusCode === 304 || request.method === 'HEAD';
    const payload = answer.rawPayload;
    // A view of the same bytes, typed as the Fetch API's body under both Node's and the DOM's type libraries.
    const bytes = new Uint8Array(payload.buffer as ArrayBuffer, payload.byteOffset, payload.byteLength);
    return new Response(noBody ? null : bytes, {
      status: answer.statusCode,
      headers: toFetchHeaders(answer.headers),
    });
  });
  return [handler];
}
