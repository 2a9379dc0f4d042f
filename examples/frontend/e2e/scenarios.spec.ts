// The example page in a real browser, each test in its own session of the mock
// (client-records-mock/playwright), several workers at once: one test's
// backend is down while another's is empty, slow or normal, and each asserts
// on its own requests in the mock's journal. The last test holds two sessions
// side by side and proves neither sees the other's scenario.
import { expect, test } from 'client-records-mock/playwright';
import type { Page } from '@playwright/test';
import { recordStatusTexts } from './status-texts.ts';

const status = (page: Page) => page.getByRole('status');
const rows = (page: Page) => page.locator('#rows tr');

test.describe('each test in its own scenario, in parallel', () => {
  test('down → the error state; the journal holds one 500 INTERNAL_ERROR of getClientsExtended, in down, under this session', async ({
    page,
    mock,
  }) => {
    await mock.use('down');

    await page.goto('/');

    await expect(status(page)).toHaveText(
      'Could not load clients: INTERNAL_ERROR: An unexpected error occurred (simulated: scenario down)',
    );
    await expect(rows(page)).toHaveCount(0);
    const requests = await mock.waitForRequests({ operation: 'getClientsExtended' });
    expect(requests).toEqual([
      expect.objectContaining({ status: 500, code: 'INTERNAL_ERROR', scenario: 'down', session: mock.name, query: 'page=1&pageSize=10' }),
    ]);
  });

  test('empty → the empty state; the journal holds one 200 answered in empty', async ({ page, mock }) => {
    await mock.use('empty');

    await page.goto('/');

    await expect(status(page)).toHaveText('No clients match.');
    const requests = await mock.waitForRequests({ operation: 'getClientsExtended' });
    expect(requests.map((entry) => [entry.status, entry.scenario])).toEqual([[200, 'empty']]);
  });

  test('slow 1200-1500 ms → "Loading…", then the rows; the journal shows the answer took at least 1200 ms', async ({ page, mock }) => {
    await mock.use({ scenario: 'slow', min: 1200, max: 1500 });
    const statusTexts = await recordStatusTexts(page);

    await page.goto('/');

    await expect(status(page)).toHaveText('1–10 of 1000');
    expect(await statusTexts()).toEqual(['Loading…', '1–10 of 1000']);
    const [entry] = await mock.waitForRequests({ operation: 'getClientsExtended' });
    expect(entry).toMatchObject({ status: 200, scenario: 'slow' });
    expect(entry!.durationMs).toBeGreaterThanOrEqual(1200);
  });

  test("normal → rows, Next and a name: the journal holds page 1, page 2 and that client's Detail, in that order", async ({
    page,
    mock,
  }) => {
    await page.goto('/');
    await expect(status(page)).toHaveText('1–10 of 1000');

    await page.getByRole('button', { name: 'Next' }).click();
    await expect(status(page)).toHaveText('11–20 of 1000');
    const first = rows(page).first().getByRole('button');
    const name = await first.textContent();
    await first.click();
    await expect(page.locator('#detail').getByRole('heading', { level: 2 })).toHaveText(name!);

    const requests = await mock.waitForRequests({}, { count: 3 });
    expect(requests.map((entry) => [entry.operationId, entry.query, entry.status, entry.scenario])).toEqual([
      ['getClientsExtended', 'page=1&pageSize=10', 200, 'normal'],
      ['getClientsExtended', 'page=2&pageSize=10', 200, 'normal'],
      ['getClientDetail', '', 200, 'normal'],
    ]);
    expect(requests[2]!.requestHeaders['x-api-key']).toBe('[redacted]');
  });

  test('unauthorised → the 401 message of an unknown key', async ({ page, mock }) => {
    await mock.use('unauthorised');

    await page.goto('/');

    await expect(status(page)).toHaveText(/^Could not load clients: UNAUTHORIZED: The X-Api-Key header does not hold a valid key/);
    expect((await mock.waitForRequests({ status: 401 })).length).toBe(1);
  });

  test('filter berg → the journal says the page asked for filter=berg', async ({ page, mock }) => {
    await page.goto('/');
    await expect(status(page)).toHaveText('1–10 of 1000');

    await page.getByRole('searchbox', { name: 'Search clients' }).fill('berg');
    await page.getByRole('button', { name: 'Search' }).click();
    await expect(status(page)).not.toHaveText('1–10 of 1000');

    const searches = (await mock.waitForRequests({ operation: 'getClientsExtended' }, { count: 2 })).filter((entry) =>
      entry.query.includes('filter='),
    );
    expect(searches.map((entry) => new URLSearchParams(entry.query).get('filter'))).toEqual(['berg']);
  });
});

test('two sessions side by side → each sees only its own scenario, and the journal keeps them apart', async ({ page, mock, browser }) => {
  // This test's session stays normal; a second browser context is another session, switched to down.
  const other = `${mock.name}-other`;
  const state = await mock.control.setSessionScenario(other, { scenario: 'down' });
  const otherContext = await browser.newContext({
    baseURL: test.info().project.use.baseURL,
    extraHTTPHeaders: state.sendHeaders as Record<string, string>,
  });
  const otherPage = await otherContext.newPage();

  await Promise.all([page.goto('/'), otherPage.goto('/')]);

  await expect(status(page)).toHaveText('1–10 of 1000');
  await expect(status(otherPage)).toHaveText(/^Could not load clients: INTERNAL_ERROR/);
  const mine = await mock.waitForRequests({ operation: 'getClientsExtended' });
  const theirs = (await mock.control.journal({ session: other, operation: 'getClientsExtended' })).entries;
  expect(mine.map((entry) => [entry.scenario, entry.status])).toEqual([['normal', 200]]);
  expect(theirs.map((entry) => [entry.scenario, entry.status])).toEqual([['down', 500]]);
  await otherContext.close();
  await mock.control.resetSession(other);
});
