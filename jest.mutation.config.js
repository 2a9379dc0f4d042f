/**
 * Why this file exists: Stryker (stryker.config.mjs, `npm run mutation`) runs only the contract-suite killer
 * tests/mutation/contract-killer.test.ts against each mutant of the server; `npm test` (jest.config.js) never runs it.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- a CommonJS config file, as jest.config.js is
const base = require('./jest.config.js');

module.exports = {
  ...base,
  roots: ['<rootDir>/tests/mutation'],
  testPathIgnorePatterns: ['/node_modules/'],
  // Each test starts its own servers (lazily) and runs the whole suite: on two shared, loaded cores under nice that
  // takes minutes; Stryker times mutants out by its own measure (stryker.config.mjs timeoutMS, timeoutFactor).
  testTimeout: 600000,
};
