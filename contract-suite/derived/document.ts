// What the derived checks read from the served document, and nothing else:
// the error table of info.description (status, Code, when), the error answer
// each response object documents (its status and the Codes of its examples),
// the methods each path item declares, the CORS section's preflight sentence,
// each operation's path filled with its parameters' own examples, and a
// parameter value held to its schema the way a form-style query carries it.
// The generators (paths.ts, methods.ts, parameters.ts, security.ts) build
// their checks from these answers; a document with other rules gets other
// checks, and a document without a rule gets no check for it.
import type { OperationName } from '../kit/context';
import type { SpecContract, SpecOperation, SpecParameter } from '../../contract/spec-contract';
import { pointerSegment } from '../../contract/spec';

type Json = Record<string, unknown>;

/** The methods RFC 9110 §9.3 defines, and PATCH (RFC 5789). */
export const RFC_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'CONNECT', 'OPTIONS', 'TRACE', 'PATCH'] as const;
/**
 * A method no RFC defines that HTTP stacks still parse (Squid's and Varnish's
 * cache purge): Node's parser, like most, refuses an arbitrary token with a bare
 * 400 before any application sees it, so that would test the socket layer.
 */
export const EXTENSION_METHOD = 'PURGE';
/**
 * A method no stack knows (RFC 2324's, in no registry): the document's answer for any other method is still
 * right, but an HTTP layer that parses only the methods it knows refuses it before any route is looked at.
 */
export const UNKNOWN_METHOD = 'BREW';

/** What the document gives as the error answer to a request: a status, its Codes (the error table's), and the table's words. */
export interface ErrorAnswer {
  status: number;
  codes: string[];
  /** The error table's words for it, e.g. `no such path (paths are case-sensitive and exact, no trailing slash)`. */
  when: string;
}

function answerOf(contract: SpecContract, operation: SpecOperation | undefined, status: number): ErrorAnswer | undefined {
  const response = contract.response(operation, status);
  if (!response || response.key !== String(status)) return undefined;
  const codes = contract.codesOfResponse(response, status);
  const when = contract
    .errorTable()
    .filter((row) => row.status === status && codes.includes(row.code))
    .map((row) => row.when)
    .join('; ');
  return { status, codes, when };
}

/** The answer to a path that is no operation's (the 404 the document ties to no operation, with the error table's Code). */
export function notFoundAnswer(contract: SpecContract): ErrorAnswer {
  const found = answerOf(contract, undefined, 404);
  if (!found) throw new Error('openapi.yaml documents no answer for a path that is no operation (components/responses/NotFound)');
  return found;
}

/** An operation's documented error answer for a status (400, 401, 405, …), or undefined when it documents none. */
export function operationError(contract: SpecContract, operation: SpecOperation, status: number): ErrorAnswer | undefined {
  return answerOf(contract, operation, status);
}

/** The pointer of the body schema of the document's answer to a path that is no operation's: its ErrorDto. */
export function errorBodySchema(contract: SpecContract): string {
  const notFound = contract.resolve('#/components/responses/NotFound');
  const [media] = Object.keys((notFound.node.content ?? {}) as Json);
  return `${notFound.pointer}/content/${pointerSegment(media ?? 'application/json')}/schema`;
}

/** The methods a path item declares (upper case), e.g. ['GET']: what `Allow` names and what is not 405. */
export function declaredMethods(contract: SpecContract, operation: SpecOperation): string[] {
  const item = (contract.spec.paths as Record<string, Json>)[operation.template] ?? {};
  return [...RFC_METHODS, EXTENSION_METHOD].filter((method) => method.toLowerCase() in item);
}

/**
 * The preflight sentence of info.description's CORS section, read as a rule:
 * "A preflight (`OPTIONS` with `Origin` and `Access-Control-Request-Method: GET`)
 * … is answered with a 2xx status, `Access-Control-Allow-Origin`,
 * `Access-Control-Allow-Methods` including `GET` and
 * `Access-Control-Allow-Headers` including `X-Api-Key`."
 */
export interface PreflightRule {
  sentence: string;
  method: string;
  /** The request headers that make the request a preflight, with their values (`Origin` gets the suite's origin). */
  requestHeaders: Record<string, string>;
  /** The answer's status class (2 for "a 2xx status"). */
  statusClass: number;
  /** The answer's headers, each with the item it must include (undefined: present). */
  answerHeaders: { name: string; includes?: string }[];
}

/** The text of a `## Title` section of info.description (title matched whole, in any case). */
function descriptionSection(contract: SpecContract, title: string): string | undefined {
  const description = String((contract.spec.info as Json | undefined)?.description ?? '');
  return new RegExp(`^##\\s*${title}\\s*$([\\s\\S]*?)(?=^##\\s|(?![\\s\\S]))`, 'im').exec(description)?.[1];
}

function corsSection(contract: SpecContract): string | undefined {
  return descriptionSection(contract, 'CORS');
}

/**
 * The conditional-request sentence of info.description's "Conditional requests" section, read as a rule:
 * "`If-None-Match`, `If-Match`, … change nothing (`Range` is ignored too): a request that carries them gets the
 * answer the same request without them gets". Undefined when the document states no such rule.
 */
export interface ConditionalRule {
  sentence: string;
  /** The request headers it names (`If-None-Match`, …, `Range`). */
  headers: string[];
}

export function conditionalRule(contract: SpecContract): ConditionalRule | undefined {
  const section = descriptionSection(contract, 'Conditional requests');
  const sentence = section === undefined ? undefined : sentences(section).find((text) => /same request without them/i.test(text));
  if (!sentence) return undefined;
  const headers = [...sentence.matchAll(/`([A-Za-z-]+)`/g)]
    .map((match) => match[1]!)
    .filter((name) => /^(If-[A-Za-z-]+|Range)$/.test(name));
  return { sentence, headers };
}

/** The sentences of a markdown paragraph run (a full stop ends one unless inside back-quotes). */
function sentences(text: string): string[] {
  const flat = text.replace(/\s+/g, ' ').trim();
  const out: string[] = [];
  let current = '';
  let quoted = false;
  for (const character of flat) {
    current += character;
    if (character === '`') quoted = !quoted;
    if (character === '.' && !quoted) {
      out.push(current.trim());
      current = '';
    }
  }
  if (current.trim()) out.push(current.trim());
  return out;
}

export function preflightRule(contract: SpecContract): PreflightRule | undefined {
  const section = corsSection(contract);
  if (!section) return undefined;
  const sentence = sentences(section).find((text) => /preflight/i.test(text) && /answered/i.test(text));
  if (!sentence) return undefined;
  const request = /\(([^)]*)\)/.exec(sentence)?.[1] ?? '';
  const answer = sentence.slice(sentence.search(/answered/i));
  const quoted = (text: string) => [...text.matchAll(/`([^`]+)`/g)].map((match) => match[1]!);
  const [method = 'OPTIONS', ...headerItems] = quoted(request);
  const requestHeaders: Record<string, string> = {};
  for (const item of headerItems) {
    const [name, value] = item.split(/:\s*/, 2) as [string, string?];
    requestHeaders[name] = value ?? '';
  }
  const answerHeaders: PreflightRule['answerHeaders'] = [];
  for (const match of answer.matchAll(/`([A-Za-z-]+)`(?:\s+including\s+`([^`]+)`)?/g)) {
    if (/^[A-Z][A-Za-z]*(-[A-Z][A-Za-z]*)+$/.test(match[1]!)) answerHeaders.push({ name: match[1]!, includes: match[2] });
  }
  const statusClass = Number(/\b([1-5])xx\b/.exec(answer)?.[1] ?? 2);
  return { sentence, method, requestHeaders, statusClass, answerHeaders };
}

/**
 * The response headers the document declares required on every response it
 * documents (X-Request-Id: "On every response"), each with the pointer of its
 * schema: an answer the document does not list, such as a preflight's, carries them too.
 */
export function everywhereHeaders(contract: SpecContract): { name: string; schema: string }[] {
  const pointers: string[] = [];
  for (const operation of contract.operations)
    for (const status of operation.statuses) pointers.push(contract.resolve(`${operation.pointer}/responses/${status}`).pointer);
  pointers.push(contract.resolve('#/components/responses/NotFound').pointer);
  const required = (pointer: string) =>
    Object.keys((contract.resolve(pointer).node.headers ?? {}) as Json).flatMap((name) => {
      const header = contract.resolve(`${pointer}/headers/${pointerSegment(name)}`);
      return header.node.required === true ? [{ name, schema: `${header.pointer}/schema` }] : [];
    });
  const [first, ...rest] = pointers.map(required);
  return (first ?? []).filter((header) => rest.every((headers) => headers.some((other) => other.name === header.name)));
}

/** The value a parameter's own example gives it (a path parameter without one: the schema's example), as text. */
export function exampleValue(contract: SpecContract, parameter: SpecParameter): string | undefined {
  const candidates = [parameter.example, (parameter.schema.examples as unknown[] | undefined)?.[0], parameter.schema.default];
  const found = candidates.find((candidate) => candidate !== undefined && candidate !== null);
  void contract;
  return found === undefined ? undefined : String(found);
}

/** The operation's path with every path parameter filled with its example (percent-encoded), e.g. Detail's example id. */
export function examplePath(
  contract: SpecContract,
  operation: SpecOperation,
  values: Record<string, string> = {},
  /** Names whose value is sent as it is, not percent-encoded. */
  raw: readonly string[] = [],
): string {
  let path = operation.template;
  for (const parameter of operation.parameters.filter((p) => p.in === 'path')) {
    const value = values[parameter.name] ?? exampleValue(contract, parameter) ?? 'x';
    path = path.replace(`{${parameter.name}}`, raw.includes(parameter.name) ? value : encodeURIComponent(value));
  }
  return path;
}

/**
 * True when the schema accepts the text as a form-style value carries it (a
 * query or path parameter, a header): an integer or number type reads decimal
 * text as the number, a boolean reads exactly `true` or `false`, anything else
 * is the string itself. JSON Schema's keywords then decide, with the suite's
 * own Ajv (formats included; maxLength counts code points).
 */
export function schemaAccepts(contract: SpecContract, parameter: SpecParameter, text: string): boolean {
  const types = ([] as unknown[]).concat(parameter.schema.type ?? []);
  let value: unknown = text;
  if ((types.includes('integer') || types.includes('number')) && /^-?\d+(\.\d+)?$/.test(text)) value = Number(text);
  else if (types.includes('boolean') && (text === 'true' || text === 'false')) value = text === 'true';
  return contract.validator(parameter.schemaPointer)(value) === true;
}

/** The operation a derived check is filed under: the document's operationId (another version of the document may have others). */
export const checkOperation = (operation: SpecOperation): OperationName => operation.operationId as OperationName;
