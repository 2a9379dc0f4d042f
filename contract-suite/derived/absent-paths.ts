// Paths the document does not have, asked with every method: the error table's 404 ("no such path") answers
// them all, whatever the method, since its 405 is for "any method but GET on a known path". A router that
// matches the method before the path answers `POST /api/v1/Nope` with 405, which only GET near misses (paths.ts)
// would never show. The paths: each operation's path with a trailing slash and with its literal segments in lower
// case (the near misses stacks forgive most), and a path below and beside the prefix every path shares.
// As on a known path (methods.ts), CONNECT may be refused as malformed, TRACE by a front's own page, and a method
// no stack knows before any route.
import type { Define } from '../kit/context';
import type { KeyRole } from '../../contract/exchange';
import type { SpecContract } from '../../contract/spec-contract';
import { EXTENSION_METHOD, examplePath, notFoundAnswer, RFC_METHODS, UNKNOWN_METHOD } from './document';
import { describeStatus, expectErrorAnswer, expectRefusedByFront, expectUnknownMethodAnswer, fromHttpLayer } from './expect';

/** A segment no document of this API names. */
const NO_SUCH_SEGMENT = 'contract-suite-no-such-path';

export interface AbsentPath {
  path: string;
  why: string;
  /** The key the nearest operation needs, so the path is the request's only fault. */
  key: KeyRole;
}

/** The literal segments every template starts with (`/api/v1`). */
function sharedPrefix(templates: readonly string[]): string {
  const split = templates.map((template) => template.split('/').slice(1));
  const prefix: string[] = [];
  for (const [i, segment] of (split[0] ?? []).entries()) {
    if (segment.startsWith('{') || !split.every((segments) => segments[i] === segment && i < segments.length - 1)) break;
    prefix.push(segment);
  }
  return prefix.map((segment) => `/${segment}`).join('');
}

/** The paths the checks ask every method: none of them is a path of the document. */
export function absentPaths(contract: SpecContract): AbsentPath[] {
  const found: AbsentPath[] = [];
  const add = (candidate: AbsentPath) => {
    if (contract.findOperation(candidate.path) || found.some((other) => other.path === candidate.path)) return;
    found.push(candidate);
  };
  for (const operation of contract.operations) {
    const path = examplePath(contract, operation);
    const key: KeyRole = operation.isPublic ? 'none' : 'valid';
    add({ path: `${path}/`, why: `${operation.operationId}'s path with a trailing slash`, key });
    const lowered = operation.template
      .split('/')
      .map((segment, i) => (segment.startsWith('{') ? path.split('/')[i]! : segment.toLowerCase()))
      .join('/');
    add({ path: lowered, why: `${operation.operationId}'s path in lower case`, key });
  }
  const prefix = sharedPrefix(contract.operations.map((operation) => operation.template));
  add({ path: `${prefix}/${NO_SUCH_SEGMENT}`, why: 'a path below the shared prefix', key: 'valid' });
  if (prefix !== '') add({ path: `/${NO_SUCH_SEGMENT}`, why: 'a path outside the shared prefix', key: 'valid' });
  return found;
}

/** One check per method: every absent path asked with it. */
export function absentPathChecks(check: Define, contract: SpecContract): void {
  const notFound = notFoundAnswer(contract);
  const answer = `${notFound.status} ${notFound.codes.join('/')}`;
  const paths = absentPaths(contract);
  const shown = paths.map((p) => p.path).join(', ');
  for (const method of [...RFC_METHODS, EXTENSION_METHOD, UNKNOWN_METHOD]) {
    const also =
      method === 'CONNECT'
        ? ', or refused as a CONNECT before any route (400, 405, 501, or the connection closed)'
        : method === 'TRACE'
          ? ", or a front's own 405 page"
          : method === UNKNOWN_METHOD
            ? ' (a method no stack knows), or refused before any route (501 or 400)'
            : method === 'HEAD'
              ? ', no content'
              : '';
    check(
      'routing',
      `${method} on paths the document does not have (${shown}) → ${answer}${also}, never 405 or a redirect`,
      async (context) => {
        for (const { path, key } of paths) {
          // HEAD and CONNECT on the raw socket: content after a HEAD answer is seen, and fetch refuses CONNECT.
          const exchange = await context.send({ method, path, key, raw: method === 'HEAD' ? true : undefined });

          if (method === 'CONNECT') {
            // RFC 9112 §3.2.3: a CONNECT's target is host:port, never a path: closing is a refusal (bytes that are no
            // HTTP answer are not), and so is a 405 from a server that takes no CONNECT, before any route.
            if (exchange.status === 0 && exchange.bytes.length === 0) {
              context.held('request.path');
              continue;
            }
            context.expect(exchange.status !== 0, exchange, `expected ${answer}, got ${describeStatus(exchange)}`, 'response.status');
            if (fromHttpLayer(exchange)) expectRefusedByFront(context, exchange, [notFound.status, 400, 405, 501], answer);
            else expectUnknownMethodAnswer(context, exchange, notFound, () => expectErrorAnswer(context, exchange, notFound), [405]);
          } else if (method === 'TRACE' && fromHttpLayer(exchange)) {
            expectRefusedByFront(context, exchange, [notFound.status, 405], answer);
          } else if (method === UNKNOWN_METHOD) {
            expectUnknownMethodAnswer(context, exchange, notFound, () => expectErrorAnswer(context, exchange, notFound));
          } else {
            expectErrorAnswer(context, exchange, notFound);
            if (method === 'HEAD')
              context.expect(
                !exchange.unexpectedContent,
                exchange,
                `${exchange.unexpectedContent} bytes of content after the answer to HEAD (RFC 9110 §9.3.2: never content)`,
                'check.head-no-content',
              );
          }
        }
      },
      // response.status: a refusal before any route is held to its status alone (expectRefusedByFront, expectUnknownMethodAnswer).
      method === 'HEAD' ? ['request.path', 'check.head-no-content'] : ['request.path', 'response.status'],
    );
  }
}
