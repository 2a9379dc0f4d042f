// Near misses of every path template: what HTTP stacks commonly do to a path
// before routing, turned into requests whose answer the document fixes.
//   ASP.NET Core and Express match case-insensitively by default; Spring matched
//   `.json` suffixes and a trailing slash and drops `;jsessionid=` matrix
//   parameters; Flask, Django and FastAPI redirect to or from a trailing slash;
//   Go's ServeMux cleans `//`, `/./` and `/../` and redirects; IIS and the
//   WHATWG URL parser read `\` as `/`; some decoders route `%2F` as a separator.
// The document says paths are case-sensitive and exact, with no trailing slash
// (error table: 404 NOT_FOUND), and documents no redirect. Two kinds of near
// miss are the same URI by RFC 3986 §6.2.2 (percent-encoded unreserved
// characters, dot segments), and RFC 9110 §4.2.3 lets any HTTP component
// normalise them: for those the operation's own answer is as right as 404.
// A suffix, a `/` or a `%2F` inside a template parameter makes a value that
// breaks the parameter's schema (400 naming it) or a path that is no template.
import type { Define } from '../kit/context';
import type { RuleId } from '../../contract/judge';
import type { SpecContract } from '../../contract/spec-contract';
import { examplePath, exampleValue, notFoundAnswer, operationError, schemaAccepts } from './document';
import { expectConforming, expectErrorAnswer, expectRejected, plainAnswer } from './expect';

export type NearMissKind =
  /** No path of the document: the error table's 404 (NOT_FOUND), never a redirect, never the operation's answer. */
  | 'unknown'
  /** The same URI after RFC 3986 §6.2.2 normalisation: 404 NOT_FOUND, or the answer the canonical path gets. */
  | 'equivalent'
  /** The template matches with a parameter value its schema rejects: 400 naming the parameter. */
  | 'invalid-parameter';

export interface NearMissPath {
  operationId: string;
  /** The path as sent (percent-encoded as written here). */
  path: string;
  /** The operation's path with the parameters' examples: what a loose router would take it for. */
  canonical: string;
  kind: NearMissKind;
  /** What was done to the path, e.g. `segment "Client" in lower case`. */
  why: string;
  /** For 'invalid-parameter': the parameter. */
  parameter?: string;
}

/** Matrix-parameter session id as Tomcat and Jetty append it (Spring strips it before matching). */
const SESSION_SUFFIX = ';jsessionid=0123456789ABCDEF0123456789ABCDEF';
/** Suffixes stacks strip or match loosely: content negotiation by extension, matrix parameters, trailing space or dot. */
const SUFFIXES: readonly [string, string][] = [
  ['.json', 'a .json suffix (Spring suffix pattern matching)'],
  [SESSION_SUFFIX, 'a ;jsessionid= matrix parameter (Servlet URL rewriting)'],
  [';', 'an empty matrix parameter'],
  ['%20', 'a trailing encoded space'],
  ['.', 'a trailing dot'],
];

const percentEncode = (character: string) => `%${character.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`;
const unreserved = (character: string) => /^[A-Za-z0-9\-._~]$/.test(character);

/** The literal path segments shared by every template (`/api/v1`): parents above them are not this document's to judge. */
function commonPrefix(templates: readonly string[]): string[] {
  const split = templates.map((template) => template.split('/').slice(1));
  const first = split[0] ?? [];
  const prefix: string[] = [];
  for (const [i, segment] of first.entries()) {
    if (segment.startsWith('{') || !split.every((segments) => segments[i] === segment && i < segments.length - 1)) break;
    prefix.push(segment);
  }
  return prefix;
}

/** Every near miss of every template of the document, each once. */
export function nearMissPaths(contract: SpecContract): NearMissPath[] {
  const found: NearMissPath[] = [];
  const seen = new Set<string>();
  const add = (candidate: NearMissPath) => {
    if (seen.has(candidate.path)) return;
    // A near miss that is itself one of the document's paths is no near miss (a parent that is an operation).
    if (candidate.kind === 'unknown' && contract.findOperation(candidate.path)) return;
    seen.add(candidate.path);
    found.push(candidate);
  };
  const prefix = commonPrefix(contract.operations.map((operation) => operation.template));
  const sharedDone = new Set<string>();

  for (const operation of contract.operations) {
    const canonical = examplePath(contract, operation);
    const templateSegments = operation.template.split('/').slice(1);
    const segments = canonical.split('/').slice(1);
    const isLiteral = (i: number) => !templateSegments[i]!.startsWith('{');
    const join = (parts: readonly string[]) => `/${parts.join('/')}`;
    const replaced = (i: number, segment: string) => join(segments.map((s, j) => (j === i ? segment : s)));
    const base = { operationId: operation.operationId, canonical };
    const last = segments.length - 1;
    const beforeLast = join(segments.slice(0, last));
    const lastSegment = segments[last]!;

    // Case: each literal segment in lower and in upper case (a segment every path shares: once), and the whole path in lower case (the document's own example).
    for (const [i, segment] of segments.entries()) {
      if (!isLiteral(i)) continue;
      for (const variant of [segment.toLowerCase(), segment.toUpperCase()]) {
        if (variant === segment || (i < prefix.length && sharedDone.has(`${i}/${variant}`))) continue;
        sharedDone.add(`${i}/${variant}`);
        add({
          ...base,
          path: replaced(i, variant),
          kind: 'unknown',
          why: `segment "${segment}" as "${variant}" (case-insensitive matching)`,
        });
      }
    }
    const lowered = join(segments.map((segment, i) => (isLiteral(i) ? segment.toLowerCase() : segment)));
    if (lowered !== canonical) add({ ...base, path: lowered, kind: 'unknown', why: 'every literal segment in lower case' });

    // Percent-encoding: an unreserved character encoded is the same URI; encoding it in the other case is another path.
    const literalLast = [...segments.keys()].filter(isLiteral).pop();
    if (literalLast !== undefined) {
      const segment = segments[literalLast]!;
      const first = segment[0]!;
      if (unreserved(first)) {
        add({
          ...base,
          path: replaced(literalLast, percentEncode(first) + segment.slice(1)),
          kind: 'equivalent',
          why: `"${first}" of "${segment}" percent-encoded (RFC 3986 §6.2.2.2: the same URI)`,
        });
        const other = first === first.toLowerCase() ? first.toUpperCase() : first.toLowerCase();
        if (other !== first)
          add({
            ...base,
            path: replaced(literalLast, percentEncode(other) + segment.slice(1)),
            kind: 'unknown',
            why: `"${first}" of "${segment}" as "${percentEncode(other)}" ("${other}" percent-encoded: case-insensitive after decoding)`,
          });
      }
    }

    // Separators: an encoded slash, a backslash, doubled slashes, a trailing slash.
    add({ ...base, path: `${beforeLast}%2F${lastSegment}`, kind: 'unknown', why: 'the last "/" as %2F (decoded before routing)' });
    add({ ...base, path: `${beforeLast}\\${lastSegment}`, kind: 'unknown', why: 'the last "/" as "\\" (IIS, WHATWG URL)' });
    add({ ...base, path: `/${canonical}`, kind: 'unknown', why: 'a leading "//" (empty segment)' });
    add({ ...base, path: `${beforeLast}//${lastSegment}`, kind: 'unknown', why: 'a doubled "/" before the last segment' });
    add({ ...base, path: `${canonical}/`, kind: 'unknown', why: 'a trailing slash' });

    // Dot segments: removed by RFC 3986 §5.2.4, so the same URI when they leave the path whole; another path when they do not.
    add({ ...base, path: `${beforeLast}/./${lastSegment}`, kind: 'equivalent', why: 'a "/./" segment (RFC 3986 §6.2.2.3: the same URI)' });
    add({
      ...base,
      path: `${beforeLast}/%2E/${lastSegment}`,
      kind: 'equivalent',
      why: 'a "/%2E/" segment (a "." percent-encoded: the same URI)',
    });
    add({
      ...base,
      path: `${beforeLast}/x/../${lastSegment}`,
      kind: 'equivalent',
      why: 'a "/x/../" pair (RFC 3986 §6.2.2.3: the same URI)',
    });
    add({ ...base, path: `${canonical}/.`, kind: 'unknown', why: 'a trailing "/." (the path with a trailing slash)' });
    add({ ...base, path: `${canonical}/..`, kind: 'unknown', why: 'a trailing "/.." (the parent path)' });

    // Suffixes on the last segment: another path, or a template parameter's value its schema rejects.
    const lastParameter = isLiteral(last) ? undefined : operation.parameters.find((p) => `{${p.name}}` === templateSegments[last]);
    for (const [suffix, why] of SUFFIXES) {
      const path = `${canonical}${suffix}`;
      if (!lastParameter) add({ ...base, path, kind: 'unknown', why });
      else if (!schemaAccepts(contract, lastParameter, decodeURIComponent(`${lastSegment}${suffix}`)))
        add({ ...base, path, kind: 'invalid-parameter', parameter: lastParameter.name, why: `${why} on ${lastParameter.name}` });
    }

    // Template parameters left empty, left out, or holding a "/" (a second segment) or a "%2F" (one segment, not a valid value).
    for (const parameter of operation.parameters.filter((p) => p.in === 'path')) {
      const i = templateSegments.indexOf(`{${parameter.name}}`);
      const value = exampleValue(contract, parameter) ?? 'x';
      const half = Math.ceil(value.length / 2);
      add({ ...base, path: replaced(i, ''), kind: 'unknown', why: `${parameter.name} empty` });
      add({ ...base, path: join(segments.filter((_, j) => j !== i)), kind: 'unknown', why: `${parameter.name} left out with its "/"` });
      add({
        ...base,
        path: replaced(i, `${encodeURIComponent(value.slice(0, half))}/${encodeURIComponent(value.slice(half))}`),
        kind: 'unknown',
        why: `${parameter.name} holding a "/" (two segments)`,
      });
      const encoded = `${value.slice(0, half)}/${value.slice(half)}`;
      if (!schemaAccepts(contract, parameter, encoded))
        add({
          ...base,
          path: replaced(i, encodeURIComponent(encoded)),
          kind: 'invalid-parameter',
          parameter: parameter.name,
          why: `${parameter.name} holding a "%2F" (one segment, not a valid value)`,
        });
    }

    // Parents of the template, down to the prefix every path shares.
    for (let length = segments.length - 1; length >= prefix.length && length > 0; length -= 1) {
      if (templateSegments.slice(0, length).every((_, i) => isLiteral(i)))
        add({ ...base, path: join(segments.slice(0, length)), kind: 'unknown', why: 'a parent of the path' });
    }
  }
  return found;
}

/** The rule ids each kind of near miss enforces (the sentence table maps sentences to them). */
const RULES: Record<NearMissKind, RuleId[]> = {
  unknown: ['request.path'],
  equivalent: ['request.path', 'check.path-normalisation'],
  'invalid-parameter': ['request.value', 'error.message'],
};

/** One check per near miss: the request with a valid key (where needed), so the path is its only fault. */
export function pathChecks(check: Define, contract: SpecContract): void {
  const notFound = notFoundAnswer(contract);
  for (const miss of nearMissPaths(contract)) {
    const operation = contract.operation(miss.operationId);
    const expected =
      miss.kind === 'unknown'
        ? `${notFound.status} ${notFound.codes.join('/')}, never a redirect or ${miss.operationId}'s answer`
        : miss.kind === 'equivalent'
          ? `${notFound.status} ${notFound.codes.join('/')} or ${miss.operationId}'s own answer, never a redirect`
          : `400 naming ${miss.parameter}, not ${notFound.status} or ${miss.operationId}'s answer`;
    check(
      'routing',
      `GET ${miss.path} (${miss.why}) → ${expected}`,
      async (context) => {
        const key = operation.isPublic ? 'none' : 'valid';

        const exchange = await context.send({ method: 'GET', path: miss.path, key });

        if (miss.kind === 'unknown') {
          expectErrorAnswer(context, exchange, notFound);
        } else if (miss.kind === 'invalid-parameter') {
          expectRejected(context, exchange, operationError(contract, operation, 400)!, miss.parameter!);
        } else if (exchange.status === notFound.status && notFound.codes.includes(String((exchange.json as { Code?: unknown })?.Code))) {
          expectErrorAnswer(context, exchange, notFound);
        } else {
          // Normalised to the operation's path (RFC 9110 §4.2.3 allows it): then exactly that path's answer.
          const plain = await plainAnswer(context, { method: 'GET', path: miss.canonical, key });
          context.expect(
            exchange.status === plain.status,
            exchange,
            `expected ${notFound.status} ${notFound.codes.join('/')}, or the ${plain.status} that ${miss.canonical} gets, got ${exchange.status}${exchange.status >= 300 && exchange.status < 400 ? ` (a redirect to ${exchange.headers.get('location')})` : ''}`,
          );
          expectConforming(context, exchange, { ...exchange.request, path: miss.canonical });
        }
      },
      RULES[miss.kind],
    );
  }
}
