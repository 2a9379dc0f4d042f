// Mock controls (openapi.yaml, the Prefer parameter): the Prefer header (code=NNN,
// delay=MS) steers one response; LATENCY_MS and ERROR_RATE shape the responses
// of the Client operations, never the diagnostics. Simulated failures follow a
// sequence seeded by SEED, so a test run that sends the same requests in the
// same order (one after the other) sees the same failures.
import type { IncomingMessage } from 'node:http';
import type { RequestHandler } from 'express';
import { Sfc32Randomizer } from '../seeds/random';
import type { Config } from './config';
import { ApiError, INTERNAL_ERROR_MESSAGE, UNKNOWN_KEY_MESSAGE } from './errors';
import type { Operation, RouteMatch } from '../contract/operations';

/** openapi.yaml, parameter `Prefer`: `delay=MS` from 0 to 10000. */
export const MAX_PREFER_DELAY_MS = 10_000;

export interface PreferDirectives {
  code?: number;
  delayMs?: number;
}

/** Reads `code=NNN` and `delay=MS` from a Prefer header (its syntax is checked by the validator first). */
export function parsePrefer(header: string | string[] | undefined): PreferDirectives {
  const directives: PreferDirectives = {};
  const text = Array.isArray(header) ? header.join(',') : header;
  if (!text) return directives;
  for (const part of text.split(/[,;]/)) {
    const [name, value] = part.trim().split('=');
    if (name === 'code') directives.code = Number(value);
    if (name === 'delay') directives.delayMs = Number(value);
  }
  return directives;
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

  constructor(private readonly config: Pick<Config, 'latencyMs' | 'errorRate' | 'seed'>) {
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

/** The error a `Prefer: code=NNN` asks for: the catalogue's error for that documented status of the operation. */
function simulatedError(status: number, route: RouteMatch): ApiError {
  const note = `(simulated: Prefer code=${status})`;
  switch (status) {
    case 400:
      return new ApiError('VALIDATION_ERROR', `The request is not valid ${note}`);
    case 401:
      return new ApiError('UNAUTHORIZED', `${UNKNOWN_KEY_MESSAGE} ${note}`);
    case 404:
      // Only getClientDetail documents 404, and its template always has {idClient}, already checked to be a uuid.
      return new ApiError('CLIENT_NOT_FOUND', `No client with IdClient ${route.params.idClient ?? '(none)'} exists ${note}`);
    case 405:
      return new ApiError('METHOD_NOT_ALLOWED', `Only GET is allowed on this path ${note}`, { Allow: 'GET' });
    default:
      return new ApiError('INTERNAL_ERROR', `${INTERNAL_ERROR_MESSAGE} ${note}`);
  }
}

function checkPrefer(prefer: PreferDirectives, operation: Operation): void {
  if (prefer.delayMs !== undefined && prefer.delayMs > MAX_PREFER_DELAY_MS) {
    throw new ApiError('VALIDATION_ERROR', `header 'Prefer' delay must be from 0 to ${MAX_PREFER_DELAY_MS} ms`);
  }
  if (prefer.code !== undefined && !operation.statuses.has(prefer.code)) {
    const documented = [...operation.statuses].sort((a, b) => a - b).join(', ');
    throw new ApiError(
      'VALIDATION_ERROR',
      `header 'Prefer' asks for status ${prefer.code}, which ${operation.template} does not document (${documented})`,
    );
  }
}

/**
 * Runs after the validator, before the handlers. `Prefer: code` with an error
 * status answers that error; with a 2xx status the handler answers as usual
 * (an explicit code also overrides an ERROR_RATE failure). Delays add up:
 * `Prefer: delay` plus LATENCY_MS.
 */
export function mockControls(faults: FaultInjector, routeOf: (req: IncomingMessage) => RouteMatch): RequestHandler {
  return (req, res, next) => {
    const route = routeOf(req);
    const prefer = parsePrefer(req.headers.prefer);
    checkPrefer(prefer, route.operation);
    const fault = route.operation.isPublic ? NO_FAULT : faults.decide(req);
    const delayMs = (prefer.delayMs ?? 0) + fault.delayMs;
    const proceed = () => {
      // The caller went away while we waited: there is nobody to answer.
      if (res.destroyed) return;
      if (prefer.code !== undefined) {
        if (prefer.code >= 300) next(simulatedError(prefer.code, route));
        else next();
      } else if (fault.fail) next(new ApiError('INTERNAL_ERROR', `${INTERNAL_ERROR_MESSAGE} (simulated: ERROR_RATE)`));
      else next();
    };
    if (delayMs > 0) setTimeout(proceed, delayMs);
    else proceed();
  };
}
