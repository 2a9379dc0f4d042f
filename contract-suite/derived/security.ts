// Every security scheme on every operation it secures: the credential works
// where the scheme declares it (a header name in any case: RFC 9110 §5.1 makes
// field names case-insensitive), and nowhere else. The same key in another
// header, in `Authorization` (Bearer, or bare), in the query or in a cookie is
// no credential, so the request is the error table's 401 (a key in the query
// is also an undocumented parameter: the document orders neither first, so 400
// naming it is right too). A missing and an unknown key are 401. Operations
// with an empty security requirement need none.
import type { Define } from '../kit/context';
import type { ApiRequest, KeyPlacement, KeyRole } from '../../contract/exchange';
import type { ApiKeyCredential, SpecContract } from '../../contract/spec-contract';
import { checkOperation, examplePath, operationError } from './document';
import { expectAccepted, expectErrorAnswer, expectRejected } from './expect';

interface Placement {
  why: string;
  key: KeyRole;
  keyAt?: KeyPlacement;
  /** The name a 400 may give (a key in the query is also an undocumented query parameter). */
  queryName?: string;
}

/** The key everywhere the scheme does not put it: other header names, Authorization, the query, a cookie. */
export function elsewhere(scheme: ApiKeyCredential): Placement[] {
  const bare = scheme.name.replace(/^X-/i, '');
  const snake = bare.replace(/-/g, '_').toLowerCase();
  const camel = bare.replace(/-(\w)/g, (_m, c: string) => c.toUpperCase()).replace(/^\w/, (c) => c.toLowerCase());
  const placements: Placement[] = [];
  const header = (name: string, why: string, prefix?: string) => {
    if (!(scheme.in === 'header' && name.toLowerCase() === scheme.name.toLowerCase()))
      placements.push({ why, key: 'none', keyAt: { in: 'header', name, prefix } });
  };
  header(bare, `the header ${bare} (no X- prefix)`);
  header(scheme.name.replace(/-/g, '_'), `the header ${scheme.name.replace(/-/g, '_')} (underscores)`);
  header('Authorization', 'Authorization: Bearer', 'Bearer ');
  header('Authorization', 'Authorization without a scheme');
  for (const name of [scheme.name, snake, camel])
    if (!(scheme.in === 'query' && name === scheme.name) && !placements.some((p) => p.keyAt?.in === 'query' && p.keyAt.name === name))
      placements.push({ why: `the query parameter ${name}`, key: 'none', keyAt: { in: 'query', name }, queryName: name });
  if (scheme.in !== 'cookie') placements.push({ why: `a cookie ${scheme.name}`, key: 'none', keyAt: { in: 'cookie', name: scheme.name } });
  // Duplicate whys (two Authorization forms have their own) are kept apart by their text.
  return placements.filter((p, i) => placements.findIndex((q) => q.why === p.why) === i);
}

export function securityChecks(check: Define, contract: SpecContract): void {
  for (const operation of contract.operations) {
    const path = examplePath(contract, operation);
    const id = checkOperation(operation);
    if (operation.isPublic) {
      check(
        id,
        `GET ${path} with no credential → accepted (security: [] — public)`,
        async (context) => {
          const exchange = await context.send({ method: 'GET', path, key: 'none' });

          expectAccepted(context, exchange, operation);
        },
        // expectAccepted holds the status to an accepted one: the assertion check.public stands on.
        ['check.public', 'response.status'],
      );
      continue;
    }
    const unauthorized = operationError(contract, operation, 401);
    if (!unauthorized) continue;
    const answer = `${unauthorized.status} ${unauthorized.codes.join('/')}`;
    // The apiKey credentials the operation's security requires (http and oauth2 schemes derive nothing here).
    for (const scheme of operation.credentials) {
      if (scheme.in === 'header') {
        const names = [scheme.name.toLowerCase(), scheme.name.toUpperCase()].filter((name) => name !== scheme.name);
        check(
          id,
          `GET ${path} with the key in ${names.join(' / ')} → accepted (${scheme.scheme}: header names are case-insensitive)`,
          async (context) => {
            for (const name of names) {
              // On the raw socket: fetch would send the name in its own case.
              const exchange = await context.send({ method: 'GET', path, key: 'none', keyAt: { in: 'header', name }, raw: true });

              expectAccepted(context, exchange, operation);
            }
          },
          ['request.key-missing', 'check.key-header-case'],
        );
      }
      for (const [key, why] of [
        ['none', 'no key'],
        ['wrong', 'an unknown key'],
      ] as const) {
        check(
          id,
          `GET ${path} with ${why} in ${scheme.name} → ${answer} (${scheme.scheme})`,
          async (context) => {
            const exchange = await context.send({ method: 'GET', path, key });

            expectErrorAnswer(context, exchange, unauthorized);
          },
          [key === 'none' ? 'request.key-missing' : 'request.key-unknown'],
        );
      }
      for (const placement of elsewhere(scheme)) {
        const also = placement.queryName ? `, or 400 naming ${placement.queryName}` : '';
        check(
          id,
          `GET ${path} with the key in ${placement.why}, not in ${scheme.name} → ${answer}${also} (${scheme.scheme})`,
          async (context) => {
            const request: ApiRequest = { method: 'GET', path, key: placement.key, keyAt: placement.keyAt };

            const exchange = await context.send(request);

            const rejection = operationError(contract, operation, 400);
            if (placement.queryName && rejection && exchange.status === rejection.status)
              expectRejected(context, exchange, rejection, placement.queryName);
            else expectErrorAnswer(context, exchange, unauthorized);
          },
          ['request.key-missing', 'check.key-elsewhere'],
        );
      }
    }
  }
}
