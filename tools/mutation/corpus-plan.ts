// Why this file exists: what the differential decider replays, in one place: the instances (road × data set ×
// state), the order of the corpus's requests in each, and the shapes decide.ts and worker.ts exchange. Both sides
// read it, so the original's fingerprints and a mutant's replay are made from the same plan.
import { DEFAULT_API_KEY } from '../../contract-suite/kit/target';
import { ASKED_FIRST } from './killer-data';
import type { Corpus, CorpusRequest, InstanceSpec, Road } from './roads';

/** The data sets: none, one client, a few pages, past the records' arena reserve (1,024), and a large one. */
export const DATA_SETS = [0, 1, 120, 1100, 6000] as const;

/**
 * Every instance, cheapest first (a mutant that differs is usually told in the first ones): the server's app cold
 * and after its background work (app.prebuild: views made, records off the heap), and the MSW handlers, over each
 * data set; then the mutation killer's five servers.
 */
export const INSTANCES: readonly InstanceSpec[] = [
  ...DATA_SETS.flatMap((clients) => [
    { road: 'server', clients, state: 'cold' } as const,
    { road: 'server', clients, state: 'settled' } as const,
    { road: 'msw', clients, state: 'cold' } as const,
  ]),
  // The mutation killer's five servers (tests/mutation/contract-killer.test.ts), on their own data and first
  // requests (killer-data.ts): what only those bring out is then a difference here too, not an equivalence.
  { road: 'server', clients: 120, state: 'cold', data: 'cases' },
  { road: 'server', clients: 1100, state: 'settled', data: 'cases+scripts' },
  { road: 'lean', clients: 120, state: 'cold', data: 'cases' },
  { road: 'lean', clients: 120, state: 'cold', data: 'generated', askedFirst: 'filter' },
  { road: 'lean', clients: 120, state: 'cold', data: 'cases', askedFirst: 'page-then-filter' },
];

export function instanceName(spec: InstanceSpec): string {
  const base = spec.road === 'msw' ? `msw/${spec.clients}` : `${spec.road}/${spec.clients}/${spec.state}`;
  return `${base}${spec.data ? `/${spec.data}` : ''}${spec.askedFirst ? `/first:${spec.askedFirst}` : ''}`;
}

/** The seed of the suite's second order. */
const SHUFFLE_SEED = 0x5eed;

/** A seeded Fisher-Yates shuffle (mulberry32): the same second order on every run. */
export function shuffled<T>(items: readonly T[], seed = SHUFFLE_SEED): T[] {
  let state = seed >>> 0;
  const random = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy;
}

/**
 * One instance's requests: those it is asked first (killer-data.ts), the suite's in its own order, then the same
 * again shuffled (so each answer also comes after other requests, conditional ones among them), then the generated
 * ones. The in-process roads skip what fetch would not send as it is.
 */
export function sequenceOf(corpus: Corpus, spec: InstanceSpec, carries: (road: Road, request: CorpusRequest) => boolean): CorpusRequest[] {
  const first = spec.askedFirst ? ASKED_FIRST[spec.askedFirst].map((path) => askedFirstRequest(path)) : [];
  return [...first, ...corpus.suite, ...shuffled(corpus.suite), ...corpus.generated].filter((request) => carries(spec.road, request));
}

/** A request the instance is asked before the corpus: a GET with the key, as the killer's lean servers are first asked. */
function askedFirstRequest(path: string): CorpusRequest {
  return { method: 'GET', path, headers: { 'X-Api-Key': DEFAULT_API_KEY }, raw: false };
}

/** Per instance name, each answer's fingerprint in sequence order: `status:headers-hash:body-hash`. */
export type Fingerprints = Record<string, string[]>;
/** Per instance name, the mutant ids (the decider's own) its run reached, loading included. */
export type InstanceCoverage = Record<string, string[]>;

/**
 * The instances a mutant can change: those whose run of the original (loading included) reached its code, or
 * whose next instance's did (work an instance left running). None: the corpus never runs it.
 */
export function instancesReaching(coverage: InstanceCoverage, id: string, instances: readonly InstanceSpec[] = INSTANCES): InstanceSpec[] {
  const reached = (i: number) => (coverage[instanceName(instances[i]!)] ?? []).includes(id);
  return instances.filter((_spec, i) => reached(i) || (i + 1 < instances.length && reached(i + 1)));
}

export interface WorkerJob {
  bundle: string;
  corpus: string;
  fingerprints: string;
  /** Written by the original's run. */
  coverage?: string;
  instances: InstanceSpec[];
  /** The decider's id of the active mutant; undefined: the original. */
  mutant?: string;
  /** How long one request may take before it counts as no answer. */
  requestMs: number;
  /** Capture the corpus into `corpus` instead (with no mutant active). */
  capture?: { generated: number; seed: number };
}

export type WorkerVerdict =
  | { equivalent: true; instances: number; requests: number }
  | {
      equivalent: false;
      instance?: string;
      index?: number;
      request?: string;
      original?: string;
      mutant?: string;
      error?: string;
      requests?: number;
    };
