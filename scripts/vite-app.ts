// docs/frontend.md pasted into a Vite + React + TypeScript app, as a frontend team would (issue 38): an
// app made from Vite's own template (`npm create vite`, create-vite pinned so the template cannot move
// under CI), the page's set-up lines run as written, the package installed from the packed tarball as the
// README's committed-tarball line does, every code block written to the file named above it, then
//   tsc:        the template's `tsc -b` (the app under Bundler resolution, configs, tests and e2e under
//               NodeNext), and each config again under the other resolution;
//   vitest:     the unit tests with MSW 3 on Node 24 and 22, then with MSW 2 (its option name) likewise;
//   Playwright: the e2e tests on three workers in Debian's Chromium, through the package's mockAndApp.
// Each result is printed; the app is the repository's examples/frontend/ made afresh.
// Usage: node dist/scripts/vite-app.js   Exit 0 when everything passed, 1 otherwise.
import fs from 'node:fs';
import path from 'node:path';
import { installedVersion, nodeOfMajor, NPM, packInto, QUIET_ENV, ROOT, run, runOrFail, scratchDir, versionOf } from './scratch';

/** The create-vite release whose react-ts template CI uses (the page says `npm create vite@latest`). */
const CREATE_VITE = '9.3.0';
const PAGE = path.join(ROOT, 'docs', 'frontend.md');
/** The page's lines that make and run the app; scripts/doc-lines.ts leaves them to this script. */
export const APP_LINE =
  /^(npm create vite@|cd my-app$|npm install (--save-dev )?(@tanstack|msw|vitest|@playwright)|npx (vitest|playwright|tsc)\b|npm run dev$)/;
/** MSW 2 names the strictness option onUnhandledRequest, and silently ignores MSW 3's name (docs/frontend.md). */
const MSW3_OPTION = "onUnhandledFrame: 'error'";
const MSW2_OPTION = "onUnhandledRequest: 'error'";

const failures: string[] = [];
const say = (line: string) => process.stdout.write(`${line}\n`);

function check(what: string, ran: { status: number; output: string }, summary: string): void {
  say(`${ran.status === 0 ? 'ok  ' : 'FAIL'} ${what}: ${summary}`);
  if (ran.status !== 0) {
    say(ran.output.trim().split('\n').slice(-40).join('\n'));
    failures.push(what);
  }
}

/** The page's sh lines of the app, in order (comments dropped). */
function appLines(markdown: string): string[] {
  return [...markdown.matchAll(/```sh\n([\s\S]*?)\n```/g)]
    .flatMap(([, body]) => body!.split('\n'))
    .map((line) => line.replace(/\s+#\s.*$/, '').trim())
    .filter((line) => APP_LINE.test(line));
}

/** Runner summary lines (vitest's "Tests  10 passed (10)", Playwright's "14 passed (40s)"), without colour codes. */
function summaryOf(output: string, pattern: RegExp): string {
  // eslint-disable-next-line no-control-regex -- the runners colour their summaries
  const plain = output.replace(/\u001b\[[0-9;]*m/g, '');
  return (
    plain
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => pattern.test(line))
      .join(' | ') || 'no summary'
  );
}

function typeChecks(app: string, env: NodeJS.ProcessEnv): void {
  const typescript = installedVersion(app, 'typescript');
  const tsc = (args: string[]) => run(NPM, ['exec', '--no', '--', 'tsc', ...args], { cwd: app, env });
  check(
    `tsc -b (TypeScript ${typescript}; src under Bundler, configs, tests and e2e under NodeNext)`,
    tsc(['-b']),
    "the template's own check",
  );
  check(
    'tsc -p tsconfig.app.json --module nodenext --moduleResolution nodenext (src under NodeNext)',
    tsc(['-p', 'tsconfig.app.json', '--module', 'nodenext', '--moduleResolution', 'nodenext']),
    'the app under NodeNext too',
  );
  check(
    'tsc -p tsconfig.node.json --module esnext --moduleResolution bundler (configs, tests, e2e under Bundler)',
    tsc(['-p', 'tsconfig.node.json', '--module', 'esnext', '--moduleResolution', 'bundler']),
    'the tests under Bundler too',
  );
}

function vitest(app: string, env: NodeJS.ProcessEnv): void {
  const msw = installedVersion(app, 'msw');
  for (const major of [24, 22]) {
    const node = nodeOfMajor(major);
    const ran = run(node, [path.join(app, 'node_modules', 'vitest', 'vitest.mjs'), 'run'], {
      cwd: app,
      env: { ...env, CI: 'true', NO_COLOR: '1' },
    });
    check(
      `vitest ${installedVersion(app, 'vitest')}, msw ${msw}, Node ${versionOf(node)}`,
      ran,
      summaryOf(ran.output, /^(Test Files|Tests)\s/),
    );
  }
}

function main(): void {
  const scratch = scratchDir('vite-app');
  const env = { ...QUIET_ENV, CI: 'true' };
  try {
    const tarball = packInto(scratch);
    const markdown = fs.readFileSync(PAGE, 'utf8');
    // The set-up lines as one script (its `cd my-app` holds for the lines after it); create-vite pinned.
    const lines = appLines(markdown);
    const setup = lines
      .filter((line) => !/^(npx |npm run )/.test(line))
      .map((line) => line.replace(/^npm create vite@latest /, `npm create vite@${CREATE_VITE} `));
    say(`== vite-app: ${setup.join(' && ')}`);
    runOrFail('the app set-up lines of docs/frontend.md', 'bash', ['-e', '-c', `${setup.join('\n')}\n`], {
      cwd: scratch,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const app = path.join(scratch, 'my-app');
    // The package as the README's committed-tarball line installs it.
    fs.mkdirSync(path.join(app, 'vendor'));
    fs.copyFileSync(tarball, path.join(app, 'vendor', path.basename(tarball)));
    runOrFail('npm install of the tarball', NPM, ['install', '--save-dev', `./vendor/${path.basename(tarball)}`], { cwd: app, env });
    // Every block of the page, to the file named above it.
    const files = [...markdown.matchAll(/<!-- file: (\S+) -->\n```\w*\n([\s\S]*?)\n```/g)];
    for (const [, file, code] of files) {
      fs.mkdirSync(path.dirname(path.join(app, file!)), { recursive: true });
      fs.writeFileSync(path.join(app, file!), `${code!}\n`);
    }
    say(
      `   create-vite ${CREATE_VITE} react-ts; ${files.length} files pasted from docs/frontend.md; vite ${installedVersion(app, 'vite')}, react ${installedVersion(app, 'react')}, ` +
        `@playwright/test ${installedVersion(app, '@playwright/test')}, client-records-mock from ${path.basename(tarball)}`,
    );
    typeChecks(app, env);
    vitest(app, env);
    const playwright = run(NPM, ['exec', '--no', '--', 'playwright', 'test'], { cwd: app, env, timeout: 8 * 60_000 });
    check(
      `playwright test (${installedVersion(app, '@playwright/test')}, 3 workers, ${process.env.CHROMIUM_PATH || '/usr/bin/chromium'}, the package's mockAndApp)`,
      playwright,
      summaryOf(playwright.output, /^(\d+ (passed|failed|flaky|skipped)|Running \d+ tests)/),
    );
    // MSW 2: the same tests with its option name.
    runOrFail('npm install msw@2', NPM, ['install', '--save-dev', 'msw@2'], { cwd: app, env });
    const test = path.join(app, 'tests', 'api.test.ts');
    const source = fs.readFileSync(test, 'utf8');
    if (source.split(MSW3_OPTION).length !== 2) throw new Error(`tests/api.test.ts must call listen({ ${MSW3_OPTION} }) once`);
    fs.writeFileSync(test, source.replace(MSW3_OPTION, MSW2_OPTION));
    vitest(app, env);
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
  say(failures.length === 0 ? '== vite-app: passed' : `== vite-app: FAILED\n${failures.map((f) => `- ${f}`).join('\n')}`);
  process.exit(failures.length === 0 ? 0 : 1);
}

if (require.main === module) main();
