// What a newcomer meets first: PUBLIC_URL makes paging links absolute (for a
// page on another origin), /openapi.json names the address it was fetched
// from, and the seed command writes to stdout or fails in one line.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../server/process/config';
import { get, MAIN_JS, startTestServer, type TestServer } from '../support/servers';

describe('PUBLIC_URL', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ publicUrl: 'http://mock.example:8080/base' });
  });
  afterAll(() => server.stop());

  test('GET /Client/Simple?page=2&pageSize=10 → Link holds absolute URLs under PUBLIC_URL', async () => {
    const link = (await get(server.baseUrl, '/api/v1/Client/Simple?page=2&pageSize=10')).headers.get('link');

    expect(link).toContain('<http://mock.example:8080/base/api/v1/Client/Simple?page=1&pageSize=10>; rel="first"');
    expect(link).toContain('<http://mock.example:8080/base/api/v1/Client/Simple?page=3&pageSize=10>; rel="next"');
  });

  test('GET /openapi.json → names PUBLIC_URL as its server', async () => {
    const spec = (await (await get(server.baseUrl, '/openapi.json')).json()) as { servers: { url: string }[] };

    expect(spec.servers).toEqual([{ url: 'http://mock.example:8080/base', description: 'This server' }]);
  });

  test.each([['ftp://x'], ['not a url'], ['http://x/?q=1']])('PUBLIC_URL=%s → a one-line ConfigError', (value) => {
    expect(() => loadConfig([], { PUBLIC_URL: value })).toThrow(/^invalid PUBLIC_URL=.*must be an absolute http\(s\) URL/);
  });
});

describe('GET /openapi.json without PUBLIC_URL', () => {
  test('→ names the address the request was sent to', async () => {
    const server = await startTestServer();
    try {
      const spec = (await (await get(server.baseUrl, '/openapi.json')).json()) as { servers: { url: string }[] };

      expect(spec.servers[0]!.url).toBe(server.baseUrl);
    } finally {
      await server.stop();
    }
  });
});

describe('client-records-mock seed', () => {
  const seed = (...args: string[]) => spawnSync(process.execPath, [MAIN_JS, 'seed', ...args], { encoding: 'utf8', timeout: 20_000 });

  test('--out - → the data file on standard output', () => {
    const result = seed('--clients', '3', '--seed', '4', '--out', '-');

    expect(result.status).toBe(0);
    expect(JSON.parse(result.stdout)).toHaveLength(3);
  });

  test('--out in a missing folder → one line, exit 2, no stack trace', () => {
    const missing = path.join(os.tmpdir(), `crm-missing-${process.pid}`, 'clients.json');

    const result = seed('--clients', '3', '--out', missing);

    expect(result.status).toBe(2);
    expect(result.stderr).toBe(`seed: cannot write ${missing} (ENOENT)\n`);
    expect(fs.existsSync(missing)).toBe(false);
  });
});

describe('the command line', () => {
  const cli = (...args: string[]) => spawnSync(process.execPath, [MAIN_JS, ...args], { encoding: 'utf8', timeout: 20_000 });

  test('--version → the package version, exit 0', () => {
    const { version } = JSON.parse(fs.readFileSync(path.join(MAIN_JS, '../../../package.json'), 'utf8')) as { version: string };

    const result = cli('--version');

    expect(result.status).toBe(0);
    expect(result.stdout).toBe(`${version}\n`);
  });

  test('--help → lists the subcommands and --watch', () => {
    const result = cli('--help');

    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/client-records-mock contract/);
    expect(result.stdout).toMatch(/--watch/);
  });

  test.each([
    [['--watch', '--workers', '2'], 'client-records-mock: --watch needs WORKERS=1\n'],
    [['stray'], 'client-records-mock: unexpected argument "stray" (see --help)\n'],
    [['--log-format', 'fancy'], 'client-records-mock: invalid --log-format="fancy": must be one of auto, pretty, json\n'],
  ])('%j → one line, exit 2', (args, line) => {
    const result = cli(...args);

    expect(result.status).toBe(2);
    expect(result.stderr).toBe(line);
  });
});
