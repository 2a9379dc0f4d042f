// The contract runner as a CI user meets it: the built CLI (dist/contract-suite/cli.js)
// in a child process, as `client-records-mock contract` runs it. Needs `npm run build`
// (npm test builds first).
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../../tools/processes';
import { API_KEY, ROOT, startTestServer, type TestServer } from '../support/servers';

const CLI = path.join(ROOT, 'dist/contract-suite/cli.js');

/** Runs the CLI without blocking this process: the in-process server under test must keep answering. */
function runCli(args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], { encoding: 'utf8', timeout: 60_000, cwd: os.tmpdir() }, (error, stdout, stderr) => {
      resolve({ status: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr });
    });
  });
}

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.stop());

describe('client-records-mock contract (the runner)', () => {
  test.each([
    ['a base URL without a scheme', ['--base-url', '127.0.0.1:4000'], /^contract: --base-url "127\.0\.0\.1:4000" is not a URL/],
    ['--runs 0', ['--runs', '0'], /^contract: --runs must be a whole number >= 1/],
    ['an unknown option', ['--bogus'], /^contract: Unknown option '--bogus'/],
  ])('%s → one line on stderr, exit code 2', async (_what, args, line) => {
    const { status, stderr } = await runCli(args);

    expect(status).toBe(2);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(line);
  });

  test('a base URL where nothing listens → one line on stderr, exit code 2', async () => {
    // A port the system gave out and took back a moment ago: no fixed port that something else may hold.
    const port = await freePort();

    const { status, stderr } = await runCli(['--base-url', `http://127.0.0.1:${port}`]);

    expect(status).toBe(2);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr.startsWith(`contract: connection refused to http://127.0.0.1:${port}`)).toBe(true);
  });

  test('a key the deployment rejects → "key rejected by …", exit code 2', async () => {
    const { status, stderr } = await runCli(['--base-url', server.baseUrl, '--api-key', 'not-a-key']);

    expect(status).toBe(2);
    expect(stderr.trim()).toBe(`contract: key rejected by ${server.baseUrl}: GET /api/v1/Client/Simple answered 401 UNAUTHORIZED`);
  });

  test('a passing run with --runs 5 → exit 0, a JUnit file and a coverage JSON', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'contract-cli-'));
    const junit = path.join(dir, 'junit.xml');
    const coverage = path.join(dir, 'coverage.json');

    const { status, stdout } = await runCli([
      '--base-url',
      server.baseUrl,
      '--api-key',
      API_KEY,
      '--runs',
      '5',
      '--seed',
      '7',
      '--junit',
      junit,
      '--coverage-out',
      coverage,
    ]);

    expect(status).toBe(0);
    expect(stdout).toMatch(/PASS: (\d+)\/\1 checks passed, \d+ requests/);
    const xml = fs.readFileSync(junit, 'utf8');
    expect(xml).toMatch(/<testsuites tests="\d+" failures="0"/);
    expect(xml).toContain('property run: 5 generated requests (seed 7)');
    const report = JSON.parse(fs.readFileSync(coverage, 'utf8')) as {
      totals: { operations: number; operationsReached: number };
      rules: unknown[];
    };
    expect(report.totals.operationsReached).toBe(report.totals.operations);
    expect(report.rules.length).toBeGreaterThan(40);
    fs.rmSync(dir, { recursive: true, force: true });
  }, 60_000);
});
