// Why this file exists: mutation testing of the server with the CONTRACT SUITE as the killer (issue 23, item 6;
// docs/mutation.md). `npm run mutation` (never part of `npm run check`) mutates the files that shape what the API
// answers and runs tests/mutation/contract-killer.test.ts (jest.mutation.config.js: the real app in-process on
// port 0, once as it starts answering over 120 clients and once after its background work over 1,100, every
// contract check and a 20-request property run) against each mutant. Which survivors are equivalent is then
// decided by machine (tools/mutation/decide.ts: the same instrumentation, a differential corpus), not here.
//
// In scope: routing, auth, validation, raw-query checks, Prefer, dispatch and the handlers (server/pipeline/),
// the error catalogue and the ErrorDto writer (server/errors.ts, pipeline/error-handler.ts), paging headers,
// the response path (pipeline/request.ts, response-cache.ts, http-hygiene.ts: CORS and the security headers),
// the engine (store, records, projections, slot arena, list query, search index), and the listener's raw
// answers (listener/raw-answers.ts: what is answered before Express, e.g. a request without Host).
// Out of scope, and why: server/process/ (settings, logging, crash policy, --watch, workers: not an answer),
// the rest of server/listener/ (socket plumbing, the connection cap, the rejection log: resilience under
// floods, covered by tests/listener/, not by a contract), pipeline/docs.ts (the Swagger UI page: not an API
// operation), engine/background.ts (when background work runs, not what is answered), server/control/ (the
// control API, its own spec), and the faces (index.ts, mock.ts, msw.ts, playwright.ts; mcp/, proxy/).
import fs from 'node:fs';
import { URL } from 'node:url';

/** `file:from-to` ranges over every line of a file but those holding a `!++` or `!--` (Stryker's line numbers: from 1). */
function aroundNonNullUpdates(file) {
  const lines = fs.readFileSync(new URL(file, import.meta.url), 'utf8').split('\n');
  const ranges = [];
  let from = 1;
  lines.forEach((text, i) => {
    if (!/!(\+\+|--)/.test(text)) return;
    if (i + 1 > from) ranges.push(`${file}:${from}-${i}`);
    from = i + 2;
  });
  if (from <= lines.length) ranges.push(`${file}:${from}-${lines.length}`);
  return ranges;
}

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
const config = {
  testRunner: 'jest',
  // ts-jest transpiles only (isolatedModules), so a mutant that would not type-check still runs as the JS it
  // becomes; no typescript checker: on two shared cores its time goes to running mutants instead.
  jest: { projectType: 'custom', configFile: 'jest.mutation.config.js', enableFindRelatedTests: false },
  mutate: [
    'server/errors.ts',
    'server/pipeline/*.ts',
    '!server/pipeline/docs.ts',
    'server/pipeline/handlers/*.ts',
    'server/engine/client-records.ts',
    'server/engine/list-query.ts',
    'server/engine/projections.ts',
    'server/engine/slot-arena.ts',
    'server/engine/search/position-set.ts',
    // Stryker 10's instrumenter throws on `x[i]!++` (a TSNonNullExpression under ++, even with UpdateOperator
    // excluded: the mutator builds the node before the exclusion is read), so the files that have one are mutated
    // in ranges that step over those lines (the counting sort of names, counting n-grams), found as the config
    // loads: a line number written here went stale when the file above it changed. Nothing else on them is mutated.
    'server/engine/store.ts',
    'server/engine/client-source.ts',
    ...aroundNonNullUpdates('server/engine/list-order.ts'),
    ...aroundNonNullUpdates('server/engine/search/frequent-substrings.ts'),
    ...aroundNonNullUpdates('server/engine/search/search-index.ts'),
    'server/listener/raw-answers.ts',
  ],
  // UpdateOperator is off: its mutants here are loop counters and counts whose `i--` only hangs (a timeout at
  // 15 s+ each on shared cores). docs/mutation.md counts the ++/-- sites left unmutated.
  mutator: { excludedMutations: ['UpdateOperator'] },
  // One test, so per-test coverage is coverage: mutants the suite never reaches are reported NoCoverage, not run.
  coverageAnalysis: 'perTest',
  // Static mutants (module-level code, e.g. the error catalogue) are kept and run: ignoreStatic is off.
  ignoreStatic: false,
  concurrency: 1,
  // The machine is shared and noisy: a generous margin so that a slow run is not counted as a timeout (a kill).
  timeoutMS: 15000,
  timeoutFactor: 2,
  // The coverage run is the whole killer with coverage counting, under `nice` on shared cores: minutes, past the
  // default limit of 5.
  dryRunTimeoutMinutes: 40,
  ignorePatterns: ['dist', 'examples', 'bench-results', 'test-artifacts', 'reports', 'coverage'],
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/mutation.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  tempDirName: '.stryker-tmp',
  cleanTempDir: true,
};
export default config;
