// The proxy's own surfaces as proxy.openapi.yaml documents them: the journal
// under /__proxy/ (its answers held to the document by the contract suite's
// own checker), the X-Proxy-* headers and their format, the memory bounds
// (journal entries, judged body size), --reject-invalid-requests, and
// --journal off / --journal-key. Our real server is the upstream.
import { SpecContract } from '../../contract/spec-contract';
import type { Exchange } from '../../contract/exchange';
import { proxySpec } from '../../proxy/journal-http';
import { startProxy, type RunningProxy, type StartProxyOptions } from '../../proxy/proxy';
import { COVERAGE_REPORT_SCHEMA } from '../../contract/coverage-report';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { API_KEY, startTestServer, type TestServer } from '../support/servers';
import { scriptedUpstream } from './upstreams';

const KEY = { 'X-Api-Key': API_KEY };

let server: TestServer;
const proxies: RunningProxy[] = [];
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await Promise.all(proxies.map((proxy) => proxy.close()));
  await server.stop();
});

async function proxy(options: Omit<StartProxyOptions, 'upstream'> & { upstream?: string } = {}): Promise<RunningProxy> {
  const running = await startProxy({ upstream: server.baseUrl, ...options });
  proxies.push(running);
  return running;
}

/** The answer as the contract suite's Exchange, to hold it to proxy.openapi.yaml with SpecContract.check. */
async function exchange(base: string, path: string, init: RequestInit = {}): Promise<Exchange> {
  const response = await fetch(base + path, init);
  const text = await response.text();
  let json: unknown;
  try {
    json = text === '' ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  return {
    request: { method: init.method ?? 'GET', path, key: 'none' },
    url: base + path,
    status: response.status,
    headers: response.headers,
    text,
    json,
    ms: 0,
  } as Exchange;
}

const documented = (e: Exchange): string[] => (proxySpec() as SpecContract).check(e);
const header = (name: string) => proxySpec().resolve(`#/components/headers/${name}`).node.schema as { pattern: string };

describe('GET /__proxy/violations (listViolations)', () => {
  test('→ 200 JournalPage: the caller’s and the upstream’s violations apart, filtered by side, rule, exchange and since', async () => {
    const running = await proxy();
    const bad = await fetch(`${running.url}/api/v1/Client/Simple?pagesize=5`, { headers: KEY });
    const exchangeNumber = Number(bad.headers.get('x-proxy-exchange'));
    await fetch(`${running.url}/api/v1/Client/Simple`);

    const all = await exchange(running.url, '/__proxy/violations');
    const callers = await exchange(running.url, '/__proxy/violations?side=request&rule=request.unknown-parameter');
    const upstreams = await exchange(running.url, '/__proxy/violations?side=response');
    const byExchange = await exchange(running.url, `/__proxy/violations?exchange=${exchangeNumber}`);
    const since = await exchange(running.url, `/__proxy/violations?since=1&limit=1`);

    for (const e of [all, callers, upstreams, byExchange, since]) expect(documented(e)).toEqual([]);
    const page = all.json as { entries: { side: string; rule: string; exchange: number; curl: string }[]; kept: number };
    expect(page.entries.map((entry) => [entry.side, entry.rule])).toEqual([
      ['request', 'request.unknown-parameter'],
      ['request', 'request.key-missing'],
    ]);
    expect((callers.json as typeof page).entries).toHaveLength(1);
    expect((upstreams.json as typeof page).entries).toEqual([]);
    expect((byExchange.json as typeof page).entries.map((entry) => entry.exchange)).toEqual([exchangeNumber]);
    expect((since.json as typeof page).entries.map((entry) => entry.rule)).toEqual(['request.key-missing']);
    expect(page.entries[0]!.curl).toContain('"X-Api-Key: $API_KEY"');
    expect(page.entries[0]!.curl).not.toContain(API_KEY);
  });

  test.each([
    ['?limit=0', "'limit'"],
    ['?limit=1001', "'limit'"],
    ['?side=both', "'side'"],
    ['?since=-1', "'since'"],
    ['?limt=5', "'limt'"],
    ['?side=request&side=response', "'side'"],
  ])('%s → 400 VALIDATION_ERROR naming %s', async (query, name) => {
    const running = await proxy();

    const e = await exchange(running.url, `/__proxy/violations${query}`);

    expect(e.status).toBe(400);
    expect(documented(e)).toEqual([]);
    expect((e.json as { Code: string; Message: string }).Message).toContain(name);
  });

  test('POST → 405 METHOD_NOT_ALLOWED with Allow: GET, DELETE; an unknown path under /__proxy/ → 404 NOT_FOUND', async () => {
    const running = await proxy();

    const post = await exchange(running.url, '/__proxy/violations', { method: 'POST' });
    const unknown = await fetch(`${running.url}/__proxy/violation`);

    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, DELETE');
    expect(documented(post)).toEqual([]);
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { Code: string }).Code).toBe('NOT_FOUND');
  });
});

describe('DELETE /__proxy/violations (clearViolations) and the journal’s bound', () => {
  test('--journal-size 3, 5 violations → 3 kept (the newest), 2 dropped; the report still counts 5; DELETE empties the journal only', async () => {
    const running = await proxy({ journalSize: 3 });
    for (let i = 0; i < 5; i++) await fetch(`${running.url}/api/v1/Client/Simple?x${i}=1`, { headers: KEY });

    const before = (await (await fetch(`${running.url}/__proxy/violations`)).json()) as {
      entries: { actual: string }[];
      kept: number;
      dropped: number;
    };
    const cleared = await fetch(`${running.url}/__proxy/violations`, { method: 'DELETE' });
    const after = (await (await fetch(`${running.url}/__proxy/violations`)).json()) as { kept: number; dropped: number };

    expect(before.kept).toBe(3);
    expect(before.dropped).toBe(2);
    expect(before.entries.map((entry) => entry.actual)).toEqual(['x2=1', 'x3=1', 'x4=1']);
    expect(cleared.status).toBe(204);
    expect(after).toEqual(expect.objectContaining({ kept: 0, dropped: 5 }));
    expect(running.report().violations.request).toBe(5);
  });
});

describe('GET /__proxy/report (getReport)', () => {
  test('→ 200 ProxyReport per proxy.openapi.yaml, its coverage in the shared coverage format (side provider)', async () => {
    const running = await proxy();
    await fetch(`${running.url}/api/v1/Client/Simple?pageSize=2`, { headers: KEY });
    await fetch(`${running.url}/api/v1/Diagnostics/Ping`);

    const e = await exchange(running.url, '/__proxy/report');

    expect(documented(e)).toEqual([]);
    const report = e.json as { coverage: unknown; exchanges: { total: number }; answeredBy: Record<string, number> };
    expect(report.exchanges.total).toBe(2);
    expect(report.answeredBy).toEqual({ upstream: 2 });
    const ajv = new Ajv2020({ strict: false });
    addFormats(ajv);
    expect(ajv.validate(COVERAGE_REPORT_SCHEMA, report.coverage)).toBe(true);
    expect(report.coverage).toEqual(expect.objectContaining({ side: 'provider', source: server.baseUrl }));
  });
});

describe('the X-Proxy-* headers, in their documented format', () => {
  test('a request with two faults → X-Proxy-Violations lists each rule with side and count; X-Proxy-Exchange and X-Proxy-Answered-By on every answer', async () => {
    const running = await proxy();

    const clean = await fetch(`${running.url}/api/v1/Diagnostics/Ping`);
    const broken = await fetch(`${running.url}/api/v1/Client/Simple?a=1&b=2&pageSize=0`);

    for (const response of [clean, broken]) {
      expect(response.headers.get('x-proxy-exchange')).toMatch(new RegExp(header('X-Proxy-Exchange').pattern));
      expect(response.headers.get('x-proxy-answered-by')).toMatch(new RegExp(header('X-Proxy-Answered-By').pattern));
    }
    expect(clean.headers.get('x-proxy-violations')).toBeNull();
    const value = broken.headers.get('x-proxy-violations')!;
    expect(value).toMatch(new RegExp(header('X-Proxy-Violations').pattern));
    expect(value).toContain('request.unknown-parameter;side=request;count=2');
    expect(value).toContain('request.key-missing;side=request;count=1');
  });
});

describe('the judging cap', () => {
  test('--judge-max-kb 1, a page of 50 Extended clients → forwarded whole, its body not judged, counted, the log line says so', async () => {
    const lines: string[] = [];
    const running = await proxy({ judgeMaxKb: 1, log: (line) => lines.push(line) });

    const response = await fetch(`${running.url}/api/v1/Client/Extended?pageSize=50&x=1`, { headers: KEY });
    const body = (await response.json()) as { Code: string };
    const page = await fetch(`${running.url}/api/v1/Client/Extended?pageSize=50`, { headers: KEY });
    const results = ((await page.json()) as { Results: unknown[] }).Results;

    expect(body.Code).toBe('VALIDATION_ERROR');
    expect(results).toHaveLength(50);
    expect(running.report().exchanges.bodiesOverCap).toBe(1);
    expect(running.report().bounds.judgeMaxBytes).toBe(1024);
    expect(running.violations().map((v) => v.bodyJudged)).toEqual([undefined]);
    expect(lines.join('\n')).not.toContain('judging cap');
  });

  test('a body over the cap with a violation of its head (no X-Total-Count) → journaled with bodyJudged false, the log line says the body was not judged', async () => {
    const lines: string[] = [];
    // Our server's page of 50, less its X-Total-Count: the head breaks openapi.yaml, the body is longer than 1 KB.
    const upstream = await scriptedUpstream((req, res) => {
      void fetch(server.baseUrl + req.url!, { headers: KEY }).then(async (answer) => {
        const headers = Object.fromEntries(
          [...answer.headers].filter(
            ([name]) => !['x-total-count', 'content-encoding', 'content-length', 'connection', 'keep-alive'].includes(name),
          ),
        );
        res.writeHead(answer.status, headers).end(Buffer.from(await answer.arrayBuffer()));
      });
    });
    const running = await proxy({ upstream: upstream.baseUrl, judgeMaxKb: 1, log: (line) => lines.push(line) });

    await (await fetch(`${running.url}/api/v1/Client/Extended?pageSize=50`, { headers: KEY })).text();
    await upstream.stop();

    const entry = running.violations()[0];
    expect(entry?.rule).toBe('response.header');
    expect(entry?.bodyJudged).toBe(false);
    expect(lines.join('\n')).toContain('(body over the 1 KB judging cap: status and headers judged only)');
  });
});

describe('--reject-invalid-requests', () => {
  test.each([
    ['/api/v1/Client/Simple?pagesize=5', 400, 'VALIDATION_ERROR', {}],
    ['/api/v1/Client/Simple', 401, 'UNAUTHORIZED', { 'X-Api-Key': '' }],
    ['/api/v1/client/simple', 404, 'NOT_FOUND', {}],
  ])('GET %s → %i %s from the proxy, not forwarded', async (path, status, code, headers) => {
    const running = await proxy({ rejectInvalidRequests: true });
    const before = running.report().answeredBy.upstream ?? 0;

    const response = await fetch(running.url + path, { headers: { ...KEY, ...headers } });

    expect(response.status).toBe(status);
    expect(((await response.json()) as { Code: string }).Code).toBe(code);
    expect(response.headers.get('x-proxy-answered-by')).toBe('proxy;cause="invalid-request"');
    expect(running.report().answeredBy.upstream ?? 0).toBe(before);
  });

  test('POST → 405 with Allow: GET; a valid request is forwarded', async () => {
    const running = await proxy({ rejectInvalidRequests: true });

    const post = await fetch(`${running.url}/api/v1/Client/Simple`, { method: 'POST', headers: KEY });
    const valid = await fetch(`${running.url}/api/v1/Client/Simple?pageSize=1`, { headers: KEY });

    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET');
    expect(valid.status).toBe(200);
    expect(valid.headers.get('x-proxy-answered-by')).toBe('upstream');
  });
});

describe('--journal off and --journal-key', () => {
  test('--journal off → /__proxy/ paths are forwarded to the upstream like any other (its 404)', async () => {
    const running = await proxy({ journal: false });

    const response = await fetch(`${running.url}/__proxy/violations`);

    expect(response.status).toBe(404);
    expect(response.headers.get('x-proxy-answered-by')).toBe('upstream');
  });

  test('--journal-key → 401 without X-Proxy-Key or with another, 200 with it', async () => {
    const running = await proxy({ journalKey: 'journal-secret' });

    const none = await exchange(running.url, '/__proxy/violations');
    const wrong = await fetch(`${running.url}/__proxy/violations`, { headers: { 'X-Proxy-Key': 'nope' } });
    const right = await fetch(`${running.url}/__proxy/violations`, { headers: { 'X-Proxy-Key': 'journal-secret' } });

    expect(none.status).toBe(401);
    expect(documented(none)).toEqual([]);
    expect(wrong.status).toBe(401);
    expect(right.status).toBe(200);
  });
});

describe('a spec with a path under the reserved prefix', () => {
  test('→ startProxy rejects, naming the path', async () => {
    const fs = await import('node:fs');
    const os = await import('node:os');
    const path = await import('node:path');
    const YAML = (await import('yaml')).default;
    const spec = YAML.parse(fs.readFileSync(path.join(__dirname, '../../openapi.yaml'), 'utf8')) as { paths: Record<string, unknown> };
    spec.paths['/__proxy/violations'] = spec.paths['/api/v1/Diagnostics/Ping'];
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'proxy-spec-')), 'openapi.yaml');
    fs.writeFileSync(file, YAML.stringify(spec));

    await expect(startProxy({ upstream: server.baseUrl, specFile: file })).rejects.toThrow(
      "the spec has a path under the proxy's reserved prefix /__proxy/: /__proxy/violations",
    );
  });
});

describe('the journal entry’s bound', () => {
  test('a violation with 10,000-character texts and 100 sentence ids → an entry within MAX_ENTRY_CHARS, still valid per proxy.openapi.yaml', async () => {
    const { Journal, MAX_ENTRY_CHARS } = await import('../../proxy/journal');
    const journal = new Journal(10, new Set(['response']));
    const long = 'x'.repeat(10_000);

    const entry = journal.add(
      {
        rule: 'response.schema',
        sentences: Array.from({ length: 100 }, () => long),
        side: 'response',
        operation: 'ping',
        expected: long,
        actual: long,
        cause: long,
      },
      { exchange: 1, method: 'GET', target: `/${long}`, status: 200, answeredBy: 'upstream', curl: long },
    );

    expect(JSON.stringify(entry).length).toBeLessThanOrEqual(MAX_ENTRY_CHARS);
    expect(proxySpec().validator('#/components/schemas/JournalEntry')(entry)).toBe(true);
  });
});
