// Debian's chromium driven by playwright-core (npm browser downloads cannot
// reach the network here; .ci/run installs the package with apt-get). Every
// wait is bounded, and a page records every request that failed, so a test can
// assert that a page loaded cleanly.
import { chromium, type Browser, type Page } from 'playwright-core';

/**
 * The browser every browser test drives (these and examples/frontend's):
 * CHROMIUM_PATH, default Debian's /usr/bin/chromium. Set it to another
 * Chromium-based browser's path, or to an empty string for Playwright's own
 * browser (`npx playwright install chromium`), e.g. on macOS or Windows.
 */
export function chromiumPath(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const path = env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  return path === '' ? undefined : path;
}

/** Flags for a headless browser in a container or CI: no sandbox, no GPU, no background traffic. */
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
/** Upper bound of any single wait in a browser test. */
export const WAIT_MS = 15_000;

export function launchChromium(): Promise<Browser> {
  const executablePath = chromiumPath();
  return chromium.launch({ ...(executablePath ? { executablePath } : {}), args: CHROMIUM_ARGS, timeout: WAIT_MS });
}

export interface PageProblems {
  /** Every URL the page requested, in order. */
  requested: string[];
  /** Requests that never got a response (blocked by CSP or CORS, refused, aborted). */
  failed: string[];
  /** Responses with a status of 400 or more. */
  errorResponses: string[];
  /** Console errors and uncaught exceptions (CSP violations are reported here). */
  errors: string[];
}

/** Starts recording the page's requests, and what went wrong, from now on. */
export function watchProblems(page: Page): PageProblems {
  const problems: PageProblems = { requested: [], failed: [], errorResponses: [], errors: [] };
  page.on('request', (request) => problems.requested.push(request.url()));
  page.on('requestfailed', (request) =>
    problems.failed.push(`${request.method()} ${request.url()}: ${request.failure()?.errorText ?? 'failed'}`),
  );
  page.on('response', (response) => {
    if (response.status() >= 400) problems.errorResponses.push(`${response.status()} ${response.request().method()} ${response.url()}`);
  });
  page.on('console', (message) => {
    if (message.type() === 'error') problems.errors.push(message.text());
  });
  page.on('pageerror', (error) => problems.errors.push(error.message));
  return problems;
}

export async function newPage(browser: Browser): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.setDefaultTimeout(WAIT_MS);
  page.setDefaultNavigationTimeout(WAIT_MS);
  return page;
}
