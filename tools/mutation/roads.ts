// Why this file exists: the differential decider (decide.ts) asks one question of a surviving mutant, "does the
// mutated server answer this fixed corpus byte for byte as the original does?", and this module is where the
// server is met. It is the entry of the bundle that instrument.ts builds from Stryker's own instrumentation of
// the mutated files, so one build holds the original (no mutant active) and every mutant (switched by
// __stryker__.activeMutant, or by the environment for static ones). It opens one *instance*: a road (the server's
// Express app as `serve` runs it, or the in-process MSW handlers, server/msw-core.ts, which answer plain requests
// by the lean path), over one data set, cold or after the background work, and answers corpus requests in-process
// (light-my-request, no socket), save the framing faults, which only the listener answers (raw-answers.ts).
// worker.ts loads this bundle afresh for every instance, so no module state carries from one instance to the next.
import { METHODS, type IncomingMessage, type ServerResponse } from 'node:http';
import { inject } from 'light-my-request';
import fc from 'fast-check';
import { createHandlersWith, pinOwnMethods } from '../../server/msw-core';
import { appOn, createApp } from '../../server/pipeline/app';
import { apiPath } from '../../server/pipeline/api-path';
import { leanFirst } from '../../server/pipeline/lean-path';
import { digestMatcher } from '../../server/pipeline/key-digest';
import { startHttpServer } from '../../server/listener/http-server';
import { ClientStore } from '../../server/engine/store';
import { createLogger } from '../../server/process/logger';
import { configFromOptions } from '../../server/process/config';
import { startServer } from '../../server/index';
import { specOf } from '../../server/mock';
import { generatedSource, generateClients } from '../../seeds/client';
import { runSuite } from '../../contract-suite/cli/main';
import { requestHeaders, requestPath } from '../../contract-suite/kit/http';
import { sendRaw } from '../../contract-suite/kit/raw-http';
import { requestArbitrary } from '../../contract-suite/property/generators';
import type { ApiRequest } from '../../contract/exchange';
import type { ClientDetail } from '../../contract/wire-types';
import { DEFAULT_API_KEY } from '../../contract-suite/kit/target';
import { withCases, type ASKED_FIRST } from './killer-data';

/** The origin the suite's CORS checks send, as the killer (tests/mutation/contract-killer.test.ts) sends it. */
const ORIGIN = 'https://example.org';

/** One corpus request, made concrete: what goes on the wire, whatever target answers it. */
export interface CorpusRequest {
  method: string;
  /** Path and query exactly as sent. */
  path: string;
  headers: Record<string, string>;
  /** A framing fault (derived/framing.ts): written on a socket, with these Host lines when given. */
  framing?: { hostLines?: readonly string[] };
  /** A request fetch would not send as it is (a path the URL parser normalises, CONNECT, TRACE): not an MSW request. */
  raw: boolean;
}

export interface Corpus {
  /** The contract suite's own requests, in the order it sends them. */
  suite: CorpusRequest[];
  /** Requests made by the property generator (contract-suite/property/generators.ts), seeded. */
  generated: CorpusRequest[];
  seed: number;
}

/** An answer, as compared: every header but the two that differ on every answer. */
export interface Answer {
  status: number;
  /** `name: value` lines, names lower-cased, in the order sent; X-Request-Id and Date left out. */
  headers: string;
  body: Buffer;
}

const UNCOMPARED = new Set(['x-request-id', 'date']);
/** The methods Node's HTTP parser reads, as written (RFC 9110 §9.1: a method is case-sensitive). */
const KNOWN_METHODS: ReadonlySet<string> = new Set(METHODS);

function headerLines(headers: Iterable<[string, string | string[] | number | undefined]>): string {
  const lines: string[] = [];
  for (const [name, value] of headers) {
    const lower = name.toLowerCase();
    if (UNCOMPARED.has(lower) || value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) lines.push(`${lower}: ${String(item)}`);
  }
  return lines.join('\n');
}

function concrete(request: ApiRequest): CorpusRequest {
  const target = { baseUrl: 'http://127.0.0.1', apiKey: DEFAULT_API_KEY };
  const headers = requestHeaders(target, request);
  const forbidden = ['CONNECT', 'TRACE', 'TRACK'].includes(request.method.toUpperCase());
  // A method Node's parser does not read (the suite's BREW and get) goes on a socket on the server road, as a client
  // meets it; the MSW road leaves it out (fetch would send `get` as GET, so the two roads would not ask the same).
  const unread = !KNOWN_METHODS.has(request.method);
  return {
    method: request.method,
    path: requestPath(target, request),
    headers,
    ...(request.framing ? { framing: { hostLines: request.framing.hostLines } } : {}),
    raw: Boolean(request.raw || request.framing || forbidden || unread || normalised(requestPath(target, request))),
  };
}

/** True when the WHATWG URL parser would send another path than this one (what msw's fetch would do to it). */
function normalised(path: string): boolean {
  const written = `http://127.0.0.1${path}`;
  try {
    const parsed = new URL(written);
    return parsed.origin + parsed.pathname + parsed.search !== written;
  } catch {
    return true;
  }
}

/**
 * The corpus: every request the contract suite sends (as the killer runs it: every check, --strict-http, the
 * killer's origin, a 20-request property run) against the original server over 120 clients, and `generatedCount`
 * requests from the property generator, seeded, drawn from the same server's data. Made with no mutant active.
 */
export async function captureCorpus(generatedCount: number, seed: number): Promise<Corpus> {
  const server = await startServer({ clients: 120, seed: 1, logLevel: 'silent', port: 0, host: '127.0.0.1' });
  try {
    const recorded: ApiRequest[] = [];
    const run = await runSuite(
      { baseUrl: server.url, apiKey: DEFAULT_API_KEY, onExchange: (exchange) => recorded.push(exchange.request) },
      { runs: 20, seed, origin: ORIGIN, strictHttp: true },
    );
    const sample = await run.context.sample();
    const generated = fc.sample(requestArbitrary(run.context.contract, sample), { seed, numRuns: generatedCount }).map((g) => g.request);
    return { suite: recorded.map(concrete), generated: generated.map(concrete), seed };
  } finally {
    await server.close();
  }
}

/**
 * `server`: the Express app as `serve` runs it, over an eager store; `msw`: the in-process handlers over the
 * generator's lazy source; `lean`: the API path behind its lean driver over a lazy store of records (as the
 * in-process handlers hold a data file), the mutation killer's lean servers.
 */
export type Road = 'server' | 'msw' | 'lean';
export type State = 'cold' | 'settled';

export interface InstanceSpec {
  road: Road;
  clients: number;
  /** msw and lean: the handlers' own warm-up only (they have no background work to wait for). */
  state: State;
  /**
   * The data: the generator's (seed 1), or as the mutation killer holds them (killer-data.ts): the order cases
   * first, and the script cases after them with `cases+scripts`. `generated` on the lean road: the generator's
   * own lazy source instead of records.
   */
  data?: 'cases' | 'cases+scripts' | 'generated';
  /** Requests sent before the corpus's (killer-data.ts, ASKED_FIRST): a lazy store then fills in another way. */
  askedFirst?: keyof typeof ASKED_FIRST;
}

/** The instance's records as the mutation killer's server of that kind holds them. */
function recordsOf(spec: InstanceSpec): readonly ClientDetail[] {
  const clients = generateClients(1, spec.clients);
  return spec.data === 'cases' || spec.data === 'cases+scripts' ? withCases(clients, spec.data === 'cases+scripts') : clients;
}

/** The API path's answer through light-my-request: Express swaps the objects' prototypes, so its methods are pinned first. */
function injecting(handle: (req: IncomingMessage, res: ServerResponse) => void) {
  return async (request: CorpusRequest): Promise<Answer> => {
    const answer = await inject(handle, {
      method: request.method as 'GET',
      url: request.path,
      headers: request.headers,
      remoteAddress: '127.0.0.1',
    });
    return { status: answer.statusCode, headers: headerLines(Object.entries(answer.headers)), body: answer.rawPayload };
  };
}

function pinBoth(req: IncomingMessage, res: ServerResponse): void {
  pinOwnMethods(req);
  pinOwnMethods(res);
}

export interface Instance {
  answer(request: CorpusRequest): Promise<Answer>;
  close(): Promise<void>;
}

async function serverInstance(spec: InstanceSpec): Promise<Instance> {
  const config = configFromOptions({ logLevel: 'silent', seed: 1, clients: spec.clients });
  const logger = createLogger('silent');
  const app = createApp(config, new ClientStore(recordsOf(spec)), logger, specOf(config));
  if (spec.state === 'settled') await app.prebuild();
  const injected = injecting((req, res) => {
    pinBoth(req, res);
    app(req, res);
  });
  let listener: Awaited<ReturnType<typeof startHttpServer>> | undefined;
  return {
    async answer(request) {
      // Only the listener answers a broken framing or a method Node's parser does not know (raw-answers.ts: `BREW`,
      // `get`), and light-my-request refuses such a method: a socket, the one place the decider uses one.
      if (request.framing || !KNOWN_METHODS.has(request.method)) {
        listener ??= await startHttpServer(app, 0, '127.0.0.1', logger, {});
        const raw = await sendRaw(`http://127.0.0.1:${listener.port}`, {
          method: request.method,
          target: request.path,
          headers: Object.entries(request.headers),
          ...(request.framing ? { hostLines: request.framing.hostLines } : {}),
        });
        return { status: raw.status, headers: headerLines(raw.headers), body: raw.body };
      }
      return injected(request);
    },
    async close() {
      await listener?.stop();
    },
  };
}

/** The killer's lean server without its socket: a lazy store, the lean driver first, the Express app for the rest. */
async function leanInstance(spec: InstanceSpec): Promise<Instance> {
  const config = configFromOptions({ logLevel: 'silent', seed: 1, clients: spec.clients });
  const logger = createLogger('silent');
  const store = new ClientStore(spec.data === 'generated' ? generatedSource(1, spec.clients) : recordsOf(spec), { lazy: true });
  const path = apiPath(config, store, logger, specOf(config), undefined, digestMatcher);
  const full = appOn(path);
  const answer = injecting(leanFirst(path, () => Promise.resolve(full), pinBoth));
  return { answer, close: () => Promise.resolve() };
}

async function mswInstance(spec: InstanceSpec): Promise<Instance> {
  // msw's `http.all` only routes the intercepted fetch to the resolver; the resolver is this package's code.
  type Resolver = (info: { request: Request }) => Promise<Response>;
  const handlers = createHandlersWith<Resolver>(
    { all: (_path, resolver) => resolver },
    { baseUrl: 'http://mock.test', seed: 1, clients: spec.clients },
  );
  const resolve = handlers[0]!;
  return {
    async answer(request) {
      const response = await resolve({
        request: new Request(`http://mock.test${request.path}`, { method: request.method, headers: request.headers }),
      });
      return {
        status: response.status,
        headers: headerLines(response.headers.entries()),
        body: Buffer.from(await response.arrayBuffer()),
      };
    },
    close: () => Promise.resolve(),
  };
}

/** Opens one instance. A request an instance cannot carry (a raw one on the MSW road) is not asked of it. */
export function openInstance(spec: InstanceSpec): Promise<Instance> {
  return spec.road === 'server' ? serverInstance(spec) : spec.road === 'lean' ? leanInstance(spec) : mswInstance(spec);
}

/** Whether a road carries a request: the in-process roads see only what fetch sends. */
export function carries(road: Road, request: CorpusRequest): boolean {
  return road === 'server' || !request.raw;
}
