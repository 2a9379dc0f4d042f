// Whether an answer keeps a document's responses, as plain messages: the documented status, the declared headers,
// the media type and the body's schema, with no knowledge of the request. For answers the judge cannot place: the
// proxy's own journal API (proxy.openapi.yaml), and a 400 to a request refused as malformed before any route (a
// CONNECT), which must still be the document's ErrorDto. Every other exchange goes to the judge (contract/judge/).
import { describeSchemaError, pointerSegment } from './spec';
import { operationPathname, type Exchange } from './exchange';
import { headerOf } from './headers';
import type { SpecContract } from './spec-contract';

type Json = Record<string, unknown>;

/** A header value as the type its schema names, so that `X-Total-Count: 12` validates as the integer 12. */
function headerValue(raw: string, schema: Json): unknown {
  const type = schema.type;
  if (type === 'integer' || type === 'number') return /^-?\d+(\.\d+)?$/.test(raw.trim()) ? Number(raw) : raw;
  if (type === 'boolean') return raw === 'true' ? true : raw === 'false' ? false : raw;
  return raw;
}

/**
 * Everything about the exchange that breaks openapi.yaml, as messages; empty
 * when it conforms. A path that is no operation is checked against
 * `components/responses/NotFound`; another method on an operation's path
 * against that operation's responses (where its 405 is documented).
 */
export function conformance(contract: SpecContract, exchange: Exchange): string[] {
  const pathname = operationPathname(exchange);
  const found = contract.findOperation(pathname);
  const where = found ? found.operation.operationId : `no operation (${pathname})`;
  let responsePointer: string;
  if (found) {
    const key = [String(exchange.status), `${String(exchange.status)[0]}XX`, 'default'].find((candidate) =>
      found.operation.statuses.includes(candidate),
    );
    if (!key) return [`${where}: status ${exchange.status} is not documented (documented: ${found.operation.statuses.join(', ')})`];
    responsePointer = `${found.operation.pointer}/responses/${pointerSegment(key)}`;
  } else {
    if (exchange.status !== 404) return [`${where}: status ${exchange.status} is not documented for an unknown path (documented: 404)`];
    responsePointer = '#/components/responses/NotFound';
  }
  const response = contract.resolve(responsePointer);
  const label = `${where} ${exchange.status}`;
  return [...checkHeaders(contract, exchange, response, label), ...checkContent(contract, exchange, response, label)];
}

function checkHeaders(contract: SpecContract, exchange: Exchange, response: { node: Json; pointer: string }, label: string): string[] {
  const problems: string[] = [];
  const headers = (response.node.headers ?? {}) as Json;
  for (const name of Object.keys(headers)) {
    const header = contract.resolve(`${response.pointer}/headers/${pointerSegment(name)}`);
    // Field names in any case, the value without the white space around it (RFC 9110 §5.1, §5.5).
    const raw = headerOf(exchange.headers, name);
    if (raw === undefined) {
      if (header.node.required === true) problems.push(`${label}: required header ${name} is missing`);
      continue;
    }
    if (!header.node.schema) continue;
    const validate = contract.validator(`${header.pointer}/schema`);
    if (!validate(headerValue(raw, header.node.schema as Json))) {
      problems.push(`${label}: header ${name} ${JSON.stringify(raw.slice(0, 80))}${describeSchemaError(validate.errors?.[0])}`);
    }
  }
  return problems;
}

function checkContent(contract: SpecContract, exchange: Exchange, response: { node: Json; pointer: string }, label: string): string[] {
  const content = response.node.content as Json | undefined;
  if (!content) return exchange.text === '' ? [] : [`${label}: the response documents no body but one was sent`];
  const contentType = headerOf(exchange.headers, 'content-type');
  const mediaType = contentType?.split(';')[0]!.trim().toLowerCase();
  const documented = Object.keys(content);
  const key = documented.find((candidate) => candidate.toLowerCase() === mediaType);
  if (!key) return [`${label}: content-type ${contentType ?? '(none)'} is not documented (${documented.join(', ')})`];
  if (!/^application\/(.+\+)?json$/.test(key)) return [];
  let body: unknown;
  try {
    body = JSON.parse(exchange.text) as unknown;
  } catch {
    return [`${label}: the body is not JSON: ${JSON.stringify(exchange.text.slice(0, 80))}`];
  }
  const validate = contract.validator(`${response.pointer}/content/${pointerSegment(key)}/schema`);
  if (validate(body)) return [];
  return (validate.errors ?? []).slice(0, 5).map((error) => `${label}: body${describeSchemaError(error)}`);
}
