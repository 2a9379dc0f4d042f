// The scenario table (control.openapi.yaml, "Scenarios"): the named states of
// the whole mock. Derived from the served spec where it says them — every
// named example of a Client operation's 2xx answer is a scenario, so an
// example added to openapi.yaml is a scenario with no code — plus the states a
// backend has that no example shows: down, slow, flaky, unauthorised. A
// scenario is only a choice: the pipeline's mock controls apply it (the
// example as `Prefer: example=NAME` would, the delay and failure sequence as
// LATENCY_MS / ERROR_RATE would, the key check's 401), so there is one
// machinery for all of them. One syntax names a scenario everywhere: the
// X-Mock-Scenario header, the cookie, --scenario and the control API's body
// all come down to `name;param=value` (an RFC 9651 Item).
import { readOperations } from '../../contract/operations';
import type { OpenApiDocument } from '../../contract/spec-document';
import type { components } from '../../generated/control';

export type ScenarioKind = components['schemas']['ScenarioKind'];
export type ScenarioDefinition = components['schemas']['ScenarioDefinition'];
export type ScenarioRequest = components['schemas']['ScenarioRequest'];
export type ScenarioWire = components['schemas']['Scenario'];

/** The parameters a scenario may take, by name (control.openapi.yaml, ScenarioRequest). */
type ParameterName = 'min' | 'max' | 'rate' | 'seed';

/** A scenario chosen, with its parameters resolved: what a request is answered in. */
export interface ScenarioChoice {
  readonly name: string;
  readonly kind: ScenarioKind;
  /** `example`: the named example every Client operation that has one answers. */
  readonly example?: string;
  /** `down`: every Client operation answers 500 INTERNAL_ERROR. */
  readonly fail?: boolean;
  /** `unauthorised`: every key is rejected (401) on the Client operations. */
  readonly rejectKeys?: boolean;
  /** `slow`, `flaky`: a delay range and a seeded failure rate, as LATENCY_MS and ERROR_RATE take them. */
  readonly faults?: { readonly latencyMs: { min: number; max: number }; readonly errorRate: number; readonly seed: number };
  /** As the control API shows it, with its X-Mock-Scenario value. */
  readonly wire: ScenarioWire;
}

/** A scenario name or parameter that is not one of the table's; the message is one line naming the input. */
export class ScenarioError extends Error {}

/** `slow` without parameters: delays a frontend's loading state can be seen in, short enough for a test. */
export const SLOW_DEFAULT = { min: 500, max: 1500 } as const;
/** `flaky` without a rate: half the Client requests fail. */
export const FLAKY_DEFAULT_RATE = 0.5;
/** The longest delay `slow` takes (the LATENCY_MS setting's own maximum). */
const MAX_DELAY_MS = 60_000;
const MAX_SEED = 2 ** 32 - 1;
const NAME = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;

interface Builtin {
  kind: Exclude<ScenarioKind, 'example'>;
  description: string;
  parameters: ScenarioDefinition['parameters'];
}

function builtins(seed: number): Record<string, Builtin> {
  return {
    normal: {
      kind: 'normal',
      description: 'Every operation answers as usual (the server settings, LATENCY_MS and ERROR_RATE included).',
      parameters: [],
    },
    down: { kind: 'down', description: 'Every Client operation answers 500 INTERNAL_ERROR: the backend is down.', parameters: [] },
    slow: {
      kind: 'slow',
      description: 'Every Client answer is delayed by a time drawn from min to max ms (a seeded sequence).',
      parameters: [
        { name: 'min', description: 'The shortest delay, in ms.', default: SLOW_DEFAULT.min },
        { name: 'max', description: 'The longest delay, in ms.', default: SLOW_DEFAULT.max },
      ],
    },
    flaky: {
      kind: 'flaky',
      description:
        'Each Client request fails with 500 INTERNAL_ERROR with probability rate, from a sequence seeded by seed: the same requests in the same order fail the same way.',
      parameters: [
        { name: 'rate', description: 'The probability that a Client request fails, 0 to 1.', default: FLAKY_DEFAULT_RATE },
        { name: 'seed', description: "The seed of the failure sequence (the server's SEED by default).", default: seed },
      ],
    },
    unauthorised: {
      kind: 'unauthorised',
      description: 'Every key is rejected: 401 UNAUTHORIZED on every Client operation.',
      parameters: [],
    },
  };
}

/** How a caller wrote the input, for one-line messages: `body field 'rate'`, `header 'X-Mock-Scenario' parameter 'rate'`. */
export type Where = (parameter: 'scenario' | ParameterName) => string;

export const inBody: Where = (field) => `body field '${field}'`;
export const inHeader =
  (header: string): Where =>
  (parameter) =>
    parameter === 'scenario' ? `${header}` : `${header} parameter '${parameter}'`;

/** RFC 9651 decimal: at most three fractional digits, always one; 1 → `1.0`. */
function sfDecimal(value: number): string {
  const text = (Math.round(value * 1000) / 1000).toString();
  return text.includes('.') ? text : `${text}.0`;
}

export class ScenarioTable {
  readonly definitions: readonly ScenarioDefinition[];
  readonly normal: ScenarioChoice;
  private readonly byName = new Map<string, ScenarioDefinition>();

  /** `spec`: the served document; `seed`: the server's SEED, flaky's default seed. */
  constructor(
    spec: OpenApiDocument,
    private readonly seed: number,
  ) {
    const clientOperations = readOperations(spec).filter((operation) => !operation.isPublic);
    const fixed = builtins(seed);
    const examples = new Map<string, string[]>();
    for (const operation of clientOperations) {
      for (const [status, named] of operation.examples) {
        if (status < 200 || status > 299) continue;
        for (const name of named.examples.keys()) {
          // A built-in's name is the built-in; a name no header could carry is no scenario.
          if (Object.hasOwn(fixed, name) || !NAME.test(name)) continue;
          const operations = examples.get(name) ?? [];
          if (!operations.includes(operation.operationId)) operations.push(operation.operationId);
          examples.set(name, operations);
        }
      }
    }
    const allClient = clientOperations.map((operation) => operation.operationId as string);
    const rows: ScenarioDefinition[] = [
      { name: 'normal', kind: 'normal', description: fixed.normal!.description, operations: [], parameters: [] },
      ...[...examples].map(([name, operations]): ScenarioDefinition => ({
        name,
        kind: 'example',
        description: `The named example '${name}' of openapi.yaml from ${operations.join(', ')}; the other Client operations answer as usual.`,
        operations,
        parameters: [],
      })),
      ...Object.entries(fixed)
        .filter(([name]) => name !== 'normal')
        .map(([name, row]): ScenarioDefinition => ({
          name,
          kind: row.kind,
          description: row.description,
          operations: allClient,
          parameters: row.parameters,
        })),
    ];
    this.definitions = rows;
    for (const row of rows) this.byName.set(row.name, row);
    this.normal = this.choose({ scenario: 'normal' }, inBody);
  }

  names(): string[] {
    return this.definitions.map((row) => row.name);
  }

  has(name: string): boolean {
    return this.byName.has(name);
  }

  /** The choice a request body (or a parsed header) asks for; a ScenarioError names the first bad input. */
  choose(request: Readonly<ScenarioRequest>, where: Where): ScenarioChoice {
    const name = request.scenario;
    const row = this.byName.get(name);
    if (!row)
      throw new ScenarioError(
        `${where('scenario')} is '${String(name).slice(0, 64)}', which is no scenario; known: ${this.names().join(', ')}`,
      );
    const takes = new Set(row.parameters.map((parameter) => parameter.name));
    for (const parameter of ['min', 'max', 'rate', 'seed'] as const) {
      if (request[parameter] !== undefined && !takes.has(parameter)) {
        const accepted = takes.size ? `it takes ${[...takes].join(', ')}` : 'it takes none';
        throw new ScenarioError(`${where(parameter)} is not a parameter of '${name}' (${accepted})`);
      }
    }
    switch (row.kind) {
      case 'normal':
        return { name, kind: row.kind, wire: { scenario: name, header: name } };
      case 'example':
        return { name, kind: row.kind, example: name, wire: { scenario: name, header: name } };
      case 'down':
        return { name, kind: row.kind, fail: true, wire: { scenario: name, header: name } };
      case 'unauthorised':
        return { name, kind: row.kind, rejectKeys: true, wire: { scenario: name, header: name } };
      case 'slow': {
        const min = this.whole(request.min, where('min'), MAX_DELAY_MS) ?? Math.min(SLOW_DEFAULT.min, request.max ?? SLOW_DEFAULT.min);
        const max = this.whole(request.max, where('max'), MAX_DELAY_MS) ?? Math.max(SLOW_DEFAULT.max, min);
        if (max < min) throw new ScenarioError(`${where('max')} is ${max}, below min ${min}`);
        return {
          name,
          kind: row.kind,
          faults: { latencyMs: { min, max }, errorRate: 0, seed: this.seed },
          wire: { scenario: name, min, max, header: `${name};min=${min};max=${max}` },
        };
      }
      case 'flaky': {
        const rate = request.rate ?? FLAKY_DEFAULT_RATE;
        if (typeof rate !== 'number' || !(rate >= 0 && rate <= 1) || Math.abs(rate * 1000 - Math.round(rate * 1000)) > 1e-6) {
          throw new ScenarioError(`${where('rate')} must be a number from 0 to 1 in steps of 0.001, such as 0.25`);
        }
        const seed = this.whole(request.seed, where('seed'), MAX_SEED) ?? this.seed;
        const exact = Math.round(rate * 1000) / 1000;
        return {
          name,
          kind: row.kind,
          faults: { latencyMs: { min: 0, max: 0 }, errorRate: exact, seed },
          wire: { scenario: name, rate: exact, seed, header: `${name};rate=${sfDecimal(exact)};seed=${seed}` },
        };
      }
    }
  }

  private whole(value: unknown, where: string, max: number): number | undefined {
    if (value === undefined) return undefined;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > max) {
      throw new ScenarioError(`${where} must be a whole number from 0 to ${max}`);
    }
    return value;
  }

  /**
   * An X-Mock-Scenario value (also the cookie and --scenario): a Token, then
   * `;key=value` parameters (RFC 9651 section 3.1.2), values integers or
   * decimals. `where` names the input in the message.
   */
  parse(text: string, where: string): ScenarioChoice {
    const [head, ...parameters] = text.split(';');
    const name = head!.trim();
    if (!NAME.test(name)) {
      throw new ScenarioError(
        `${where} must be a scenario name, then ;name=value parameters, e.g. slow;min=200;max=800; known: ${this.names().join(', ')}`,
      );
    }
    const request: Record<string, unknown> = { scenario: name };
    for (const parameter of parameters) {
      const match = /^\s*([a-z*][a-z0-9_.*-]*)=(-?\d{1,15}(?:\.\d{1,3})?)\s*$/.exec(parameter);
      if (!match) throw new ScenarioError(`${where} has a parameter that is not name=number: '${parameter.trim().slice(0, 40)}'`);
      const key = match[1]!;
      if (!['min', 'max', 'rate', 'seed'].includes(key)) {
        throw new ScenarioError(`${where} parameter '${key.slice(0, 20)}' is not one a scenario takes (min, max, rate, seed)`);
      }
      if (key in request) throw new ScenarioError(`${where} parameter '${key}' is given twice`);
      request[key] = Number(match[2]);
    }
    return this.choose(request as unknown as ScenarioRequest, inHeader(where));
  }
}
