// Every operation's plain GET, its HTTP/1.1 framing broken as RFC 9112 says a
// server MUST refuse with 400: no Host (§3.2), white space between a field
// name and its colon (§5.1), a Content-Length that is no number and a
// Transfer-Encoding whose last coding is not chunked (§6.3; a server that does
// not know the coding may answer 501, §6.1, as nginx does). Also a head larger
// than servers take (64 KiB): 400, 413 or 431, or the plain answer from a
// server that takes it. Written on the raw socket, since fetch sends none of
// these.
//
// What answers is often not the application (a gateway, the HTTP server before
// any route): its answer in its own format (an HTML page, a bare status line)
// is held to the status alone. A JSON answer is the application's, so the
// document binds it: "Every non-2xx response is an `ErrorDto`", with the
// headers and Codes the judge holds every answer to.
//
// By default only rules the HTTP stacks backends run on keep (Node, Go,
// Kestrel, Java's, nginx). Node's server takes two Host lines, a Host that is
// no host and `Transfer-Encoding: gzip`, which RFC 9112 also says to refuse,
// so a check of those would fail every correct Express backend: they are
// defined only with --strict-http (STRICT_FRAMING_FAULTS), for a deployment
// whose HTTP front refuses them (Go's server, nginx, Kestrel, our mock:
// tests/listener/hostile-input.test.ts), and then held to exactly what the
// RFC says, as the others are.
import type { CheckContext, Define, DefineOptions } from '../kit/context';
import type { ApiRequest, Exchange, KeyRole } from '../../contract/exchange';
import { judgeResponse } from '../../contract/judge';
import type { SpecContract, SpecOperation } from '../../contract/spec-contract';
import { checkOperation, examplePath } from './document';
import { describeStatus, fromHttpLayer, plainAnswer } from './expect';

/** A head larger than servers take by default (Node 16 KiB, Kestrel 32 KiB, nginx 8 KiB a line); Go takes 1 MiB. */
const OVERSIZED_HEAD = 64 * 1024;

interface FramingFault {
  /** What the request breaks, for the check's name and its messages. */
  rule: string;
  headers: Record<string, string>;
  /** The Host lines in place of the target's one (http.ts: `[]` none, `{host}` the target's host). */
  hostLines?: readonly string[];
  /** The statuses RFC 9112 allows as the answer; 'plain': also the plain GET's own status (nothing refuses it). */
  statuses: readonly (number | 'plain')[];
  /** A closed connection without an answer is allowed (no RFC sentence asks for an answer). */
  mayClose?: boolean;
}

export const FRAMING_FAULTS: readonly FramingFault[] = [
  { rule: 'an HTTP/1.1 request without Host (RFC 9112 §3.2: MUST 400)', headers: {}, hostLines: [], statuses: [400] },
  {
    rule: 'white space between a field name and its colon (RFC 9112 §5.1: MUST 400)',
    headers: { 'Accept ': 'application/json' },
    statuses: [400],
  },
  { rule: 'a Content-Length that is no number (RFC 9112 §6.3: MUST 400)', headers: { 'Content-Length': '1x' }, statuses: [400] },
  {
    rule: 'a Transfer-Encoding whose last coding is not chunked (RFC 9112 §6.3: MUST 400; §6.1: 501 for a coding not understood)',
    headers: { 'Transfer-Encoding': 'chunked, gzip' },
    statuses: [400, 501],
  },
  {
    rule: `a head over ${OVERSIZED_HEAD / 1024} KiB (RFC 9110 §15.5.14, RFC 6585 §5: 413 or 431 if refused)`,
    headers: { 'X-Contract-Suite-Padding': 'x'.repeat(OVERSIZED_HEAD) },
    statuses: ['plain', 400, 413, 431],
    mayClose: true,
  },
];

/**
 * RFC 9112 MUST-400s that Node's HTTP server takes (so every Express backend
 * answers them as a plain GET): asked only with --strict-http. FRAMING_FAULTS
 * stays what every run asks.
 */
export const STRICT_FRAMING_FAULTS: readonly FramingFault[] = [
  {
    // The same host twice: no server can take one of them as the one meant.
    rule: 'two Host lines (RFC 9112 §3.2: MUST 400)',
    headers: {},
    hostLines: ['{host}', '{host}'],
    statuses: [400],
  },
  {
    // `/` is no character of RFC 3986's host; Go's, nginx's and Kestrel's checks of Host all refuse it.
    rule: 'a Host that is no host and port (RFC 9112 §3.2, RFC 3986 §3.2.2: MUST 400)',
    headers: {},
    hostLines: ['exa/mple'],
    statuses: [400],
  },
  {
    rule: 'a Transfer-Encoding of gzip alone, its last coding not chunked (RFC 9112 §6.3: MUST 400; §6.1: 501 for a coding not understood)',
    headers: { 'Transfer-Encoding': 'gzip' },
    statuses: [400, 501],
  },
];

/** The faults a run asks: FRAMING_FAULTS, and with --strict-http the ones Node's server takes. */
export function framingFaults(options: DefineOptions = {}): readonly FramingFault[] {
  return options.strictHttp ? [...FRAMING_FAULTS, ...STRICT_FRAMING_FAULTS] : FRAMING_FAULTS;
}

/**
 * A JSON answer is the application's: the judge's rules for an answer whose
 * allowed statuses are the fault's, and for a status the operation does not
 * document (431, 501), the document's ErrorDto (its 400's schema).
 */
function expectApplicationAnswer(
  context: CheckContext,
  exchange: Exchange,
  operation: SpecOperation,
  statuses: readonly number[],
  rule: string,
): void {
  const judged = { ...context.judge(exchange.request, exchange.url), violations: [], allowedStatuses: statuses, why: rule, offending: [] };
  // Date (RFC 9110 §6.6.1) aside: an answer written before any route runs seldom has it (Node's and Go's own have none).
  const violations = judgeResponse(context.contract, judged, exchange, undefined, { applied: context.applied }).filter(
    (violation) => violation.rule !== 'response.date',
  );
  if (violations.length > 0) context.failWith(exchange, violations);
  const documented = context.contract.response(operation, exchange.status);
  if (exchange.status < 400 || (documented && documented.key === String(exchange.status))) return;
  const errorResponse = context.contract.response(operation, 400);
  if (!errorResponse) return;
  const schema = `${errorResponse.pointer}/content/application~1json/schema`;
  if (!context.contract.tryResolve(schema)) return;
  const validate = context.contract.validator(schema);
  context.expect(
    validate(exchange.json) === true,
    exchange,
    `the ${exchange.status} is JSON but no ErrorDto ("Every non-2xx response is an ErrorDto"): ${(validate.errors ?? [])
      .map((error) => `${error.instancePath || '/'} ${error.message ?? ''}`)
      .join('; ')}`,
    'response.schema',
  );
}

function operationChecks(check: Define, contract: SpecContract, operation: SpecOperation, faults: readonly FramingFault[]): void {
  const path = examplePath(contract, operation);
  const key: KeyRole = operation.isPublic ? 'none' : 'valid';
  for (const fault of faults) {
    const allowed = fault.statuses.map((status) => (status === 'plain' ? 'the plain GET answer' : String(status))).join(' or ');
    check(
      checkOperation(operation),
      `GET ${path} with ${fault.rule} → ${allowed}${fault.mayClose ? ', or closed' : ''}; an ErrorDto if the answer is JSON`,
      async (context) => {
        const request: ApiRequest = {
          method: 'GET',
          path,
          key,
          headers: fault.headers,
          framing: { rule: fault.rule, hostLines: fault.hostLines },
        };
        const plain = fault.statuses.includes('plain') ? (await plainAnswer(context, { method: 'GET', path, key })).status : undefined;
        const statuses = fault.statuses.map((status) => (status === 'plain' ? plain! : status));

        const exchange = await context.send(request);

        // Closed without a byte: allowed where no RFC sentence asks for an answer; bytes that are no HTTP answer never are.
        if (exchange.status === 0 && exchange.bytes.length === 0 && fault.mayClose) return context.held('check.framing');
        context.expect(
          statuses.includes(exchange.status),
          exchange,
          `expected ${statuses.join(' or ')} for ${fault.rule}, got ${describeStatus(exchange)}`,
          'check.framing',
        );
        // An HTTP layer's own answer (a gateway's page, a bare status line): the document binds what the application answers.
        if (!fromHttpLayer(exchange)) expectApplicationAnswer(context, exchange, operation, statuses, fault.rule);
      },
      ['check.framing'],
    );
  }
}

export function framingChecks(check: Define, contract: SpecContract, options: DefineOptions = {}): void {
  const faults = framingFaults(options);
  for (const operation of contract.operations) operationChecks(check, contract, operation, faults);
}
