// The one "test" Stryker runs against each mutant of the server (issue 23, item 6; docs/mutation.md):
// our real app, in-process behind the real HTTP server on port 0, over a small deterministic data set,
// checked by the whole contract suite (every check and a short property run), five times: on a server as it is
// when it starts answering, on one whose background work after ready (client views made, records moved
// off the heap: what `serve` starts at once) is done, since a user's requests meet both, and on the in-process
// handlers' pipeline (the lean path first, the Express app for the rest: server/pipeline/lean-path.ts) behind
// the same kind of socket, since a unit test's requests meet that one (three such servers, since its lazy store
// fills in as it is asked: one as the suite asks it, two first asked what the suite never asks first); and a
// server in the modes users turn on (latency, an origin list, the control API's scenarios), where what a mode
// leaves of the contract is held (below). It fails when any check fails, errors, skips or finds the target
// unreachable: a mutant survives only if the contract suite cannot tell it from the real server. Not part of
// `npm test` (jest.config.js ignores tests/mutation/);
// `npm run mutation` runs it through jest.mutation.config.js.
import fs from 'node:fs';
import { runSuite, type SuiteRun } from '../../contract-suite/cli/main';
import { crossCuttingChecks } from '../../contract-suite/checks/cross-cutting';
import { detailChecks } from '../../contract-suite/checks/detail';
import { diagnosticsChecks } from '../../contract-suite/checks/diagnostics';
import { listChecks } from '../../contract-suite/checks/lists';
import type { Target } from '../../contract-suite/kit/target';
import { startProxy } from '../../proxy/proxy';
import { generateClients } from '../../seeds/client';
import { ASKED_FIRST, withCases } from '../../tools/mutation/killer-data';
import { startServer, type ScenarioRequest } from '../../server/index';
import { API_KEY, get, startLeanTestServer, startTestServer, type TestServer } from '../support/servers';

/** Small enough for one mutant in ~2 s, large enough for several pages at the default page size (25) and at 100. */
const CLIENTS = Number(process.env.MUTATION_CLIENTS ?? 120);
const RUNS = Number(process.env.MUTATION_RUNS ?? 20);
/**
 * The settled server's data set: past the 1,024 records after which the records' arena reserves the rest in
 * one piece (server/engine/client-records.ts, RESERVE_AFTER), so that path is run too; 120 would never reach it.
 */
const SETTLED_CLIENTS = Number(process.env.MUTATION_SETTLED_CLIENTS ?? 1100);
const SEED = 20260101;

/**
 * A request reset before any answer came is sent once more (RFC 9112 §9.3.1 allows it for an idempotent request; issue
 * 35 item 8 asks the suite itself for it). On starved cores the suite's client reuses keep-alive connections that
 * a server's 5 s timeout is closing (the modes servers and the judge have no setting for it): Stryker's coverage run
 * failed on such resets three times. A mutant that resets connections still fails the second try.
 */
const fetchOnce = globalThis.fetch;
globalThis.fetch = async (input, init) => {
  try {
    return await fetchOnce(input, init);
  } catch (error) {
    const code = (error as { cause?: { code?: string } }).cause?.code;
    const idempotent = ['GET', 'HEAD', 'OPTIONS', 'DELETE'].includes((init?.method ?? 'GET').toUpperCase());
    if (code !== 'ECONNRESET' || !idempotent || init?.body) throw error;
    return fetchOnce(input, init);
  }
};

/**
 * Idle connections are kept two minutes, not 5 s: under Stryker on starved cores the suite's client can go seconds
 * between two requests and reuse a connection just as the server closes it (ECONNRESET, a kill that no mutant made).
 * When a connection closes is listener plumbing, outside the mutated scope.
 */
const LISTENER = { keepAliveMs: 120_000 };

/**
 * First asked what the suite never asks first (tools/mutation/killer-data.ts, ASKED_FIRST), then the whole suite.
 * `generated`: over the generator's own source (seeds/client.ts generatedSource: ids and names first, each record
 * made when read), as the in-process handlers build their store when no data file is given, instead of records
 * made beforehand: the same clients, without the order cases.
 */
async function startLeanAskedFirst(requests: readonly string[], generated = false): Promise<TestServer> {
  const server = generated
    ? await startLeanTestServer({ seed: 1, clients: CLIENTS }, undefined, LISTENER)
    : await startLeanTestServer({}, withCases(generateClients(1, CLIENTS), false), LISTENER);
  for (const request of requests) await (await get(server.baseUrl, request)).arrayBuffer();
  return server;
}

/**
 * The modes server: the mock in the modes users turn on (docs/frontend.md, docs/control.md, docs/ci.md), which
 * the servers above leave off: LATENCY_MS, CORS_ORIGINS as a list (the suite sends a listed origin),
 * FULL_RESPONSE_VALIDATION (every body through the validator as sent), and the control API's scenarios, switched
 * between runs. A mode may change when and whether an answer comes, never its contract.
 */
const MODE_ORIGIN = 'https://example.org';
const MODES = {
  clients: CLIENTS,
  seed: 1,
  latencyMs: '0-2',
  corsOrigins: ['http://localhost:5173', MODE_ORIGIN],
  fullResponseValidation: true,
} as const;
/** The checks a mode's run takes: every operation and the cross-cutting rules (CORS, X-Request-Id), not the walk's thousand requests. */
const MODE_GROUPS = [diagnosticsChecks, listChecks, detailChecks, crossCuttingChecks];

/**
 * Each server is started by the first test that needs it (a killed mutant usually dies in the first test, and then
 * never pays for the others' data sets and background work) and stopped after the file.
 */
function lazily<T extends { stop?: () => Promise<unknown>; close?: () => Promise<unknown> }>(start: () => Promise<T>): () => Promise<T> {
  let started: Promise<T> | undefined;
  starts.push(async () => {
    const running = await started;
    await (running?.stop ?? running?.close)?.call(running);
  });
  return () => (started ??= start());
}
const starts: (() => Promise<void>)[] = [];

const cold = lazily(() => startTestServer({}, withCases(generateClients(1, CLIENTS), false), LISTENER));
const settled = lazily(async () => {
  const server = await startTestServer({}, withCases(generateClients(1, SETTLED_CLIENTS), true), LISTENER);
  await server.app.prebuild();
  return server;
});
const lean = lazily(() => startLeanTestServer({}, withCases(generateClients(1, CLIENTS), false), LISTENER));
const leanFilterFirst = lazily(() => startLeanAskedFirst(ASKED_FIRST.filter, true));
const leanFilterAfterPage = lazily(() => startLeanAskedFirst(ASKED_FIRST['page-then-filter']));
/** The modes server, behind a judge that keeps every violation of a run (the suite's own bad requests fill the default 1,000). */
const modes = lazily(() => startServer(MODES));
const judge = lazily(async () => startProxy({ upstream: (await modes()).url, journalSize: 100_000 }));
/** The same modes with ERROR_RATE 0.3 (a server setting, not a scenario), behind a judge of its own. */
const flaky = lazily(() => startServer({ ...MODES, errorRate: 0.3 }));
const flakyJudge = lazily(async () => startProxy({ upstream: (await flaky()).url, journalSize: 100_000 }));
/**
 * MUTATION_MODES_ONLY=1 runs the modes' tests alone: for a re-run of mode code whose mutants the servers
 * above already left alive (docs/mutation.md), at a few seconds a mutant instead of half a minute.
 */
const MODES_ONLY = process.env.MUTATION_MODES_ONLY === '1';

/**
 * A killed mutant needs one failure: once a test of this file has failed, the later ones pass at once (jest's
 * bail cannot be set through Stryker, and it would stop only later files). Stryker reads the first failure.
 */
let killed = false;
function killerTest(run: () => Promise<void>): () => Promise<void> {
  return async () => {
    if (killed) return;
    try {
      await run();
    } catch (error) {
      killed = true;
      throw error;
    }
  };
}

/**
 * MUTATION_SAMPLE names a file of Stryker mutant ids (tools/mutation/sample.ts writes it): in Stryker's coverage run
 * this file then reports coverage for those mutants alone, so Stryker runs them and reports every other mutant
 * as not covered (NoCoverage), at no cost. The decider (tools/mutation/decide.ts) scores the sample only.
 */
const SAMPLE = process.env.MUTATION_SAMPLE;
interface StrykerContext {
  mutantCoverage?: { static: Record<string, number>; perTest: Record<string, Record<string, number>> };
}
function keepSampleCoverage(): void {
  const coverage = (globalThis as { __stryker__?: StrykerContext }).__stryker__?.mutantCoverage;
  if (!SAMPLE || !coverage) return;
  const keep = new Set((JSON.parse(fs.readFileSync(SAMPLE, 'utf8')) as { ids: string[] }).ids);
  for (const counts of [coverage.static, ...Object.values(coverage.perTest)])
    for (const id of Object.keys(counts)) if (!keep.has(id)) delete counts[id];
}

/** MUTATION_TIMES names a file that gets one line per run of this file: the mutant, killed or not, and the seconds. */
const STARTED = performance.now();
function recordTime(): void {
  const file = process.env.MUTATION_TIMES;
  if (!file) return;
  const line = { mutant: process.env.__STRYKER_ACTIVE_MUTANT__ ?? null, killed, seconds: (performance.now() - STARTED) / 1000 };
  fs.appendFileSync(file, `${JSON.stringify(line)}\n`);
}

afterAll(async () => {
  keepSampleCoverage();
  // Proxies before the servers behind them: the reverse of their definition.
  for (const stop of [...starts].reverse()) await stop();
  recordTime();
});

/** The first failing check ends the run (a mutant is killed by one failure; the rest would only cost time). */
const stopAtFirstFailure = (line: string) => {
  if (/^ {2}[✗!]/.test(line)) throw new Error(`the contract suite failed:\n${line}`);
};

/**
 * A skip is a failure here too: against our own mock every precondition holds (its data has staff, locations
 * and inactive clients; it honours Prefer), so a check that skips means the mutant broke what it needs. Against
 * another deployment a skip stays a skip (docs/contract.md); only this killer knows the target is ours.
 */
function brokenChecks(run: SuiteRun): string[] {
  return run.results
    .filter((r) => r.outcome !== 'pass')
    .map((r) => `${r.outcome} ${r.operation} ${r.name}\n${(r.error ?? r.reason ?? '').split('\n')[0]}`);
}

(MODES_ONLY ? test.skip.each : test.each)([
  [`as it starts answering (${CLIENTS} clients)`, cold],
  [`after its background work (${SETTLED_CLIENTS} clients)`, settled],
  [`through the in-process lean path (${CLIENTS} clients)`, lean],
  [`through the lean path over the generator's source, first asked a filter (${CLIENTS} clients)`, leanFilterFirst],
  [`through the lean path, first asked the first page and a filter (${CLIENTS} clients)`, leanFilterAfterPage],
])(`the contract suite passes against the server %s, ${RUNS} generated requests`, (_state, target) =>
  killerTest(async () => {
    const server = await target();
    // --strict-http: these servers are our mock, whose HTTP server refuses what Node's takes (two Host lines, a Host
    // that is no host, `Transfer-Encoding: gzip`). The modes' runs need it not: theirs have no framing checks
    // (MODE_GROUPS), or go through the judging proxy, which answers framing faults itself.
    const run = await runSuite(
      { baseUrl: server.baseUrl, apiKey: API_KEY },
      { runs: RUNS, seed: SEED, origin: 'https://example.org', strictHttp: true, log: stopAtFirstFailure, verbose: true },
    );
    expect(brokenChecks(run)).toEqual([]);
  })(),
);

/** A mode's run of the suite: the first failure ends it. */
function modeRun(target: Target): Promise<SuiteRun> {
  return runSuite(target, { runs: 0, seed: SEED, origin: MODE_ORIGIN, log: stopAtFirstFailure, verbose: true, groups: MODE_GROUPS });
}

describe('the server in its test modes', () => {
  afterEach(async () => {
    if (!killed) await (await modes()).resetScenarios();
  });

  // LATENCY_MS delays an answer and a listed origin is answered as `*` is: the suite must see the contract whole.
  test.each<[string, ScenarioRequest | undefined]>([
    ['LATENCY_MS 0-2, CORS_ORIGINS a list (the suite sends a listed origin), FULL_RESPONSE_VALIDATION on', undefined],
    ['the scenario slow;min=0;max=2', { scenario: 'slow', min: 0, max: 2 }],
  ])('the contract suite passes: %s', (_mode, scenario) =>
    killerTest(async () => {
      const server = await modes();
      if (scenario) await server.setScenario(scenario);
      expect(brokenChecks(await modeRun({ baseUrl: server.url, apiKey: API_KEY }))).toEqual([]);
    })(),
  );

  // The scenarios themselves, as control.openapi.yaml states them: the suite's --control checks (each scenario chosen
  // per request, as a team's tests choose it), judged against both documents.
  test.each([
    ['', modes],
    [', beside ERROR_RATE 0.3 (its own server: `normal` keeps it)', flaky],
  ])("the contract suite's --control checks pass: every scenario does what control.openapi.yaml says%s", (_server, server) =>
    killerTest(async () => {
      const run = await runSuite(
        { baseUrl: (await server()).url, apiKey: API_KEY },
        { runs: 0, seed: SEED, origin: MODE_ORIGIN, log: stopAtFirstFailure, verbose: true, groups: [], control: true },
      );
      expect(brokenChecks(run)).toEqual([]);
      expect(run.results.filter((r) => r.operation === 'control')).toHaveLength(8);
    })(),
  );

  // A failing scenario makes its answers errors on purpose, so the suite's own checks fail; what it may not do is
  // answer outside the contract. The contract suite's per-answer rules (the proxy's driver, contract/judge/)
  // judge every exchange: the one departure allowed is the one the error table documents, a simulated failure's
  // `500 INTERNAL_ERROR` where a success was due (and, for `unauthorised`, the 401 any request may get).
  test.each<[string, ScenarioRequest | undefined]>([
    ['the scenario flaky;rate=0.3;seed=7', { scenario: 'flaky', rate: 0.3, seed: 7 }],
    ['the scenario down', { scenario: 'down' }],
    ['the scenario unauthorised', { scenario: 'unauthorised' }],
    ['ERROR_RATE 0.3 (its own server)', undefined],
  ])('every answer keeps the contract in %s', (_mode, scenario) =>
    killerTest(async () => {
      if (scenario) await (await modes()).setScenario(scenario);
      const proxy = scenario ? await judge() : await flakyJudge();
      // The journal's DELETE (proxy.openapi.yaml): each run is judged on its own answers.
      expect((await fetch(`${proxy.url}/__proxy/violations`, { method: 'DELETE' })).status).toBe(204);
      // The whole suite and a property run: its checks stop at their first failure, so every group is needed for
      // the answers to be many and of every kind (lists, Detail, 400s, 404s, 405s, preflights) under the mode.
      const run = await runSuite({ baseUrl: proxy.url, apiKey: API_KEY }, { runs: RUNS, seed: SEED, origin: MODE_ORIGIN });
      // Every exchange went through the judge (the run reached the server and was not cut short).
      expect(run.results.some((r) => r.outcome === 'unreachable' || r.outcome === 'error')).toBe(false);
      const outside = proxy
        .violations({ side: 'response' })
        .filter((entry) => !(entry.rule === 'response.status' && /^500 INTERNAL_ERROR\b/.test(entry.actual)));
      expect(outside.map((entry) => `${entry.rule}: expected ${entry.expected}; actual ${entry.actual}\n  ${entry.curl}`)).toEqual([]);
    })(),
  );
});
