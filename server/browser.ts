// The package's browser entry (`client-records-mock/browser`, issue 39): MSW handlers for setupWorker
// (Vite dev, Storybook, a static preview) that answer from this very mock inside the page, with no server.
// The browser's adapter of the one pipeline: a fetch Request becomes a request value, the neutral road
// (pipeline/neutral-road.ts) runs the API path's steps on it with the validation step derived from the
// served spec (pipeline/validation.ts), and the answer value becomes a fetch Response. The options go
// through the settings table (process/settings.ts), the data is generated from the same seeds, and
// scenarios and sessions are chosen by the control room's own table (control/scenarios.ts, sessions.ts):
// the same options give the same answers as the Node handlers and the server. It imports nothing of
// Express, the validator or Node (.dependency-cruiser.cjs keeps it so); scripts/build-browser.ts bundles
// it into one ES module with the served spec, leaving msw to the page's own copy.
import type { Logger } from 'pino';
import { generatedSource } from '../seeds/client';
import type { SpecSource } from '../contract/spec-document';
import { readOperations } from '../contract/operations';
import { ClientStore } from './engine/store';
import { RequestChoices } from './control/choices';
import { ScenarioTable, type ScenarioChoice } from './control/scenarios';
import { SESSION_NAME, Sessions } from './control/sessions';
import { apiPath } from './pipeline/api-path';
import type { KeyMatcher } from './pipeline/auth';
import { AnswerRecorder, type ApiAnswer, type ApiRequest } from './pipeline/exchange';
import { neutralRoad } from './pipeline/neutral-road';
import { beginRequest, type ControlPort } from './pipeline/request';
import { specValidation } from './pipeline/validation';
import { checkedScenario, ConfigError, optionsToConfig, settingsTable, type Config, type ConfigOptions } from './process/settings';

export { ConfigError };

/** The options of createHandlers: the mock's own settings (seed, clients, apiKeys, latencyMs, …), and where it answers. */
export interface BrowserHandlerOptions extends ConfigOptions {
  /** Where the code under test sends its requests, e.g. `http://localhost:5173` (a path prefix is kept); default: the page's origin. */
  baseUrl?: string;
  /** A `Prefer` header for every request that sends none (openapi.yaml, parameter Prefer), e.g. `example=empty`. */
  prefer?: string;
  /** A scenario every request is answered in (docs/control.md), e.g. `empty`, `slow;min=200;max=800`: sent as `X-Mock-Scenario`; a request's own header wins. */
  scenario?: string;
}

/** The handlers, with the setter of the scenario their later answers are given in (every request's, or one session's own). */
export type BrowserHandlers<Handler> = Handler[] & {
  setScenario(scenario: string | undefined, options?: { session?: string }): void;
};

/** What the handlers need of msw: `http.all`, the same in MSW 2 and 3. */
export interface MswHttp<Handler> {
  all(path: RegExp, resolver: (info: { request: Request }) => Promise<Response | undefined>): Handler;
}

/** Settings that need a file system or a socket: a browser has neither. */
const NODE_ONLY = ['dataFile', 'specFile', 'coverageOut', 'workers', 'port', 'host', 'maxConnections'] as const;

/** The key test of the browser road: the keys are in the page anyway, so the text is compared (without stopping early). */
const textMatcher: KeyMatcher = (keys) => (given) => {
  let accepted = false;
  for (const key of keys) accepted = key === given || accepted;
  return accepted;
};

/** The pipeline's only use of a logger here: an unexpected error (a bug) is reported on the console. */
function consoleLogger(): Logger {
  const quiet = () => undefined;
  const logger = {
    isLevelEnabled: () => false,
    error: (details: unknown, message: string) => console.error(`client-records-mock: ${message}`, details),
    warn: quiet,
    info: quiet,
    debug: quiet,
    trace: quiet,
    fatal: quiet,
    child: () => logger,
  };
  return logger as unknown as Logger;
}

/**
 * The control room's choice of a request's scenario (server/control/control.ts, begin), in the page:
 * `X-Mock-Session` (or the `mock-session` cookie) names a session, `X-Mock-Scenario` (or the
 * `mock-scenario` cookie) carries a scenario, else the session's own, else the whole mock's. There is no
 * journal and no /__control/ API in the page: setScenario sets what those would.
 */
class PageControl implements ControlPort {
  readonly steering = true;
  readonly requestHeaders = ['X-Mock-Session', 'X-Mock-Scenario'];
  readonly prefix = '/__control/';
  readonly methods = ['GET', 'PUT', 'DELETE'];
  readonly routes = (_req: never, _res: never, next: (error?: unknown) => void) => next();
  private readonly sessions: Sessions;
  private readonly choices: RequestChoices;

  constructor(private readonly table: ScenarioTable) {
    this.sessions = new Sessions(table.normal, { host: 'browser', pid: 0 });
    this.choices = new RequestChoices(table);
  }

  /** A session's own scenario (as PUT /__control/sessions/{session}/scenario sets it on a server). */
  setSession(session: string, scenario: string | undefined): void {
    if (!SESSION_NAME.test(session)) throw new ConfigError('invalid option session: must be 1 to 128 characters of A-Z a-z 0-9 _ . : @ -');
    if (scenario === undefined) this.sessions.reset(session);
    else this.sessions.setSession(session, this.table.parse(scenario, 'option scenario'), Date.now());
  }

  begin: ControlPort['begin'] = (req, _res, context) => {
    const headers = req.headers;
    const { session, carried, problem } = this.choices.read(headers);
    if (problem !== undefined) context.scenarioProblem = problem;
    let choice: ScenarioChoice | undefined = carried;
    choice ??= (session === undefined ? undefined : this.sessions.ownChoice(session)) ?? this.sessions.serverChoice;
    context.scenario = choice.kind === 'normal' ? undefined : choice;
  };
}

/** Headers of a fetch Request as Node's parser gives them: lower-case names (fetch joins repeats with `, `, as Node does). */
function requestValue(request: Request, url: string, extra: Record<string, string>): ApiRequest {
  const headers: Record<string, string> = { ...extra };
  const rawHeaders: string[] = [];
  request.headers.forEach((value, name) => {
    headers[name] = value;
  });
  for (const [name, value] of Object.entries(headers)) rawHeaders.push(name, value);
  return { method: request.method, url, headers, rawHeaders };
}

function toResponse(answer: ApiAnswer | undefined): Response {
  if (!answer) return Response.error();
  const headers = new Headers();
  for (const [name, value] of answer.headers) headers.append(name, value);
  const noBody = answer.status === 204 || answer.status === 304 || answer.body.length === 0;
  return new Response(noBody ? null : (answer.body as Uint8Array<ArrayBuffer>), { status: answer.status, headers });
}

/** The mock for a set of options: the data, the API path and its neutral road with the spec's validation. */
interface PageMock {
  answer(request: ApiRequest): Promise<ApiAnswer | undefined>;
  control: PageControl | undefined;
}

function pageMock(config: Readonly<Config>, spec: SpecSource): PageMock {
  // The records are generated as the first request that needs each asks for it (the Node handlers' lazy store).
  const store = new ClientStore(generatedSource(config.seed, config.clients), { lazy: true });
  const control = config.control ? new PageControl(new ScenarioTable(spec.document, config.seed)) : undefined;
  const path = apiPath(config, store, consoleLogger(), spec, control, textMatcher);
  const road = neutralRoad(path, specValidation(spec.document));
  return {
    control,
    answer: (request) =>
      new Promise((resolve) => {
        const res = new AnswerRecorder(request.method, resolve);
        const context = beginRequest(request, res, undefined);
        control?.begin(request, res, context);
        road(request, res, context);
      }),
  };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The first segment of every path template (`/api/`): the paths the handlers answer; anything else goes to the network. */
function apiPrefixes(spec: SpecSource): string[] {
  return [...new Set(readOperations(spec.document).map((operation) => operation.template.split('/').slice(0, 2).join('/') + '/'))];
}

/**
 * Handlers for msw's `setupWorker`, made with the given msw's `http` (the entry's createHandlers passes the
 * page's own). Options are checked at once: a bad one throws a ConfigError naming it.
 */
export function createHandlersWith<Handler>(
  http: MswHttp<Handler>,
  spec: SpecSource,
  options: Readonly<BrowserHandlerOptions> = {},
): BrowserHandlers<Handler> {
  const { baseUrl, prefer, scenario, ...mockOptions } = options;
  for (const name of NODE_ONLY) {
    if ((mockOptions as Record<string, unknown>)[name] !== undefined)
      throw new ConfigError(`option ${name} is not available in the browser handlers (no file system, no sockets)`);
  }
  const origin = baseUrl ?? (globalThis as { location?: { origin: string } }).location?.origin;
  if (origin === undefined) throw new ConfigError('option baseUrl is required outside a page');
  const base = new URL(origin);
  const prefix = base.pathname.replace(/\/+$/, '');
  const linksKeepPrefix = prefix !== '' && mockOptions.publicUrl === undefined ? { publicUrl: base.origin + prefix } : {};
  let current = checkedScenario(scenario);
  const config = optionsToConfig(
    settingsTable(() => 1),
    { logLevel: 'silent', ...linksKeepPrefix, ...mockOptions },
  );
  const mock = pageMock(config, spec);
  const resolver = async ({ request }: { request: Request }): Promise<Response> => {
    const url = new URL(request.url);
    const extra = { ...(prefer === undefined ? {} : { prefer }), ...(current === undefined ? {} : { 'x-mock-scenario': current }) };
    return toResponse(await mock.answer(requestValue(request, url.pathname.slice(prefix.length) + url.search, extra)));
  };
  // A pattern, not a path: msw decodes a path's parameters, and throws on a percent-encoding that does not decode,
  // before the resolver could answer the documented 400.
  const handlers = apiPrefixes(spec).map((apiPrefix) =>
    http.all(new RegExp(`^${escapeRegExp(`${base.origin}${prefix}${apiPrefix}`)}`), resolver),
  );
  return Object.assign(handlers, {
    setScenario: (next: string | undefined, where: { session?: string } = {}) => {
      if (where.session === undefined) {
        current = checkedScenario(next);
        return;
      }
      if (!mock.control) throw new ConfigError('sessions need the control option on');
      mock.control.setSession(where.session, next);
    },
  });
}
