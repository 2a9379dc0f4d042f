// The mock's control API (control.openapi.yaml), checked when `--control` asks:
// the scenarios a frontend team switches to test its error and empty states
// (down, unauthorised, slow, flaky, and one per named example of openapi.yaml)
// must do what that document says, or a team's tests of those states test
// nothing. Only a deployment of our mock has these paths; a target without
// them skips every check here with that reason, never fails.
//
// What is asked is derived where the documents say it: the scenario table the
// target serves (GET /__control/scenarios: each row's kind, operations and
// parameters), openapi.yaml's named examples (a scenario made of one answers
// "as `Prefer: example=NAME` would": the suite sends both and compares), and
// the table's kinds as control.openapi.yaml describes them. Each answer is
// also judged against openapi.yaml as the request it stands for: an example
// scenario's as the `Prefer: example` request, an `unauthorised` answer as the
// answer to a key that is not accepted.
//
// Every scenario is chosen per request (`X-Mock-Scenario`, in a session of the
// suite's own when a sequence matters), never for the server: a mock shared
// by a team is not switched under its other users.
import { isDeepStrictEqual } from 'node:util';
import type { components } from '../../generated/control';
import type { ErrorDto } from '../../contract/wire-types';
import { UNKNOWN_ID, judgedInput, type CheckContext, type Define } from '../kit/context';
import type { ApiRequest, Exchange, KeyRole } from '../../contract/exchange';
import { headerList, noAllowOrigin, TIMER_SLACK_MS } from './cross-cutting';
import { ExchangeMemory, headerOf, judgeRequest, judgeResponse, type RuleId } from '../../contract/judge';
import type { SpecOperation } from '../../contract/spec-contract';

type ScenarioTable = components['schemas']['ScenarioTable'];
type ScenarioDefinition = components['schemas']['ScenarioDefinition'];

/** control.openapi.yaml, "The reserved prefix": every path of that document begins with it. */
const CONTROL_PREFIX = '/__control';
/** The control document's own header names (its Sessions and Scenarios sections). */
const SESSION_HEADER = 'X-Mock-Session';
const SCENARIO_HEADER = 'X-Mock-Scenario';

/** The operations an OpenAPI path item may hold (its other keys are parameters, summary and the like). */
const HTTP_METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

/** `slow`'s delays asked for: short, so the check costs a second, and wide enough to show their spread. */
const SLOW = { min: 120, max: 480 } as const;
/** Samples of `slow`: the chance that a correct mock draws every one below the middle of the range is about 2^-16. */
const SLOW_SAMPLES = 16;
/** `flaky`'s rate and seed asked for, and the requests of one sequence. */
const FLAKY = { rate: 0.25, seed: 7, requests: 48 } as const;
/**
 * Failures allowed in FLAKY.requests draws at FLAKY.rate: outside, a correct mock would land with a chance below
 * 10^-5 (a binomial, mean 12); a rate read as 1 - rate (mean 36) or as never or always lands outside.
 */
const FLAKY_BOUNDS = { min: 1, max: 26 } as const;
/** Requests asked at rate=0 and rate=1, where none and all must fail. */
const FLAKY_EDGE_REQUESTS = 6;

/** The table as the target serves it, or why it serves none; fetched once per run. */
const tables = new WeakMap<CheckContext, Promise<ScenarioTable | { none: string }>>();

function scenarioTable(context: CheckContext): Promise<ScenarioTable | { none: string }> {
  let table = tables.get(context);
  if (!table) {
    table = context.send({ method: 'GET', path: `${CONTROL_PREFIX}/scenarios`, key: 'none' }).then((exchange) => {
      const body = exchange.json as Partial<ScenarioTable> | undefined;
      if (exchange.status !== 200 || !Array.isArray(body?.scenarios))
        return {
          none:
            `the target has no control API (GET ${CONTROL_PREFIX}/scenarios answered ${exchange.status}` +
            `${exchange.status === 200 ? ' without a scenario table' : ''}): control.openapi.yaml is our mock's, ` +
            'a deployment of the API has none (or runs with --control off)',
        };
      // A row the checks cannot read is the table check's failure; the others take the rows they can read.
      return { ...body, scenarios: body!.scenarios!.filter(isRow) } as ScenarioTable;
    });
    tables.set(context, table);
  }
  return table;
}

/** A row with what every check reads of it (control.openapi.yaml, ScenarioDefinition). */
function isRow(row: unknown): row is ScenarioDefinition {
  const candidate = row as Partial<ScenarioDefinition> | null;
  return (
    typeof candidate?.name === 'string' &&
    typeof candidate.kind === 'string' &&
    Array.isArray(candidate.operations) &&
    candidate.operations.every((operation) => typeof operation === 'string')
  );
}

/** The control document the target serves (control.openapi.yaml, getControlDocumentJson); fetched once per run. */
interface ControlDocument {
  paths?: Record<string, Record<string, unknown>>;
  components?: { schemas?: { ScenarioName?: { pattern?: unknown }; ScenarioKind?: { enum?: unknown } } };
}
const documents = new WeakMap<CheckContext, Promise<{ exchange: Exchange; document?: ControlDocument }>>();

/** The served control document, or a failure naming its path: a target with a scenario table serves it too. */
async function controlDocument(context: CheckContext, rule: RuleId): Promise<ControlDocument> {
  let served = documents.get(context);
  if (!served) {
    served = context.send({ method: 'GET', path: `${CONTROL_PREFIX}/openapi.json`, key: 'none' }).then((exchange) => ({
      exchange,
      document: exchange.status === 200 ? (exchange.json as ControlDocument | undefined) : undefined,
    }));
    documents.set(context, served);
  }
  const { exchange, document } = await served;
  context.expect(
    document?.paths !== undefined,
    exchange,
    `the control API serves its document at ${CONTROL_PREFIX}/openapi.json (control.openapi.yaml, getControlDocumentJson); got ${exchange.status}`,
    rule,
  );
  return document!;
}

/** The served table, or a skip with why there is none. */
async function servedTable(context: CheckContext): Promise<ScenarioTable> {
  const table = await scenarioTable(context);
  return 'none' in table ? context.skip(table.none) : table;
}

/** The table's row of a kind, or a skip (the table check fails a table without it). */
async function rowOfKind(context: CheckContext, kind: ScenarioDefinition['kind']): Promise<ScenarioDefinition> {
  const row = (await servedTable(context)).scenarios.find((scenario) => scenario.kind === kind);
  return row ?? context.skip(`the scenario table has no ${kind} scenario (the table's own check says so)`);
}

/** The Client operations (openapi.yaml: those that need a key; the diagnostics are public and never changed); a skip without any. */
function clientOperations(context: CheckContext): SpecOperation[] {
  const operations = context.contract.operations.filter((operation) => !operation.isPublic);
  return operations.length > 0 ? operations : context.skip('the document has no operation that needs a key: no scenario changes anything');
}
const diagnostics = (context: CheckContext) => context.contract.operations.filter((operation) => operation.isPublic);

/** The named examples of an operation's 2xx answers, by name, with their status (as the table derives its rows). */
function successExamples(context: CheckContext, operation: SpecOperation): Map<string, number> {
  const names = new Map<string, number>();
  for (const status of operation.statuses) {
    if (!/^2\d\d$/.test(status)) continue;
    const content = context.contract.response(operation, Number(status))?.node.content as
      Record<string, { examples?: Record<string, unknown> }> | undefined;
    for (const name of Object.keys(content?.['application/json']?.examples ?? {})) if (!names.has(name)) names.set(name, Number(status));
  }
  return names;
}

/** A listed client's id, looked up once a run (or an unknown uuid on an empty list: an example answers whatever id). */
const clientIds = new WeakMap<CheckContext, Promise<string>>();

/**
 * The lookup is asked with `Prefer: code=200` in `normal`: the mock's ERROR_RATE may fail any usual request
 * (`normal` keeps it), and Prefer overrides that failure; a deployment that ignores Prefer answers the list as usual.
 */
function someClientId(context: CheckContext): Promise<string> {
  let id = clientIds.get(context);
  if (!id) {
    const list = context.contract.operations.find((operation) => !operation.isPublic && !/\{\w+\}/.test(operation.template));
    id = list
      ? context
          .send(inScenario({ method: 'GET', path: `${list.template}?pageSize=1`, key: 'valid', headers: { Prefer: 'code=200' } }, 'normal'))
          .then((exchange) => {
            const first = (exchange.json as { Results?: { IdClient?: unknown }[] } | undefined)?.Results?.[0]?.IdClient;
            return exchange.status === 200 && typeof first === 'string' ? first : UNKNOWN_ID;
          })
      : Promise.resolve(UNKNOWN_ID);
    clientIds.set(context, id);
  }
  return id;
}

/** The operation's plain GET: a listed client's id in a template (or an unknown one: an example answers whatever id). */
async function plainRequest(context: CheckContext, operation: SpecOperation, key: KeyRole = 'valid'): Promise<ApiRequest> {
  const id = await someClientId(context);
  const path = operation.template.replace(/\{\w+\}/g, () => id);
  return { method: 'GET', path, key: operation.isPublic ? 'none' : key };
}

const withHeaders = (request: ApiRequest, headers: Record<string, string>): ApiRequest => ({
  ...request,
  headers: { ...request.headers, ...headers },
});
const inScenario = (request: ApiRequest, scenario: string, session?: string) =>
  withHeaders(request, { [SCENARIO_HEADER]: scenario, ...(session === undefined ? {} : { [SESSION_HEADER]: session }) });

/**
 * Sends `request` and holds its answer to openapi.yaml as the answer to `as`, the request the control document
 * says it stands for; the judge's memory is the check's own, so an example's rows are never taken for the data.
 */
async function callAs(
  context: CheckContext,
  request: ApiRequest,
  as: ApiRequest | ((exchange: Exchange) => ApiRequest),
  memory: ExchangeMemory,
): Promise<Exchange> {
  const exchange = await context.send(request);
  const standsFor = typeof as === 'function' ? as(exchange) : as;
  const judged = judgeRequest(context.contract, judgedInput(context.target, standsFor, exchange.url), { applied: context.applied });
  const violations = judgeResponse(context.contract, judged, exchange, memory, { applied: context.applied });
  if (violations.length > 0) context.failWith(exchange, violations);
  return exchange;
}

const codeOf = (exchange: Exchange) => (exchange.json as Partial<ErrorDto> | undefined)?.Code;
const messageOf = (exchange: Exchange) => String((exchange.json as Partial<ErrorDto> | undefined)?.Message);

/** control.openapi.yaml, Scenarios: "An answer a scenario makes fail says so" (and one of ERROR_RATE), so a log tells it from a real one. */
const simulatedBy = (cause: string) => `(simulated: ${cause})`;
function expectSimulated(context: CheckContext, exchange: Exchange, cause: string): void {
  context.expect(
    messageOf(exchange).endsWith(simulatedBy(cause)),
    exchange,
    `a failure made by ${cause} says so: its Message should end with ${JSON.stringify(simulatedBy(cause))}; it is ${JSON.stringify(messageOf(exchange))}`,
    'control.simulated',
  );
}

/** A simulated failure stands for the request that asks for one (openapi.yaml's Prefer: code=500). */
const failing = (request: ApiRequest) => withHeaders(request, { Prefer: 'code=500' });

/**
 * A request's judge: as itself, or, for a failure marked as the server's ERROR_RATE's (which `normal` and the
 * example scenarios keep), as the request that asks for one. Any other 500 is judged as the plain request's answer.
 */
const asItself =
  (request: ApiRequest) =>
  (exchange: Exchange): ApiRequest =>
    exchange.status === 500 && messageOf(exchange).endsWith(simulatedBy('ERROR_RATE')) ? failing(request) : request;

/** Asks of the usual answer at most this often: ERROR_RATE's failures are drawn anew each time. */
const USUAL_ATTEMPTS = 12;

/**
 * The request's answer outside any scenario, for a comparison: `normal` keeps LATENCY_MS and ERROR_RATE (the
 * scenario table says so), so a simulated 500 is asked again; a server that fails every attempt skips the check.
 */
async function usualAnswer(context: CheckContext, request: ApiRequest, memory: ExchangeMemory): Promise<Exchange> {
  for (let attempt = 1; ; attempt += 1) {
    const answer = await callAs(context, inScenario(request, 'normal'), asItself(request), memory);
    if (answer.status !== 500 || codeOf(answer) !== 'INTERNAL_ERROR') return answer;
    expectSimulated(context, answer, 'ERROR_RATE');
    if (attempt === USUAL_ATTEMPTS)
      context.skip(
        `${request.path} failed ${USUAL_ATTEMPTS} times in a row outside any scenario (the server's ERROR_RATE?): no usual answer to compare with`,
      );
  }
}

/** Two answers alike as a client reads them: status, body, and the paging headers. */
function sameAnswer(a: Exchange, b: Exchange): boolean {
  return (
    a.status === b.status &&
    isDeepStrictEqual(a.json, b.json) &&
    ['X-Total-Count', 'Link'].every((name) => headerOf(a.headers, name) === headerOf(b.headers, name))
  );
}

/** A session name of this run's own (control.openapi.yaml: sessions need not be created), forgotten again after. */
function sessionName(purpose: string): string {
  return `contract-suite-${purpose}-${process.pid}-${Date.now().toString(36)}`;
}

/**
 * A sequence is one process's (control.openapi.yaml, "More than one process": replicas share nothing): when the
 * journal shows the session's requests answered by more than one process, the sequence checks skip, saying why.
 */
async function oneProcess(context: CheckContext, session: string, scenario: string): Promise<void> {
  const journal = await context.send({ method: 'GET', path: `${CONTROL_PREFIX}/journal?session=${session}`, key: 'none' });
  const entries = (journal.json as { entries?: { process?: { host?: unknown; pid?: unknown } }[] } | undefined)?.entries ?? [];
  const processes = new Set(entries.map((entry) => `${String(entry.process?.host)}:${String(entry.process?.pid)}`));
  if (processes.size > 1)
    context.skip(
      `the requests of scenario ${scenario} were answered by ${processes.size} processes (replicas or workers behind a balancer): ` +
        "a sequence is one process's, so its rate and replay cannot be checked here",
    );
}

async function forget(context: CheckContext, session: string): Promise<void> {
  // Tidying only: a failure here must not replace what the check found.
  await context.send({ method: 'DELETE', path: `${CONTROL_PREFIX}/sessions/${session}`, key: 'none' }).catch(() => undefined);
}

export function controlChecks(check: Define): void {
  check(
    'control',
    `GET ${CONTROL_PREFIX}/scenarios (control.openapi.yaml) → normal, down, slow, flaky and unauthorised, and one scenario for every named example of a Client operation's 2xx answer, naming the operations that have it`,
    async (context) => {
      const table = await servedTable(context);
      const exchange = await context.send({ method: 'GET', path: `${CONTROL_PREFIX}/scenarios`, key: 'none' });
      const served = (exchange.json as { scenarios?: unknown[] } | undefined)?.scenarios ?? [];
      context.expect(
        served.every(isRow),
        exchange,
        `every row of the scenario table has a name, a kind and its operations (control.openapi.yaml, ScenarioDefinition); ${served.filter((row) => !isRow(row)).length} do not`,
        'control.table',
      );
      // Every kind the document names has its row ('example' rows are derived from openapi.yaml below).
      const document = await controlDocument(context, 'control.table');
      const kinds = document.components?.schemas?.ScenarioKind?.enum;
      context.expect(Array.isArray(kinds), exchange, 'the control document names the scenario kinds (ScenarioKind)', 'control.table');
      for (const kind of (kinds as string[]).filter((name) => name !== 'example'))
        context.expect(
          table.scenarios.some((row) => row.kind === kind),
          exchange,
          `the scenario table has no ${kind} scenario (control.openapi.yaml, Scenarios)`,
          'control.table',
        );
      // An example named as a built-in scenario is that built-in, and a name no header could carry is no scenario
      // (control.openapi.yaml, Scenarios; ScenarioName's pattern as the target's own document states it).
      const builtIn = new Set(table.scenarios.filter((row) => row.kind !== 'example').map((row) => row.name));
      const pattern = document.components?.schemas?.ScenarioName?.pattern;
      const carried = typeof pattern === 'string' ? new RegExp(pattern, 'u') : /^[A-Za-z][A-Za-z0-9_-]{0,63}$/u;
      const wanted = new Map<string, Set<string>>();
      for (const operation of clientOperations(context))
        for (const name of successExamples(context, operation).keys()) {
          if (builtIn.has(name) || !carried.test(name)) continue;
          if (!wanted.has(name)) wanted.set(name, new Set());
          wanted.get(name)!.add(operation.operationId);
        }
      for (const [name, operations] of wanted) {
        const row = table.scenarios.find((scenario) => scenario.name === name);
        context.expect(
          row?.kind === 'example',
          exchange,
          `openapi.yaml has a 2xx example named ${name}, but the table has no example scenario of that name`,
          'control.table',
        );
        context.expect(
          isDeepStrictEqual(new Set(row?.operations), operations),
          exchange,
          `scenario ${name} names the operations ${row?.operations.join(', ') ?? '(none)'}; openapi.yaml's examples of that name are on ${[...operations].join(', ')}`,
          'control.table',
        );
      }
    },
    ['control.table'],
  );

  check(
    'control',
    `${SCENARIO_HEADER}: each example scenario → every Client operation with that example answers as Prefer: example=NAME does, the others as usual; Prefer still steers`,
    async (context) => {
      const table = await servedTable(context);
      const examples = table.scenarios.filter((row) => row.kind === 'example');
      if (examples.length === 0) context.skip('the scenario table has no example scenario (openapi.yaml names no 2xx example)');
      const memory = new ExchangeMemory();
      for (const row of examples)
        for (const operation of clientOperations(context)) {
          const plain = await plainRequest(context, operation);
          const answer = await (successExamples(context, operation).has(row.name)
            ? callAs(context, inScenario(plain, row.name), withHeaders(plain, { Prefer: `example=${row.name}` }), memory)
            : callAs(context, inScenario(plain, row.name), asItself(plain), memory));
          if (!successExamples(context, operation).has(row.name)) continue;
          const preferred = await callAs(
            context,
            inScenario(withHeaders(plain, { Prefer: `example=${row.name}` }), 'normal'),
            withHeaders(plain, { Prefer: `example=${row.name}` }),
            memory,
          );
          context.expect(
            sameAnswer(answer, preferred),
            answer,
            `in scenario ${row.name}, ${operation.operationId} should answer as Prefer: example=${row.name} does (${preferred.status}, the same body and paging headers); got ${answer.status}`,
            'control.example',
          );
          // Prefer on the request still steers it (control.openapi.yaml: it is more specific than a scenario).
          const steered = withHeaders(plain, { Prefer: 'code=500' });
          const failed = await callAs(context, inScenario(steered, row.name), steered, memory);
          context.expect(
            failed.status === 500 && codeOf(failed) === 'INTERNAL_ERROR',
            failed,
            `in scenario ${row.name}, Prefer: code=500 should still steer the answer (500 INTERNAL_ERROR); got ${failed.status} ${String(codeOf(failed))}`,
            'control.prefer',
          );
        }
    },
    ['control.example', 'control.prefer'],
  );

  check(
    'control',
    `${SCENARIO_HEADER}: down → every Client operation 500 INTERNAL_ERROR, the diagnostics unchanged, Prefer still steers, and the same request outside the scenario as usual`,
    async (context) => {
      const row = await rowOfKind(context, 'down');
      const memory = new ExchangeMemory();
      for (const operation of clientOperations(context)) {
        const plain = await plainRequest(context, operation);
        const usual = await usualAnswer(context, plain, memory);
        const down = await callAs(context, inScenario(plain, row.name), failing(plain), memory);
        context.expect(
          down.status === 500 && codeOf(down) === 'INTERNAL_ERROR',
          down,
          `in scenario ${row.name}, ${operation.operationId} should answer 500 INTERNAL_ERROR; got ${down.status} ${String(codeOf(down))}`,
          'control.down',
        );
        expectSimulated(context, down, `scenario ${row.name}`);
        // One scenario's answer is never another's: the same request, outside it, is answered as before.
        const after = await usualAnswer(context, plain, memory);
        context.expect(
          after.status === usual.status,
          after,
          `after scenario ${row.name}, the same request outside it answered ${after.status}; before, ${usual.status}`,
          'control.down',
        );
        const example = [...successExamples(context, operation).keys()][0];
        if (example !== undefined) {
          const steered = withHeaders(plain, { Prefer: `example=${example}` });
          const answer = await callAs(context, inScenario(steered, row.name), steered, memory);
          context.expect(
            answer.status >= 200 && answer.status < 300,
            answer,
            `in scenario ${row.name}, Prefer: example=${example} should still steer the answer (its example); got ${answer.status}`,
            'control.prefer',
          );
        }
        const asUsual = withHeaders(plain, { Prefer: 'code=200' });
        const answer = await callAs(context, inScenario(asUsual, row.name), asUsual, memory);
        context.expect(
          answer.status === usual.status,
          answer,
          `in scenario ${row.name}, Prefer: code=200 should steer the answer back to the usual one (${usual.status}); got ${answer.status}`,
          'control.prefer',
        );
      }
      for (const operation of diagnostics(context)) {
        const plain = await plainRequest(context, operation);
        const usual = await callAs(context, inScenario(plain, 'normal'), plain, memory);
        const answer = await callAs(context, inScenario(plain, row.name), plain, memory);
        context.expect(
          answer.status === usual.status,
          answer,
          `the diagnostics are never changed by a scenario: ${operation.operationId} answered ${answer.status} in ${row.name}, ${usual.status} outside it`,
          'control.diagnostics',
        );
      }
    },
    ['control.down', 'control.prefer', 'control.diagnostics', 'control.simulated'],
  );

  check(
    'control',
    `${SCENARIO_HEADER}: unauthorised → every Client operation 401 UNAUTHORIZED for the accepted key (an unknown key's answer), without a key the missing key's; Prefer does not lift it; the diagnostics unchanged`,
    async (context) => {
      const row = await rowOfKind(context, 'unauthorised');
      const memory = new ExchangeMemory();
      for (const operation of clientOperations(context)) {
        const plain = await plainRequest(context, operation);
        const unknown = await callAs(context, inScenario({ ...plain, key: 'wrong' }, 'normal'), { ...plain, key: 'wrong' }, memory);
        const missing = await callAs(context, inScenario({ ...plain, key: 'none' }, 'normal'), { ...plain, key: 'none' }, memory);
        // The accepted key is rejected as a key that is not accepted would be: judged as that request.
        const rejected = await callAs(context, inScenario(plain, row.name), { ...plain, key: 'wrong' }, memory);
        context.expect(
          rejected.status === 401 && codeOf(rejected) === 'UNAUTHORIZED',
          rejected,
          `in scenario ${row.name}, ${operation.operationId} with the accepted key should answer 401 UNAUTHORIZED; got ${rejected.status} ${String(codeOf(rejected))}`,
          'control.unauthorised',
        );
        expectSimulated(context, rejected, `scenario ${row.name}`);
        context.expect(
          messageOf(missing) === messageOf(unknown) || messageOf(rejected) !== messageOf(missing),
          rejected,
          `in scenario ${row.name}, a request that sent a key was told the key is missing (${JSON.stringify(messageOf(rejected))}, the Message of a request without one)`,
          'control.unauthorised',
        );
        const noKey = await callAs(context, inScenario({ ...plain, key: 'none' }, row.name), { ...plain, key: 'none' }, memory);
        context.expect(
          noKey.status === 401 && messageOf(noKey) === messageOf(missing),
          noKey,
          `in scenario ${row.name}, a request without a key should get the missing key's 401 (${JSON.stringify(messageOf(missing))}); got ${noKey.status} ${JSON.stringify(messageOf(noKey))}`,
          'control.unauthorised',
        );
        const example = [...successExamples(context, operation).keys()][0] ?? 'none';
        for (const prefer of [`example=${example}`, 'code=200']) {
          const steered = withHeaders(plain, { Prefer: prefer });
          const answer = await callAs(context, inScenario(steered, row.name), { ...steered, key: 'wrong' }, memory);
          context.expect(
            answer.status === 401,
            answer,
            `in scenario ${row.name} the key is rejected before Prefer steers (control.openapi.yaml); Prefer: ${prefer} got ${answer.status}`,
            'control.unauthorised',
          );
        }
      }
      for (const operation of diagnostics(context)) {
        const plain = await plainRequest(context, operation);
        const answer = await callAs(context, inScenario(plain, row.name), plain, memory);
        context.expect(
          answer.status !== 401,
          answer,
          `the diagnostics are never changed by a scenario: ${operation.operationId} answered 401 in ${row.name}`,
          'control.diagnostics',
        );
      }
    },
    ['control.unauthorised', 'control.diagnostics', 'control.simulated'],
  );

  check(
    'control',
    `${SCENARIO_HEADER}: slow;min=${SLOW.min};max=${SLOW.max} → every Client answer at least min ms late, the delays spread up to max`,
    async (context) => {
      const row = await rowOfKind(context, 'slow');
      const scenario = `${row.name};min=${SLOW.min};max=${SLOW.max}`;
      const memory = new ExchangeMemory();
      const operations = clientOperations(context);
      const requests = await Promise.all(
        Array.from({ length: SLOW_SAMPLES }, (_, i) => plainRequest(context, operations[i % operations.length]!)),
      );
      // Together: the check costs about one delay, and a slower machine only lengthens what is measured.
      const answers = await Promise.all(requests.map((request) => callAs(context, inScenario(request, scenario), request, memory)));
      for (const answer of answers)
        context.expect(
          answer.ms >= SLOW.min - TIMER_SLACK_MS,
          answer,
          `in scenario ${scenario} every Client answer comes at least ${SLOW.min} ms late; this one took ${answer.ms.toFixed(0)} ms`,
          'control.slow',
        );
      const middle = (SLOW.min + SLOW.max) / 2;
      context.expect(
        answers.some((answer) => answer.ms > middle),
        answers[0]!,
        `in scenario ${scenario} the delays are drawn from ${SLOW.min} to ${SLOW.max} ms; all ${SLOW_SAMPLES} took at most ${middle} ms (${answers.map((a) => a.ms.toFixed(0)).join(', ')})`,
        'control.slow',
      );
    },
    ['control.slow'],
  );

  check(
    'control',
    `${SCENARIO_HEADER}: flaky;rate=${FLAKY.rate};seed=${FLAKY.seed} → Client requests fail with 500 INTERNAL_ERROR at that rate, the same ones again in a fresh session, others with another seed; rate=0 none, rate=1 all (but where Prefer steers)`,
    async (context) => {
      const row = await rowOfKind(context, 'flaky');
      const memory = new ExchangeMemory();
      const operations = clientOperations(context);
      const requests = await Promise.all(
        Array.from({ length: FLAKY.requests }, (_, i) => plainRequest(context, operations[i % operations.length]!)),
      );
      let last: Exchange | undefined;
      const failedIn = async (scenario: string, session: string, count = requests.length): Promise<boolean[]> => {
        const failed: boolean[] = [];
        try {
          // One after the other: the sequence is the order the requests arrive in.
          for (const request of requests.slice(0, count)) {
            const answer = await callAs(
              context,
              inScenario(request, scenario, session),
              (exchange) => (exchange.status === 500 ? failing(request) : request),
              memory,
            );
            last = answer;
            const failure = answer.status === 500;
            if (failure)
              context.expect(
                codeOf(answer) === 'INTERNAL_ERROR',
                answer,
                `in scenario ${scenario} a failure is 500 INTERNAL_ERROR; got Code ${String(codeOf(answer))}`,
                'control.flaky',
              );
            if (failure) expectSimulated(context, answer, `scenario ${row.name}`);
            failed.push(failure);
          }
          await oneProcess(context, session, scenario);
        } finally {
          await forget(context, session);
        }
        return failed;
      };
      const scenario = `${row.name};rate=${FLAKY.rate};seed=${FLAKY.seed}`;
      const first = await failedIn(scenario, sessionName('flaky-a'));
      const failures = first.filter(Boolean).length;
      context.expect(
        failures >= FLAKY_BOUNDS.min && failures <= FLAKY_BOUNDS.max,
        last!,
        `in scenario ${scenario}, ${failures} of ${first.length} Client requests failed: a rate of ${FLAKY.rate} fails ${FLAKY_BOUNDS.min} to ${FLAKY_BOUNDS.max} of them but for a chance below 10^-5`,
        'control.flaky',
      );
      const again = await failedIn(scenario, sessionName('flaky-b'));
      context.expect(
        isDeepStrictEqual(first, again),
        last!,
        `in scenario ${scenario} the same requests in the same order should fail the same way (control.openapi.yaml: "so a failing run can be replayed"); ` +
          `first ${first.map((f) => (f ? 'x' : '.')).join('')}, then ${again.map((f) => (f ? 'x' : '.')).join('')}`,
        'control.flaky',
      );
      // "seeded by `seed`": another seed draws another sequence (the same pattern would be a chance of about 10^-10).
      const otherSeed = await failedIn(`${row.name};rate=${FLAKY.rate};seed=${FLAKY.seed + 1}`, sessionName('flaky-c'));
      context.expect(
        !isDeepStrictEqual(first, otherSeed),
        last!,
        `in scenario ${row.name} the failures are drawn from a sequence seeded by seed; seeds ${FLAKY.seed} and ${FLAKY.seed + 1} failed the same requests (${first.map((f) => (f ? 'x' : '.')).join('')})`,
        'control.flaky',
      );
      // Prefer on the request still steers it: where every request fails, code=200 is answered as usual.
      const steered = withHeaders(requests[0]!, { Prefer: 'code=200' });
      const spared = await callAs(context, inScenario(steered, `${row.name};rate=1;seed=${FLAKY.seed}`), steered, memory);
      context.expect(
        spared.status !== 500,
        spared,
        `in scenario ${row.name};rate=1, Prefer: code=200 should still steer the answer to the usual one; got ${spared.status} ${String(codeOf(spared))}`,
        'control.prefer',
      );
      for (const rate of [0, 1]) {
        const edge = await failedIn(`${row.name};rate=${rate};seed=${FLAKY.seed}`, sessionName(`flaky-${rate}`), FLAKY_EDGE_REQUESTS);
        context.expect(
          edge.every((failed) => failed === (rate === 1)),
          last!,
          `in scenario ${row.name};rate=${rate} ${rate === 1 ? 'every' : 'no'} Client request fails; the answers were ${edge.map((f) => (f ? 'x' : '.')).join('')}`,
          'control.flaky',
        );
      }
    },
    ['control.flaky', 'control.prefer', 'control.simulated'],
  );

  check(
    'control',
    `OPTIONS every path of the served control document as a CORS preflight for each of its methods → allowed (control.openapi.yaml: "A preflight for a control path allows" them)`,
    async (context) => {
      await servedTable(context);
      const { paths } = await controlDocument(context, 'control.cors');
      for (const [template, item] of Object.entries(paths!)) {
        // A path parameter gets a session name of this run's own: the preflight changes nothing.
        const path = template.replace(/\{\w+\}/g, sessionName('cors'));
        for (const method of Object.keys(item).filter((key) => HTTP_METHODS.has(key))) {
          const preflight = await context.send({
            method: 'OPTIONS',
            path,
            key: 'none',
            headers: { Origin: context.origin, 'Access-Control-Request-Method': method.toUpperCase() },
          });
          if (preflight.headers.get('Access-Control-Allow-Origin') === null) noAllowOrigin(context, preflight);
          const allowed = headerList(preflight, 'Access-Control-Allow-Methods');
          context.expect(
            preflight.status >= 200 && preflight.status < 300 && (allowed.includes('*') || allowed.includes(method.toLowerCase())),
            preflight,
            `a preflight for ${method.toUpperCase()} ${template} should be allowed (a page may call the control paths); got ${preflight.status}, Access-Control-Allow-Methods ${JSON.stringify(preflight.headers.get('Access-Control-Allow-Methods'))}`,
            'control.cors',
          );
        }
      }
    },
    ['control.cors'],
  );

  check(
    'control',
    `a bad ${SESSION_HEADER} or ${SCENARIO_HEADER} → 400 VALIDATION_ERROR naming the header; a CORS preflight asking for both allows them`,
    async (context) => {
      await servedTable(context);
      const plain = await plainRequest(context, clientOperations(context)[0]!);
      const bad: [string, Record<string, string>][] = [
        [SESSION_HEADER, { [SESSION_HEADER]: 'x'.repeat(129) }],
        [SESSION_HEADER, { [SESSION_HEADER]: 'a session' }],
        [SCENARIO_HEADER, { [SCENARIO_HEADER]: 'no-such-scenario' }],
        [SCENARIO_HEADER, { [SCENARIO_HEADER]: 'slow;min=soon' }],
      ];
      for (const [header, headers] of bad) {
        const answer = await context.send(withHeaders(plain, headers));
        const body = answer.json as Partial<ErrorDto> | undefined;
        context.expect(
          answer.status === 400 && body?.Code === 'VALIDATION_ERROR' && String(body.Message).includes(header),
          answer,
          `a bad ${header} (${JSON.stringify(Object.values(headers)[0]!.slice(0, 40))}) should be 400 VALIDATION_ERROR naming ${header}; got ${answer.status} ${String(body?.Code)} ${JSON.stringify(body?.Message)}`,
          'control.headers',
        );
      }
      const preflight = await context.send({
        method: 'OPTIONS',
        path: plain.path,
        key: 'none',
        headers: {
          Origin: context.origin,
          'Access-Control-Request-Method': 'GET',
          'Access-Control-Request-Headers': `${SESSION_HEADER.toLowerCase()}, ${SCENARIO_HEADER.toLowerCase()}`,
        },
      });
      if (preflight.headers.get('Access-Control-Allow-Origin') === null) noAllowOrigin(context, preflight);
      const allowed = headerList(preflight, 'Access-Control-Allow-Headers');
      context.expect(
        [SESSION_HEADER, SCENARIO_HEADER].every((name) => allowed.includes('*') || allowed.includes(name.toLowerCase())),
        preflight,
        `a page's requests may carry ${SESSION_HEADER} and ${SCENARIO_HEADER} (control.openapi.yaml: "Both headers are allowed by CORS"); Access-Control-Allow-Headers is ${JSON.stringify(preflight.headers.get('Access-Control-Allow-Headers'))}`,
        'control.headers',
      );
    },
    ['control.headers'],
  );
}
