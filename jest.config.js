/** Jest runs the TypeScript sources through ts-jest (transpile only; `npm run typecheck` type-checks). */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/tests'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.ts$': 'ts-jest' },
  testTimeout: 30000,
  // Servers started by a test are closed by that test; a leak must fail loudly, not hang CI.
  forceExit: false,
};
