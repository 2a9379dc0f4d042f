// Why this file exists: mutation testing of the server with the CONTRACT SUITE as the killer (issue 23, item 6;
// docs/mutation.md). `npm run mutation` (never part of `npm run check`) mutates the files that shape what the API
// answers and runs tests/mutation/contract-killer.test.ts (jest.mutation.config.js: the real app in-process on
// port 0, 120 generated clients, every contract check and a 20-request property run) against each mutant.
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
    'server/engine/**/*.ts',
    '!server/engine/background.ts',
    'server/listener/raw-answers.ts',
  ],
  // One test, so per-test coverage is coverage: mutants the suite never reaches are reported NoCoverage, not run.
  coverageAnalysis: 'perTest',
  // Static mutants (module-level code, e.g. the error catalogue) are kept and run: ignoreStatic is off.
  ignoreStatic: false,
  concurrency: 1,
  // The machine is shared and noisy: a generous margin so that a slow run is not counted as a timeout (a kill).
  timeoutMS: 15000,
  timeoutFactor: 2,
  ignorePatterns: ['dist', 'examples', 'bench-results', 'test-artifacts', 'reports', 'coverage'],
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/mutation.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  tempDirName: '.stryker-tmp',
  cleanTempDir: true,
};
export default config;
