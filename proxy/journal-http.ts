// The journal over HTTP, under the reserved prefix /__proxy/, as
// proxy.openapi.yaml documents it: the paths, methods and query parameters are
// read from that document (an undocumented parameter, a repeated one or a value
// its schema rejects is 400 naming it), the answers and errors are written with
// the mock's one ErrorDto writer (server/errors.ts).
import fs from 'node:fs';
import path from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import YAML from 'yaml';
import { pointerSegment, SPEC_PATH, type OpenApiDocument } from '../contract/spec';
import { SpecContract } from '../contract/spec-contract';
import { BARE_HEADERS, errorAnswer, quoted } from '../server/errors';
import type { components } from '../generated/proxy';
import type { Journal, JournalQuery } from './journal';
import type { ProxyReport } from './report';

type ProxyErrorCode = components['schemas']['ErrorDto']['Code'];

/** The reserved prefix: no path of openapi.yaml may begin with it (checked at start). */
export const RESERVED_PREFIX = '/__proxy/';

/** proxy.openapi.yaml, beside openapi.yaml in the package and the repository. */
export const PROXY_SPEC_PATH = path.join(path.dirname(SPEC_PATH), 'proxy.openapi.yaml');

let proxyContract: SpecContract | undefined;

/** The proxy's own document, compiled once per process. */
export function proxySpec(): SpecContract {
  proxyContract ??= new SpecContract(YAML.parse(fs.readFileSync(PROXY_SPEC_PATH, 'utf8')) as OpenApiDocument);
  return proxyContract;
}

/** The paths of `spec` that begin with the reserved prefix: there must be none. */
export function collidingPaths(spec: OpenApiDocument): string[] {
  return Object.keys(spec.paths).filter((template) => template.startsWith(RESERVED_PREFIX) || template === RESERVED_PREFIX.slice(0, -1));
}

export interface JournalSurface {
  journal: Journal;
  report(): ProxyReport;
  key: string | undefined;
}

/**
 * The headers of the mock's own error answers (server/errors.ts: no-store and the security headers
 * openapi.yaml states), so a journal answer opened in a browser is as guarded as an API answer; without
 * Connection, which Node manages on a kept-alive connection. Made once: every answer sends the same.
 */
const without = (headers: Readonly<Record<string, string>>, name: string) =>
  Object.fromEntries(Object.entries(headers).filter(([key]) => key !== name));
const GUARDED_HEADERS = without(BARE_HEADERS, 'Connection');
/** A 204 has no content to type. */
const GUARDED_204_HEADERS = without(GUARDED_HEADERS, 'Content-Type');

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { ...GUARDED_HEADERS, 'Content-Length': String(Buffer.byteLength(text)) });
  res.end(text);
}

function fail(res: ServerResponse, status: number, code: ProxyErrorCode, message: string, extra: Record<string, string> = {}): void {
  const answer = errorAnswer(status, code, message, extra);
  // The writer's headers are for raw sockets too; on a kept-alive connection Node manages Connection itself.
  delete answer.headers.Connection;
  res.writeHead(answer.status, answer.headers).end(answer.body);
}

interface DocumentedParameter {
  name: string;
  in: string;
  schema?: Record<string, unknown>;
}

/** The documented query of one operation as typed values, or the first problem as a 400 message. */
function readQuery(template: string, method: string, url: URL): Record<string, unknown> | string {
  const contract = proxySpec();
  const pointer = `#/paths/${pointerSegment(template)}/${method}`;
  const parameters = ((contract.resolve(pointer).node.parameters ?? []) as DocumentedParameter[]).filter((p) => p.in === 'query');
  const values: Record<string, unknown> = {};
  for (const name of new Set(url.searchParams.keys())) {
    const index = parameters.findIndex((p) => p.name === name);
    if (index < 0) return `unknown query parameter ${quoted(name)}`;
    const all = url.searchParams.getAll(name);
    if (all.length > 1) return `query parameter ${quoted(name)} is given ${all.length} times`;
    const raw = all[0]!;
    const typed = parameters[index]!.schema?.type === 'integer' && /^\d+$/.test(raw) ? Number(raw) : raw;
    const validate = contract.validator(`${pointer}/parameters/${index}/schema`);
    if (!validate(typed)) return `query parameter ${quoted(name)} ${validate.errors?.[0]?.message ?? 'is not valid'}`;
    values[name] = typed;
  }
  for (const parameter of parameters) {
    if (values[parameter.name] === undefined && parameter.schema?.default !== undefined) values[parameter.name] = parameter.schema.default;
  }
  return values;
}

/** Answers a request under the reserved prefix. */
export function serveJournal(req: IncomingMessage, res: ServerResponse, surface: JournalSurface): void {
  try {
    const url = new URL(req.url ?? '/', 'http://proxy.invalid');
    const item = (proxySpec().spec.paths as Record<string, Record<string, { operationId?: string }>>)[url.pathname];
    if (!item) return fail(res, 404, 'NOT_FOUND', `No route ${req.method ?? ''} ${url.pathname.slice(0, 200)}`);
    const methods = ['get', 'delete'].filter((method) => item[method]);
    const operation = item[(req.method ?? '').toLowerCase()];
    if (!operation?.operationId) {
      const allow = methods.map((m) => m.toUpperCase()).join(', ');
      return fail(res, 405, 'METHOD_NOT_ALLOWED', `${(req.method ?? '').slice(0, 20)} is not allowed on ${url.pathname}; use ${allow}`, {
        Allow: allow,
      });
    }
    if (surface.key !== undefined && req.headers['x-proxy-key'] !== surface.key) {
      const missing = req.headers['x-proxy-key'] === undefined;
      return fail(
        res,
        401,
        'UNAUTHORIZED',
        missing ? 'The X-Proxy-Key header is required' : 'The X-Proxy-Key header does not hold the journal key',
      );
    }
    const query = readQuery(url.pathname, (req.method ?? '').toLowerCase(), url);
    if (typeof query === 'string') return fail(res, 400, 'VALIDATION_ERROR', query);
    switch (operation.operationId) {
      case 'listViolations':
        return send(res, 200, surface.journal.query(query as unknown as JournalQuery));
      case 'clearViolations':
        surface.journal.clear();
        res.writeHead(204, GUARDED_204_HEADERS).end();
        return;
      case 'getReport':
        return send(res, 200, surface.report());
      default:
        return fail(res, 404, 'NOT_FOUND', `No route ${req.method ?? ''} ${url.pathname.slice(0, 200)}`);
    }
  } catch {
    // Never a stack trace: a fault of the proxy itself is its 500.
    if (!res.headersSent) fail(res, 500, 'INTERNAL_ERROR', 'An unexpected error occurred');
    else res.destroy();
  }
}
