// Issue 24 (d): the example frontend (examples/frontend) in a real browser,
// its API traffic going through the proxy, as an end-to-end suite in CI would
// run. Against our server the page works as it does directly and the proxy
// reports nothing; against a faulty upstream (a Detail that disagrees with its
// list row) the same clicks reveal the fault: the Detail answer the browser got
// carries X-Proxy-Violations, and the journal names the rule. Everything on
// 127.0.0.1 and port 0; the page is the app's own Vite dev server, its /api
// proxy pointed at our proxy; kept apart from examples/frontend's own
// Playwright config, which starts its servers itself.
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { startProxy, type RunningProxy } from '../../proxy/proxy';
import { launchChromium, newPage, watchProblems } from '../browser/chromium';
import { MUTANTS, startMutantProxy } from '../../tools/mutants';
import { freePort, spawnAndWait, type Started } from '../../tools/processes';
import { ROOT, startTestServer, type TestServer } from '../support/servers';

/** The example app's own dev server (Vite, its vite.config.ts), its /api proxy pointed at `apiUrl`, on a free port. */
async function servePage(apiUrl: string): Promise<Started & { baseUrl: string }> {
  const port = await freePort();
  const vite = await spawnAndWait({
    name: 'the example app (vite)',
    args: [
      path.join(ROOT, 'node_modules/vite/bin/vite.js'),
      'examples/frontend',
      '--port',
      String(port),
      '--strictPort',
      '--host',
      '127.0.0.1',
    ],
    env: { MOCK_URL: apiUrl },
    port,
    probePath: '/',
  });
  return { ...vite, baseUrl: `http://127.0.0.1:${port}` };
}

/** Every API answer the page received (from its dev server's /api, which forwards to the proxy): its URL and the proxy's headers on it. */
function apiAnswers(page: Page): { url: string; answeredBy: string | null; violations: string | null }[] {
  const seen: { url: string; answeredBy: string | null; violations: string | null }[] = [];
  page.on('response', (response) => {
    if (!new URL(response.url()).pathname.startsWith('/api/')) return;
    const headers = response.headers();
    seen.push({
      url: response.url(),
      answeredBy: headers['x-proxy-answered-by'] ?? null,
      violations: headers['x-proxy-violations'] ?? null,
    });
  });
  return seen;
}

const status = (page: Page) => page.getByRole('status');
const rows = (page: Page) => page.locator('#rows tr');

let browser: Browser;
let server: TestServer;
const stops: (() => Promise<unknown>)[] = [];
beforeAll(async () => {
  browser = await launchChromium();
  server = await startTestServer();
}, 60_000);
afterEach(async () => {
  for (const stop of stops.splice(0).reverse()) await stop();
});
afterAll(async () => {
  await browser.close();
  await server.stop();
});

async function pageThrough(
  upstream: string,
): Promise<{ page: Page; proxy: RunningProxy; answers: ReturnType<typeof apiAnswers>; problems: ReturnType<typeof watchProblems> }> {
  const proxy = await startProxy({ upstream });
  stops.push(() => proxy.close());
  const site = await servePage(proxy.url);
  stops.push(() => site.stop());
  const page = await newPage(browser);
  stops.push(() => page.close());
  const answers = apiAnswers(page);
  const problems = watchProblems(page);
  await page.goto(`${site.baseUrl}/`);
  return { page, proxy, answers, problems };
}

describe('the example frontend in Chromium, its traffic through the proxy', () => {
  test('our server upstream: list, search, paging and a detail work; every answer came from the upstream; 0 violations', async () => {
    const { page, proxy, answers, problems } = await pageThrough(server.baseUrl);

    await expect_(status(page), '1–10 of 1000');
    await page.getByRole('searchbox', { name: 'Search clients' }).fill('adalbert');
    await page.getByRole('button', { name: 'Search' }).click();
    await status(page)
      .filter({ hasText: /^1–\d+ of \d+$/, hasNotText: '1–10 of 1000' })
      .waitFor();
    await page.getByRole('searchbox', { name: 'Search clients' }).fill('');
    await page.getByRole('button', { name: 'Search' }).click();
    await expect_(status(page), '1–10 of 1000');
    await page.getByRole('button', { name: 'Next' }).click();
    await expect_(status(page), '11–20 of 1000');
    const name = await rows(page).first().getByRole('button').textContent();
    await rows(page).first().getByRole('button').click();
    await page.locator('#detail h2').filter({ hasText: name! }).waitFor();

    const report = proxy.report();
    expect(problems.failed).toEqual([]);
    // Page 1, the search, page 2 and the Detail: back to page 1 after the search comes from the page's query cache.
    expect(answers.length).toBeGreaterThanOrEqual(4);
    expect(answers.filter((a) => a.answeredBy !== 'upstream')).toEqual([]);
    expect(answers.filter((a) => a.violations !== null)).toEqual([]);
    expect(proxy.violations()).toEqual([]);
    expect(report.answeredBy.upstream).toBe(report.exchanges.total);
    console.log(
      `example frontend through the proxy: ${report.exchanges.total} exchanges (${answers.length} seen by the page), ` +
        `${report.violations.response} upstream and ${report.violations.request} caller violations`,
    );
  }, 90_000);

  test('a faulty upstream (a Detail that disagrees with its list row): the same clicks reveal it, on the answer and in the journal', async () => {
    const harness = await startMutantProxy(
      server.baseUrl,
      MUTANTS.find((m) => m.name.startsWith('a Detail that disagrees with the list'))!,
    );
    stops.push(() => harness.stop());
    const { page, proxy, answers } = await pageThrough(harness.baseUrl);

    await expect_(status(page), '1–10 of 1000');
    await rows(page).first().getByRole('button').click();
    await page.locator('#detail h2').waitFor();

    const detail = answers.find((a) => a.url.includes('/Client/Detail/'));
    expect(detail?.violations).toMatch(/detail\.agrees-with-list;side=response;count=\d+/);
    const found = proxy.violations({ side: 'response' });
    expect(found.map((v) => v.rule)).toContain('detail.agrees-with-list');
    console.log(`the page's Detail click, through the proxy: ${found.find((v) => v.rule === 'detail.agrees-with-list')!.expected}`);
  }, 90_000);
});

/** Waits until the locator's text is exactly `text` (playwright-core has no expect; the wait is bounded by the page's timeout). */
async function expect_(locator: ReturnType<typeof status>, text: string): Promise<void> {
  await locator.filter({ hasText: new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) }).waitFor();
}
