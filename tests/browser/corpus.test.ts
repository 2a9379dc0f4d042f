// The same answers in the browser (issue 39 item 2): every request the contract suite sends and a seeded
// corpus of several thousand generated ones, bad ones included, are sent to the real server over HTTP and,
// from a page in real Chromium, to msw's service worker with the package's browser handlers; each answer
// must be the server's: status, body byte for byte, every header but X-Request-Id, Date and the connection's
// own. The page is bundled for the browser by esbuild here (one of the bundlers the entry must suit).
// Requests a page cannot send are left out and counted: those fetch forbids (a preflight, an Origin or a
// Cookie header, CONNECT/TRACE, bytes only a raw socket writes) and paths outside the API's prefix, which
// the handlers leave to the network (docs/frontend.md, "In the browser").
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import * as esbuild from 'esbuild';
import fc from 'fast-check';
import type { Browser, Page } from 'playwright-core';
import { runChecks } from '../../contract-suite/registry';
import { requestArbitrary } from '../../contract-suite/property/generators';
import { fetchAnswer, requestHeaders } from '../../contract-suite/kit/http';
import type { ApiRequest } from '../../contract/exchange';
import { DEFAULT_API_KEY, type Target } from '../../contract-suite/kit/target';
import { startServer, type RunningMock } from '../../server/index';
import { ROOT } from '../support/servers';
import { launchChromium, newPage, WAIT_MS } from './chromium';

const GENERATED = 3000;
const SEED = 20261129;
const PAGE_DIR = path.join(ROOT, 'dist', 'tests', 'browser-corpus');
const ARTIFACTS = path.join(ROOT, 'test-artifacts');
/** fetch sets these itself or refuses them (the Fetch standard's forbidden request headers we could meet). */
const FORBIDDEN_HEADER = /^(origin|cookie|host|connection|content-length|transfer-encoding|access-control-request-.*|sec-.*|proxy-.*)$/i;
/** The headers whose requests keep their order in the page (a scenario or session may hold a sequence). */
const ORDERED_BY = /^x-mock-(scenario|session)$/i;
/** The page's loops for the other requests: the service worker's round trip, not the CPU, bounds one loop. */
const PARALLEL = 6;
/** Per request, not per answer: the id is fresh, the date is the clock's, the rest is the connection's. */
const UNCOMPARED = new Set(['x-request-id', 'date', 'connection', 'keep-alive', 'transfer-encoding']);

interface Sent {
  method: string;
  path: string;
  headers: Record<string, string>;
  /** Sent in its place in the corpus's order: its answer may follow the requests before it (a seeded scenario's sequence). */
  ordered: boolean;
}

interface Received {
  status: number;
  headers: [string, string][];
  body: string;
  error?: string;
}

/** Why a page cannot send this request, or undefined when it can. */
function unsendable(request: ApiRequest, headers: Record<string, string>): string | undefined {
  if (request.raw || request.framing) return 'raw socket';
  if (/^(CONNECT|TRACE|TRACK)$/i.test(request.method)) return 'method fetch refuses';
  if (Object.keys(headers).some((name) => FORBIDDEN_HEADER.test(name))) return 'header fetch sets or refuses';
  if (!request.path.startsWith('/api/')) return 'outside the API prefix';
  // Node's HTTP parser answers a method it does not know before any app sees it (listener/raw-answers.ts).
  if (!http.METHODS.includes(request.method)) return 'method the HTTP server refuses before the app';
  return undefined;
}

/** The extra requests of this test: conditional ones, Prefer, scenarios, sessions, methods and parameters at their edges. */
function ownRequests(): ApiRequest[] {
  const list: ApiRequest[] = [];
  const paths = [
    '/api/v1/Diagnostics/Ping',
    '/api/v1/Client/Simple',
    '/api/v1/Client/Extended?filter=an',
    '/api/v1/Client/Detail/00000000-0000-4000-8000-000000000000',
  ];
  const conditional: Record<string, string>[] = [
    { 'If-None-Match': '*' },
    { 'If-None-Match': '"x"' },
    { 'If-Match': '"x"' },
    { 'If-Modified-Since': 'Sun, 29 Nov 2026 00:00:00 GMT' },
    { 'If-Unmodified-Since': 'Sun, 29 Nov 2026 00:00:00 GMT' },
    { Range: 'bytes=0-1', 'If-Range': '"x"' },
  ];
  for (const p of paths) {
    // The conditional requests before and after the plain one (issue 35 item 4): each held to the server's answer.
    for (const headers of conditional) list.push({ method: 'GET', path: p, key: 'valid', headers });
    list.push({ method: 'GET', path: p, key: 'valid' });
    for (const headers of conditional)
      list.push({ method: 'GET', path: p, key: 'valid', headers }, { method: 'HEAD', path: p, key: 'valid', headers });
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD', 'FOO']) list.push({ method, path: p, key: 'valid' });
    for (const prefer of [
      'code=500',
      'code=404',
      'code=999',
      'delay=0',
      'delay=99999',
      'example=empty',
      'example=nope',
      'x'.repeat(300),
      'return=minimal, code=401',
    ])
      list.push({ method: 'GET', path: p, key: 'valid', headers: { Prefer: prefer } });
    for (const scenario of ['empty', 'down', 'unauthorised', 'single', 'nope', 'slow;min=0;max=0', 'flaky;rate=0.5;seed=3'])
      list.push({ method: 'GET', path: p, key: 'valid', headers: { 'X-Mock-Scenario': scenario } });
    list.push({ method: 'GET', path: p, key: 'valid', headers: { 'X-Mock-Session': 'bad session!' } });
  }
  const query = [
    'page=0',
    'page=1.5',
    'page=x',
    'page=',
    'page=2147483648',
    'pageSize=101',
    'pageSize=-1',
    'active=yes',
    'active=',
    'active=TRUE',
    'filter=',
    'filter=a:b',
    'filter=a%3Ab',
    'filter=a=b',
    "filter=it's",
    'filter=a%2Cb',
    'filter=a,b',
    'filter=%E0%A4%A',
    'idStaff=nope',
    'idStaff=',
    'idLocation=00000000-0000-4000-8000-00000000000G',
    'page[x]=1',
    'page[]=1',
    'a[b]=1',
    'x[=1',
    '[x]=1',
    'unknown=1',
    'page=1&page=2',
    'filter=+an+',
    'filter=%20',
    'pageSize=05',
    'page=1e2',
    'page=0x10',
  ];
  for (const q of query)
    for (const base of ['/api/v1/Client/Simple', '/api/v1/Client/Extended'])
      list.push({ method: 'GET', path: `${base}?${q}`, key: 'valid' });
  for (const id of [
    'nope',
    '00000000-0000-4000-8000-00000000000',
    'urn:uuid:00000000-0000-4000-8000-000000000000',
    '%30'.repeat(40),
    'ABCDEF00-0000-4000-8000-000000000000',
    'a%2Fb',
  ])
    list.push({ method: 'GET', path: `/api/v1/Client/Detail/${id}`, key: 'valid' });
  for (const key of ['none', 'wrong', 'other-case', 'prefix', 'longer'] as const)
    list.push({ method: 'GET', path: '/api/v1/Client/Simple', key });
  list.push({ method: 'GET', path: '/api/v1/Client/Simple', key: 'none', headers: { 'X-Api-Key': '' } });
  for (const p of [
    '/api/v1/Nope',
    '/api/v1/client/simple',
    '/api/v1/Client/Simple/',
    '/api/v2/Client/Simple',
    '/api/',
    '/api/v1/Client/Detail/',
  ])
    for (const method of ['GET', 'POST']) list.push({ method, path: p, key: 'valid' });
  return list;
}

async function serveStatic(dir: string): Promise<{ origin: string; close(): Promise<void> }> {
  const types: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript' };
  const server = http.createServer((req, res) => {
    const file = path.join(dir, req.url === '/' ? 'index.html' : (req.url ?? '').split('?')[0]!);
    if (!file.startsWith(dir) || !fs.existsSync(file)) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'Content-Type': types[path.extname(file)] ?? 'application/octet-stream' }).end(fs.readFileSync(file));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { origin: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/**
 * The server's answer, fetched as the contract suite fetches (kit/http.ts): sent once more when the connection closed
 * before any answer (a kept-alive one the server was closing as idle, while the page's replay held the CPU); any other
 * failure names the request.
 */
async function fromServer(baseUrl: string, sent: Sent): Promise<Received> {
  try {
    const response = await fetchAnswer(baseUrl + sent.path, { method: sent.method, headers: sent.headers, redirect: 'manual' }, WAIT_MS);
    const bytes = Buffer.from(await response.arrayBuffer());
    return { status: response.status, headers: [...response.headers], body: bytes.toString('base64') };
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code ?? '';
    throw new Error(`the server's answer to ${sent.method} ${sent.path} failed: ${(error as Error).message} ${cause}`.trim(), {
      cause: error,
    });
  }
}

/** What differs between the two answers, or an empty list. */
function differences(server: Received, page: Received): string[] {
  const found: string[] = [];
  if (page.error) return [`the page's fetch failed: ${page.error}`];
  if (server.status !== page.status) found.push(`status ${server.status} ≠ ${page.status}`);
  if (server.body !== page.body) {
    found.push(
      `body ${Buffer.from(server.body, 'base64').toString().slice(0, 200)} ≠ ${Buffer.from(page.body, 'base64').toString().slice(0, 200)}`,
    );
  }
  const compared = (headers: [string, string][]) => new Map(headers.filter(([name]) => !UNCOMPARED.has(name)));
  const [ours, theirs] = [compared(server.headers), compared(page.headers)];
  for (const name of new Set([...ours.keys(), ...theirs.keys()])) {
    if (ours.get(name) !== theirs.get(name)) found.push(`${name}: ${ours.get(name) ?? '(none)'} ≠ ${theirs.get(name) ?? '(none)'}`);
  }
  return found;
}

let running: RunningMock;
let site: Awaited<ReturnType<typeof serveStatic>>;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  running = await startServer({ port: 0 });
  fs.mkdirSync(PAGE_DIR, { recursive: true });
  await esbuild.build({
    entryPoints: [path.join(ROOT, 'tests', 'browser', 'fixtures', 'worker-page.mjs')],
    bundle: true,
    platform: 'browser',
    format: 'esm',
    target: 'es2022',
    outfile: path.join(PAGE_DIR, 'page.js'),
    absWorkingDir: ROOT,
    logLevel: 'warning',
  });
  fs.copyFileSync(path.join(ROOT, 'dist', 'browser', 'mockServiceWorker.js'), path.join(PAGE_DIR, 'mockServiceWorker.js'));
  fs.writeFileSync(
    path.join(PAGE_DIR, 'index.html'),
    '<!doctype html><meta charset="utf-8"><title>corpus</title><script type="module" src="/page.js"></script>\n',
  );
  site = await serveStatic(PAGE_DIR);
  browser = await launchChromium();
  page = await newPage(browser);
  await page.goto(`${site.origin}/`);
  await page.waitForFunction(() => (globalThis as unknown as { ready?: Promise<unknown> }).ready !== undefined);
  await page.evaluate(() => (globalThis as unknown as { ready: Promise<unknown> }).ready);
}, 6 * WAIT_MS);

afterAll(async () => {
  await browser?.close();
  await site?.close();
  await running?.close();
});

test('the service worker answers the contract suite and a generated corpus as the server does, byte for byte', async () => {
  const target: Target = { baseUrl: running.url, apiKey: DEFAULT_API_KEY };
  const recorded: ApiRequest[] = [];
  const { context } = await runChecks({ ...target, onExchange: (exchange) => recorded.push(exchange.request) });
  const sample = await context.sample();
  const generated = fc.sample(requestArbitrary(context.contract, sample), { seed: SEED, numRuns: GENERATED }).map((g) => g.request);
  const left: Record<string, number> = {};
  const corpus: Sent[] = [];
  const seen = new Set<string>();
  let repeated = 0;
  for (const request of [...ownRequests(), ...recorded, ...generated]) {
    const headers = requestHeaders(target, request);
    const why = unsendable(request, headers);
    const ordered = Object.keys(headers).some((name) => ORDERED_BY.test(name));
    // The same request twice gets the same answer (nothing depends on what was asked before), so each is sent once;
    // an ordered one keeps every copy, its place in a sequence being part of it.
    const key = JSON.stringify([request.method, request.path, Object.entries(headers).sort()]);
    if (why) left[why] = (left[why] ?? 0) + 1;
    else if (!ordered && seen.has(key)) repeated += 1;
    else {
      seen.add(key);
      corpus.push({ method: request.method, path: request.path, headers, ordered });
    }
  }

  // The server gets the whole corpus one request after another. The page sends the ordered requests (a scenario or
  // a session named) in the same order, and the rest from several loops at once: no answer depends on what was asked
  // before (issue 35 item 4), so a different interleaving is one more test of that. Both run side by side.
  const replayInPage = async (): Promise<Received[]> => {
    const received: Received[] = [];
    for (let at = 0; at < corpus.length; at += 500) {
      const batch = corpus.slice(at, at + 500);
      received.push(
        ...(await page.evaluate(
          ([list, parallel]) => (globalThis as unknown as { replay: (l: Sent[], n: number) => Promise<Received[]> }).replay(list, parallel),
          [batch, PARALLEL] as const,
        )),
      );
    }
    return received;
  };
  const replayOnServer = async (): Promise<Received[]> => {
    const received: Received[] = [];
    for (const sent of corpus) received.push(await fromServer(running.url, sent));
    return received;
  };
  const [fromPage, fromTheServer] = await Promise.all([replayInPage(), replayOnServer()]);
  const found: string[] = [];
  for (const [at, sent] of corpus.entries()) {
    const diff = differences(fromTheServer[at]!, fromPage[at]!);
    if (diff.length > 0) found.push(`${sent.method} ${sent.path} ${JSON.stringify(sent.headers)}\n    ${diff.join('\n    ')}`);
  }

  process.stdout.write(
    `requests compared: ${corpus.length}, differences: ${found.length}, repeats sent once: ${repeated} (contract suite ${recorded.length}, generated ${generated.length}, ` +
      `this test's ${ownRequests().length}; left out: ${JSON.stringify(left)})\n`,
  );
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  fs.writeFileSync(path.join(ARTIFACTS, 'browser-corpus-differences.txt'), `${found.join('\n')}\n`);
  if (found.length > 0) process.stdout.write(`${found.slice(0, 10).join('\n')}\n(all in test-artifacts/browser-corpus-differences.txt)\n`);
  expect(found).toEqual([]);
}, 600_000);
