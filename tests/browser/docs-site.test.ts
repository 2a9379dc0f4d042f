// `client-records-mock docs --out DIR` (issue 39 item 5): the static API reference, served by Python's
// http.server on 127.0.0.1 with no mock server running, answers "Try it out" in the page through msw's
// service worker: 401 without the key, then with the key from Authorize a filtered and paged list, the
// Detail of an id read from a list, Ping and Exception. A screenshot at 1280x800 goes to test-artifacts/.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { API_KEY, ROOT } from '../support/servers';
import { freePort } from '../../tools/processes';
import { launchChromium, newPage, watchProblems, WAIT_MS, type PageProblems } from './chromium';

const ARTIFACTS = path.join(ROOT, 'test-artifacts');
const MAIN_JS = path.join(ROOT, 'dist', 'cli', 'main.js');

let out: string;
let python: ChildProcess;
let origin: string;
let browser: Browser;
let page: Page;
let problems: PageProblems;

/** Resolves once `url` answers, within WAIT_MS. */
async function answering(url: string): Promise<void> {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    try {
      if ((await fetch(url, { signal: AbortSignal.timeout(1_000) })).ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${url} did not answer within ${WAIT_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Clicks "Execute" on an operation already in "Try it out" (its last answer cleared first) and returns the status and body shown. */
async function execute(block: Locator): Promise<{ status: string; body: string }> {
  const clear = block.locator('button.btn-clear');
  if (await clear.count()) {
    await clear.click();
    await block.locator('.live-responses-table').waitFor({ state: 'detached' });
  }
  await block.locator('button.execute').click();
  const status = block.locator('.live-responses-table tbody .response-col_status').first();
  await status.waitFor();
  const body = block.locator('.live-responses-table .microlight, .live-responses-table pre').first();
  return { status: (await status.innerText()).trim(), body: await body.innerText() };
}

async function tryOut(operationId: string): Promise<Locator> {
  const block = page.locator(`.opblock:has(.opblock-summary-operation-id:text-is("${operationId}"))`);
  if (!(await block.locator('button.execute').count())) {
    if (!(await block.locator('button.try-out__btn').count())) await block.locator('.opblock-summary').click();
    await block.locator('button.try-out__btn').click();
  }
  return block;
}

beforeAll(async () => {
  out = fs.mkdtempSync(path.join(os.tmpdir(), 'docs-site-'));
  const written = spawnSync(process.execPath, [MAIN_JS, 'docs', '--out', out], { encoding: 'utf8', timeout: WAIT_MS });
  if (written.status !== 0) throw new Error(`docs --out failed: ${written.stderr}`);
  const port = await freePort();
  python = spawn('python3', ['-m', 'http.server', String(port), '--bind', '127.0.0.1', '--directory', out], { stdio: 'ignore' });
  origin = `http://127.0.0.1:${port}`;
  await answering(`${origin}/index.html`);
  browser = await launchChromium();
  page = await newPage(browser);
  await page.setViewportSize({ width: 1280, height: 800 });
  problems = watchProblems(page);
  await page.goto(`${origin}/`, { waitUntil: 'networkidle' });
  await page.locator('.opblock').first().waitFor();
}, 6 * WAIT_MS);

afterAll(async () => {
  await browser?.close();
  python?.kill();
  if (out) fs.rmSync(out, { recursive: true, force: true });
});

describe('client-records-mock docs --out DIR, served statically', () => {
  test('docs --out → the page loads from the folder alone, with its service worker, and no console error', async () => {
    expect(fs.existsSync(path.join(out, 'mockServiceWorker.js'))).toBe(true);
    expect(problems.requested.filter((url) => new URL(url).origin !== origin)).toEqual([]);
    expect(problems.errors).toEqual([]);
    expect(
      await page.evaluate(
        () =>
          (globalThis as unknown as { navigator: { serviceWorker: { controller: unknown } } }).navigator.serviceWorker.controller !== null,
      ),
    ).toBe(true);
  });

  test(
    '"Try it out" on getClientsSimple without the key → 401 UNAUTHORIZED from the page',
    async () => {
      const simple = await tryOut('getClientsSimple');

      const { status, body } = await execute(simple);

      expect(status).toBe('401');
      expect(JSON.parse(body)).toEqual({ Code: 'UNAUTHORIZED', Message: 'The X-Api-Key header is required' });
    },
    2 * WAIT_MS,
  );

  test(
    '"Try it out" with the key: a filtered page, paging, the Detail of an id from the list, Ping and Exception',
    async () => {
      await page.locator('button.authorize').first().click();
      await page.locator('.modal-ux input').first().fill(API_KEY);
      await page.locator('.modal-ux button.authorize').click();
      await page.locator('.modal-ux button.btn-done, .modal-ux button.close-modal').first().click();

      const simple = await tryOut('getClientsSimple');
      await simple.locator('tr[data-param-name="pageSize"] input').fill('5');
      await simple.locator('tr[data-param-name="page"] input').fill('2');
      const paged = await execute(simple);
      const extended = await tryOut('getClientsExtended');
      await extended.locator('tr[data-param-name="filter"] input[type="text"]').fill('an');
      const filtered = await execute(extended);
      const id = (JSON.parse(paged.body) as { Results: { IdClient: string }[] }).Results[0]!.IdClient;
      const detail = await tryOut('getClientDetail');
      await detail.locator('tr[data-param-name="idClient"] input').fill(id);
      const found = await execute(detail);
      const ping = await execute(await tryOut('ping'));
      const exception = await execute(await tryOut('exception'));

      expect(paged.status).toBe('200');
      expect(JSON.parse(paged.body)).toMatchObject({ Page: 2, PageSize: 5 });
      expect((JSON.parse(paged.body) as { Results: unknown[] }).Results).toHaveLength(5);
      expect(filtered.status).toBe('200');
      expect((JSON.parse(filtered.body) as { Results: { FullName: string }[] }).Results.length).toBeGreaterThan(0);
      expect(found.status).toBe('200');
      expect(JSON.parse(found.body)).toMatchObject({ IdClient: id });
      expect([ping.status, JSON.parse(ping.body)]).toEqual(['200', 'Pong']);
      expect(exception.status).toBe('500');
      expect(JSON.parse(exception.body)).toMatchObject({ Code: 'TEST_EXCEPTION' });
    },
    8 * WAIT_MS,
  );

  test('docs --out → a screenshot at 1280x800 in test-artifacts/docs-site-1280x800.png', async () => {
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    const screen = path.join(ARTIFACTS, 'docs-site-1280x800.png');
    // The list's answer from the page's mock, with its operation's title above it.
    await page
      .locator('#operations-Client-getClientsSimple .responses-inner')
      .first()
      .evaluate((element) => (element as unknown as { scrollIntoView(options: object): void }).scrollIntoView({ block: 'start' }));

    await page.screenshot({ path: screen });

    expect(fs.statSync(screen).size).toBeGreaterThan(10_000);
  });

  test('docs without --out → one line naming it, exit 2', () => {
    const run = spawnSync(process.execPath, [MAIN_JS, 'docs'], { encoding: 'utf8', timeout: WAIT_MS });

    expect(run.status).toBe(2);
    expect(run.stderr.split('\n')[0]).toBe('docs: --out DIR is required');
  });

  test('docs --seed x → one line naming the bad setting, exit 2', () => {
    const run = spawnSync(process.execPath, [MAIN_JS, 'docs', '--out', out, '--seed', 'x'], { encoding: 'utf8', timeout: WAIT_MS });

    expect(run.status).toBe(2);
    expect(run.stderr.split('\n')[0]).toMatch(/^docs: invalid option seed="x": /);
  });
});
