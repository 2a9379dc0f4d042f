// `client-records-mock proxy` as a CI job meets it: the built CLI
// (dist/server/main.js proxy …) in a child process. Bad settings are one line
// and exit 2; --help lists every setting; the start-up line names the upstream
// and the proxy's URL (port 0); violations are one log line each with the key
// as $API_KEY; SIGTERM/SIGINT write --junit, --report and --coverage-out and
// end with exit 1 exactly when --fail-on-violation counts a violation seen.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describeProxySettings } from '../../proxy/settings';
import { proxySpec } from '../../proxy/journal-http';
import { MUTANTS, startMutantProxy, type RunningProxy as Harness } from '../../tools/mutants';
import { API_KEY, MAIN_JS, startTestServer, type TestServer } from '../support/servers';
import { startProxyProcess as startCli } from './proxy-process';

function runCli(args: string[], env: Record<string, string> = {}): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [MAIN_JS, 'proxy', ...args],
      { encoding: 'utf8', timeout: 60_000, env: { ...process.env, ...env } },
      (error, stdout, stderr) => resolve({ status: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr }),
    );
  });
}

let server: TestServer;
let harness: Harness;
let scratch: string;
beforeAll(async () => {
  server = await startTestServer();
  // A faulty upstream: our server with a PersonalId dropped from every Simple item.
  harness = await startMutantProxy(
    server.baseUrl,
    MUTANTS.find((m) => m.name.startsWith('a required field dropped'))!,
  );
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'proxy-cli-'));
});
afterAll(async () => {
  await harness.stop();
  await server.stop();
  fs.rmSync(scratch, { recursive: true, force: true });
});

describe('client-records-mock proxy: settings checked at start', () => {
  test.each([
    ['no --upstream', [], /^proxy: invalid --upstream="": is required/],
    [
      'an upstream without a scheme',
      ['--upstream', '127.0.0.1:8080'],
      /^proxy: invalid --upstream="127\.0\.0\.1:8080": must be an http\(s\) URL/,
    ],
    ['an upstream with a query', ['--upstream', 'http://h/?a=1'], /^proxy: invalid --upstream=".*": must have no query or fragment/],
    [
      'an unknown fallback cause',
      ['--upstream', 'http://h', '--fallback', 'timeout,404'],
      /^proxy: invalid --fallback="timeout,404": "404" is no cause/,
    ],
    [
      '--fail-on-violation=sometimes',
      ['--upstream', 'http://h', '--fail-on-violation=sometimes'],
      /^proxy: invalid --fail-on-violation="sometimes"/,
    ],
    [
      '--upstream-timeout 0',
      ['--upstream', 'http://h', '--upstream-timeout', '0'],
      /^proxy: invalid --upstream-timeout="0": must be a whole number from 1/,
    ],
    ['an unknown option', ['--upstream', 'http://h', '--bogus', '1'], /^proxy: unknown option --bogus \(see --help\)/],
    [
      'a spec that does not exist',
      ['--upstream', 'http://h', '--spec', '/nonexistent.yaml'],
      /^proxy: invalid --spec: cannot read \/nonexistent\.yaml/,
    ],
  ])('%s → one line on stderr, exit 2', async (_what, args, line) => {
    const { status, stderr, stdout } = await runCli(args);

    expect(status).toBe(2);
    expect(stderr).toMatch(line);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stdout).toBe('');
  });

  test('a bad setting from the environment is named by its variable: UPSTREAM_TIMEOUT_MS=soon → exit 2', async () => {
    const { status, stderr } = await runCli(['--upstream', 'http://h'], { UPSTREAM_TIMEOUT_MS: 'soon' });

    expect(status).toBe(2);
    expect(stderr).toMatch(/^proxy: invalid UPSTREAM_TIMEOUT_MS="soon"/);
  });

  test('--help → every setting with its flag, variable and default; exit 0', async () => {
    const { status, stdout } = await runCli(['--help']);

    expect(status).toBe(0);
    for (const setting of describeProxySettings()) expect(stdout).toContain(setting.flag);
    for (const setting of describeProxySettings()) expect(stdout).toContain(setting.env);
  });
});

describe('client-records-mock proxy: a run with violations, stopped by a signal', () => {
  test.each([
    ['SIGTERM', ['--fail-on-violation'], 1],
    ['SIGINT', ['--fail-on-violation=all'], 1],
    ['SIGTERM', [], 0],
  ] as const)(
    '%s with %j after an upstream violation → reports written, exit %i',
    async (signal, flags, code) => {
      const junit = path.join(scratch, `${signal}-${flags.length}.xml`);
      const report = path.join(scratch, `${signal}-${flags.length}.json`);
      const coverage = path.join(scratch, `${signal}-${flags.length}-coverage.json`);
      const proxy = await startCli([
        '--upstream',
        harness.baseUrl,
        ...flags,
        '--junit',
        junit,
        '--report',
        report,
        '--coverage-out',
        coverage,
      ]);

      await (await fetch(`${proxy.url}/api/v1/Client/Simple?pageSize=2`, { headers: { 'X-Api-Key': API_KEY } })).text();
      await (await fetch(`${proxy.url}/api/v1/Diagnostics/Ping`)).text();
      const exit = await proxy.stop(signal);

      expect(exit).toBe(code);
      const out = proxy.stdout();
      expect(out).toMatch(/^Client Records proxy on http:\/\/127\.0\.0\.1:\d+ → upstream http:\/\/127\.0\.0\.1:\d+ {2}journal /m);
      expect(out).toMatch(/^proxy: ✗ upstream getClientsSimple response\.schema: expected .*PersonalId/m);
      expect(out).toContain('"X-Api-Key: $API_KEY"');
      expect(out).not.toContain(`X-Api-Key: ${API_KEY}`);
      const xml = fs.readFileSync(junit, 'utf8');
      expect(xml).toMatch(/<testsuite name="proxy upstream: getClientsSimple"[^>]* failures="1"/);
      const written = JSON.parse(fs.readFileSync(report, 'utf8')) as { violations: { response: number; counted: number } };
      expect(proxySpec().validator('#/components/schemas/ProxyReport')(written)).toBe(true);
      expect(written.violations.response).toBeGreaterThan(0);
      expect(JSON.parse(fs.readFileSync(coverage, 'utf8'))).toEqual(
        expect.objectContaining({ format: 'client-records-coverage/1', side: 'provider' }),
      );
    },
    60_000,
  );

  test.each([
    [['--fail-on-violation'], 0],
    [['--fail-on-violation=all'], 1],
  ] as const)(
    'only a caller’s violation (an unknown parameter, answered 400 correctly), %j → exit %i',
    async (flags, code) => {
      const proxy = await startCli(['--upstream', server.baseUrl, ...flags]);

      const answer = await fetch(`${proxy.url}/api/v1/Client/Simple?pagesize=2`, { headers: { 'X-Api-Key': API_KEY } });
      await answer.text();
      const exit = await proxy.stop('SIGTERM');

      expect(answer.status).toBe(400);
      expect(exit).toBe(code);
      expect(proxy.stdout()).toMatch(/^proxy: ✗ caller getClientsSimple request\.unknown-parameter/m);
      expect(proxy.stdout()).toMatch(/0 upstream violations \(0 causes; 0 transport faults\), 1 caller violations/);
    },
    60_000,
  );
});

describe('client-records-mock proxy: the fallback mock takes the mock server’s settings from the environment', () => {
  test('SEED=7 CLIENTS=50, --fallback unreachable, an upstream that refuses → the mock’s list of 50 clients, X-Proxy-Answered-By mock', async () => {
    const closed = await startTestServer();
    const refusing = closed.baseUrl;
    await closed.stop();
    const proxy = await startCli(['--upstream', refusing, '--fallback', 'unreachable'], { SEED: '7', CLIENTS: '50', LOG_LEVEL: 'info' });

    const answer = await fetch(`${proxy.url}/api/v1/Client/Simple?pageSize=1`, { headers: { 'X-Api-Key': API_KEY } });
    await answer.text();
    const exit = await proxy.stop('SIGTERM');

    expect(answer.status).toBe(200);
    expect(answer.headers.get('x-total-count')).toBe('50');
    expect(answer.headers.get('x-proxy-answered-by')).toBe('mock;cause="unreachable"');
    expect(exit).toBe(0);
    // The mock's own request log stays off: the proxy's stdout holds its lines only.
    expect(proxy.stdout()).not.toMatch(/"msg"/);
  }, 60_000);
});
