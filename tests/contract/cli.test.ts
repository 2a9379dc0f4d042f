// The contract runner as a CI user meets it: the built CLI (dist/contract-suite/cli/main.js,
// and the package's bin dist/cli/main.js where our mock is the target) in a child
// process, as `client-records-mock contract` runs it (npm test builds first). Each exit code is shown with the line that caused it: 0 every check
// that could run passed; 1 the deployment broke the contract (a mutant of our
// server: one renamed field of Detail, a broken Ping seen by the first probes);
// 2 bad usage or an unreachable target; 3 the suite itself failed (a check that
// throws, run in-process since no shipped check may).
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import YAML from 'yaml';
import addFormats from 'ajv-formats';
import { COVERAGE_REPORT_SCHEMA, type CoverageReport } from '../../contract/coverage-report';
import { runContractCli, USAGE } from '../../contract-suite/cli/main';
import { STRICT_FRAMING_FAULTS } from '../../contract-suite/derived/framing';
import { specContract } from '../../contract/spec-contract';
import { MUTANTS, startMutantProxy, type RunningProxy } from '../../tools/mutants';
import { freePort } from '../../tools/processes';
import { API_KEY, ROOT, startTestServer, type TestServer } from '../support/servers';

const CLI = path.join(ROOT, 'dist/contract-suite/cli/main.js');

/** The package's bin: `client-records-mock contract` without --base-url checks our mock, started in-process. */
const BIN = path.join(ROOT, 'dist/cli/main.js');

/** Runs the CLI without blocking this process: the in-process server under test must keep answering. */
function runCli(args: string[], program: string[] = [CLI]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [...program, ...args],
      { encoding: 'utf8', timeout: 120_000, cwd: os.tmpdir(), maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        resolve({ status: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr });
      },
    );
  });
}

const lastLine = (text: string) => text.trim().split('\n').at(-1)!;

/** A value made on first use and shared: a whole suite run costs seconds, and several tests read one run's output. */
function once<T>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | undefined;
  return () => (made ??= make());
}

const passingFiles = () => ({
  junit: path.join(dir, 'junit.xml'),
  json: path.join(dir, 'coverage.json'),
  xml: path.join(dir, 'coverage.xml'),
  html: path.join(dir, 'coverage.html'),
});
/** Our test server, every report written: the passing run the report tests and --strict-http's count read. */
const passingRun = once(() => {
  const { junit, json, xml, html } = passingFiles();
  return runCli([
    ...['--base-url', server.baseUrl, '--api-key', API_KEY, '--runs', '5', '--seed', '7', '--origin', 'https://a.example', '--verbose'],
    ...['--junit', junit, '--coverage-out', json, '--coverage-out', xml, '--coverage-out', html],
  ]);
});
/** The same with --strict-http and --control: our test server has no control API, so the eight control checks skip. */
const strictControlRun = once(() =>
  runCli([
    '--base-url',
    server.baseUrl,
    '--api-key',
    API_KEY,
    '--runs',
    '5',
    '--seed',
    '7',
    '--origin',
    'https://a.example',
    '--strict-http',
    '--control',
    '--verbose',
  ]),
);

let server: TestServer;
let dir: string;
beforeAll(async () => {
  // 200 clients: more than two pages of the largest pageSize, every shape the checks need; the suite's per-client
  // checks (a Detail per listed client) cost a fifth of the default 1,000's, and these tests are about the command.
  server = await startTestServer({ clients: 200 });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'contract-cli-'));
});
afterAll(async () => {
  await server.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('client-records-mock contract: exit 2, bad usage or an unreachable target (one line on stderr)', () => {
  test.each([
    ['a base URL without a scheme', ['--base-url', '127.0.0.1:4000'], /^contract: --base-url "127\.0\.0\.1:4000" is not a URL/],
    ['--runs 0', ['--runs', '0'], /^contract: --runs must be a whole number >= 1/],
    ['an unknown option', ['--bogus'], /^contract: Unknown option '--bogus'/],
    [
      'a --spec file that is not there',
      ['--spec', '/nowhere/openapi.yaml'],
      /^contract: --spec cannot read \/nowhere\/openapi\.yaml \(ENOENT\)/,
    ],
    [
      'a coverage file of an unknown kind',
      ['--coverage-out', 'report.txt'],
      /^contract: --coverage-out "report\.txt": name a \.json, \.xml \(JUnit\) or \.html file/,
    ],
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

  test("a base URL whose path prefix serves none of the document's paths → one line naming both 404s, exit code 2", async () => {
    const { status, stdout, stderr } = await runCli(['--base-url', `${server.baseUrl}/records`, '--api-key', API_KEY]);

    expect(status).toBe(2);
    expect(stdout).toBe('');
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(
      /^contract: http:\/\/127\.0\.0\.1:\d+\/records serves none of the document's paths: GET \/api\/v1\/Diagnostics\/Ping and GET \/api\/v1\/Client\/Simple answered 404 \(wrong host or path prefix\?\)/,
    );
  });

  test('--help documents every exit code', async () => {
    const { status, stdout } = await runCli(['--help']);

    expect(status).toBe(0);
    expect(stdout).toBe(`${USAGE}\n`);
    for (const code of [
      '0  every check',
      '1  the deployment broke the contract',
      '2  bad usage or an unreachable target',
      '3  the suite itself failed',
    ])
      expect(stdout).toContain(code);
  });
});

describe('client-records-mock contract: exit 0, a passing run', () => {
  test('our server with --runs 5 → exit 0, the PASS line, a JUnit file and coverage in the shared format (JSON, JUnit, HTML)', async () => {
    const { status, stdout } = await passingRun();
    const { junit, json, xml, html } = passingFiles();

    console.log(`exit 0 ← ${lastLine(stdout)}`);
    expect(status).toBe(0);
    expect(lastLine(stdout)).toMatch(
      /^PASS: (\d+)\/\1 checks passed, \d+ requests in [\d.]+ s \(seed 7, 5 generated\); 0 skipped; 0 suite errors; .*0 distinct causes of failure$/,
    );
    expect(fs.readFileSync(junit, 'utf8')).toMatch(/<testsuites tests="\d+" failures="0" errors="0" skipped="0"/);
    expect(fs.readFileSync(junit, 'utf8')).toContain('property run: 5 generated requests (seed 7)');
    const report = JSON.parse(fs.readFileSync(json, 'utf8')) as CoverageReport;
    const ajv = new Ajv2020();
    addFormats(ajv);
    expect(ajv.validate(COVERAGE_REPORT_SCHEMA, report)).toBe(true);
    expect(report).toMatchObject({ format: 'client-records-coverage/1', side: 'provider' });
    expect(report.totals.operationsReached).toBe(report.totals.operations);
    expect(report.sentences!.total).toBeGreaterThan(100);
    expect(stdout).toContain(`${report.sentences!.enforced} of ${report.sentences!.total} sentences enforced`);
    expect(fs.readFileSync(xml, 'utf8')).toContain('<testsuite name="coverage (provider): getClientDetail"');
    expect(fs.readFileSync(html, 'utf8')).toMatch(/^<!doctype html>/);
  }, 300_000);
  test('--strict-http → the framing checks Node takes run too (each fault per operation), and our server passes them', async () => {
    const plain = await passingRun();
    const strict = await strictControlRun();
    const checks = (stdout: string) => Number(/^PASS: (\d+)\//.exec(lastLine(stdout))?.[1]);

    expect([plain.status, strict.status]).toEqual([0, 0]);
    expect(plain.stdout).not.toContain('with two Host lines');
    expect(strict.stdout).toContain('with two Host lines');
    // The framing faults per operation, and the cut percent-encoding of the one free-text parameter (filter).
    expect(checks(strict.stdout) - checks(plain.stdout)).toBe(STRICT_FRAMING_FAULTS.length * specContract().operations.length + 1);
  }, 300_000);
});

describe('client-records-mock contract --control: the control API checked too', () => {
  test('the bin against our mock (in-process, control API on) → the eight control checks pass, exit 0; our test server (no control API) skips them, exit 0', async () => {
    const ours = await runCli(['contract', '--control', '--runs', '1', '--verbose'], [BIN]);
    expect(ours.status).toBe(0);
    expect(ours.stdout.match(/^ {2}✓ .*(X-Mock-Scenario|X-Mock-Session|__control|control document)/gm)).toHaveLength(8);

    const none = await strictControlRun();
    console.log(`exit 0 ← ${lastLine(none.stdout)}`);
    expect(none.status).toBe(0);
    expect(none.stdout).toContain('skipped: the target has no control API (GET /__control/scenarios answered 404)');
    expect(lastLine(none.stdout)).toMatch(/; 8 skipped;/);
  }, 240_000);
});

describe('client-records-mock contract: exit 1, the deployment broke the contract', () => {
  let proxy: RunningProxy;
  afterEach(() => proxy.stop());

  test('one renamed field of Detail → exit 1; the summary starts with the causes, each with its curl, and its last line counts them', async () => {
    proxy = await startMutantProxy(
      server.baseUrl,
      MUTANTS.find((m) => m.name.startsWith('one renamed field of Detail')),
    );

    const { status, stdout } = await runCli([
      '--base-url',
      proxy.baseUrl,
      '--api-key',
      API_KEY,
      '--runs',
      '50',
      '--origin',
      'https://a.example',
    ]);

    const summary = stdout.slice(stdout.indexOf('\nCAUSES: ') + 1);
    console.log(`exit 1 ← one renamed field of Detail; the summary:\n${summary}`);
    expect(status).toBe(1);
    expect(summary).toMatch(
      /^CAUSES: 1 distinct cause behind \d+ failed checks\n1\. response\.schema ClientDetail \/ required, additionalProperties \(\d+ checks\)\n/,
    );
    expect(summary).toContain('ContactInfo is required but missing; Contact is not a documented property');
    expect(summary).toMatch(
      / {3}reproduce: curl -i --globoff -H 'X-Api-Key: dev-key' 'http:\/\/127\.0\.0\.1:\d+\/api\/v1\/Client\/Detail\//,
    );
    expect(lastLine(stdout)).toMatch(/^FAIL: .*; 1 distinct cause of failure$/);
  }, 300_000);

  test('lists that break an in-record rule everywhere (a wrong Luhn digit) → exit 1: the discovery behind the property run fails as a violation, not as a suite error', async () => {
    proxy = await startMutantProxy(
      server.baseUrl,
      MUTANTS.find((m) => m.name.startsWith('PersonalId with a wrong Luhn check digit')),
    );

    const { status, stdout, stderr } = await runCli([
      '--base-url',
      proxy.baseUrl,
      '--api-key',
      API_KEY,
      '--runs',
      '5',
      '--origin',
      'https://a.example',
      '--verbose',
    ]);

    expect(stderr).toBe('');
    expect(status).toBe(1);
    expect(stdout).toContain('the property run could not start');
    expect(stdout).toMatch(/record\.luhn/);
  }, 300_000);

  test('a broken Ping, which the first probes see → exit 1 (a contract violation), never 2', async () => {
    proxy = await startMutantProxy(
      server.baseUrl,
      MUTANTS.find((m) => m.name === 'Ping answers "Ping"'),
    );

    const { status, stdout, stderr } = await runCli([
      '--base-url',
      proxy.baseUrl,
      '--api-key',
      API_KEY,
      '--runs',
      '5',
      '--origin',
      'https://a.example',
    ]);

    console.log(`exit 1 ← ${lastLine(stdout)}`);
    expect(stderr).toBe('');
    expect(status).toBe(1);
    expect(stdout).toMatch(/response\.schema \S+ \/ /);
    expect(stdout).toContain('seen on:  ping 200');
  }, 300_000);

  test('three security headers missing from every answer → exit 1 with three causes, each naming its header sentence, in a log a CI keeps', async () => {
    const three = ['Content-Security-Policy', 'X-Frame-Options', 'X-Content-Type-Options'];
    proxy = await startMutantProxy(server.baseUrl, {
      name: 'three security headers missing',
      response(_request, response) {
        for (const name of three) delete response.headers[name.toLowerCase()];
      },
    });
    const junit = path.join(dir, 'three-headers.xml');

    const { status, stdout } = await runCli(['--base-url', proxy.baseUrl, '--api-key', API_KEY, '--runs', '50', '--junit', junit]);

    const summary = stdout.slice(stdout.indexOf('\nCAUSES: ') + 1);
    console.log(`exit ${status} ← three headers missing; the whole output (${stdout.trim().split('\n').length} lines):\n${stdout}`);
    expect(status).toBe(1);
    expect(summary).toMatch(/^CAUSES: 3 distinct causes behind \d+ failed checks\n/);
    for (const name of three) {
      const cause = new RegExp(`^\\d\\. response\\.header ${name} \\(\\d+ checks\\)\\n(?: {3}.*\\n)*? {3}spec: +header\\.${name}:`, 'm');
      expect(summary).toMatch(cause);
    }
    expect(lastLine(stdout)).toMatch(/; 3 distinct causes of failure$/);
    expect(stdout.trim().split('\n').length).toBeLessThan(80);
    // JUnit keeps one case per check, and one for the property run.
    const checks = Number(/checks: (\d+)\/\1 run/.exec(stdout)![1]);
    expect(fs.readFileSync(junit, 'utf8').match(/<testcase /g)).toHaveLength(checks + 1);
  }, 180_000);

  test('--summary → only the causes and the verdict', async () => {
    proxy = await startMutantProxy(
      server.baseUrl,
      MUTANTS.find((m) => m.name === 'Ping answers "Ping"'),
    );

    const { status, stdout } = await runCli(['--base-url', proxy.baseUrl, '--api-key', API_KEY, '--runs', '5', '--summary']);

    expect(status).toBe(1);
    expect(stdout).toMatch(/^CAUSES: \d+ distinct causes? behind \d+ failed checks?\n1\. /);
    expect(stdout).not.toMatch(/^(contract suite against| {2}checks:|SKIPPED|coverage:)/m);
    expect(lastLine(stdout)).toMatch(/^FAIL: /);
  }, 300_000);
});

describe('client-records-mock contract --spec FILE: the run judges against that document', () => {
  /** openapi.yaml with pageSize at most 50 and one sentence the table does not know. */
  function editedSpec(): string {
    const document = YAML.parse(fs.readFileSync(path.join(ROOT, 'openapi.yaml'), 'utf8')) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    document.components.parameters.PageSize.schema.maximum = 50;
    document.components.schemas.PageSizeNumber.maximum = 50;
    document.paths['/api/v1/Diagnostics/Ping'].get.description += ' Answers within 10 ms.';
    const file = path.join(dir, 'openapi-max-50.yaml');
    fs.writeFileSync(file, YAML.stringify(document));
    return file;
  }

  test('our mock serving the same document passes; its new sentence is listed as unknown to the sentence table', async () => {
    const spec = editedSpec();

    const { status, stdout } = await runCli(
      ['--spec', spec, '--runs', '20', '--origin', 'https://a.example', '--verbose'],
      [BIN, 'contract'],
    );

    expect(status).toBe(0);
    expect(stdout).toContain(`judged against ${spec}`);
    // The derived bound check of that document: its maximum, not the bundled one.
    expect(stdout).toContain('query parameter pageSize, maximum 50: "50" accepted; "51" → 400 VALIDATION_ERROR naming pageSize');
    expect(stdout).toMatch(/"Answers within 10 ms\." — not in this suite's sentence table/);
  }, 300_000);

  test('a deployment of the bundled document (pageSize up to 100) fails against it: the answers to pageSize=51 break it', async () => {
    const spec = editedSpec();

    const { status, stdout } = await runCli([
      '--spec',
      spec,
      '--base-url',
      server.baseUrl,
      '--runs',
      '20',
      '--origin',
      'https://a.example',
    ]);

    console.log(`--spec with pageSize <= 50 against a server allowing 100: ${lastLine(stdout)}`);
    expect(status).toBe(1);
    expect(stdout).toMatch(/^\d+\. response\.status 400 → 200 /m);
    expect(stdout).toMatch(/seen on: .*getClientsSimple 200/);
    expect(stdout).toMatch(/expected: 400 for request\.value: pageSize=/);
  }, 300_000);
});

describe('client-records-mock contract: exit 3, the suite itself failed', () => {
  test('a check that throws a TypeError → exit 3, reported as a suite error, never as a contract violation', async () => {
    const lines: string[] = [];
    const write = (chunk: string | Uint8Array) => {
      lines.push(String(chunk));
      return true;
    };
    const out = jest.spyOn(process.stdout, 'write').mockImplementation(write);
    const err = jest.spyOn(process.stderr, 'write').mockImplementation(write);
    let code: number;
    try {
      code = await runContractCli(
        ['--base-url', server.baseUrl, '--api-key', API_KEY, '--runs', '5', '--origin', 'https://a.example'],
        undefined,
        {
          groups: [
            (check) =>
              check('ping', 'a check with a bug: reads a property of undefined', async (context) => {
                const exchange = await context.get('/api/v1/Diagnostics/Ping', 'none');
                void (exchange.json as { missing: { deeper: string } }).missing.deeper;
              }),
          ],
        },
      );
    } finally {
      out.mockRestore();
      err.mockRestore();
    }
    const text = lines.join('');

    console.log(`exit 3 ← ${text.split('\n').find((line) => line.startsWith('contract:'))}`);
    expect(code).toBe(3);
    expect(text).toContain("SUITE ERRORS: 1 (not the deployment's fault)");
    expect(text).toMatch(/ {2}! a check with a bug: reads a property of undefined: Cannot read properties of undefined/);
    expect(text).toMatch(/^contract: the suite itself failed \(1 suite errors\): see SUITE ERRORS above$/m);
    expect(text).not.toContain('CAUSES:');
  }, 300_000);
});
