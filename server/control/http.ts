// The control API over HTTP (control.openapi.yaml), as one Express layer of
// the app, mounted after the security headers and CORS and before the API:
// its answers get the same X-Request-Id, CORS, no-store and helmet headers as
// the API's, and its errors are ApiErrors that leave through the app's one
// error handler as ErrorDtos. Paths, methods, query parameters, path
// parameters and bodies are checked against the control document (an
// undocumented parameter, a repeated one or a value its schema rejects is a
// 400 naming it, in one line); the scenario table checks what the document
// cannot (a scenario name, a parameter that scenario does not take).
import type { Request, RequestHandler, Response } from 'express';
import { coverageToHtml, coverageToJunit } from '../../contract/coverage-report';
import { ApiError, noRoute, quoted } from '../errors';
import type { ControlPort } from '../pipeline/request';
import type { Control } from './control';
import { CONTROL_PREFIX, controlDocument, describeValueError, type ControlOperation } from './document';
import type { JournalQuery } from './journal';
import { ScenarioError, type ScenarioRequest } from './scenarios';
import { StoreUnavailable } from './state';

/** A body larger than this is no scenario request. */
const MAX_BODY_BYTES = 16 * 1024;

const invalid = (message: string) => new ApiError('VALIDATION_ERROR', message);

interface Call {
  req: Request;
  res: Response;
  query: Record<string, unknown>;
  params: Record<string, string>;
  body: unknown;
}

/** The documented query of one operation as typed values, defaults filled in; a 400 names the first bad one. */
function readQuery(operation: ControlOperation, url: URL): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const name of new Set(url.searchParams.keys())) {
    const parameter = operation.query.find((candidate) => candidate.name === name);
    if (!parameter) throw invalid(`unknown query parameter ${quoted(name)}`);
    const all = url.searchParams.getAll(name);
    if (all.length > 1) throw invalid(`query parameter ${quoted(name)} is given ${all.length} times`);
    const raw = all[0]!;
    if (raw === '') throw invalid(`query parameter ${quoted(name)} must not be empty`);
    const typed = parameter.integer && /^-?\d{1,16}$/.test(raw) ? Number(raw) : raw;
    if (parameter.integer && typeof typed !== 'number') throw invalid(`query parameter ${quoted(name)} must be a whole number`);
    if (!parameter.validate(typed))
      throw invalid(`query parameter ${quoted(name)} ${describeValueError(parameter.validate.errors?.[0]).rule}`);
    values[name] = typed;
  }
  for (const parameter of operation.query) {
    if (values[parameter.name] === undefined && parameter.fallback !== undefined) values[parameter.name] = parameter.fallback;
  }
  return values;
}

function readParams(operation: ControlOperation, raw: Record<string, string>): Record<string, string> {
  const params: Record<string, string> = {};
  for (const parameter of operation.path) {
    let value: string;
    try {
      value = decodeURIComponent(raw[parameter.name] ?? '');
    } catch {
      throw invalid(`path parameter ${quoted(parameter.name)} is not valid percent-encoding`);
    }
    if (!parameter.validate(value))
      throw invalid(`path parameter ${quoted(parameter.name)} ${describeValueError(parameter.validate.errors?.[0]).rule}`);
    params[parameter.name] = value;
  }
  return params;
}

/** The JSON body, at most MAX_BODY_BYTES, checked against the operation's body schema. */
async function readBody(req: Request, operation: ControlOperation): Promise<unknown> {
  if (!operation.body) return undefined;
  const type = req.headers['content-type'] ?? '';
  if (!/^application\/json\s*(;|$)/i.test(type)) throw invalid(`header 'Content-Type' must be application/json, with a JSON body`);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw invalid(`the body must be at most ${MAX_BODY_BYTES} bytes`);
    chunks.push(chunk);
  }
  let body: unknown;
  try {
    body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw invalid('the body is not valid JSON');
  }
  if (!operation.body(body)) {
    const { field, rule } = describeValueError(operation.body.errors?.[0]);
    throw invalid(field ? `body field ${quoted(field)} ${rule}` : `the body ${rule}`);
  }
  return body;
}

/** A scenario table's refusal (an unknown name, a parameter that scenario does not take) is the caller's 400. */
async function scenarioCall<T>(make: () => Promise<T>): Promise<T> {
  try {
    return await make();
  } catch (error) {
    if (error instanceof ScenarioError) throw invalid(error.message);
    throw error;
  }
}

type Handler = (call: Call, control: Control) => Promise<void> | void;

// One handler per operationId of control.openapi.yaml.
const HANDLERS: Readonly<Record<string, Handler>> = {
  listScenarios: async ({ res }, control) => {
    res.json({ scenarios: control.scenarios, server: await control.serverState() });
  },
  getServerScenario: async ({ res }, control) => {
    res.json(await control.serverState());
  },
  setServerScenario: async ({ res, body }, control) => {
    res.json(await scenarioCall(() => control.setServer(body as ScenarioRequest)));
  },
  resetServerScenario: async ({ res }, control) => {
    res.json(await control.setServer(null));
  },
  listSessions: async ({ res, query }, control) => {
    res.json(await control.listSessions(query.limit as number));
  },
  resetSessions: async ({ res }, control) => {
    await control.resetSessions();
    res.status(204).end();
  },
  getSession: async ({ res, params }, control) => {
    res.json(await control.sessionState(params.session!));
  },
  resetSession: async ({ res, params }, control) => {
    await control.resetSession(params.session!);
    res.status(204).end();
  },
  setSessionScenario: async ({ res, params, body }, control) => {
    res.json(await scenarioCall(() => control.setSession(params.session!, body as ScenarioRequest)));
  },
  readJournal: async ({ res, query }, control) => {
    res.json(await control.readJournal(query as unknown as JournalQuery));
  },
  clearJournal: async ({ res, query }, control) => {
    await control.clearJournal(query.session as string | undefined);
    res.status(204).end();
  },
  readCoverage: async ({ res, query }, control) => {
    const report = await control.coverage();
    if (query.format === 'junit') res.type('application/xml').send(coverageToJunit(report));
    else if (query.format === 'html') {
      // The page styles itself with one inline <style>, which the API's policy (default-src 'none') blocks.
      res.setHeader('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'");
      res.type('text/html').send(coverageToHtml(report));
    } else res.json(report);
  },
  resetCoverage: async ({ res }, control) => {
    await control.resetCoverage();
    res.status(204).end();
  },
  getControlDocument: ({ res }) => {
    res.type('application/yaml').send(controlDocument().text);
  },
  getControlDocumentJson: ({ res }) => {
    res.json(controlDocument().document);
  },
};

/** The control API as an Express layer: answers every path under /__control/, passes every other request on. */
export function controlRoutes(control: Control): RequestHandler {
  const document = controlDocument();
  for (const operation of document.operations) {
    if (!HANDLERS[operation.operationId]) throw new Error(`control.openapi.yaml: no handler for ${operation.operationId}`);
  }
  return (req, res, next) => {
    if (!req.path.startsWith(CONTROL_PREFIX)) return next();
    void (async () => {
      const url = new URL(req.originalUrl, 'http://control.invalid');
      const matched = document.match(url.pathname);
      if (!matched) throw noRoute(req.method, url.pathname);
      const operation = document.operations.find((candidate) => candidate.template === matched.template && candidate.method === req.method);
      if (!operation) {
        const allow = document.methodsOf(matched.template).join(', ');
        throw new ApiError('METHOD_NOT_ALLOWED', `${req.method.slice(0, 20)} is not allowed on ${matched.template}; use ${allow}`, {
          Allow: allow,
        });
      }
      const params = readParams(operation, matched.params);
      const query = readQuery(operation, url);
      const body = await readBody(req, operation);
      await HANDLERS[operation.operationId]!({ req, res, query, params, body }, control);
    })().catch((error: unknown) => next(error instanceof StoreUnavailable ? new ApiError('STORE_UNAVAILABLE', error.message) : error));
  };
}

/** The control room as the pipeline is given it (pipeline/request.ts, ControlPort). */
export function controlPort(control: Control): ControlPort {
  const steering = control.steering;
  let routes: RequestHandler | undefined;
  return {
    begin: (req, res, context) => control.begin(req, res, context),
    steering,
    // Made when an app asks for them (the Express app, at its build): the in-process lean path never does,
    // and reading the control document (its YAML text hashed, its JSON parsed) is then saved (issue 26 item 6).
    // Off (--control off, coverage only): the control paths are unknown paths like any other (404).
    get routes() {
      routes ??= steering ? controlRoutes(control) : (_req, _res, next) => next();
      return routes as ControlPort['routes'];
    },
    requestHeaders: steering ? ['X-Mock-Session', 'X-Mock-Scenario'] : [],
    prefix: CONTROL_PREFIX,
    methods: ['GET', 'PUT', 'DELETE'],
  };
}
