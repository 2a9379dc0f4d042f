// Playwright for the app: e2e/global-setup.ts (the package's mockAndApp) starts the mock and the app's
// dev server on free ports and hands their addresses to every worker (APP_URL, MOCK_URL). Three workers,
// each test in its own session of the one mock (e2e/scenarios.spec.ts).
import { defineConfig } from '@playwright/test';

// The browser: CHROMIUM_PATH, default Debian's /usr/bin/chromium; set it empty for Playwright's own
// browser (npx playwright install chromium), e.g. on macOS or Windows.
const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export default defineConfig({
  testDir: './e2e',
  globalSetup: './e2e/global-setup.ts',
  fullyParallel: true,
  workers: 3,
  forbidOnly: !!process.env.CI,
  retries: 0,
  timeout: 30_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  use: {
    // Set by the global set-up before the workers start (each worker reads this file again).
    baseURL: process.env.APP_URL,
    browserName: 'chromium',
    launchOptions: executablePath ? { executablePath } : {},
    screenshot: 'only-on-failure',
  },
});
