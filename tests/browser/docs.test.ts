// GET /docs in a real browser: the Swagger UI page loads from this server alone
// (no failed request, no CSP violation), shows the five operations, and "Try it
// out" calls this very server with the key from the Authorize box.
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { loadSpec } from '../../contract/spec';
import { API_KEY, ROOT, startTestServer, type TestServer } from '../support/servers';
import { launchChromium, newPage, watchProblems, WAIT_MS, type PageProblems } from './chromium';

const ARTIFACTS = path.join(ROOT, 'test-artifacts');
const OPERATIONS = Object.values(loadSpec().paths).map((item) => item.get as { operationId: string; summary: string });

let server: TestServer;
let browser: Browser;
let page: Page;
let problems: PageProblems;

beforeAll(async () => {
  server = await startTestServer();
  browser = await launchChromium();
  page = await newPage(browser);
  problems = watchProblems(page);
  await page.goto(`${server.baseUrl}/docs`, { waitUntil: 'networkidle' });
  await page
    .locator('.opblock')
    .nth(OPERATIONS.length - 1)
    .waitFor();
}, 4 * WAIT_MS);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('GET /docs', () => {
  test('GET /docs → loads with no failed request, no error response and no console error', () => {
    expect(problems.failed).toEqual([]);
    expect(problems.errorResponses).toEqual([]);
    expect(problems.errors).toEqual([]);
  });

  test('GET /docs → every request of the page goes to this server: no CDN, no web font, no online validator', () => {
    const elsewhere = problems.requested.filter((url) => new URL(url).origin !== server.baseUrl);

    expect(problems.requested).toContain(`${server.baseUrl}/docs/assets/swagger-ui-bundle.js`);
    expect(problems.requested).toContain(`${server.baseUrl}/openapi.json`);
    expect(elsewhere).toEqual([]);
  });

  test('GET /docs → shows the five operations of openapi.yaml, by operationId and summary', async () => {
    const blocks = page.locator('.opblock');

    expect(await blocks.count()).toBe(OPERATIONS.length);
    for (const { operationId, summary } of OPERATIONS) {
      const block = page.locator('.opblock', {
        has: page.locator('.opblock-summary-operation-id', { hasText: new RegExp(`^${operationId}$`) }),
      });
      expect(await block.count()).toBe(1);
      expect(await block.locator('.opblock-summary-description').innerText()).toBe(summary);
    }
  });

  test('GET /docs → a screenshot of the page is written to test-artifacts/docs.png', async () => {
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    const file = path.join(ARTIFACTS, 'docs.png');

    await page.screenshot({ path: file, fullPage: true });

    expect(fs.statSync(file).size).toBeGreaterThan(10_000);
  });

  test('GET /docs → "Try it out" on getClientsSimple with the key from Authorize gets 200 from this server', async () => {
    await page.locator('button.authorize').first().click();
    await page.locator('.modal-ux input').first().fill(API_KEY);
    await page.locator('.modal-ux button.authorize').click();
    await page.locator('.modal-ux button.btn-done, .modal-ux button.close-modal').first().click();
    const block = page.locator('#operations-Client-getClientsSimple');
    await block.locator('.opblock-summary').click();
    await block.locator('button.try-out__btn').click();

    await block.locator('button.execute').click();
    const status = block.locator('.live-responses-table tbody .response-col_status').first();
    await status.waitFor();

    expect((await status.innerText()).trim()).toBe('200');
    expect(problems.failed).toEqual([]);
    expect(problems.errors).toEqual([]);
  });
});
