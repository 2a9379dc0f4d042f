// GET /docs in a real browser: the Swagger UI page loads from this server alone
// (no failed request, no CSP violation), shows the five operations on the first
// 1280x800 screen, and "Try it out" calls this very server with the key from the
// Authorize box, pre-filled only with what a first call needs (issue 26).
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { loadSpec } from '../../contract/spec';
import { API_KEY, ROOT, startTestServer, type TestServer } from '../support/servers';
import { launchChromium, newPage, watchProblems, WAIT_MS, type PageProblems } from './chromium';

const ARTIFACTS = path.join(ROOT, 'test-artifacts');
const SPEC = loadSpec();
const OPERATIONS = Object.values(SPEC.paths).map((item) => item.get as { operationId: string; summary: string });
const SCREEN = { width: 1280, height: 800 };

interface SpecParameter {
  name: string;
  in: string;
  required?: boolean;
  example?: unknown;
}
/** An operation's parameters as openapi.yaml gives them, shared ($ref) ones resolved. */
function parametersOf(operationId: string): SpecParameter[] {
  const shared = ((SPEC as unknown as { components?: { parameters?: Record<string, SpecParameter> } }).components?.parameters ??
    {}) as Record<string, SpecParameter>;
  const operation = Object.values(SPEC.paths)
    .map((item) => item.get as { operationId: string; parameters?: (SpecParameter | { $ref: string })[] })
    .find((candidate) => candidate.operationId === operationId)!;
  return (operation.parameters ?? []).map((parameter) => ('$ref' in parameter ? shared[parameter.$ref.split('/').pop()!]! : parameter));
}

let server: TestServer;
let browser: Browser;
let page: Page;
let problems: PageProblems;

beforeAll(async () => {
  server = await startTestServer();
  browser = await launchChromium();
  page = await newPage(browser);
  await page.setViewportSize(SCREEN);
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

  test('GET /docs at 1280x800 → every operation is on the first screen, the introduction folded below its first paragraph', async () => {
    const bottoms = await page.locator('.opblock').evaluateAll((blocks) => blocks.map((block) => block.getBoundingClientRect().bottom));
    const folded = page.locator('.info details');
    const description = (SPEC as unknown as { info: { description: string } }).info.description;
    const firstSection = /^#+ (.+)$/m.exec(description)![1]!;

    expect(bottoms).toHaveLength(OPERATIONS.length);
    expect(Math.max(...bottoms)).toBeLessThanOrEqual(SCREEN.height);
    expect(await folded.count()).toBe(1);
    expect(await folded.evaluate((element) => (element as unknown as { open: boolean }).open)).toBe(false);
    expect(await folded.locator('summary').innerText()).toContain(firstSection);
    expect(await page.getByRole('heading', { name: firstSection }).isVisible()).toBe(false);
  });

  test('GET /docs → screenshots at 1280x800 and of the whole page in test-artifacts/', async () => {
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    const screen = path.join(ARTIFACTS, 'docs-1280x800.png');
    const whole = path.join(ARTIFACTS, 'docs.png');

    await page.screenshot({ path: screen });
    await page.screenshot({ path: whole, fullPage: true });

    expect(fs.statSync(screen).size).toBeGreaterThan(10_000);
    expect(fs.statSync(whole).size).toBeGreaterThan(10_000);
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

  test('GET /docs → "Try it out" pre-fills a required parameter\'s example only; optional ones show theirs in the description', async () => {
    const detail = page.locator('#operations-Client-getClientDetail');
    const idClient = parametersOf('getClientDetail').find((parameter) => parameter.required && parameter.example !== undefined)!;
    await detail.locator('.opblock-summary').click();
    await detail.locator('button.try-out__btn').click();

    expect(await detail.locator(`tr[data-param-name="${idClient.name}"] input`).inputValue()).toBe(String(idClient.example));

    const extended = page.locator('#operations-Client-getClientsExtended');
    const optional = parametersOf('getClientsExtended').filter((parameter) => !parameter.required && parameter.example !== undefined);
    await extended.locator('.opblock-summary').click();
    await extended.locator('button.try-out__btn').click();
    const filled: Record<string, string> = {};
    for (const parameter of optional) {
      const row = extended.locator(`tr[data-param-name="${parameter.name}"][data-param-in="${parameter.in}"]`);
      expect(await row.locator('.parameter__description, td.parameters-col_description').first().innerText()).toContain(
        `Example: ${String(parameter.example)}`,
      );
      const input = row.locator('input, select').first();
      const value = await input.evaluate((element) => (element as unknown as { value: string }).value);
      if (value !== '' && value !== '--') filled[parameter.name] = value;
    }

    expect(optional.map((parameter) => parameter.name)).toEqual(expect.arrayContaining(['filter', 'active']));
    // Only the parameters whose example is also their default may show a value: it is what the server assumes anyway.
    const defaults = parametersOf('getClientsExtended').filter(
      (parameter) => (parameter as { schema?: { default?: unknown } }).schema?.default !== undefined,
    );
    expect(Object.keys(filled).sort()).toEqual(
      defaults
        .filter((parameter) => filled[parameter.name] !== undefined)
        .map((parameter) => parameter.name)
        .sort(),
    );
  });

  test('GET /docs → "Try it out" on getClientsExtended with only a filter typed → a non-empty page', async () => {
    const extended = page.locator('#operations-Client-getClientsExtended');
    const filter = parametersOf('getClientsExtended').find((parameter) => parameter.name === 'filter')!;
    await extended.locator('tr[data-param-name="filter"] input[type="text"]').fill(String(filter.example));

    await extended.locator('button.execute').click();
    const status = extended.locator('.live-responses-table tbody .response-col_status').first();
    await status.waitFor();
    const body = extended.locator('.live-responses-table .microlight, .live-responses-table pre').first();

    expect((await status.innerText()).trim()).toBe('200');
    expect(JSON.parse(await body.innerText()).Results.length).toBeGreaterThan(0);
  });
});
