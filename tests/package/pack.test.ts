// The package as a user gets it: `npm pack` of this tree, installed into an
// empty project, then used through every public entry point: the bin
// (`npx client-records-mock`: --help, --version, serve on port 0, contract
// --help, seed), `require` and `import` of '.', './msw' and './types', and
// startServer from a strict TypeScript file. One pack and one install (about
// 15 s; the dependencies come from the registry or npm's cache).
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { ROOT, spawnServerAt } from '../support/servers';

const run = promisify(execFile);
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const NPX = process.platform === 'win32' ? 'npx.cmd' : 'npx';
// As a user installs: no SCARF_ANALYTICS needed (the package no longer depends on swagger-ui-dist).
const ENV = { ...process.env, npm_config_audit: 'false', npm_config_fund: 'false' };

let scratch: string;
let files: string[];
/** npm pack's own figures: the tarball's size in bytes and its number of files. */
let packed: { size: number; entryCount: number };
let installOutput: string;

beforeAll(async () => {
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'crm-pack-'));
  const { stdout } = await run(NPM, ['pack', '--json', '--pack-destination', scratch], {
    cwd: ROOT,
    env: ENV,
    maxBuffer: 16 * 1024 * 1024,
  });
  const [pack] = JSON.parse(stdout.slice(stdout.indexOf('['))) as {
    filename: string;
    size: number;
    entryCount: number;
    files: { path: string }[];
  }[];
  packed = pack!;
  files = pack!.files.map((file) => file.path);
  const project = path.join(scratch, 'project');
  fs.mkdirSync(project);
  fs.writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'scratch', private: true }));
  // msw: the optional peer that './msw' needs, at the version this repository tests with.
  const { devDependencies } = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
    devDependencies: Record<string, string>;
  };
  const installed = await run(
    NPM,
    ['install', '--prefer-offline', path.join(scratch, pack!.filename), '@types/node@24', `msw@${devDependencies.msw}`],
    { cwd: project, env: ENV },
  );
  installOutput = installed.stdout + installed.stderr;
}, 180_000);

afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

const project = () => path.join(scratch, 'project');
/** The bin as npm links it into the project (node_modules/.bin → the package's `bin`). */
const bin = () => path.join(project(), 'node_modules', '.bin', 'client-records-mock');
const runBin = (args: string[]) => run(process.execPath, [bin(), ...args], { cwd: project(), env: ENV });

describe('the tarball', () => {
  test('holds what runs (dist, openapi.yaml, README, LICENSE), and no tests, bench, scripts, tools, CI or data files', () => {
    expect(files).toEqual(
      expect.arrayContaining([
        'dist/cli/main.js',
        'dist/server/index.d.ts',
        'openapi.yaml',
        'README.md',
        'LICENSE',
        'control.openapi.yaml',
        'dist/server/playwright.js',
        'dist/mcp/server.js',
      ]),
    );
    const stray = files.filter((file) =>
      /^(tests|bench|scripts|tools|\.ci|deploy|dist\/(tests|bench|scripts|tools))\/|\.tsbuildinfo$|clients.*\.json$/.test(file),
    );
    expect(stray).toEqual([]);
  });

  // 0.1.0 shipped 277 files in 1.31 MB, much of it no user reads: the mutation and reach reports, the
  // performance history, the contributors' pages and Swagger UI's CSS source map (issue 38). Without them,
  // 1.13 MB in 325 files once the contract suite moved into its rooms; then the browser entry and the static docs
  // site's script (issue 39: 0.55 MB packed, the mock and msw bundled for a page) and the suite's new rooms: 1.68 MB
  // in 401 files. The bounds leave room to grow, not to bloat.
  test('holds no report, history, contributor page or source map, and stays within 440 files and 1.85 MB', () => {
    const unneeded = files.filter((file) => /^docs\/(mutation|performance|reach)\.md$|^(CONTRIBUTING|ARCHITECTURE)\.md$|\.map$/.test(file));

    expect(unneeded).toEqual([]);
    expect(packed.entryCount).toBeLessThanOrEqual(440);
    expect(packed.size).toBeLessThanOrEqual(1_850_000);
  });

  test('carries every file its README and docs link to (the links work in node_modules, not only on GitHub)', () => {
    const shipped = new Set(files);
    const pages = files.filter((file) => /^(README\.md|docs\/.*\.md)$/.test(file));
    const broken: string[] = [];
    for (const page of pages) {
      // Links outside code: a fenced block or a code span (a regex such as `(.+)` after a `]`) links nowhere.
      const text = fs
        .readFileSync(path.join(ROOT, page), 'utf8')
        .replace(/```[\s\S]*?```/g, '')
        .replace(/`[^`\n]*`/g, '');
      for (const [, target] of text.matchAll(/\]\(([^)\s#]+)(?:#[^)]*)?\)/g)) {
        if (/^[a-z]+:/i.test(target!)) continue;
        const file = path.posix.normalize(path.posix.join(path.posix.dirname(page), target!));
        if (!shipped.has(file) && ![...shipped].some((f) => f.startsWith(`${file.replace(/\/$/, '')}/`)))
          broken.push(`${page} → ${target}`);
      }
    }

    expect(pages).toEqual(expect.arrayContaining(['README.md', 'docs/frontend.md', 'docs/ci.md']));
    expect(broken).toEqual([]);
  });

  test("holds Swagger UI's files and licence for /docs, and depends on no swagger-ui-dist", () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };

    expect(files).toEqual(expect.arrayContaining(['dist/swagger-ui/swagger-ui-bundle.js', 'dist/swagger-ui/LICENSE']));
    expect(Object.keys(manifest.dependencies)).not.toContain('swagger-ui-dist');
  });
});

describe('installed in an empty project', () => {
  test('npm install → no install-script warning of this package or @scarf/scarf (msw lists its own postinstall)', () => {
    const ours = installOutput.split('\n').filter((line) => /install-scripts\s+(client-records-mock@|@scarf\/)/.test(line));

    expect(installOutput).toMatch(/added \d+ packages/);
    expect(ours).toEqual([]);
    expect(fs.existsSync(path.join(project(), 'node_modules', '@scarf'))).toBe(false);
  });

  test('npx client-records-mock --version → the package version', async () => {
    const { stdout } = await run(NPX, ['--no-install', 'client-records-mock', '--version'], { cwd: project(), env: ENV });
    const { version } = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string };

    expect(stdout.trim()).toBe(version);
  }, 60_000);

  test('client-records-mock --help → the usage of serve, contract and seed', async () => {
    const { stdout } = await runBin(['--help']);

    expect(stdout).toMatch(/^Usage: client-records-mock \[serve\] \[options\]/);
    expect(stdout).toMatch(/client-records-mock contract \[options\]/);
    expect(stdout).toMatch(/client-records-mock seed \[options\]/);
  }, 60_000);

  test("client-records-mock contract --help → the contract suite's usage, exit 0", async () => {
    const { stdout } = await runBin(['contract', '--help']);

    expect(stdout).toMatch(/^Usage: client-records-mock contract \[--base-url URL\]/);
  }, 60_000);

  test('client-records-mock serve --port 0 → its control API reads control.openapi.yaml from the package', async () => {
    const server = await spawnServerAt(bin(), ['serve', '--clients', '20']);
    try {
      const table = (await (await fetch(`${server.baseUrl}/__control/scenarios`)).json()) as { scenarios: { name: string }[] };

      expect(table.scenarios.map((row) => row.name)).toContain('down');
    } finally {
      await server.stop();
    }
  }, 60_000);

  test('client-records-mock mcp --help → its usage, exit 0', async () => {
    const { stdout } = await runBin(['mcp', '--help']);

    expect(stdout).toMatch(/^Usage: client-records-mock mcp \[--mock-url URL\]/);
  }, 60_000);

  test('client-records-mock seed --clients 2 --out - → a data file of two clients on standard output', async () => {
    const { stdout } = await runBin(['seed', '--clients', '2', '--seed', '3', '--out', '-']);

    expect(JSON.parse(stdout)).toHaveLength(2);
  }, 60_000);

  test('client-records-mock serve --port 0 → answers Ping', async () => {
    const server = await spawnServerAt(bin(), ['serve']);
    try {
      const response = await fetch(`${server.baseUrl}/api/v1/Diagnostics/Ping`);

      expect(response.status).toBe(200);
      expect(await response.json()).toBe('Pong');
    } finally {
      await server.stop();
    }
  }, 60_000);

  test("require and import of '.', './msw' and './types' → the public functions, from CommonJS and from an ES module", async () => {
    const expected = {
      startServer: 'function',
      createMock: 'function',
      ConfigError: 'function',
      createHandlers: 'function',
      types: 'object',
    };
    const cjs = [
      "const api = require('client-records-mock');",
      "const { createHandlers } = require('client-records-mock/msw');",
      "const types = require('client-records-mock/types');",
      'console.log(JSON.stringify({ startServer: typeof api.startServer, createMock: typeof api.createMock, ConfigError: typeof api.ConfigError, createHandlers: typeof createHandlers, types: typeof types }));',
    ].join('\n');
    fs.writeFileSync(
      path.join(project(), 'use.mjs'),
      [
        "import { startServer, createMock, ConfigError } from 'client-records-mock';",
        "import { createHandlers } from 'client-records-mock/msw';",
        "import * as types from 'client-records-mock/types';",
        'console.log(JSON.stringify({ startServer: typeof startServer, createMock: typeof createMock, ConfigError: typeof ConfigError, createHandlers: typeof createHandlers, types: typeof types }));',
        '',
      ].join('\n'),
    );

    const fromCjs = await run(process.execPath, ['-e', cjs], { cwd: project() });
    const fromEsm = await run(process.execPath, ['use.mjs'], { cwd: project() });

    expect(JSON.parse(fromCjs.stdout)).toEqual(expected);
    expect(JSON.parse(fromEsm.stdout)).toEqual(expected);
  }, 60_000);

  test('startServer from a strict TypeScript file → type-checks against the package and its generated types', async () => {
    fs.writeFileSync(
      path.join(project(), 'use.ts'),
      [
        "import { startServer, type RunningMock } from 'client-records-mock';",
        "import type { components } from 'client-records-mock/types';",
        '',
        "type ErrorDto = components['schemas']['ErrorDto'];",
        '',
        'export async function firstPage(): Promise<number> {',
        "  const mock: RunningMock = await startServer({ port: 0, seed: 7, clients: 50, apiKeys: ['k1'] });",
        "  const response = await fetch(`${mock.url}/api/v1/Client/Simple?pageSize=1`, { headers: { 'X-Api-Key': 'k1' } });",
        '  const error: ErrorDto | undefined = response.ok ? undefined : ((await response.json()) as ErrorDto);',
        '  await mock.close();',
        '  return error ? 0 : response.status;',
        '}',
        '',
        '// A wrong option type must not compile: the options are typed.',
        '// @ts-expect-error seed is a number',
        'void startServer({ seed: { not: 1 } });',
        '',
      ].join('\n'),
    );
    const tsc = require.resolve('typescript/bin/tsc');
    // node16 reads the package's exports map; node10 (what `module: commonjs` implies) needs typesVersions.
    const results: Record<string, string> = {};
    for (const resolution of ['node16', 'node10']) {
      fs.writeFileSync(
        path.join(project(), 'tsconfig.json'),
        JSON.stringify({
          compilerOptions: {
            strict: true,
            module: resolution === 'node16' ? 'node16' : 'commonjs',
            moduleResolution: resolution,
            target: 'ES2022',
            lib: ['ES2022', 'DOM'],
            types: ['node'],
            noEmit: true,
            skipLibCheck: false,
            esModuleInterop: true,
          },
          files: ['use.ts'],
        }),
      );
      results[resolution] = await run(process.execPath, [tsc, '-p', project()], { cwd: project() }).then(
        () => 'type-checks',
        (error: { stdout: string }) => error.stdout,
      );
    }

    expect(results).toEqual({ node16: 'type-checks', node10: 'type-checks' });
  }, 90_000);

  test('startServer from plain Node → serves the seeded data, and a bad option rejects naming it', async () => {
    const script = [
      "const { startServer } = require('client-records-mock');",
      '(async () => {',
      "  const mock = await startServer({ seed: 7, clients: 3, apiKeys: ['k1'] });",
      "  const page = await (await fetch(mock.url + '/api/v1/Client/Simple', { headers: { 'X-Api-Key': 'k1' } })).json();",
      '  await mock.close();',
      "  const bad = await startServer({ clients: 'many' }).then(() => 'accepted', (error) => error.message);",
      '  console.log(JSON.stringify({ results: page.Results.length, bad }));',
      '})();',
    ].join('\n');

    const { stdout } = await run(process.execPath, ['-e', script], { cwd: project() });

    expect(JSON.parse(stdout)).toEqual({ results: 3, bad: expect.stringMatching(/^invalid option clients=/) });
  }, 60_000);
});
