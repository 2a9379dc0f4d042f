// MSW handlers that answer from this very mock, in-process (issue 15; docs/frontend.md).
// This module imports nothing of msw: the package's two MSW entries hand it msw's own `http`
// (server/msw.ts for require(), server/msw.mjs for import), so a project on MSW 2 or 3, CommonJS
// or ES modules, gets handlers made by the very msw instance its setupServer uses (issue 26).
// Each intercepted fetch is injected into the real app with light-my-request:
// no port, no socket, yet routing, auth, validation, paging, filters, headers
// and Prefer run exactly as over HTTP, because it is the same pipeline. A plain
// request (a GET whose parameters are proven valid, no Prefer, no scenario) is
// answered by the lean path (pipeline/lean-path.ts: the same steps without
// Express and the validator), anything else by the Express app, built on the
// same views, key gate and control room when the first such request comes:
// a test file that sends only plain requests never loads Express (issue 26
// item 6). What remains different is socket-level behaviour only (server
// timeouts, keep-alive and connection handling, raw-socket answers to
// malformed HTTP).
import { METHODS, type IncomingMessage, type ServerResponse } from 'node:http';
import { inject } from 'light-my-request';
import { configFromOptions, type Config, type ConfigOptions } from './process/config';
import { checkedScenario } from './process/settings';
import { createLogger } from './process/logger';
import { apiPathFor, appOn, buildStore, controlFor, specOf, warmUp } from './mock';
import type { App } from './pipeline/app';
import { leanFirst } from './pipeline/lean-path';

/** The methods light-my-request injects: those Node's HTTP parser reads. */
const INJECTABLE: ReadonlySet<string> = new Set(METHODS);

export interface HandlerOptions extends ConfigOptions {
  /** Where the code under test sends its requests, e.g. `http://127.0.0.1:4000` (a path prefix is stripped). */
  baseUrl: string;
  /**
   * A `Prefer` header for every request that sends none (openapi.yaml, parameter Prefer), e.g.
   * `example=empty` or `code=500`: a test forces a state with `server.use(...createHandlers({ baseUrl, prefer }))`.
   */
  prefer?: string;
  /**
   * A scenario every request is answered in (docs/control.md), e.g. `empty`, `down`,
   * `slow;min=200;max=800`, `flaky;rate=0.3;seed=7`: sent as `X-Mock-Scenario` to the same app,
   * so the answers are byte for byte the server's in that scenario. `handlers.setScenario(name)`
   * switches it for the handlers already in use; a request's own header wins.
   */
  scenario?: string;
}

/** createHandlers' handlers, with the setter of their scenario. */
export type MockHandlers<Handler> = Handler[] & {
  /** Answers every later request in this scenario (undefined: normal). */
  setScenario(scenario: string | undefined): void;
};

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
export function pinOwnMethods(target: object): void {
  const prototype = Object.getPrototypeOf(target) as Record<string, unknown>;
  for (const name of Object.getOwnPropertyNames(prototype)) {
    const method = prototype[name];
    if (name !== 'constructor' && typeof method === 'function') Object.defineProperty(target, name, { value: method, writable: true });
  }
}

/** A mock for in-process handlers: the API path answering through its lean driver first (lean-path.ts, leanFirst). */
interface InProcessMock {
  handle(req: IncomingMessage, res: ServerResponse): void;
}

/** The data, the API path and its lean driver for ready settings (mock.ts's road); the Express app when first needed. */
function inProcessMock(config: Readonly<Config>): InProcessMock {
  const spec = specOf(config);
  // The search index waits for the first filter: a test file that never filters never pays for it (issue 26 item 6).
  const store = buildStore(config, spec, { lazy: true });
  const logger = createLogger(config.logLevel, undefined, config.logFormat);
  const path = apiPathFor(config, store, logger, spec, controlFor(config));
  let full: Promise<App> | undefined;
  const makeFull = () =>
    (full ??= (async () => {
      const app = appOn(path);
      await warmUp(app);
      return app;
    })());
  return {
    handle: leanFirst(path, makeFull, (req, res) => {
      pinOwnMethods(req);
      pinOwnMethods(res);
    }),
  };
}

// Mocks by their settings: the handlers a test adds for one state (`prefer`) reuse the mock the suite's
// handlers built with the same options, instead of building the data, indexes and validator again.
const mocks = new Map<string, Promise<InProcessMock>>();

function mockFor(config: Readonly<Config>): Promise<InProcessMock> {
  const key = JSON.stringify(config);
  let mock = mocks.get(key);
  if (!mock) {
    mock = new Promise((resolve) => resolve(inProcessMock(config)));
    mocks.set(key, mock);
    // A bad data file is not remembered: the next call tries again.
    mock.catch(() => mocks.delete(key));
  }
  return mock;
}

/** What the handlers need of msw: `http.all`, the same in MSW 2 and 3 (checked against both by scripts/consumer-check.ts). */
export interface MswHttp<Handler> {
  all(path: string, resolver: (info: { request: Request }) => Promise<Response>): Handler;
}

/**
 * Handlers for msw's `setupServer` (vitest, jest), made with the given msw's `http`. Options are the mock's own
 * (seed, clients, dataFile, apiKeys, auth, latencyMs, errorRate, ...), checked at
 * once: a bad option throws a ConfigError here, not at the first request. The
 * data is built once per set of options, in the background, and shared by every
 * handler call and every createHandlers call with the same options (pass the
 * suite's options along with `prefer`). Behind a base URL with a path prefix,
 * Link headers are absolute and keep the prefix, unless `publicUrl` says otherwise.
 */
export function createHandlersWith<Handler>(http: MswHttp<Handler>, options: Readonly<HandlerOptions>): MockHandlers<Handler> {
  const { baseUrl, prefer, scenario, ...mockOptions } = options;
  let current = checkedScenario(scenario);
  const base = new URL(baseUrl);
  const prefix = base.pathname.replace(/\/+$/, '');
  const linksKeepPrefix = prefix !== '' && mockOptions.publicUrl === undefined ? { publicUrl: base.origin + prefix } : {};
  const config = configFromOptions({ logLevel: 'silent', ...linksKeepPrefix, ...mockOptions });
  const ready = mockFor(config);
  // A bad data file rejects here; it is reported at the first request, not as an unhandled rejection.
  ready.catch(() => undefined);

  const handler = http.all(`${base.origin}${prefix}/*`, async ({ request }) => {
    const mock = await ready;
    const url = new URL(request.url);
    const body = request.method === 'GET' || request.method === 'HEAD' ? undefined : Buffer.from(await request.arrayBuffer());
    // light-my-request takes only the methods Node's parser reads; fetch sends any token (RFC 9110 §9.1: `BREW`). Such
    // a request rides as POST and the app meets its own method: the 405 (or 404) a method other than GET gets.
    const method = request.method;
    const known = INJECTABLE.has(method);
    const answer = await inject(known ? mock.handle : (req, res) => mock.handle(Object.assign(req, { method }), res), {
      method: (known ? method : 'POST') as 'GET',
      // The raw path and query, as the client encoded them: the app's own parsing must see what a socket would carry.
      url: url.pathname.slice(prefix.length) + url.search,
      headers: {
        ...(prefer === undefined ? {} : { prefer }),
        ...(current === undefined ? {} : { 'x-mock-scenario': current }),
        ...Object.fromEntries(request.headers),
      },
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
  return Object.assign([handler], {
    setScenario: (next: string | undefined) => {
      current = checkedScenario(next);
    },
  });
}
