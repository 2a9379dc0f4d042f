// Mock controls: the Prefer header (code=NNN, delay=MS) steers one response;
// LATENCY_MS and ERROR_RATE shape every Client-operation response. Simulated
// failures follow a seeded sequence, so a test run that sends the same
// requests in the same order sees the same failures.
import type { IncomingMessage } from 'node:http';
import type { RequestHandler } from 'express';
import { Sfc32Randomizer } from '../seeds/random';
import type { Config } from './config';
import { ApiError, INTERNAL_ERROR_MESSAGE } from './errors';
import type { Operation } from './operations';

export const MAX_PREFER_DELAY_MS = 10_000;

export interface PreferDirectives {
  code?: number;
  delayMs?: number;
}

/** Reads `code=NNN` and `delay=MS` from a Prefer header (its syntax is checked by the validator). */
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

const NO_FAULT: FaultDecision = Object.freeze({ delayMs: 0, fail: false });

/** One decision per Client-operation request, in arrival order, from a sequence seeded by SEED. */
export class FaultInjector {
  private readonly random: Sfc32Randomizer;
  private readonly decided = new WeakMap<IncomingMessage, FaultDecision>();

  constructor(private readonly config: Pick<Config, 'latencyMs' | 'errorRate' | 'seed'>) {
    this.random = new Sfc32Randomizer(config.seed);
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
      decision = {
        delayMs: min + Math.floor(this.random.next() * (max - min + 1)),
        fail: this.config.errorRate > 0 && this.random.next() < this.config.errorRate,
      };
      this.decided.set(req, decision);
    }
    return decision;
  }
}

/** The error a `Prefer: code=NNN` asks for, as the catalogue defines that status for the operation. */
function simulatedError(status: number, operation: Operation, params: Record<string, string>): ApiError {
  const note = `(simulated: Prefer code=${status})`;
  switch (status) {
    case 400:
      return new ApiError('VALIDATION_ERROR', `The request is not valid ${note}`);
    case 401:
      return new ApiError('UNAUTHORIZED', `The X-Api-Key header does not hold a valid key ${note}`);
    case 404:
      return new ApiError('CLIENT_NOT_FOUND', `No client with IdClient ${params.idClient ?? ''} exists ${note}`.replace('  ', ' '));
    case 405:
      return new ApiError('METHOD_NOT_ALLOWED', `Only GET is allowed on this path ${note}`, { Allow: 'GET' });
    default:
      return new ApiError('INTERNAL_ERROR', `${INTERNAL_ERROR_MESSAGE} ${note}`);
  }
}

export function mockControls(faults: FaultInjector, operationOf: (req: IncomingMessage) => { operation: Operation; params: Record<string, string> }): RequestHandler {
  return (req, _res, next) => {
    const { operation, params } = operationOf(req);
    const prefer = parsePrefer(req.headers.prefer);
    if (prefer.delayMs !== undefined && prefer.delayMs > MAX_PREFER_DELAY_MS) {
      throw new ApiError('VALIDATION_ERROR', `header 'Prefer' delay must be from 0 to ${MAX_PREFER_DELAY_MS} ms`);
    }
    if (prefer.code !== undefined && !operation.statuses.has(prefer.code)) {
      const documented = [...operation.statuses].sort().join(', ');
      throw new ApiError(
        'VALIDATION_ERROR',
        `header 'Prefer' asks for status ${prefer.code}, which ${operation.template} does not document (${documented})`,
      );
    }
    const fault = operation.isPublic ? NO_FAULT : faults.decide(req);
    const delayMs = (prefer.delayMs ?? 0) + fault.delayMs;
    const proceed = () => {
      if (prefer.code !== undefined && prefer.code >= 300) next(simulatedError(prefer.code, operation, params));
      else if (fault.fail) next(new ApiError('INTERNAL_ERROR', `${INTERNAL_ERROR_MESSAGE} (simulated: ERROR_RATE)`));
      else next();
    };
    if (delayMs > 0) setTimeout(proceed, delayMs);
    else proceed();
  };
}
