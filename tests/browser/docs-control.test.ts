// GET /docs with the control API on, in a real browser: the page's selector
// offers the control API's document (control.openapi.yaml) beside the API's,
// and choosing it shows its operations, loaded from this server alone.
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { startServer, type RunningMock } from '../../server/index';
import { ROOT } from '../support/servers';
import { launchChromium, newPage, watchProblems, WAIT_MS, type PageProblems } from './chromium';

let mock: RunningMock;
let browser: Browser;
let page: Page;
let problems: PageProblems;

beforeAll(async () => {
  mock = await startServer({ clients: 50 });
  browser = await launchChromium();
  page = await newPage(browser);
  problems = watchProblems(page);
  await page.goto(`${mock.url}/docs`, { waitUntil: 'networkidle' });
  await page.locator('.opblock').first().waitFor();
}, 4 * WAIT_MS);

afterAll(async () => {
  await browser?.close();
  await mock?.close();
});

test(
  'GET /docs → the selector offers both documents; choosing the control API shows its operations',
  async () => {
    const select = page.locator('.topbar select');
    const options = await select.locator('option').allTextContents();

    await select.selectOption({ label: 'Mock control API (control.openapi.yaml)' });
    await page.locator('.opblock-summary-operation-id', { hasText: /^setSessionScenario$/ }).waitFor();
    const ids = await page.locator('.opblock-summary-operation-id').allTextContents();
    await page.screenshot({ path: path.join(ROOT, 'test-artifacts/docs-control-api.png'), fullPage: false });

    expect(options).toEqual(['Client Records API (openapi.yaml)', 'Mock control API (control.openapi.yaml)']);
    expect(ids).toEqual(
      expect.arrayContaining(['listScenarios', 'setServerScenario', 'setSessionScenario', 'readJournal', 'readCoverage']),
    );
    expect(problems.requested).toContain(`${mock.url}/__control/openapi.json`);
    expect(problems.requested.filter((url) => new URL(url).origin !== mock.url)).toEqual([]);
    expect(problems.failed).toEqual([]);
    expect(problems.errors).toEqual([]);
  },
  4 * WAIT_MS,
);
