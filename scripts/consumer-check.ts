// The package's types and module formats as other projects compile and load it (issue 26): `npm pack`
// of this tree, installed in a scratch project with each supported MSW major, then a consumer file
// type-checked in each way a user compiles (ES modules and CommonJS under NodeNext and Node16, Bundler,
// node10; strict, skipLibCheck false), judged against a control file that imports msw alone (a mode msw
// itself cannot be used in is no fault of ours), plus @arethetypeswrong/cli on the tarball and a
// require() and an import at run time. The frontend's unit and e2e tests with MSW 3 and 2, in the Vite
// app docs/frontend.md makes, are scripts/vite-app.ts's.
// Usage: node dist/scripts/consumer-check.js
// Exit 0 when everything passed, 1 otherwise; .ci/run runs it once, outside `npm run check`.
import fs from 'node:fs';
import path from 'node:path';
import { emptyProject, installedVersion, nodeOfMajor, NPM, packInto, ROOT, run, runOrFail, scratchDir, versionOf } from './scratch';

/** The MSW majors the peer range allows, each with the Node it runs on here. */
const MAJORS = [
  { major: 3, node: 24 },
  { major: 2, node: 24 },
] as const;

const failures: string[] = [];
const say = (line: string) => process.stdout.write(`${line}\n`);

/** A scratch project with the tarball, the given msw major, and this repository's TypeScript and Node types. */
function typesProject(tarball: string, major: number): string {
  const project = emptyProject(scratchDir(`msw${major}`));
  const { devDependencies } = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
    devDependencies: Record<string, string>;
  };
  runOrFail(
    `npm install (msw ${major})`,
    NPM,
    [
      'install',
      '--no-audit',
      '--no-fund',
      '--loglevel=error',
      tarball,
      `msw@${major}`,
      `typescript@${devDependencies.typescript}`,
      '@types/node@24',
    ],
    { cwd: project },
  );
  return project;
}

/** How a user compiles: the tsconfig options and the consumer file's extension (which sets its module format). */
const MODES = [
  { name: 'ESM, NodeNext', module: 'nodenext', moduleResolution: 'nodenext', ext: '.mts' },
  { name: 'CommonJS, NodeNext', module: 'nodenext', moduleResolution: 'nodenext', ext: '.cts' },
  { name: 'ESM, Node16', module: 'node16', moduleResolution: 'node16', ext: '.mts' },
  { name: 'CommonJS, Node16', module: 'node16', moduleResolution: 'node16', ext: '.cts' },
  { name: 'ESM, Bundler', module: 'esnext', moduleResolution: 'bundler', ext: '.ts' },
  { name: 'CommonJS, node10', module: 'commonjs', moduleResolution: 'node10', ext: '.ts' },
] as const;

/** msw alone: whether the mode is one msw itself can be used in. */
const CONTROL = [
  "import { http, HttpResponse } from 'msw';",
  "import { setupServer } from 'msw/node';",
  '',
  "export const server = setupServer(http.get('http://api.test/ping', () => HttpResponse.json('Pong')));",
  '',
].join('\n');

/** Every public face of the package, used as a test file would. */
const CONSUMER = [
  "import { setupServer } from 'msw/node';",
  "import { createHandlers, type HandlerOptions } from 'client-records-mock/msw';",
  "import { ConfigError, startServer, type RunningMock } from 'client-records-mock';",
  "import type { components } from 'client-records-mock/types';",
  '',
  "type ClientSimple = components['schemas']['ClientSimple'];",
  "const options: HandlerOptions = { baseUrl: 'http://api.test', seed: 1, clients: 10, prefer: 'example=empty' };",
  'export const server = setupServer(...createHandlers(options));',
  '',
  'export async function firstName(): Promise<string | undefined> {',
  '  const mock: RunningMock = await startServer({ port: 0, clients: 1 });',
  "  const response = await fetch(`${mock.url}/api/v1/Client/Simple`, { headers: { 'X-Api-Key': 'dev-key' } });",
  "  const page = (await response.json()) as components['schemas']['ClientSimplePage'];",
  '  await mock.close();',
  '  const first: ClientSimple | undefined = page.Results[0];',
  '  return first?.FullName;',
  '}',
  '',
  'export const isConfigError = (error: unknown): boolean => error instanceof ConfigError;',
  '// The options are typed: a wrong one must not compile.',
  '// @ts-expect-error seed is a number',
  "createHandlers({ baseUrl: 'http://api.test', seed: { not: 1 } });",
  '',
].join('\n');

function typeModes(project: string, major: number): void {
  const msw = installedVersion(project, 'msw');
  const tsc = path.join(project, 'node_modules', 'typescript', 'bin', 'tsc');
  const dir = path.join(project, 'modes');
  fs.mkdirSync(dir, { recursive: true });
  const typescript = installedVersion(project, 'typescript');
  for (const mode of MODES) {
    const verdicts: string[] = [];
    for (const [kind, source] of [
      ['control', CONTROL],
      ['consumer', CONSUMER],
    ] as const) {
      const file = path.join(dir, `${kind}${mode.ext}`);
      fs.writeFileSync(file, source);
      const tsconfig = path.join(dir, 'tsconfig.json');
      fs.writeFileSync(
        tsconfig,
        JSON.stringify({
          compilerOptions: {
            strict: true,
            skipLibCheck: false,
            noEmit: true,
            target: 'ES2022',
            lib: ['ES2022', 'DOM'],
            types: ['node'],
            module: mode.module,
            moduleResolution: mode.moduleResolution,
            esModuleInterop: true,
          },
          files: [path.basename(file)],
        }),
      );
      const ran = run(process.execPath, [tsc, '-p', tsconfig], { cwd: dir });
      fs.rmSync(file);
      verdicts.push(ran.status === 0 ? 'ok' : (ran.stdout.match(/error (TS\d+)/)?.[1] ?? `exit ${ran.status}`));
      if (kind === 'consumer' && ran.status !== 0 && verdicts[0] === 'ok') {
        say(ran.output);
        failures.push(`types with msw ${msw}, ${mode.name}`);
      }
    }
    const [control, consumer] = verdicts;
    const verdict =
      control !== 'ok'
        ? `not applicable: msw ${major} itself does not type-check here (${control}); ours: ${consumer}`
        : consumer === 'ok'
          ? 'type-checks'
          : `FAILED (${consumer})`;
    say(`types, msw ${msw}, TypeScript ${typescript}, ${mode.name}: ${verdict}`);
  }
}

/** require() and import of the MSW entry at run time, each answering Ping through setupServer. */
function runtimeFormats(project: string, major: number, node: string): void {
  const msw = installedVersion(project, 'msw');
  const body = [
    "const server = setupServer(...createHandlers({ baseUrl: 'http://api.test', clients: 5 }));",
    'server.listen();',
    "fetch('http://api.test/api/v1/Diagnostics/Ping').then((r) => r.json()).then((body) => { server.close(); console.log(body); });",
  ];
  const files = {
    'format.cjs': [
      "const { setupServer } = require('msw/node');",
      "const { createHandlers } = require('client-records-mock/msw');",
      ...body,
    ],
    'format.mjs': ["import { setupServer } from 'msw/node';", "import { createHandlers } from 'client-records-mock/msw';", ...body],
  };
  for (const [file, lines] of Object.entries(files)) {
    fs.writeFileSync(path.join(project, file), `${lines.join('\n')}\n`);
    const ran = run(node, [file], { cwd: project });
    const ok = ran.status === 0 && ran.stdout.trim() === 'Pong';
    say(
      `run time, msw ${msw}, Node ${versionOf(node)}, ${file.endsWith('.cjs') ? 'require()' : 'import'}: ${ok ? 'Ping → Pong' : 'FAILED'}`,
    );
    if (!ok) {
      say(ran.output);
      failures.push(`msw ${msw}: ${file}`);
    }
  }
}

/** The package's entry for pages (server/browser-entry.ts, bundled by scripts/build-browser.ts). */
const BROWSER_ENTRY = './browser';

function attw(tarball: string): void {
  const bin = path.join(ROOT, 'node_modules', '@arethetypeswrong', 'cli', 'dist', 'index.js');
  // Entry points of data, not modules (openapi.yaml, control.openapi.yaml, package.json): read from the package's
  // exports, so a data file exported later is not reported as a module that fails to resolve.
  const { exports } = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { exports: Record<string, unknown> };
  const data = Object.entries(exports)
    .filter(([, target]) => typeof target === 'string' && !/\.[cm]?js$/.test(target))
    .map(([entry]) => entry.replace(/^\.\//, ''));
  // client-records-mock/browser is an ES module for pages and their bundlers (as msw/browser is): a require() of it
  // resolving to ESM is its design, so that one rule is waived for that entry alone; its types are checked as any other's.
  const runs: [string, string[]][] = [
    ['every entry point but the browser one', ['--exclude-entrypoints', ...data, BROWSER_ENTRY]],
    [`${BROWSER_ENTRY}, an ES module only`, ['--entrypoints', BROWSER_ENTRY, '--ignore-rules', 'cjs-resolves-to-esm']],
  ];
  for (const [what, args] of runs) {
    const ran = run(process.execPath, [bin, tarball, '--format', 'table-flipped', ...args], {
      cwd: ROOT,
      env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
    });
    say(`@arethetypeswrong/cli on ${path.basename(tarball)}, ${what}: ${ran.status === 0 ? 'no problems' : 'PROBLEMS'}`);
    say(ran.stdout.trim());
    if (ran.status !== 0) {
      say(ran.stderr);
      failures.push(`@arethetypeswrong/cli (${what})`);
    }
  }
}

function main(): void {
  const scratch = scratchDir('consumer');
  try {
    const tarball = packInto(scratch);
    say(`== consumer check of ${path.basename(tarball)}`);
    attw(tarball);
    for (const major of MAJORS) {
      const project = typesProject(tarball, major.major);
      try {
        typeModes(project, major.major);
        runtimeFormats(project, major.major, nodeOfMajor(major.node));
      } finally {
        fs.rmSync(project, { recursive: true, force: true });
      }
    }
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
  say(failures.length === 0 ? '== consumer check: passed' : `== consumer check: FAILED\n${failures.map((f) => `- ${f}`).join('\n')}`);
  process.exit(failures.length === 0 ? 0 : 1);
}

main();
