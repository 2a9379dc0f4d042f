// Playwright for the static Storybook (issue 39), on the app's own settings (playwright.config.ts): here
// e2e-storybook/global-setup.ts builds the Storybook (`storybook build`) and serves it from a sub-folder with
// Python's http.server, no mock server anywhere; each test opens one story in Chromium, asserts what it shows
// and keeps its screenshot in test-artifacts/storybook/screenshots/.
import { defineConfig } from '@playwright/test';
import app from './playwright.config.ts';

export default defineConfig({
  ...app,
  testDir: './e2e-storybook',
  globalSetup: './e2e-storybook/global-setup.ts',
  // Two: each test is a page load of the whole preview on a machine's two cores.
  workers: 2,
  use: {
    ...app.use,
    // The static build's folder on the server, set by the global set-up before the workers start.
    baseURL: process.env.STORYBOOK_URL,
    viewport: { width: 1280, height: 800 },
    actionTimeout: 10_000,
    navigationTimeout: 15_000,
  },
});
