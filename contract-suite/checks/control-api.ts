// The mock's control API as the --control checks reach it (control.ts): the scenario table and the control
// document the target serves (each fetched once a run), a Client request chosen per request into a scenario or a
// session of the run's own, and each answer judged against openapi.yaml as the request it stands for (an example
// scenario's as `Prefer: example`, a simulated failure's as `Prefer: code=500`). What the checks assert is in
// control.ts; what a scenario is, is control.openapi.yaml's.
import { isDeepStrictEqual } from 'node:util';
import type { components } from '../../generated/control';
import type { ErrorDto } from '../../contract/wire-types';
import { UNKNOWN_ID, judgedInput, type CheckContext } from '../kit/context';
import type { ApiRequest, Exchange, KeyRole } from '../../contract/exchange';
import { ExchangeMemory, headerOf, judgeRequest, judgeResponse, type RuleId } from '../../contract/judge';
import type { SpecOperation } from '../../contract/spec-contract';

type ScenarioTable = components['schemas']['ScenarioTable'];
export type ScenarioDefinition = components['schemas']['ScenarioDefinition'];

/** control.openapi.yaml, "The reserved prefix": every path of that document begins with it. */
export const CONTROL_PREFIX = '/__control';
/** The control document's own header names (its Sessions and Scenarios sections). */
export const SESSION_HEADER = 'X-Mock-Session';
export const SCENARIO_HEADER = 'X-Mock-Scenario';

/** The operations an OpenAPI path item may hold (its other keys are parameters, summary and the like). */
export const HTTP_METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

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
export function isRow(row: unknown): row is ScenarioDefinition {
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
export async function controlDocument(context: CheckContext, rule: RuleId): Promise<ControlDocument> {
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
export async function servedTable(context: CheckContext): Promise<ScenarioTable> {
  const table = await scenarioTable(context);
  return 'none' in table ? context.skip(table.none) : table;
}

/** The table's row of a kind, or a skip (the table check fails a table without it). */
export async function rowOfKind(context: CheckContext, kind: ScenarioDefinition['kind']): Promise<ScenarioDefinition> {
  const row = (await servedTable(context)).scenarios.find((scenario) => scenario.kind === kind);
  return row ?? context.skip(`the scenario table has no ${kind} scenario (the table's own check says so)`);
}

/** The Client operations (openapi.yaml: those that need a key; the diagnostics are public and never changed); a skip without any. */
export function clientOperations(context: CheckContext): SpecOperation[] {
  const operations = context.contract.operations.filter((operation) => !operation.isPublic);
  return operations.length > 0 ? operations : context.skip('the document has no operation that needs a key: no scenario changes anything');
}
export const diagnostics = (context: CheckContext) => context.contract.operations.filter((operation) => operation.isPublic);

/** The named examples of an operation's 2xx answers, by name, with their status (as the table derives its rows). */
export function successExamples(context: CheckContext, operation: SpecOperation): Map<string, number> {
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
export async function plainRequest(context: CheckContext, operation: SpecOperation, key: KeyRole = 'valid'): Promise<ApiRequest> {
  const id = await someClientId(context);
  const path = operation.template.replace(/\{\w+\}/g, () => id);
  return { method: 'GET', path, key: operation.isPublic ? 'none' : key };
}

export const withHeaders = (request: ApiRequest, headers: Record<string, string>): ApiRequest => ({
  ...request,
  headers: { ...request.headers, ...headers },
});
export const inScenario = (request: ApiRequest, scenario: string, session?: string) =>
  withHeaders(request, { [SCENARIO_HEADER]: scenario, ...(session === undefined ? {} : { [SESSION_HEADER]: session }) });

/**
 * Sends `request` and holds its answer to openapi.yaml as the answer to `as`, the request the control document
 * says it stands for; the judge's memory is the check's own, so an example's rows are never taken for the data.
 */
export async function callAs(
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

export const codeOf = (exchange: Exchange) => (exchange.json as Partial<ErrorDto> | undefined)?.Code;
export const messageOf = (exchange: Exchange) => String((exchange.json as Partial<ErrorDto> | undefined)?.Message);

/** control.openapi.yaml, Scenarios: "An answer a scenario makes fail says so" (and one of ERROR_RATE), so a log tells it from a real one. */
const simulatedBy = (cause: string) => `(simulated: ${cause})`;
export function expectSimulated(context: CheckContext, exchange: Exchange, cause: string): void {
  context.expect(
    messageOf(exchange).endsWith(simulatedBy(cause)),
    exchange,
    `a failure made by ${cause} says so: its Message should end with ${JSON.stringify(simulatedBy(cause))}; it is ${JSON.stringify(messageOf(exchange))}`,
    'control.simulated',
  );
}

/** A simulated failure stands for the request that asks for one (openapi.yaml's Prefer: code=500). */
export const failing = (request: ApiRequest) => withHeaders(request, { Prefer: 'code=500' });

/**
 * A request's judge: as itself, or, for a failure marked as the server's ERROR_RATE's (which `normal` and the
 * example scenarios keep), as the request that asks for one. Any other 500 is judged as the plain request's answer.
 */
export const asItself =
  (request: ApiRequest) =>
  (exchange: Exchange): ApiRequest =>
    exchange.status === 500 && messageOf(exchange).endsWith(simulatedBy('ERROR_RATE')) ? failing(request) : request;

/** Asks of the usual answer at most this often: ERROR_RATE's failures are drawn anew each time. */
const USUAL_ATTEMPTS = 12;

/**
 * The request's answer outside any scenario, for a comparison: `normal` keeps LATENCY_MS and ERROR_RATE (the
 * scenario table says so), so a simulated 500 is asked again; a server that fails every attempt skips the check.
 */
export async function usualAnswer(context: CheckContext, request: ApiRequest, memory: ExchangeMemory): Promise<Exchange> {
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
export function sameAnswer(a: Exchange, b: Exchange): boolean {
  return (
    a.status === b.status &&
    isDeepStrictEqual(a.json, b.json) &&
    ['X-Total-Count', 'Link'].every((name) => headerOf(a.headers, name) === headerOf(b.headers, name))
  );
}

/** A session name of this run's own (control.openapi.yaml: sessions need not be created), forgotten again after. */
export function sessionName(purpose: string): string {
  return `contract-suite-${purpose}-${process.pid}-${Date.now().toString(36)}`;
}

/**
 * A sequence is one process's (control.openapi.yaml, "More than one process": replicas share nothing): when the
 * journal shows the session's requests answered by more than one process, the sequence checks skip, saying why.
 */
export async function oneProcess(context: CheckContext, session: string, scenario: string): Promise<void> {
  const journal = await context.send({ method: 'GET', path: `${CONTROL_PREFIX}/journal?session=${session}`, key: 'none' });
  const entries = (journal.json as { entries?: { process?: { host?: unknown; pid?: unknown } }[] } | undefined)?.entries ?? [];
  const processes = new Set(entries.map((entry) => `${String(entry.process?.host)}:${String(entry.process?.pid)}`));
  if (processes.size > 1)
    context.skip(
      `the requests of scenario ${scenario} were answered by ${processes.size} processes (replicas or workers behind a balancer): ` +
        "a sequence is one process's, so its rate and replay cannot be checked here",
    );
}

export async function forget(context: CheckContext, session: string): Promise<void> {
  // Tidying only: a failure here must not replace what the check found.
  await context.send({ method: 'DELETE', path: `${CONTROL_PREFIX}/sessions/${session}`, key: 'none' }).catch(() => undefined);
}
