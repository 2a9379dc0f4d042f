// The example page in a real browser against the real mock. Each state is
// forced per test by a Prefer header on that test's browser context, so tests
// run in parallel and share no server state.
import { expect, test, type Page } from '@playwright/test';
import { recordStatusTexts } from './status-texts.ts';

const status = (page: Page) => page.getByRole('status');
const rows = (page: Page) => page.locator('#rows tr');

test.describe('the client list', () => {
  test('list → the first ten clients and the total from X-Total-Count', async ({ page }) => {
    await page.goto('/');

    await expect(status(page)).toHaveText('1–10 of 1000');
    await expect(rows(page)).toHaveCount(10);
  });

  test('filter → only the clients whose name matches', async ({ page }) => {
    await page.goto('/');
    await expect(status(page)).toHaveText('1–10 of 1000');

    await page.getByRole('searchbox', { name: 'Search clients' }).fill('adalbert');
    await page.getByRole('button', { name: 'Search' }).click();

    await expect(status(page)).toHaveText(/^1–\d+ of \d+$/);
    await expect(status(page)).not.toHaveText('1–10 of 1000');
    for (const name of await rows(page).locator('td:first-child').allTextContents()) expect(name).toMatch(/adalbert/i);
  });

  test('paging → Next shows clients 11–20, Previous returns to the first ten', async ({ page }) => {
    await page.goto('/');
    await expect(status(page)).toHaveText('1–10 of 1000');
    const firstPage = await rows(page).allTextContents();

    await page.getByRole('button', { name: 'Next' }).click();
    await expect(status(page)).toHaveText('11–20 of 1000');
    const secondPage = await rows(page).allTextContents();
    await page.getByRole('button', { name: 'Previous' }).click();

    await expect(status(page)).toHaveText('1–10 of 1000');
    expect(secondPage.filter((row) => firstPage.includes(row))).toEqual([]);
    expect(await rows(page).allTextContents()).toEqual(firstPage);
  });

  test('detail → a click on a name opens every section of that client', async ({ page }) => {
    await page.goto('/');
    const first = rows(page).first().getByRole('button');
    const name = await first.textContent();

    await first.click();

    const detail = page.locator('#detail');
    await expect(detail.getByRole('heading', { level: 2 })).toHaveText(name!);
    for (const section of ['Personal', 'Contact', 'Staff', 'Location', 'Insurance', 'Allergies', 'Medications']) {
      await expect(detail.getByRole('heading', { level: 3, name: section })).toBeVisible();
    }
  });
});

test.describe('a failing backend (Prefer: code=500)', () => {
  test.use({ extraHTTPHeaders: { Prefer: 'code=500' } });

  test('list → the ErrorDto message in the error state, no rows', async ({ page }, testInfo) => {
    await page.goto('/');

    await expect(status(page)).toHaveText(
      'Could not load clients: INTERNAL_ERROR: An unexpected error occurred (simulated: Prefer code=500)',
    );
    await expect(status(page)).toHaveAttribute('data-kind', 'error');
    await expect(rows(page)).toHaveCount(0);
    await page.screenshot({ path: testInfo.outputPath('error-state.png'), fullPage: true });
  });
});

test.describe('a slow backend (Prefer: delay=1500)', () => {
  test.use({ extraHTTPHeaders: { Prefer: 'delay=1500' } });

  test('list → "Loading…" while the answer is delayed, then the rows', async ({ page }) => {
    const statusTexts = await recordStatusTexts(page);

    await page.goto('/');

    await expect(status(page)).toHaveText('1–10 of 1000');
    await expect(rows(page)).toHaveCount(10);
    expect(await statusTexts()).toEqual(['Loading…', '1–10 of 1000']);
  });
});

test.describe('no clients (Prefer: example=empty)', () => {
  test.use({ extraHTTPHeaders: { Prefer: 'example=empty' } });

  test('list → the empty state', async ({ page }) => {
    await page.goto('/');

    await expect(status(page)).toHaveText('No clients match.');
    await expect(rows(page)).toHaveCount(0);
  });
});
