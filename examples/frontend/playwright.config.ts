// Playwright for the example frontend: webServer starts the mock (the built CLI)
// and the page's dev server. Run from the repository root: npm run test:frontend.
import path from 'node:path';
import { defineConfig } from '@playwright/test';

const MOCK_PORT = Number(process.env.E2E_MOCK_PORT ?? 47310);
const PAGE_PORT = Number(process.env.E2E_PAGE_PORT ?? 47311);
const MOCK_URL = `http://127.0.0.1:${MOCK_PORT}`;
const PAGE_URL = `http://127.0.0.1:${PAGE_PORT}`;
const ROOT = path.resolve(__dirname, '../..');
// The browser: CHROMIUM_PATH, default Debian's /usr/bin/chromium; set it empty for Playwright's own
// browser (npx playwright install chromium), e.g. on macOS or Windows. The same setting as tests/browser/.
const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export default defineConfig({
  testDir: './e2e',
  outputDir: path.join(ROOT, 'test-artifacts/frontend-e2e'),
  fullyParallel: true,
  workers: 2,
  forbidOnly: !!process.env.CI,
  retries: 0,
  timeout: 30_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  use: {
    baseURL: PAGE_URL,
    browserName: 'chromium',
    launchOptions: executablePath ? { executablePath } : {},
    screenshot: 'only-on-failure',
  },
  webServer: [
    {
      command: 'node dist/cli/main.js',
      cwd: ROOT,
      env: { PORT: String(MOCK_PORT), HOST: '127.0.0.1', SEED: '1', CLIENTS: '1000', LOG_LEVEL: 'warn' },
      url: `${MOCK_URL}/api/v1/Diagnostics/Ping`,
      reuseExistingServer: false,
      timeout: 30_000,
    },
    {
      command: 'node examples/frontend/serve.mjs',
      cwd: ROOT,
      env: { PORT: String(PAGE_PORT), API_URL: MOCK_URL },
      url: `${PAGE_URL}/`,
      reuseExistingServer: false,
      timeout: 30_000,
    },
  ],
});
