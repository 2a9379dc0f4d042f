// Every header parameter and every credential header, in the forms HTTP allows a field to take on the wire, each
// read as RFC 9110 reads it: absent (the other checks), empty, white space only (§5.5: white space around a value is
// no part of it, so that is an empty value), a value with white space around it (the value itself), and on two
// lines (§5.3). What the document then says decides the answer:
//   - a credential empty or blank is no key: the error table's 401 ("missing or unknown X-Api-Key"), never a 400;
//     the key with white space around it is the key; the key on two lines is a singleton field repeated, which the
//     document leaves open (the key taken, refused as unknown, or the request refused naming the header);
//   - a header parameter empty or blank gets what its schema says of an empty value (the plain answer when it takes
//     one, else 400 naming it, or the plain answer again where the document says a deployment ignores the header);
//     one of its own examples with white space around it, or on two lines, gets what that example gets alone (or,
//     on two lines, a 400 naming it: the document does not make the header a list).
// The requests go on the raw socket (their lines exactly as written: fetch would trim, join or refuse them).
import type { Define } from '../kit/context';
import type { ApiRequest, KeyRole } from '../../contract/exchange';
import { judgeRequest } from '../../contract/judge';
import type { SpecContract, SpecOperation, SpecParameter } from '../../contract/spec-contract';
import { checkOperation, examplePath, operationError, schemaAccepts } from './document';
import { expectAccepted, expectConforming, expectErrorAnswer, expectRejected } from './expect';

/** White space only: spaces and a tab, the optional white space RFC 9110 §5.6.3 allows. */
const BLANK = ' \t ';
/** `{key}` stands for the target's key in a request's own lines (kit/http.ts). */
const KEY = '{key}';

/**
 * The example of a header parameter the checks send: the first whose answer the document makes differ from the
 * plain request's (its allowed statuses change: `code=500` for Prefer), so reading it wrong shows; else the first.
 */
export function telltaleExample(contract: SpecContract, operation: SpecOperation, parameter: SpecParameter): string | undefined {
  const examples = parameter.examples.filter((value): value is string => typeof value === 'string');
  const path = examplePath(contract, operation);
  const credentials = Object.fromEntries(operation.credentials.filter((c) => c.in === 'header').map((c) => [c.name, 'key']));
  const allowed = (headers: Record<string, string>) =>
    judgeRequest(contract, { method: 'GET', path, headers: { ...credentials, ...headers }, keyAccepted: true }).allowedStatuses.join();
  const plain = allowed({});
  return examples.find((value) => allowed({ [parameter.name]: value }) !== plain) ?? examples[0];
}

function credentialChecks(check: Define, contract: SpecContract, operation: SpecOperation): void {
  const unauthorized = operationError(contract, operation, 401);
  const rejection = operationError(contract, operation, 400);
  if (!unauthorized || operation.isPublic) return;
  const path = examplePath(contract, operation);
  for (const credential of operation.credentials.filter((c) => c.in === 'header')) {
    const name = credential.name;
    const request = (lines: [string, string][]): ApiRequest => ({ method: 'GET', path, key: 'none', lines });
    check(
      checkOperation(operation),
      `GET ${operation.template} with ${name} empty or white space only → ${unauthorized.status} ${unauthorized.codes.join('/')}; with white space around the key → accepted; the key on two lines → accepted, ${unauthorized.status} or 400 naming ${name} (RFC 9110 §5.3, §5.5)`,
      async (context) => {
        for (const value of ['', BLANK]) {
          const exchange = await context.send(request([[name, value]]));

          expectErrorAnswer(context, exchange, unauthorized);
        }
        const spaced = await context.send(request([[name, ` \t${KEY}\t `]]));
        expectAccepted(context, spaced, operation);

        const twice = await context.send(
          request([
            [name, KEY],
            [name, KEY],
          ]),
        );
        if (twice.status === unauthorized.status) expectErrorAnswer(context, twice, unauthorized);
        else if (rejection && twice.status === rejection.status) expectRejected(context, twice, rejection, name);
        else expectAccepted(context, twice, operation);
      },
      ['request.key-missing', 'request.key-unknown', 'check.header-forms'],
    );
  }
}

function parameterChecks(check: Define, contract: SpecContract, operation: SpecOperation, parameter: SpecParameter): void {
  const rejection = operationError(contract, operation, 400);
  const example = telltaleExample(contract, operation, parameter);
  if (!rejection || example === undefined) return;
  const path = examplePath(contract, operation);
  const key: KeyRole = operation.isPublic ? 'none' : 'valid';
  const name = parameter.name;
  const emptyTaken = schemaAccepts(contract, parameter, '');
  const blank = emptyTaken
    ? 'the answer without it'
    : `${rejection.status} naming ${name}${parameter.ignoredByDeployment ? ' (or the answer without it: a deployment ignores it)' : ''}`;
  check(
    checkOperation(operation),
    `GET ${operation.template} with ${name} empty or white space only → ${blank}; ${name}: ${example} with white space around it or on two lines → what ${example} gets alone (two lines: or 400 naming ${name}) (RFC 9110 §5.3, §5.5)`,
    async (context) => {
      const plain = await context.call({ method: 'GET', path, key });
      const alone = await context.call({ method: 'GET', path, key, headers: { [name]: example } });

      for (const value of ['', BLANK]) {
        const exchange = await context.send({ method: 'GET', path, key, lines: [[name, value]] });

        if (emptyTaken || (parameter.ignoredByDeployment && exchange.status !== rejection.status)) {
          context.expect(
            exchange.status === plain.status,
            exchange,
            `${name} ${value === '' ? 'empty' : 'of white space only'} got ${exchange.status}; without it ${plain.status}`,
            'check.header-forms',
          );
          expectConforming(context, exchange);
        } else expectRejected(context, exchange, rejection, name);
      }
      const spaced = await context.send({ method: 'GET', path, key, lines: [[name, ` \t${example}\t `]] });
      context.expect(
        spaced.status === alone.status,
        spaced,
        `${name}: ${example} with white space around it got ${spaced.status}; alone ${alone.status}`,
        'check.header-forms',
      );
      expectConforming(context, spaced);

      const twice = await context.send({
        method: 'GET',
        path,
        key,
        lines: [
          [name, example],
          [name, example],
        ],
      });
      if (twice.status === rejection.status && alone.status !== rejection.status) expectRejected(context, twice, rejection, name);
      else {
        context.expect(
          twice.status === alone.status,
          twice,
          `${name}: ${example} on two lines got ${twice.status}; on one line ${alone.status}`,
          'check.header-forms',
        );
        expectConforming(context, twice);
      }
    },
    ['request.value', 'check.header-forms'],
  );
}

export function headerFormChecks(check: Define, contract: SpecContract): void {
  for (const operation of contract.operations) {
    credentialChecks(check, contract, operation);
    for (const parameter of operation.parameters.filter((p) => p.in === 'header')) parameterChecks(check, contract, operation, parameter);
  }
}
