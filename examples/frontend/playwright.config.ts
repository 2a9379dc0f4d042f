// Playwright for the example frontend: global-setup.ts starts the mock and the
// page's dev server on free ports (port 0) and passes the page's address on as
// E2E_PAGE_URL. Run from the repository root: npm run test:frontend.
import path from 'node:path';
import { defineConfig } from '@playwright/test';

const ROOT = path.resolve(__dirname, '../..');
// The browser: CHROMIUM_PATH, default Debian's /usr/bin/chromium; set it empty for Playwright's own
// browser (npx playwright install chromium), e.g. on macOS or Windows. The same setting as tests/browser/.
const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export default defineConfig({
  testDir: './e2e',
  globalSetup: './global-setup.ts',
  outputDir: path.join(ROOT, 'test-artifacts/frontend-e2e'),
  fullyParallel: true,
  workers: 2,
  forbidOnly: !!process.env.CI,
  retries: 0,
  timeout: 30_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  use: {
    // Set by global-setup.ts before the workers start (each worker reads this file again).
    baseURL: process.env.E2E_PAGE_URL,
    browserName: 'chromium',
    launchOptions: executablePath ? { executablePath } : {},
    screenshot: 'only-on-failure',
  },
});
