// Mock controls (openapi.yaml, the Prefer parameter): the Prefer header
// (code=NNN, delay=MS, example=NAME) steers one response; LATENCY_MS and
// ERROR_RATE shape the responses of the Client operations, never the
// diagnostics. Simulated failures follow a sequence seeded by SEED, so a test
// run that sends the same requests in the same order (one after the other)
// sees the same failures. A scenario (control.openapi.yaml: the control room
// chooses it, the request's context carries it) is applied by the same
// machinery: its example as Prefer's, its delays and failures by a
// FaultInjector of its own (its own seeded sequence, so one session's requests
// do not move another's), `down` as a simulated 500; an explicit Prefer on the
// request still wins, being the more specific.
import type { PipelineRequest, PipelineResponse } from './exchange';
import { Sfc32Randomizer } from '../../seeds/random';
import { ApiError, clientNotFound, INTERNAL_ERROR_MESSAGE, methodNotAllowed, UNKNOWN_KEY_MESSAGE } from '../errors';
import type { RouteMatch } from '../../contract/operations';
import type { ErrorDto } from '../../contract/wire-types';
import { readPrefer, type PreferDirectives } from './prefer';
import {
  DONE,
  NO_FAULT,
  readListQuery,
  type ApiStep,
  type FaultDecision,
  type ListParameters,
  type PagingHeaders,
  type RequestContext,
  type ScenarioEffect,
} from './request';
import type { Operation } from '../../contract/operations';

/** The settings the fault injector reads (LATENCY_MS, ERROR_RATE, SEED, parsed by process/config.ts). */
export interface FaultSettings {
  latencyMs: { min: number; max: number };
  errorRate: number;
  seed: number;
}

export { NO_FAULT, type FaultDecision };

// Separate streams, so that the failure pattern of a seed is the same whatever LATENCY_MS is.
const FAILURE_STREAM = 1;
const LATENCY_STREAM = 2;

function seededStream(seed: number, stream: number): Sfc32Randomizer {
  const random = new Sfc32Randomizer();
  random.seed([seed, stream]);
  return random;
}

/**
 * One decision per Client-operation request that passes routing, auth and
 * validation, taken in that order from two seeded sequences. With ERROR_RATE r,
 * request n fails when the n-th draw is below r: the same seed gives the same
 * pattern, and a higher rate fails a superset of the requests a lower one fails.
 */
export class FaultInjector {
  private readonly failures: Sfc32Randomizer;
  private readonly latencies: Sfc32Randomizer;

  constructor(private readonly config: FaultSettings) {
    this.failures = seededStream(config.seed, FAILURE_STREAM);
    this.latencies = seededStream(config.seed, LATENCY_STREAM);
  }

  get active(): boolean {
    return this.config.latencyMs.max > 0 || this.config.errorRate > 0;
  }

  /**
   * The decision for this request, kept in its context (`context.fault`):
   * asking twice (fast path, then the full pipeline) gives the same answer.
   * The response cache replays faults only on hits whose first answer took a
   * decision, i.e. went through mock controls, so a cached 400 is as exact as
   * the uncached one was.
   */
  decide(context: Pick<RequestContext, 'fault'>): FaultDecision {
    if (!this.active) return NO_FAULT;
    if (!context.fault) {
      const { min, max } = this.config.latencyMs;
      const rate = this.config.errorRate;
      context.fault = {
        delayMs: max > min ? min + Math.floor(this.latencies.next() * (max - min + 1)) : min,
        fail: rate > 0 && this.failures.next() < rate,
      };
    }
    return context.fault;
  }
}

/**
 * The error a `Prefer: code=NNN` asks for: the catalogue's own error for that
 * documented status (server/errors.ts), marked as simulated.
 */
function simulatedError(status: number, route: RouteMatch, method: string): ApiError {
  const note = ` (simulated: Prefer code=${status})`;
  switch (status) {
    case 400:
      return new ApiError('VALIDATION_ERROR', `The request is not valid${note}`);
    case 401:
      return new ApiError('UNAUTHORIZED', `${UNKNOWN_KEY_MESSAGE}${note}`);
    case 404:
      // Only getClientDetail documents 404, and its template always has {idClient}, already checked to be a uuid.
      return clientNotFound(route.params.idClient ?? '(none)', note);
    case 405:
      return methodNotAllowed(method, note);
    default:
      return new ApiError('INTERNAL_ERROR', `${INTERNAL_ERROR_MESSAGE}${note}`);
  }
}

/**
 * A named example of openapi.yaml as the answer. An error example leaves as an
 * ApiError, so the one error writer sends it (with `Allow` on a 405); a list
 * example carries the paging headers of a data set that holds just its results.
 */
function answerExample(
  example: NonNullable<PreferDirectives['example']>,
  req: PipelineRequest,
  res: PipelineResponse,
  list: ListAnswers,
): ApiError | undefined {
  if (example.status >= 300) {
    const { Code, Message } = example.value as ErrorDto;
    return new ApiError(Code, Message, Code === 'METHOD_NOT_ALLOWED' ? methodNotAllowed(req.method).headers : {});
  }
  if (example.isList) {
    const page = example.value as { Page: number; PageSize: number; Results: unknown[] };
    const query = { ...readListQuery(req.query, list.parameters), page: page.Page, pageSize: page.PageSize };
    list.paging(res, req.path, query, page.Results.length);
  }
  res.status(example.status).json(example.value);
  return undefined;
}

/** What a list example's answer needs: the served list parameters and the paging headers' writer (PUBLIC_URL included). */
export interface ListAnswers {
  parameters: ListParameters;
  paging: PagingHeaders;
}

/** A scenario's example as `Prefer: example` finds one: the operation's 2xx example of that name, if it has one. */
function scenarioExample(operation: Operation, name: string): PreferDirectives['example'] {
  for (const [status, named] of operation.examples) {
    if (status >= 200 && status < 300 && named.examples.has(name))
      return { name, status, value: named.examples.get(name), isList: named.isList };
  }
  return undefined;
}

/**
 * The API path's step after the validator, before the handler. `Prefer:
 * example` answers that named example; `Prefer: code` with an error status
 * answers that error; with a 2xx status the handler answers as usual (either
 * also overrides an ERROR_RATE failure). Delays add up: `Prefer: delay` plus
 * LATENCY_MS, and the step then returns a promise the path waits for. A
 * scenario's example, failure and faults apply where Prefer asks for none.
 */
export function mockControls(faults: FaultInjector, list: ListAnswers): ApiStep {
  // One injector per scenario object: its sequence goes on from request to request of that scenario.
  const scenarioFaults = new WeakMap<ScenarioEffect, FaultInjector>();
  const injectorOf = (scenario: ScenarioEffect | undefined): FaultInjector => {
    if (!scenario?.faults) return faults;
    let injector = scenarioFaults.get(scenario);
    if (!injector) {
      injector = new FaultInjector(scenario.faults);
      scenarioFaults.set(scenario, injector);
    }
    return injector;
  };
  return (req, res, context) => {
    const route = context.route!;
    const prefer = readPrefer(req.headers.prefer, route.operation);
    const scenario = route.operation.isPublic ? undefined : context.scenario;
    const fault = route.operation.isPublic ? NO_FAULT : injectorOf(scenario).decide(context);
    const delayMs = (prefer.delayMs ?? 0) + fault.delayMs;
    const unsteered = prefer.code === undefined && !prefer.example;
    const example = prefer.example ?? (unsteered && scenario?.example ? scenarioExample(route.operation, scenario.example) : undefined);
    const proceed = (): typeof DONE | undefined => {
      // The caller went away while we waited: there is nobody to answer.
      if (res.destroyed) return DONE;
      if (example) {
        const error = answerExample(example, req, res, list);
        if (error) throw error;
        return DONE;
      }
      if (prefer.code !== undefined && prefer.code >= 300) throw simulatedError(prefer.code, route, req.method);
      if (unsteered && scenario?.fail)
        throw new ApiError('INTERNAL_ERROR', `${INTERNAL_ERROR_MESSAGE} (simulated: scenario ${scenario.name})`);
      if (prefer.code === undefined && fault.fail) {
        const cause = scenario?.faults ? `scenario ${scenario.name}` : 'ERROR_RATE';
        throw new ApiError('INTERNAL_ERROR', `${INTERNAL_ERROR_MESSAGE} (simulated: ${cause})`);
      }
      return undefined;
    };
    if (delayMs > 0) return new Promise((resolve) => setTimeout(resolve, delayMs)).then(proceed);
    return proceed();
  };
}
