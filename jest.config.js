/** Jest runs the TypeScript sources through esbuild (types stripped; `npm run typecheck` type-checks): tests/support/esbuild-transform.js. */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- a CommonJS config file
const HARNESSES = require('./tests/support/harnesses.js');

module.exports = {
  testEnvironment: 'node',
  // The example frontend's unit tests are vitest's (scripts/consumer-check.ts runs them from the tarball).
  roots: ['<rootDir>/tests'],
  testMatch: ['**/*.test.ts'],
  // tests/mutation/ is Stryker's killer (npm run mutation, jest.mutation.config.js): a whole suite run per mutant, not a unit test.
  // The harnesses run the whole suite once per injected fault: `npm run test:harness` (jest.harness.config.js).
  testPathIgnorePatterns: ['/node_modules/', '<rootDir>/tests/mutation/', ...HARNESSES.map((file) => `<rootDir>/${file}`)],
  // TypeScript first: server/msw.ts, not the package's hand-written ES-module entry server/msw.mjs beside it.
  moduleFileExtensions: ['ts', 'js', 'mjs', 'cjs', 'json', 'node'],
  transform: { '^.+\\.(ts|m?js)$': '<rootDir>/tests/support/esbuild-transform.js' },
  // Only the ES-module-only packages that msw 2 and light-my-request load are transformed (judged by the
  // innermost node_modules folder of the path); the rest of node_modules loads as it is.
  transformIgnorePatterns: ['/node_modules/(?!(rettime|until-async|@open-draft/deferred-promise|cookie)/)(?!.*/node_modules/)'],
  testTimeout: 30000,
  // A worker a core. Jest's own default is one fewer (its main process gets a core), which on a 2-core CI machine
  // runs the files one after another: most files wait on sockets, child processes and browsers, and two workers took
  // the whole run from 1,078 s to 673 s here.
  maxWorkers: '100%',
  // A clean clone's first run starts the known slowest files first (Jest's own order needs timings it lacks).
  testSequencer: '<rootDir>/tests/support/sequencer.js',
  // Servers started by a test are closed by that test; a leak must fail loudly, not hang CI.
  forceExit: false,
};
