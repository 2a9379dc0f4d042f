// Mock controls (openapi.yaml, the Prefer parameter): the Prefer header
// (code=NNN, delay=MS, example=NAME) steers one response; LATENCY_MS and
// ERROR_RATE shape the responses of the Client operations, never the
// diagnostics. Simulated failures follow a sequence seeded by SEED, so a test
// run that sends the same requests in the same order (one after the other)
// sees the same failures.
import type { IncomingMessage } from 'node:http';
import type { Request, RequestHandler, Response } from 'express';
import { Sfc32Randomizer } from '../../seeds/random';
import { ApiError, clientNotFound, INTERNAL_ERROR_MESSAGE, methodNotAllowed, UNKNOWN_KEY_MESSAGE } from '../errors';
import type { RouteMatch } from '../../contract/operations';
import type { ErrorDto } from '../../contract/wire-types';
import { readListQuery, setPagingHeaders } from './paging';
import { readPrefer, type PreferDirectives } from './prefer';

/** The settings the fault injector reads (LATENCY_MS, ERROR_RATE, SEED, parsed by process/config.ts). */
export interface FaultSettings {
  latencyMs: { min: number; max: number };
  errorRate: number;
  seed: number;
}

export interface FaultDecision {
  delayMs: number;
  fail: boolean;
}

export const NO_FAULT: FaultDecision = Object.freeze({ delayMs: 0, fail: false });

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
  private readonly decided = new WeakMap<IncomingMessage, FaultDecision>();

  constructor(private readonly config: FaultSettings) {
    this.failures = seededStream(config.seed, FAILURE_STREAM);
    this.latencies = seededStream(config.seed, LATENCY_STREAM);
  }

  get active(): boolean {
    return this.config.latencyMs.max > 0 || this.config.errorRate > 0;
  }

  /** The decision for this request; asking twice (fast path, then the full pipeline) gives the same answer. */
  decide(req: IncomingMessage): FaultDecision {
    if (!this.active) return NO_FAULT;
    let decision = this.decided.get(req);
    if (!decision) {
      const { min, max } = this.config.latencyMs;
      const rate = this.config.errorRate;
      decision = {
        delayMs: max > min ? min + Math.floor(this.latencies.next() * (max - min + 1)) : min,
        fail: rate > 0 && this.failures.next() < rate,
      };
      this.decided.set(req, decision);
    }
    return decision;
  }

  /**
   * Whether this request took a decision, i.e. went through mock controls. The
   * response cache replays faults only on hits whose first answer did, so a
   * cached 400 is as exact as the uncached one was.
   */
  hasDecided(req: IncomingMessage): boolean {
    return this.decided.has(req);
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
  req: Request,
  res: Response,
  publicUrl: string | undefined,
): ApiError | undefined {
  if (example.status >= 300) {
    const { Code, Message } = example.value as ErrorDto;
    return new ApiError(Code, Message, Code === 'METHOD_NOT_ALLOWED' ? methodNotAllowed(req.method).headers : {});
  }
  if (example.isList) {
    const page = example.value as { Page: number; PageSize: number; Results: unknown[] };
    const query = { ...readListQuery(req.query), page: page.Page, pageSize: page.PageSize };
    setPagingHeaders(res, req.path, query, page.Results.length, publicUrl);
  }
  res.status(example.status).json(example.value);
  return undefined;
}

/**
 * Runs after the validator, before the handlers. `Prefer: example` answers that
 * named example; `Prefer: code` with an error status answers that error; with a
 * 2xx status the handler answers as usual (either also overrides an ERROR_RATE
 * failure). Delays add up: `Prefer: delay` plus LATENCY_MS.
 */
/** `publicUrl` (PUBLIC_URL) makes an example list's Link absolute, as on every other list answer. */
export function mockControls(faults: FaultInjector, routeOf: (req: IncomingMessage) => RouteMatch, publicUrl?: string): RequestHandler {
  return (req, res, next) => {
    const route = routeOf(req);
    const prefer = readPrefer(req.headers.prefer, route.operation);
    const fault = route.operation.isPublic ? NO_FAULT : faults.decide(req);
    const delayMs = (prefer.delayMs ?? 0) + fault.delayMs;
    const proceed = () => {
      // The caller went away while we waited: there is nobody to answer.
      if (res.destroyed) return;
      if (prefer.example) {
        const error = answerExample(prefer.example, req, res, publicUrl);
        if (error) next(error);
      } else if (prefer.code !== undefined) {
        if (prefer.code >= 300) next(simulatedError(prefer.code, route, req.method));
        else next();
      } else if (fault.fail) next(new ApiError('INTERNAL_ERROR', `${INTERNAL_ERROR_MESSAGE} (simulated: ERROR_RATE)`));
      else next();
    };
    if (delayMs > 0) setTimeout(proceed, delayMs);
    else proceed();
  };
}
