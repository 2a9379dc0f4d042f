// Vitest for the example's unit tests (tests/), as a Vite frontend runs them; the
// Playwright tests in e2e/ are not vitest's. The first test of a file waits while
// the mock builds its data in-process, hence the longer timeouts on a busy machine.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
