// npm run contract:specmatic — a peer's opinion: Specmatic, a contract-testing
// tool nobody here wrote, run against our built server (issue 23 item 8). Our
// own suite and the Prism replay share our reading of openapi.yaml; Specmatic
// reads the document with its own parser, generates its own requests (its
// "resiliency" mode: every parameter at its bounds, and mutated to a wrong type
// or length, expecting a 4xx) and judges every answer by its own rules.
//
// The run: start the server (port 0, 127.0.0.1) or take `--base-url`; write
// Specmatic's inputs to test-artifacts/specmatic/ (an alias-free copy of the
// spec: Specmatic's YAML reader does not resolve YAML aliases; its config; and
// external examples whose request values come from the deployment's own lists,
// e.g. an idClient it lists, so the 200 of Detail is reached, plus one example
// per documented error the tool cannot reach on its own: 401, 404, 405 and the
// designed 500; their bodies are the spec's own named examples, as Specmatic
// compares a response with the schema, never with an example's values); run
// `java -jar specmatic.jar test` bounded in time; read its JUnit report and its
// log (the log holds each request and response); print the counts; and fail on
// any failure that scripts/specmatic-explained.yaml does not explain. An
// explanation names the operation, the scenario title and the tool's message
// (patterns), the answer that was given (status, JSON), optionally a check made
// here (e.g. that the idClient Specmatic sent is one the deployment does not
// list), and the sentences of openapi.yaml that make that answer right: each
// quoted sentence is checked to be in the spec at the pointer given, so an
// explanation cannot outlive the sentence it rests on.
//
// Exit codes: 0 every failure explained (or no Java: skipped with its reason,
// unless --require-java); 1 an unexplained failure; 2 bad usage, a bad
// explanations file, no Java with --require-java, or a target that cannot be
// reached; 3 Specmatic itself did not complete (crash, no report, time limit).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import YAML from 'yaml';
import { API_KEY, MAIN_JS, ROOT, startNodeProcess, type StartedByLine } from '../tools/processes';

const USAGE = `usage: npm run contract:specmatic -- [--base-url URL] [--api-key KEY] [--spec FILE] [--out DIR] [--time-limit S] [--require-java]
  --base-url URL    check this deployment instead of starting our built server
  --api-key KEY     the X-Api-Key the deployment accepts (default ${API_KEY})
  --spec FILE       the OpenAPI document (default the package's openapi.yaml; also served by our server)
  --out DIR         where Specmatic's inputs, JUnit report and log go (default test-artifacts/specmatic)
  --time-limit S    stop Specmatic after S seconds (default 900)
  --require-java    no Java 17+ is an error (exit 2), not a skip (CI sets it)`;

const EXPLAINED_FILE = path.join(ROOT, 'scripts/specmatic-explained.yaml');
// Measured on 2 shared cores, 7,917 tests: the default JVM took 105 s of CPU and 1.5 GB RSS; the client
// compiler only, the serial collector and a 512 MB heap took 65 s and 0.67 GB, with the same results.
const JVM_FLAGS = ['-Xmx512m', '-XX:TieredStopAtLevel=1', '-XX:+UseSerialGC'];
const JUNIT_PREFIX = /^.*contractTest\(\) > /;

class UsageError extends Error {}
/** A path as the reader wants it: relative inside the repository, absolute elsewhere. */
const shown = (file: string) => (path.relative(ROOT, file).startsWith('..') ? file : path.relative(ROOT, file) || '.');
class ToolError extends Error {}

interface Options {
  baseUrl?: string;
  apiKey: string;
  spec: string;
  out: string;
  timeLimitS: number;
  requireJava: boolean;
}

function parseArgs(argv: readonly string[]): Options {
  const options: Options = {
    apiKey: API_KEY,
    spec: path.join(ROOT, 'openapi.yaml'),
    out: path.join(ROOT, 'test-artifacts/specmatic'),
    timeLimitS: 900,
    requireJava: false,
  };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i]!;
    if (flag === '--require-java') {
      options.requireJava = true;
      continue;
    }
    if (flag === '--help' || flag === '-h') throw new UsageError(USAGE);
    if (!['--base-url', '--api-key', '--spec', '--out', '--time-limit'].includes(flag))
      throw new UsageError(`unknown option ${flag}\n${USAGE}`);
    const value = argv[++i];
    if (value === undefined || value.startsWith('--')) throw new UsageError(`${flag} needs a value\n${USAGE}`);
    if (flag === '--base-url') {
      if (!/^https?:\/\/[^/]+/.test(value))
        throw new UsageError(`--base-url ${JSON.stringify(value)} is not a URL: expected http://host:port`);
      options.baseUrl = value.replace(/\/+$/, '');
    } else if (flag === '--api-key') options.apiKey = value;
    else if (flag === '--spec') options.spec = path.resolve(value);
    else if (flag === '--out') options.out = path.resolve(value);
    else if (flag === '--time-limit') {
      options.timeLimitS = Number(value);
      if (!Number.isInteger(options.timeLimitS) || options.timeLimitS < 10)
        throw new UsageError(`--time-limit ${value}: a whole number of seconds, at least 10`);
    }
  }
  return options;
}

// ---------------------------------------------------------------- the spec

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };
const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

interface Operation {
  id: string;
  method: string;
  path: string;
  item: JsonObject;
  responses: JsonObject;
  parameters: JsonObject[];
  secured: boolean;
}

function asObject(value: Json | undefined): JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? value : {};
}

/** RFC 6901: `/paths/~1api~1v1~1Diagnostics~1Ping/get/description`. */
function atPointer(document: Json, pointer: string): Json | undefined {
  if (pointer === '') return document;
  let node: Json | undefined = document;
  for (const raw of pointer.replace(/^\//, '').split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (node === null || typeof node !== 'object') return undefined;
    node = Array.isArray(node) ? node[Number(key)] : node[key];
  }
  return node;
}

/** Follows local `$ref`s (the document uses no others). */
function deref(document: Json, value: Json | undefined): Json | undefined {
  let node = value;
  for (let hops = 0; hops < 20; hops++) {
    const ref = asObject(node).$ref;
    if (typeof ref !== 'string' || !ref.startsWith('#')) return node;
    node = atPointer(document, ref.slice(1));
  }
  return node;
}

function operationsOf(document: JsonObject): Operation[] {
  const operations: Operation[] = [];
  const globalSecurity = document.security;
  for (const [specPath, itemValue] of Object.entries(asObject(document.paths))) {
    const item = asObject(itemValue);
    for (const method of HTTP_METHODS) {
      const operation = asObject(item[method]);
      if (!item[method]) continue;
      const security = operation.security ?? globalSecurity;
      operations.push({
        id: typeof operation.operationId === 'string' ? operation.operationId : `${method.toUpperCase()} ${specPath}`,
        method: method.toUpperCase(),
        path: specPath,
        item,
        responses: asObject(operation.responses),
        parameters: [
          ...(Array.isArray(item.parameters) ? item.parameters : []),
          ...(Array.isArray(operation.parameters) ? operation.parameters : []),
        ].map((parameter) => asObject(deref(document, parameter))),
        secured: Array.isArray(security) && security.some((requirement) => Object.keys(asObject(requirement)).length > 0),
      });
    }
  }
  return operations;
}

/** A response's JSON body from the spec's own examples: the named one if given, else the first. */
function specExampleBody(document: JsonObject, operation: Operation, status: string, name?: string): Json | undefined {
  const response = asObject(deref(document, operation.responses[status]));
  const media = asObject(asObject(response.content)['application/json']);
  const examples = asObject(media.examples);
  const chosen = (name !== undefined && examples[name]) || Object.values(examples)[0];
  if (chosen !== undefined) return asObject(deref(document, chosen)).value;
  return media.example;
}

/** A documented response of the operation with that exact status. */
const documents = (operation: Operation, status: number) => Object.prototype.hasOwnProperty.call(operation.responses, String(status));

// ---------------------------------------------------------------- explanations

interface Explanation {
  id: string;
  operation: string;
  scenario: RegExp;
  message: RegExp;
  response: { status: number; contentType?: RegExp; json?: Json };
  verify?: 'idClient-not-listed';
  limit: string;
  spec: { at: string; says: string }[];
}

const VERIFIERS = ['idClient-not-listed'] as const;
const squash = (text: string) => text.replace(/\s+/g, ' ').trim();

function loadExplanations(file: string, document: JsonObject): Explanation[] {
  let parsed: unknown;
  try {
    parsed = YAML.parse(fs.readFileSync(file, 'utf8'));
  } catch (error) {
    throw new UsageError(`${path.relative(ROOT, file)}: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
  }
  const entries = asObject(parsed as Json).explained;
  if (!Array.isArray(entries)) throw new UsageError(`${path.relative(ROOT, file)}: expected a list under "explained"`);
  const ids = new Set<string>();
  return entries.map((value, index) => {
    const entry = asObject(value);
    const where = `${path.relative(ROOT, file)} entry ${index + 1}${typeof entry.id === 'string' ? ` (${entry.id})` : ''}`;
    const text = (key: string): string => {
      const field = entry[key];
      if (typeof field !== 'string' || field.trim() === '') throw new UsageError(`${where}: "${key}" must be a non-empty string`);
      return field;
    };
    const pattern = (key: string, source: string): RegExp => {
      try {
        return new RegExp(source);
      } catch (error) {
        throw new UsageError(`${where}: "${key}" is not a regular expression: ${(error as Error).message}`);
      }
    };
    const id = text('id');
    if (ids.has(id)) throw new UsageError(`${where}: the id ${id} is used twice`);
    ids.add(id);
    const response = asObject(entry.response);
    if (typeof response.status !== 'number') throw new UsageError(`${where}: "response.status" must be the status the deployment answered`);
    const verify = entry.verify;
    if (verify !== undefined && !VERIFIERS.includes(verify as (typeof VERIFIERS)[number]))
      throw new UsageError(`${where}: "verify" must be one of ${VERIFIERS.join(', ')}`);
    const quotes = Array.isArray(entry.spec) ? entry.spec.map(asObject) : [];
    if (quotes.length === 0) throw new UsageError(`${where}: "spec" must quote at least one sentence of the spec`);
    for (const quote of quotes) {
      const at = quote.at;
      const says = quote.says;
      if (typeof at !== 'string' || typeof says !== 'string')
        throw new UsageError(`${where}: each "spec" item needs "at" (a JSON pointer) and "says"`);
      const found = atPointer(document, at);
      if (typeof found !== 'string' || !squash(found).includes(squash(says)))
        throw new UsageError(`${where}: the spec does not say ${JSON.stringify(says)} at ${at}`);
    }
    return {
      id,
      operation: text('operation'),
      scenario: pattern('scenario', text('scenario')),
      message: pattern('message', text('message')),
      response: {
        status: response.status,
        contentType: typeof response.contentType === 'string' ? pattern('response.contentType', response.contentType) : undefined,
        json: response.json,
      },
      verify: verify as Explanation['verify'],
      limit: text('limit'),
      spec: quotes.map((quote) => ({ at: quote.at as string, says: quote.says as string })),
    };
  });
}

/** Every member the explanation names has that value; arrays and scalars equal. */
function jsonIncludes(actual: unknown, expected: Json): boolean {
  if (expected !== null && typeof expected === 'object' && !Array.isArray(expected)) {
    if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) return false;
    return Object.entries(expected).every(([key, value]) => jsonIncludes((actual as Record<string, unknown>)[key], value));
  }
  return isDeepStrictEqual(actual, expected);
}

// ---------------------------------------------------------------- Specmatic's reports

interface Case {
  scenario: string;
  failure?: string;
}

interface Exchange {
  method: string;
  target: string;
  requestHeaders: [string, string][];
  status: number;
  responseHeaders: [string, string][];
  body: string;
}

interface LogEntry {
  scenario: string;
  outcome: 'FAILED' | 'SUCCEEDED';
  exchange?: Exchange;
}

function xmlText(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|lt|gt|amp|quot|apos);/gi, (_m, entity: string) => {
    const named: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };
    if (entity[0] !== '#') return named[entity.toLowerCase()]!;
    return String.fromCodePoint(entity[1] === 'x' || entity[1] === 'X' ? parseInt(entity.slice(2), 16) : Number(entity.slice(1)));
  });
}

function readJunit(dir: string): Case[] {
  const files = fs.existsSync(dir) ? fs.readdirSync(dir).filter((name) => name.endsWith('.xml')) : [];
  if (files.length === 0) throw new ToolError(`Specmatic wrote no JUnit report in ${shown(dir)}`);
  const cases: Case[] = [];
  for (const file of files) {
    const xml = fs.readFileSync(path.join(dir, file), 'utf8');
    for (const match of xml.matchAll(/<testcase\b([^>]*?)(\/>|>([\s\S]*?)<\/testcase>)/g)) {
      const name = xmlText(/\bname="([^"]*)"/.exec(match[1]!)?.[1] ?? '');
      const inner = match[3] ?? '';
      const failure = /<(?:failure|error)\b[^>]*\bmessage="([^"]*)"/.exec(inner);
      const bare = failure === null && /<(?:failure|error)\b/.test(inner);
      cases.push({ scenario: name.replace(JUNIT_PREFIX, ''), failure: failure ? xmlText(failure[1]!) : bare ? '(no message)' : undefined });
    }
  }
  return cases;
}

function parseHeaders(lines: string[]): [string, string][] {
  return lines.flatMap((line) => {
    const at = line.indexOf(': ');
    return at > 0 ? [[line.slice(0, at), line.slice(at + 2)] as [string, string]] : [];
  });
}

/** Splits Specmatic's log into its scenarios: each with the request it sent and the answer it got. */
function readLog(text: string): { entries: LogEntry[]; skipped: string[]; summary?: string } {
  const entries: LogEntry[] = [];
  const skipped: string[] = [];
  for (const block of text.split(/^--------------------$/m)) {
    const skip = /^\s+Skipping Scenario: (.+)$\n\s+(T\d+: .+)$/m.exec(block);
    if (skip) {
      skipped.push(`${skip[1]!.trim()}: ${skip[2]!.trim()}`);
      continue;
    }
    const scenario = /^([+-]ve\s+Scenario: .*) has (FAILED|SUCCEEDED)$/m.exec(block);
    if (!scenario) continue;
    const lines = block.slice(0, scenario.index).split('\n');
    const requestAt = lines.findIndex((line) => /^\s+Request to /.test(line));
    const responseAt = lines.findIndex((line) => /^\s+Response at /.test(line));
    let exchange: Exchange | undefined;
    if (requestAt >= 0 && responseAt > requestAt) {
      const strip = (line: string) => line.replace(/^ {4}/, '');
      const request = lines.slice(requestAt + 1, responseAt).map(strip);
      const response = lines.slice(responseAt + 1).map(strip);
      const [method = '', target = ''] = (request[0] ?? '').split(' ');
      const requestHeaderEnd = request.findIndex((line, i) => i > 0 && line.trim() === '');
      const statusLine = /^(\d{3})\b/.exec(response[0] ?? '');
      const blank = response.findIndex((line, i) => i > 0 && line.trim() === '');
      exchange = {
        method,
        target,
        requestHeaders: parseHeaders(request.slice(1, requestHeaderEnd < 0 ? undefined : requestHeaderEnd)),
        status: statusLine ? Number(statusLine[1]) : 0,
        responseHeaders: parseHeaders(response.slice(1, blank < 0 ? undefined : blank)),
        body:
          blank < 0
            ? ''
            : response
                .slice(blank + 1)
                .join('\n')
                .trim(),
      };
    }
    entries.push({ scenario: scenario[1]!, outcome: scenario[2] as LogEntry['outcome'], exchange });
  }
  const summary = /^Tests run: \d+, Successes: \d+, Failures: \d+.*$/m.exec(text)?.[0];
  return { entries, skipped, summary };
}

/** `GET /api/v1/Client/Detail/(idClient:uuid) -> 200` from a scenario title. */
function apiOf(scenario: string): { method: string; specPath: string; label: string } | undefined {
  const match = /Scenario: (\w+) (\S+) -> (\S+)/.exec(scenario);
  if (!match) return undefined;
  return {
    method: match[1]!,
    specPath: match[2]!.replace(/\((\w+):[^)]*\)/g, '{$1}'),
    label: `${match[1]} ${match[2]} -> ${match[3]}`,
  };
}

// ---------------------------------------------------------------- the deployment's data, for the examples

interface Listed {
  ids: Set<string>;
  records: JsonObject[];
  complete: boolean;
}

async function getJson(baseUrl: string, target: string, apiKey: string, apiKeyHeader: string): Promise<{ status: number; json: Json }> {
  const response = await fetch(baseUrl + target, { headers: { [apiKeyHeader]: apiKey }, signal: AbortSignal.timeout(20_000) });
  const text = await response.text();
  let json: Json = null;
  try {
    json = JSON.parse(text) as Json;
  } catch {
    // Not JSON: the status says enough.
  }
  return { status: response.status, json };
}

/** The clients the deployment lists (a bounded walk of the list with the most fields). */
async function listClients(baseUrl: string, listPath: string, apiKey: string, apiKeyHeader: string): Promise<Listed> {
  const listed: Listed = { ids: new Set(), records: [], complete: false };
  for (let page = 1; page <= 100; page++) {
    const { status, json } = await getJson(baseUrl, `${listPath}?page=${page}&pageSize=100`, apiKey, apiKeyHeader);
    if (status === 401) throw new UsageError(`key rejected by ${baseUrl}: GET ${listPath} answered 401`);
    if (status !== 200)
      throw new ToolError(`GET ${listPath}?page=${page}&pageSize=100 answered ${status}: cannot list the clients for the examples`);
    const results = asObject(json).Results;
    if (!Array.isArray(results)) throw new ToolError(`GET ${listPath} answered a body without Results`);
    for (const record of results.map(asObject)) {
      if (typeof record.IdClient === 'string') listed.ids.add(record.IdClient.toLowerCase());
      listed.records.push(record);
    }
    if (results.length < 100) {
      listed.complete = true;
      break;
    }
  }
  return listed;
}

interface Example {
  name: string;
  why: string;
  request: { method: string; path: string; query?: Record<string, string>; headers?: Record<string, string> };
  response: { status: number; headers?: Record<string, string>; body?: Json };
}

/**
 * The examples Specmatic cannot make up: derived from the spec (which statuses
 * each operation documents) and the deployment's lists (ids that exist).
 */
function buildExamples(
  document: JsonObject,
  operations: Operation[],
  listed: Listed,
  apiKey: string,
  apiKeyHeader: string,
  mockControls: boolean,
): { examples: Example[]; notes: string[] } {
  const examples: Example[] = [];
  const notes: string[] = [];
  const fill = (template: string, values: Record<string, string>) =>
    template.replace(/\{(\w+)\}/g, (_m, name: string) => values[name] ?? `{${name}}`);
  const pathUuid = (operation: Operation) =>
    operation.parameters.find((parameter) => parameter.in === 'path' && asObject(parameter.schema).format === 'uuid')?.name as
      string | undefined;
  const someId = [...listed.ids][0];
  const unknownId = ['00000000-0000-4000-8000-000000000000', '00000000-0000-4000-8000-0000000000ff'].find((id) => !listed.ids.has(id))!;

  for (const operation of operations) {
    const uuidName = pathUuid(operation);
    const ok = Object.keys(operation.responses).find((status) => /^2\d\d$/.test(status));
    // 200 of an operation keyed by a listed id: one listed client, and one with each nullable section null, if any.
    if (uuidName && ok) {
      const picks: [string, string | undefined][] = [['listed', someId]];
      for (const field of ['IdStaff', 'IdLocation']) {
        const record = listed.records.find((candidate) => candidate[field] === null);
        if (record) picks.push([`${field.slice(2).toLowerCase()}-null`, record.IdClient as string]);
        else notes.push(`no listed client has ${field} null: no ${operation.id} example for it`);
      }
      for (const [label, id] of picks) {
        if (!id) {
          notes.push(`the deployment lists no client: no ${operation.id} ${ok} example`);
          continue;
        }
        examples.push({
          name: `${operation.id}-${ok}-${label}`,
          why: `a ${label} client, so that the ${ok} answer is reached (Specmatic makes up a uuid otherwise)`,
          request: { method: operation.method, path: fill(operation.path, { [uuidName]: id }) },
          response: { status: Number(ok), body: specExampleBody(document, operation, ok) },
        });
      }
    }
    // 401 with a key the deployment does not accept (Specmatic sends the configured key on every other request).
    if (operation.secured && documents(operation, 401)) {
      const target = uuidName ? (someId ? fill(operation.path, { [uuidName]: someId }) : undefined) : operation.path;
      if (target)
        examples.push({
          name: `${operation.id}-401-unknown-key`,
          why: 'a key the deployment does not accept',
          request: { method: operation.method, path: target, headers: { [apiKeyHeader]: `not-${apiKey}` } },
          response: { status: 401, body: specExampleBody(document, operation, '401', 'unknownKey') },
        });
    }
    // 404 for a well-formed uuid the deployment does not list.
    if (uuidName && documents(operation, 404) && listed.complete)
      examples.push({
        name: `${operation.id}-404-unlisted-uuid`,
        why: 'a well-formed uuid no listed client has',
        request: { method: operation.method, path: fill(operation.path, { [uuidName]: unknownId }) },
        response: { status: 404, body: specExampleBody(document, operation, '404') },
      });
    // The simulated 500 of our mock (`Prefer: code=500`, a mock control a real deployment ignores): our server only.
    if (ok && mockControls && documents(operation, 500)) {
      const target = uuidName ? (someId ? fill(operation.path, { [uuidName]: someId }) : undefined) : operation.path;
      if (target)
        examples.push({
          name: `${operation.id}-500-prefer-code`,
          why: 'the mock control Prefer: code=500 (our server only)',
          request: { method: operation.method, path: target, headers: { Prefer: 'code=500' } },
          response: { status: 500, body: specExampleBody(document, operation, '500') },
        });
    }
    // An operation that documents no 2xx (Exception): its designed answer.
    if (!ok)
      for (const status of Object.keys(operation.responses).filter((key) => /^5\d\d$/.test(key)))
        examples.push({
          name: `${operation.id}-${status}`,
          why: 'the operation documents no 2xx answer',
          request: { method: operation.method, path: operation.path },
          response: { status: Number(status), body: specExampleBody(document, operation, status) },
        });
  }
  // 405 for a method the path does not have, once per path that documents it.
  const byPath = new Map<string, Operation>();
  for (const operation of operations) if (documents(operation, 405) && !byPath.has(operation.path)) byPath.set(operation.path, operation);
  for (const [specPath, operation] of byPath) {
    const method = ['post', 'put', 'patch', 'delete'].find((candidate) => !operation.item[candidate]);
    const uuidName = pathUuid(operation);
    if (!method || (uuidName && !someId)) continue;
    const allow = asObject(asObject(asObject(deref(document, operation.responses['405'])).headers).Allow);
    const allowed = HTTP_METHODS.filter((candidate) => operation.item[candidate]).map((candidate) => candidate.toUpperCase());
    examples.push({
      name: `${operation.id}-405-${method}`,
      why: `a ${method.toUpperCase()} on a path that answers ${allowed.join(', ')}`,
      request: { method: method.toUpperCase(), path: uuidName ? fill(specPath, { [uuidName]: someId! }) : specPath },
      response: {
        status: 405,
        headers: Object.keys(allow).length > 0 ? { Allow: allowed.join(', ') } : undefined,
        body: specExampleBody(document, operation, '405'),
      },
    });
  }
  return { examples, notes };
}

function writeExample(dir: string, example: Example): void {
  const query = example.request.query && Object.keys(example.request.query).length > 0 ? example.request.query : undefined;
  const file = {
    'http-request': {
      method: example.request.method,
      path: example.request.path,
      ...(query ? { query } : {}),
      ...(example.request.headers ? { headers: example.request.headers } : {}),
    },
    'http-response': {
      status: example.response.status,
      ...(example.response.headers ? { headers: example.response.headers } : {}),
      body: example.response.body ?? null,
    },
  };
  fs.writeFileSync(path.join(dir, `${example.name}.json`), JSON.stringify(file, null, 2) + '\n');
}

// ---------------------------------------------------------------- Java and Specmatic

function javaCommand(): string {
  return process.env.JAVA_HOME ? path.join(process.env.JAVA_HOME, 'bin/java') : 'java';
}

/** The Java runtime's major version, or why there is none. */
function javaVersion(): { major: number; line: string } | { missing: string } {
  const result = spawnSync(javaCommand(), ['-version'], { encoding: 'utf8', timeout: 60_000 });
  if (result.error)
    return { missing: `no Java runtime (${javaCommand()}: ${(result.error as NodeJS.ErrnoException).code ?? result.error.message})` };
  const line = `${result.stderr}${result.stdout}`.split('\n')[0]!.trim();
  const match = /version "(\d+)(?:\.(\d+))?/.exec(line);
  const major = match ? (match[1] === '1' ? Number(match[2]) : Number(match[1])) : 0;
  return { major, line };
}

function specmaticJar(): { jar: string; version: string } {
  const manifest = require.resolve('specmatic/package.json', { paths: [ROOT] });
  const version = (JSON.parse(fs.readFileSync(manifest, 'utf8')) as { version: string }).version;
  return { jar: path.join(path.dirname(manifest), 'specmatic.jar'), version };
}

function runSpecmatic(
  args: string[],
  cwd: string,
  env: Record<string, string>,
  logFile: string,
  limitMs: number,
  track: (child: ChildProcess | undefined) => void,
): Promise<{ code: number | null; timedOut: boolean }> {
  return new Promise((resolve, reject) => {
    const log = fs.openSync(logFile, 'w');
    const child = spawn(javaCommand(), args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', log, log] });
    fs.closeSync(log);
    track(child);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), 5_000).unref();
    }, limitMs);
    child.once('error', (error) => {
      clearTimeout(timer);
      track(undefined);
      reject(new ToolError(`cannot start Java: ${error.message}`));
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      track(undefined);
      resolve({ code, timedOut });
    });
  });
}

// ---------------------------------------------------------------- the run

interface Judged {
  scenario: string;
  api: string;
  operationId: string;
  failure: string;
  explanation?: Explanation;
  why?: string;
  exchange?: Exchange;
}

async function main(): Promise<number> {
  const options = parseArgs(process.argv.slice(2));
  const started = performance.now();
  let document: JsonObject;
  try {
    document = asObject(YAML.parse(fs.readFileSync(options.spec, 'utf8')) as Json);
  } catch (error) {
    throw new UsageError(`--spec ${shown(options.spec)}: ${(error as Error).message.split('\n')[0]}`);
  }
  const operations = operationsOf(document);
  const explanations = loadExplanations(EXPLAINED_FILE, document);

  const java = javaVersion();
  if ('missing' in java || java.major < 17) {
    const reason = 'missing' in java ? java.missing : `Java ${java.major} (${java.line}); Specmatic needs 17 or later`;
    if (options.requireJava) throw new UsageError(`${reason} (install default-jre-headless)`);
    console.log(`contract:specmatic: skipped: ${reason}; install a Java 17+ runtime (Debian: default-jre-headless) to run it`);
    return 0;
  }
  const { jar, version } = specmaticJar();

  let child: ChildProcess | undefined;
  let server: StartedByLine | undefined;
  const stopAll = async () => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
    await server?.stop();
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void stopAll().then(() => process.exit(130)));
  process.once('exit', () => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
  });
  for (const stream of [process.stdout, process.stderr]) stream.on('error', () => undefined);

  try {
    let baseUrl = options.baseUrl;
    if (!baseUrl) {
      server = await startNodeProcess(
        'the server',
        MAIN_JS,
        ['--port', '0', '--host', '127.0.0.1', '--log-level', 'silent', '--spec', options.spec],
        /on (http:\/\/127\.0\.0\.1:\d+)/,
        60_000,
        ROOT,
      );
      baseUrl = server.ready;
    }
    try {
      await fetch(baseUrl, { signal: AbortSignal.timeout(10_000) });
    } catch (error) {
      throw new UsageError(
        `cannot reach ${baseUrl}: ${(error as Error).cause instanceof Error ? ((error as Error).cause as Error).message : (error as Error).message}`,
      );
    }

    // Specmatic sends a credential for a security scheme from the environment variable named after the scheme.
    const schemes = Object.entries(asObject(asObject(document.components).securitySchemes)).map(
      ([name, scheme]) => [name, asObject(scheme)] as const,
    );
    const apiKeySchemes = schemes.filter(([, scheme]) => scheme.type === 'apiKey' && scheme.in === 'header');
    const apiKeyHeader = (apiKeySchemes[0]?.[1].name as string | undefined) ?? 'X-Api-Key';
    const credentials = Object.fromEntries(apiKeySchemes.map(([name]) => [name, options.apiKey]));

    // The inputs.
    // Only what this script and Specmatic write there is replaced (--out may name a folder with other files).
    for (const entry of ['examples', 'junit', 'build', 'openapi.yaml', 'specmatic.yaml', 'specmatic.log'])
      fs.rmSync(path.join(options.out, entry), { recursive: true, force: true });
    const examplesDir = path.join(options.out, 'examples');
    const junitDir = path.join(options.out, 'junit');
    fs.mkdirSync(examplesDir, { recursive: true });
    // The same document without YAML anchors and aliases (Specmatic reads `*a1` as the string "a1").
    fs.writeFileSync(path.join(options.out, 'openapi.yaml'), YAML.stringify(document, { aliasDuplicateObjects: false, lineWidth: 0 }));
    fs.writeFileSync(
      path.join(options.out, 'specmatic.yaml'),
      [
        '# Written by scripts/contract-specmatic.ts: the contract under test, and the resiliency tests (bounds and mutations) on.',
        'version: 2',
        'contracts:',
        '  - provides:',
        '      - openapi.yaml',
        'test:',
        '  resiliencyTests:',
        '    enable: all',
        '  timeoutInMilliseconds: 20000',
        '',
      ].join('\n'),
    );
    const secured = operations.find((operation) => operation.secured && operation.method === 'GET' && !operation.path.includes('{'));
    const listPath = operations.find((operation) => operation.id === 'getClientsExtended')?.path ?? secured?.path;
    const listed: Listed = listPath
      ? await listClients(baseUrl, listPath, options.apiKey, apiKeyHeader)
      : { ids: new Set(), records: [], complete: false };
    const { examples, notes } = buildExamples(document, operations, listed, options.apiKey, apiKeyHeader, server !== undefined);
    for (const example of examples) writeExample(examplesDir, example);

    console.log(
      `Specmatic ${version} (Java ${java.major}) against ${baseUrl}${server ? ' (our built server)' : ''}: ${shown(options.spec)}, ` +
        `resiliency tests on, ${examples.length} external examples from the deployment's lists (${listed.ids.size} clients listed)`,
    );
    for (const note of notes) console.log(`note: ${note}`);

    // The run.
    const logFile = path.join(options.out, 'specmatic.log');
    const runStarted = performance.now();
    const { code, timedOut } = await runSpecmatic(
      [...JVM_FLAGS, '-jar', jar, 'test', '--testBaseURL', baseUrl, '--examples', examplesDir, '--junitReportDir', junitDir],
      options.out,
      credentials,
      logFile,
      options.timeLimitS * 1000,
      (running) => (child = running),
    );
    const runSeconds = (performance.now() - runStarted) / 1000;
    if (timedOut) throw new ToolError(`Specmatic did not finish within --time-limit ${options.timeLimitS} s (log: ${shown(logFile)})`);
    const logText = fs.readFileSync(logFile, 'utf8');
    const cases = readJunit(junitDir);
    const log = readLog(logText);
    if (cases.length === 0) throw new ToolError(`Specmatic ran no test (exit ${code}); see ${shown(logFile)}`);

    // Judge every failure.
    const failedInLog = new Map<string, LogEntry[]>();
    for (const entry of log.entries)
      if (entry.outcome === 'FAILED') failedInLog.set(entry.scenario, [...(failedInLog.get(entry.scenario) ?? []), entry]);
    const failedInJunit = new Map<string, number>();
    for (const testCase of cases)
      if (testCase.failure !== undefined) failedInJunit.set(testCase.scenario, (failedInJunit.get(testCase.scenario) ?? 0) + 1);
    // A title names the path template, or (for an example of a method the path lacks) the concrete path.
    const templates = operations.map((operation) => ({
      operation,
      pattern: new RegExp(`^${operation.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{\w+\\?\}/g, '[^/]+')}$`),
    }));
    const operationIdOf = (scenario: string) => {
      const api = apiOf(scenario);
      if (!api) return '(no operation)';
      const exact = operations.find((operation) => operation.method === api.method && operation.path === api.specPath);
      const templated = templates.find(({ operation, pattern }) => operation.method === api.method && pattern.test(api.specPath));
      return (exact ?? templated?.operation)?.id ?? `${api.method} ${api.specPath}`;
    };
    const judged: Judged[] = [];
    for (const testCase of cases) {
      if (testCase.failure === undefined) continue;
      const api = apiOf(testCase.scenario)?.label ?? '(unknown)';
      const entries = failedInLog.get(testCase.scenario) ?? [];
      const item: Judged = {
        scenario: testCase.scenario,
        api,
        operationId: operationIdOf(testCase.scenario),
        failure: testCase.failure,
        exchange: entries[0]?.exchange,
      };
      judged.push(item);
      if (entries.length !== failedInJunit.get(testCase.scenario)) {
        item.why = `the log holds ${entries.length} failed runs of this scenario, the JUnit report ${failedInJunit.get(testCase.scenario)}: cannot see what was sent`;
        continue;
      }
      const misses: string[] = [];
      for (const explanation of explanations) {
        if (explanation.operation !== api || !explanation.scenario.test(testCase.scenario) || !explanation.message.test(testCase.failure))
          continue;
        const wrong = entries
          .map((entry) => {
            const exchange = entry.exchange;
            if (!exchange) return 'no request in the log';
            if (exchange.status !== explanation.response.status) return `answered ${exchange.status}, not ${explanation.response.status}`;
            const contentType = exchange.responseHeaders.find(([name]) => name.toLowerCase() === 'content-type')?.[1] ?? '';
            if (explanation.response.contentType && !explanation.response.contentType.test(contentType))
              return `Content-Type ${contentType}`;
            if (explanation.response.json !== undefined) {
              let body: unknown;
              try {
                body = JSON.parse(exchange.body);
              } catch {
                return 'a body that is not JSON';
              }
              if (!jsonIncludes(body, explanation.response.json)) return `a body other than ${JSON.stringify(explanation.response.json)}`;
            }
            if (explanation.verify === 'idClient-not-listed') {
              const id = /\/([0-9a-fA-F-]{36})(?:\?|$)/.exec(exchange.target)?.[1]?.toLowerCase();
              if (!id) return 'no uuid in the path';
              if (!listed.complete) return 'the walk of the list was cut short, cannot tell whether the uuid is listed';
              if (listed.ids.has(id)) return `${id} is a listed client`;
            }
            return undefined;
          })
          .find((reason) => reason !== undefined);
        if (wrong) misses.push(`${explanation.id} does not fit: ${wrong}`);
        else {
          item.explanation = explanation;
          break;
        }
      }
      if (!item.explanation) item.why = misses.join('; ') || 'no explanation names this operation, scenario and message';
    }

    // Counts.
    const byOperation = new Map<string, { run: number; passed: number; failed: number; explained: number }>();
    for (const testCase of cases) {
      const id = operationIdOf(testCase.scenario);
      const row = byOperation.get(id) ?? { run: 0, passed: 0, failed: 0, explained: 0 };
      row.run += 1;
      if (testCase.failure === undefined) row.passed += 1;
      else row.failed += 1;
      byOperation.set(id, row);
    }
    for (const item of judged) if (item.explanation) byOperation.get(item.operationId)!.explained += 1;
    const failed = judged.length;
    const explained = judged.filter((item) => item.explanation).length;
    const unexplained = judged.filter((item) => !item.explanation);

    const width = Math.max(...[...byOperation.keys()].map((key) => key.length), 9);
    console.log(`${'operation'.padEnd(width)}    run  passed  failed  explained`);
    for (const [id, row] of [...byOperation].sort(([a], [b]) => a.localeCompare(b)))
      console.log(
        `${id.padEnd(width)} ${String(row.run).padStart(6)} ${String(row.passed).padStart(7)} ${String(row.failed).padStart(7)} ${String(row.explained).padStart(10)}`,
      );
    const skippedKinds = new Map<string, number>();
    for (const skip of log.skipped) {
      const kind = skip.replace(/^.*: (T\d+: .+)$/, '$1');
      skippedKinds.set(kind, (skippedKinds.get(kind) ?? 0) + 1);
    }
    if (log.skipped.length > 0)
      console.log(
        `not run by Specmatic: ${log.skipped.length} documented responses (${[...skippedKinds].map(([kind, count]) => `${kind} ×${count}`).join('; ')})`,
      );
    if (log.summary) console.log(`Specmatic's own line: ${log.summary}`);

    const used = new Map<string, number>();
    for (const item of judged) if (item.explanation) used.set(item.explanation.id, (used.get(item.explanation.id) ?? 0) + 1);
    for (const explanation of explanations) {
      const count = used.get(explanation.id) ?? 0;
      if (count > 0) console.log(`explained ×${count}: ${explanation.id} (${explanation.operation}): ${squash(explanation.limit)}`);
      else console.log(`note: explanation ${explanation.id} matched no failure in this run`);
    }
    for (const item of unexplained.slice(0, 20)) {
      const exchange = item.exchange;
      const reproduce = exchange
        ? `curl -i -X ${exchange.method} '${baseUrl}${exchange.target}'` +
          exchange.requestHeaders
            .filter(([name]) => !/^(Host|Accept-Charset|Accept|Content-Type|Specmatic-Response-Code)$/i.test(name))
            .map(
              ([name, value]) =>
                ` -H '${name}: ${name.toLowerCase() === apiKeyHeader.toLowerCase() && value === options.apiKey ? '$API_KEY' : value}'`,
            )
            .join('')
        : '(no request in the log)';
      const message = item.failure
        .split('\n')
        .map((line) => line.trim())
        .filter((line) => line && !/^(Documentation|Summary):/.test(line));
      console.error(
        `UNEXPLAINED: ${item.scenario}\n  ${message.slice(1).join('\n  ')}\n  answered: ${exchange ? `${exchange.status} ${exchange.body.replace(/\s+/g, ' ').slice(0, 200)}` : '?'}\n  why not explained: ${item.why}\n  reproduce: ${reproduce}`,
      );
    }
    if (unexplained.length > 20) console.error(`… and ${unexplained.length - 20} more unexplained failures (see ${shown(logFile)})`);

    const total = (performance.now() - started) / 1000;
    console.log(
      `contract:specmatic: ${cases.length} tests run, ${cases.length - failed} passed, ${failed} failed (${explained} explained, ${unexplained.length} unexplained); ` +
        `Specmatic ${runSeconds.toFixed(0)} s, whole step ${total.toFixed(0)} s; JUnit and log in ${shown(options.out)}/`,
    );
    return unexplained.length === 0 ? 0 : 1;
  } finally {
    await stopAll();
  }
}

main().then(
  (code) => (process.exitCode = code),
  (error: unknown) => {
    const message = error instanceof Error ? error.message : String(error);
    console.error(message.startsWith('usage:') ? message : `contract:specmatic: ${message}`);
    process.exitCode = error instanceof UsageError ? 2 : 3; // 3: Specmatic (ToolError) or this script failed
  },
);
