// A browser frontend on another origin uses the server as it is: a small page
// served from a second port fetches /api/v1/Client/Simple with X-Api-Key
// (a CORS preflight), reads X-Total-Count and renders the rows; with
// Prefer: code=500 it shows the ErrorDto's message.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import type { ErrorDto } from '../../contract/wire-types';
import { API_KEY, startTestServer, testStore, type TestServer } from '../support/servers';
import { launchChromium, newPage, watchProblems, WAIT_MS, type PageProblems } from './chromium';

const PAGE_SIZE = 5;

const FRONTEND_HTML = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Clients</title></head>
<body>
  <h1>Clients</h1>
  <p id="state">loading</p>
  <p>Total: <span id="total"></span></p>
  <p id="error"></p>
  <table><tbody id="rows"></tbody></table>
  <script src="/app.js"></script>
</body>
</html>
`;

// What a frontend does: one fetch with the key (and a Prefer header when asked for), then rows or the error message.
const FRONTEND_JS = `(async function () {
  const params = new URLSearchParams(window.location.search);
  const headers = { 'X-Api-Key': params.get('key') };
  if (params.get('prefer')) headers.Prefer = params.get('prefer');
  const state = document.getElementById('state');
  try {
    const response = await fetch(params.get('api') + '/api/v1/Client/Simple?pageSize=${PAGE_SIZE}', { headers: headers });
    const body = await response.json();
    if (!response.ok) {
      document.getElementById('error').textContent = body.Code + ': ' + body.Message;
      state.textContent = 'error ' + response.status;
      return;
    }
    document.getElementById('total').textContent = response.headers.get('X-Total-Count');
    for (const client of body.Results) {
      const row = document.createElement('tr');
      for (const value of [client.FullName, client.Email]) {
        const cell = document.createElement('td');
        cell.textContent = value;
        row.appendChild(cell);
      }
      document.getElementById('rows').appendChild(row);
    }
    state.textContent = 'loaded';
  } catch (error) {
    state.textContent = 'failed: ' + error.message;
  }
})();
`;

/** The frontend's own origin: a tiny static server on another 127.0.0.1 port, with no CSP. */
function startFrontend(): Promise<{ origin: string; server: http.Server }> {
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path === '/') res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(FRONTEND_HTML);
    else if (path === '/app.js') res.writeHead(200, { 'Content-Type': 'application/javascript' }).end(FRONTEND_JS);
    else if (path === '/favicon.ico') res.writeHead(204).end();
    else res.writeHead(404).end();
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => resolve({ origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server }));
  });
}

let api: TestServer;
let frontend: { origin: string; server: http.Server };
let browser: Browser;

beforeAll(async () => {
  api = await startTestServer();
  frontend = await startFrontend();
  browser = await launchChromium();
}, 4 * WAIT_MS);

afterAll(async () => {
  await browser?.close();
  await api?.stop();
  if (frontend) {
    frontend.server.closeAllConnections();
    await new Promise((resolve) => frontend.server.close(resolve));
  }
});

/** Opens the frontend page and waits (bounded) until it has rendered rows or an error. */
async function openFrontend(prefer?: string, key = API_KEY): Promise<{ page: Page; problems: PageProblems }> {
  const page = await newPage(browser);
  const problems = watchProblems(page);
  const query = new URLSearchParams({ api: api.baseUrl, key, ...(prefer ? { prefer } : {}) });
  await page.goto(`${frontend.origin}/?${query.toString()}`);
  // A string, evaluated in the page: this project's TypeScript has no DOM types.
  await page.waitForFunction("document.getElementById('state').textContent !== 'loading'", undefined, { timeout: WAIT_MS });
  return { page, problems };
}

describe('GET /api/v1/Client/Simple from a page on another origin', () => {
  test('GET /Client/Simple → the page renders the first rows and the total from X-Total-Count, through CORS', async () => {
    const expected = testStore()
      .clients()
      .slice(0, PAGE_SIZE)
      .map((client) => [client.PersonalInfo.FullName, client.ContactInfo.Email]);

    const { page, problems } = await openFrontend();
    const rows = await page.$$eval('#rows tr', (trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)));

    expect(new URL(api.baseUrl).origin).not.toBe(frontend.origin);
    expect(await page.textContent('#state')).toBe('loaded');
    expect(await page.textContent('#total')).toBe('1000');
    expect(rows).toEqual(expected);
    expect(problems.failed).toEqual([]);
    expect(problems.errorResponses).toEqual([]);
    expect(problems.errors).toEqual([]);
    expect(problems.requested.filter((url) => url.startsWith(api.baseUrl))).toEqual([
      `${api.baseUrl}/api/v1/Client/Simple?pageSize=${PAGE_SIZE}`,
    ]);
    await page.close();
  });

  test('GET /Client/Simple → the page shows the ErrorDto message when Prefer: code=500', async () => {
    const { page, problems } = await openFrontend('code=500');

    expect(await page.textContent('#state')).toBe('error 500');
    expect(await page.textContent('#error')).toBe('INTERNAL_ERROR: An unexpected error occurred (simulated: Prefer code=500)');
    expect(await page.locator('#rows tr').count()).toBe(0);
    // The 500 itself is the expected answer; nothing else may fail, and CORS must let the page read its body.
    expect(problems.failed).toEqual([]);
    expect(problems.errorResponses).toEqual([`500 GET ${api.baseUrl}/api/v1/Client/Simple?pageSize=${PAGE_SIZE}`]);
    await page.close();
  });

  test('GET /Client/Simple → the page shows the 401 ErrorDto message with a wrong key', async () => {
    const expected: ErrorDto = { Code: 'UNAUTHORIZED', Message: 'The X-Api-Key header does not hold a valid key' };

    const { page } = await openFrontend(undefined, 'not-a-key');

    expect(await page.textContent('#state')).toBe('error 401');
    expect(await page.textContent('#error')).toBe(`${expected.Code}: ${expected.Message}`);
    await page.close();
  });
});
