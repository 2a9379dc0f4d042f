// Every story of the client list (src/ClientList.stories.tsx) in the static Storybook, in Chromium: what it
// shows in its scenario, answered by client-records-mock/browser in the page's service worker with no mock
// server; a screenshot of each goes to test-artifacts/storybook/screenshots/<story>.png, passing or failing.
// The single and longest rows are the spec's own examples (openapi.yaml), read from it.
import fs from 'node:fs';
import path from 'node:path';
import { expect, test as base, type Page } from '@playwright/test';
import { parse } from 'yaml';
import type { components } from 'client-records-mock';
import { recordStatusTexts } from '../e2e/status-texts.ts';
import { ARTIFACTS, ROOT } from './paths.ts';

type ListExample = { value: { Results: components['schemas']['ClientExtended'][] } };
const spec = parse(fs.readFileSync(path.join(ROOT, 'openapi.yaml'), 'utf8'));
const examples: Record<string, ListExample> =
  spec.paths['/api/v1/Client/Extended'].get.responses['200'].content['application/json'].examples;
const nameOf = (example: string) => examples[example]!.value.Results[0]!.FullName;

const status = (page: Page) => page.getByRole('status');
const rows = (page: Page) => page.locator('#rows tr');
const names = (page: Page) => page.locator('#rows tr td:first-child').allInnerTexts();
/** The filter's folding, as far as these names need it (openapi.yaml, parameter filter): NFD, no marks, lower case. */
const folded = (text: string) => text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

/** `story(name)` opens that story alone (iframe.html); after the test its screenshot is kept, and the page must have stayed on its own origin. */
const test = base.extend<{ story: (name: string) => Promise<void> }>({
  story: async ({ page, baseURL }, use) => {
    let opened: string | undefined;
    const elsewhere: string[] = [];
    const thrown: string[] = [];
    page.on('request', (request) => {
      if (!request.url().startsWith(new URL(baseURL!).origin) && !request.url().startsWith('data:')) elsewhere.push(request.url());
    });
    page.on('pageerror', (error) => thrown.push(error.message));
    await use(async (name) => {
      opened = name;
      await page.goto(`iframe.html?id=clients-clientlist--${name}&viewMode=story`);
    });
    if (opened) {
      fs.mkdirSync(path.join(ARTIFACTS, 'screenshots'), { recursive: true });
      await page.screenshot({ path: path.join(ARTIFACTS, 'screenshots', `${opened}.png`) });
    }
    expect(elsewhere, 'requests that left the static server').toEqual([]);
    expect(thrown, 'uncaught errors in the page').toEqual([]);
  },
});

test('Typical → the first 10 of 1000 clients', async ({ page, story }) => {
  await story('typical');

  await expect(status(page)).toHaveText('1–10 of 1000');
  await expect(rows(page)).toHaveCount(10);
});

test('Empty → "No clients match." and no row', async ({ page, story }) => {
  await story('empty');

  await expect(status(page)).toHaveText('No clients match.');
  await expect(rows(page)).toHaveCount(0);
});

test("Single → one row, the spec's single example", async ({ page, story }) => {
  await story('single');

  await expect(status(page)).toHaveText('1–1 of 1');
  await expect(rows(page)).toHaveCount(1);
  expect(await names(page)).toEqual([nameOf('single')]);
});

test("Longest → one row, the spec's longest example, and the page does not scroll sideways at 1280 px", async ({ page, story }) => {
  await story('longest');

  await expect(status(page)).toHaveText('1–1 of 1');
  expect(await names(page)).toEqual([nameOf('longest')]);
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
});

test('Down → the error of 500 INTERNAL_ERROR, no row', async ({ page, story }) => {
  await story('down');

  await expect(status(page)).toHaveText('Could not load clients: INTERNAL_ERROR: An unexpected error occurred (simulated: scenario down)');
  await expect(rows(page)).toHaveCount(0);
});

test('Slow → "Loading…", then the rows', async ({ page, story }) => {
  const statusTexts = await recordStatusTexts(page);

  await story('slow');

  await expect(status(page)).toHaveText('1–10 of 1000');
  await expect(rows(page)).toHaveCount(10);
  expect(await statusTexts()).toEqual(['Loading…', '1–10 of 1000']);
});

test('Unauthorised → the error of 401 UNAUTHORIZED, no row', async ({ page, story }) => {
  await story('unauthorised');

  await expect(status(page)).toHaveText(
    'Could not load clients: UNAUTHORIZED: The X-Api-Key header does not hold a valid key (simulated: scenario unauthorised)',
  );
  await expect(rows(page)).toHaveCount(0);
});

test('FilteredPage → page 2 of "berg": 10 rows, each matching; Next gives page 3, each matching', async ({ page, story }) => {
  await story('filtered-page');

  await expect(status(page)).toHaveText(/^11–20 of \d+$/);
  const total = Number(/of (\d+)$/.exec((await status(page).textContent())!)![1]);
  expect(total).toBeGreaterThan(30);
  await expect(rows(page)).toHaveCount(10);
  const second = await names(page);
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(status(page)).toHaveText(`21–30 of ${total}`);
  const third = await names(page);

  for (const name of [...second, ...third]) expect(folded(name)).toContain('berg');
  expect(new Set([...second, ...third]).size).toBe(20);
});

test("The Storybook itself (index.html) from its sub-folder → the manager lists every story and shows Single's row in its preview", async ({
  page,
}) => {
  await page.goto('./?path=/story/clients-clientlist--single');
  const preview = page.frameLocator('#storybook-preview-iframe');

  await expect(preview.locator('#rows tr')).toHaveCount(1);
  await expect(preview.getByRole('status')).toHaveText('1–1 of 1');
  await expect(page.locator('[data-item-id^="clients-clientlist--"]')).toHaveCount(8);
});
