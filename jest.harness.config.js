/**
 * Why this file exists: the harnesses measure the contract suite itself, each by running the whole suite many
 * times (one run per injected fault: tests/contract/mutation.test.ts, tests/proxy/mutants.test.ts; the reach
 * harness's self-test, tests/reach/). At some 2,800 requests a run they take tens of minutes on two cores, so
 * `npm test` (jest.config.js) leaves them out and `npm run test:harness` runs them: before a release, or after a
 * change to the suite's checks or to tools/mutants.ts. The judge's rules and each check's verdicts stay guarded in
 * `npm test` by the faster tests of tests/contract/ (derived.test.ts, judge.test.ts, relations.test.ts, cli.test.ts).
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- a CommonJS config file, as jest.config.js is
const base = require('./jest.config.js');
// eslint-disable-next-line @typescript-eslint/no-require-imports -- a CommonJS config file
const HARNESSES = require('./tests/support/harnesses.js');

module.exports = {
  ...base,
  testMatch: HARNESSES.map((file) => `<rootDir>/${file}`),
  testPathIgnorePatterns: ['/node_modules/'],
  // One whole suite run per fault: minutes per test on two shared cores.
  testTimeout: 1_800_000,
};
