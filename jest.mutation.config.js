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
  testTimeout: 60000,
};
