// The suites that measure the contract suite by running it whole once per injected fault: `npm test` leaves them
// out (jest.config.js) and `npm run test:harness` runs them (jest.harness.config.js). One list, both configs.
module.exports = ['tests/contract/mutation.test.ts', 'tests/proxy/mutants.test.ts', 'tests/reach/reach.test.ts'];
