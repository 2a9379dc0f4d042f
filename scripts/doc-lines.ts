// Every command of the pages a package user reads (README.md and the docs/ pages the tarball ships), run as
// written from a consumer's project (issues 26 and 38). The lines are read from the markdown itself, so a
// new line is run without anyone listing it; a line that no rule below knows how to run fails the check,
// and so does a line that works only in a checkout of this repository (`npm start`, `npm run …`,
// `node examples/…`: those belong in CONTRIBUTING.md).
//   1. The install ways: each README block that installs the package runs in a new consumer repository
//      (`git init`), which is committed, cloned as a fresh runner would check it out, and `npm ci`'d there
//      from an EMPTY npm cache, timed (issue 38: at most 20 s each). What a release publishes is stood in
//      for on 127.0.0.1 (scripts/release-stand-in.ts); `git clone` of this repository's GitHub address
//      clones this checkout. The first way's runner becomes the app the later lines run in.
//   2. Every other line of an sh block, in that app: servers on a free port, curl lines against a mock
//      started here (a staging URL or 127.0.0.1:4000 become it, KEY its key, :4010 a proxy in front of it).
//   3. Every CI recipe (the yaml blocks, and sh blocks that start and stop a background process), as its
//      platform runs it, in a passing and in failing worlds (scripts/recipes.ts).
//   4. `--help` of every command: no repository-only line there either.
// What cannot run here is said line by line: the registry line (not published yet), docker (no container
// engine). Installs other than the measured ones use npm's usual cache.
// Usage: node dist/scripts/doc-lines.js   Exit 0 when every line ran as expected, 1 otherwise.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import {
  jobFolder,
  kindOf,
  pullRequestCheckout,
  recipesOf,
  runGithubJob,
  runGitlabJob,
  runShellScript,
  startBrokenBackend,
  type JobContext,
  type JobRun,
  type Recipe,
} from './recipes';
import { REPOSITORY_URL, startReleaseStandIn } from './release-stand-in';
import { NPM, packInto, QUIET_ENV, ROOT, run, runAsync, scratchDir } from './scratch';
import { APP_LINE } from './vite-app';

const KEY = 'dev-key';
/** What a consumer's `npm ci` of the package may take from an empty cache (issue 38); printed, not failed on. */
const INSTALL_TARGET_S = 20;

interface Line {
  page: string;
  /** The command as the page writes it (continuation lines joined). */
  text: string;
  /** The fenced block it came from. */
  block: number;
}

const say = (text: string) => process.stdout.write(`${text}\n`);
const failures: string[] = [];

/** The pages a package user reads: the tarball's README and docs/ pages. */
function shippedPages(tarball: string): string[] {
  return run('tar', ['-tzf', tarball])
    .stdout.split('\n')
    .map((entry) => entry.replace(/^package\//, ''))
    .filter((file) => /^(README\.md|docs\/[^/]+\.md)$/.test(file))
    .sort((a, b) => Number(b === 'README.md') - Number(a === 'README.md'));
}

/** A block is a recipe (run by scripts/recipes.ts) when it is yaml, or an sh script that starts and stops a background process. */
const isRecipeBlock = (lang: string, body: string) => lang === 'yaml' || (/&\n/.test(`${body}\n`) && /\bkill\b/.test(body));

/** The commands of a page's sh blocks that are not recipes, line by line. */
function linesOf(page: string): Line[] {
  const text = fs.readFileSync(path.join(ROOT, page), 'utf8');
  const lines: Line[] = [];
  let block = 0;
  for (const [, lang, body] of text.matchAll(/```(sh|bash|yaml)\n([\s\S]*?)\n```/g)) {
    block++;
    if (isRecipeBlock(lang!, body!)) continue;
    for (const raw of body!.replace(/\\\n\s*/g, ' ').split('\n')) {
      const command = raw.replace(/\s+#\s.*$/, '').trim();
      if (command && !command.startsWith('#')) lines.push({ page, text: command, block });
    }
  }
  return lines;
}

type Rule = { kind: 'skip' | 'repository-only'; match: RegExp; reason: string } | { kind: 'server' | 'curl' | 'once'; match: RegExp };

/** How each kind of line runs, first match wins. */
const RULES: Rule[] = [
  { kind: 'skip', match: /^docker /, reason: 'no container engine on this machine: the Dockerfile is linted (npm run lint:deploy)' },
  {
    kind: 'skip',
    match: /^npm install --save-dev client-records-mock$/,
    reason:
      'not on the registry yet: the release-URL line stands in for it (npm fetches a registry package as a tarball by URL, checked against the lockfile)',
  },
  {
    kind: 'skip',
    match: APP_LINE,
    reason: "docs/frontend.md's app lines: scripts/vite-app.ts runs them in an app made from Vite's template",
  },
  {
    kind: 'skip',
    match: /^npx msw init public$/,
    reason: "msw's own command (it copies msw's worker script): tests/browser/corpus.test.ts serves that script to Chromium",
  },
  {
    kind: 'skip',
    match: /--state redis:\/\//,
    reason: 'needs a Redis: tests/state/ runs the same flags against a redis-server and nginx it starts itself',
  },
  {
    kind: 'repository-only',
    match: /(^|&& |; |\()(npm (start|test|run \S+)|node (examples|dist|scripts|tools)\/|git show main:)/,
    reason: 'works only in a checkout of this repository: it belongs in CONTRIBUTING.md, or becomes `npx client-records-mock …`',
  },
  { kind: 'server', match: /^([A-Z_]+=\S* )*npx client-records-mock( -|$)/ },
  { kind: 'curl', match: /^curl / },
  { kind: 'once', match: /^npx client-records-mock (contract|seed|diff)( |$)/ },
];

/** The placeholders of a line, filled in: the staging URLs and :4000 name a running mock, KEY its key, :4010 a proxy in front of it. */
function fill(text: string, mockUrl: string | undefined, proxyUrl?: string): string {
  let filled = text.replace(/"\$KEY"|\bKEY\b/g, KEY);
  if (mockUrl) filled = filled.replace(/https:\/\/staging\.example\.(org|com)|http:\/\/127\.0\.0\.1:4000/g, mockUrl);
  if (proxyUrl) filled = filled.replace(/http:\/\/127\.0\.0\.1:4010/g, proxyUrl);
  return filled;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.once('error', reject);
  });
}

interface Background {
  url: string;
  stop(): Promise<void>;
}

/** A server line in the background, on a free port (4000 in the text becomes it); resolves once its URL answers. */
async function startBackground(command: string, cwd: string, env: NodeJS.ProcessEnv): Promise<Background> {
  const port = await freePort();
  const text = command.replace(/--port \d+/, `--port ${port}`);
  // Its own process group (detached), so the server stops with the shell that started it.
  const child: ChildProcess = spawn('bash', ['-c', text], {
    cwd,
    env: { ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    const up = await fetch(`${url}/`).then(
      () => true,
      () => false,
    );
    if (up) break;
    if (child.exitCode !== null || Date.now() > deadline) {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // the group is gone already
      }
      throw new Error(`did not come up on ${url}: ${output.trim().split('\n').slice(-3).join(' | ')}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return {
    url,
    // The whole process group (npx may exit before the server it started): SIGTERM, then SIGKILL after 15 s.
    stop: async () => {
      const group = -child.pid!;
      const alive = () => {
        try {
          process.kill(group, 0);
          return true;
        } catch {
          return false;
        }
      };
      if (alive()) process.kill(group, 'SIGTERM');
      const deadline = Date.now() + 15_000;
      while (alive() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
      if (alive()) process.kill(group, 'SIGKILL');
      child.stdout!.destroy();
      child.stderr!.destroy();
    },
  };
}

function report(what: string, verdict: string, ok: boolean): void {
  say(`${ok ? 'ok  ' : 'FAIL'} ${what}\n       ${verdict}`);
  if (!ok) failures.push(what);
}

const title = (line: Line) => `${line.page}: ${line.text}`;

function lastLines(output: string, count = 2): string {
  return output.trim().split('\n').slice(-count).join(' | ').slice(0, 300);
}

/** The README blocks that install the package: each one way of installing it. */
function installWays(lines: Line[]): Line[][] {
  const blocks = new Map<string, Line[]>();
  for (const line of lines) {
    const key = `${line.page}#${line.block}`;
    blocks.set(key, [...(blocks.get(key) ?? []), line]);
  }
  return [...blocks.values()].filter((block) => block.some((line) => /^npm install\b.*client-records-mock/.test(line.text)));
}

/**
 * One install way: its lines in a new consumer repository, committed; that repository cloned as a fresh
 * runner checks it out, and `npm ci` there from an empty npm cache, timed. Returns the runner's folder.
 */
async function installWay(
  block: Line[],
  dir: string,
  runner: string,
  env: NodeJS.ProcessEnv,
  rewrite: (line: string) => string,
): Promise<boolean> {
  const name = block.map((line) => line.text).find((text) => text.startsWith('npm install'))!;
  const skip = RULES.find((rule) => rule.kind === 'skip' && rule.match.test(name));
  if (skip && skip.kind === 'skip') {
    say(`skip ${block[0]!.page}: ${name}\n       ${skip.reason}`);
    return false;
  }
  const git = (cwd: string, ...args: string[]) => run('git', args, { cwd, env });
  fs.mkdirSync(dir, { recursive: true });
  git(dir, 'init', '--quiet', '--initial-branch=main');
  fs.writeFileSync(path.join(dir, 'package.json'), `${JSON.stringify({ name: 'my-app', private: true }, null, 2)}\n`);
  for (const line of block) {
    const command = rewrite(line.text);
    // Not run(): the release stand-in is served by this process, which must stay free to answer.
    const ran = await runAsync('bash', ['-e', '-c', command], { cwd: dir, env, timeout: 15 * 60_000 });
    if (ran.status !== 0) {
      report(title(line), `${command === line.text ? '' : `as ${command}\n       `}exit ${ran.status}: ${lastLines(ran.output, 3)}`, false);
      return false;
    }
  }
  // What the user commits after installing (a file the block did not add stays out: the runner would miss it).
  git(dir, 'add', 'package.json', 'package-lock.json');
  const committed = git(dir, '-c', 'user.name=ci', '-c', 'user.email=ci@example.org', 'commit', '--quiet', '-m', 'add client-records-mock');
  const cloned = git(path.dirname(runner), 'clone', '--quiet', dir, runner);
  const cache = fs.mkdtempSync(path.join(os.tmpdir(), 'crm-empty-npm-cache-'));
  const started = Date.now();
  const ci = await runAsync(NPM, ['ci', '--no-audit', '--no-fund'], {
    cwd: runner,
    env: { ...env, npm_config_cache: cache },
    timeout: 10 * 60_000,
  });
  const seconds = (Date.now() - started) / 1000;
  fs.rmSync(cache, { recursive: true, force: true });
  const version = run(NPM, ['exec', '--no', '--', 'client-records-mock', '--version'], { cwd: runner, env });
  const spec = (JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as { devDependencies?: Record<string, string> })
    .devDependencies?.['client-records-mock'];
  const ok = committed.status === 0 && cloned.status === 0 && ci.status === 0 && version.status === 0;
  report(
    `${block[0]!.page}: ${name}`,
    `package.json: "client-records-mock": "${spec}"; a fresh clone's npm ci from an empty cache: exit ${ci.status} in ${seconds.toFixed(1)} s ` +
      `(target ≤ ${INSTALL_TARGET_S} s${seconds > INSTALL_TARGET_S ? ': OVER' : ''}; load average ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} cores); npx client-records-mock --version: ${version.stdout.trim() || lastLines(version.output)}` +
      (ci.status === 0 ? '' : `\n       ${lastLines(ci.output, 4)}`),
    ok,
  );
  return ok;
}

/** The recipe's outcome against what the world it ran in asks for. */
interface World {
  name: string;
  /** The job's exit code: a number, or 'non-zero'. */
  exit: number | 'non-zero';
  /** Uploaded files that must be there. */
  reports: string[];
  /** Text the job's output must hold (its log printed). */
  log: RegExp;
  env?: NodeJS.ProcessEnv;
  /** The placeholders' fill for this world (staging's address). */
  staging?: string;
  /** The pull request's edit of the spec (diff recipes). */
  edit?: (spec: string) => string;
}

interface Servers {
  mock: string;
  broken: string;
  closed: string;
}

/** The worlds each kind of recipe runs in: passing, its tests failing, its backend failing. */
function worldsOf(kind: string, servers: Servers): World[] {
  const startLine = /Client Records mock on http:\/\/127\.0\.0\.1:\d+/;
  switch (kind) {
    case 'service':
      return [
        { name: 'passing', exit: 0, reports: ['mock.log', 'reports/'], log: startLine },
        { name: 'tests failing', exit: 1, reports: ['mock.log', 'reports/'], log: startLine, env: { E2E_OUTCOME: 'fail' } },
        // The mock cannot start (a data file that is not there): the start step fails at once, the mock's line first.
        {
          name: 'mock not starting',
          exit: 'non-zero',
          reports: ['mock.log'],
          log: /^client-records-mock: DATA_FILE/,
          env: { DATA_FILE: '/nonexistent/clients.json' },
        },
      ];
    case 'contract':
      return [
        { name: 'passing', exit: 0, reports: ['reports/contract.xml'], log: /PASS/, staging: servers.mock },
        { name: 'backend breaking the contract', exit: 1, reports: ['reports/contract.xml'], log: /FAIL/, staging: servers.broken },
        // Unreachable: exit 2 and one line, no JUnit (docs/ci.md says so).
        { name: 'backend unreachable', exit: 2, reports: [], log: /^contract: (connection refused|cannot reach)/, staging: servers.closed },
      ];
    case 'proxy':
      return [
        { name: 'passing', exit: 0, reports: ['reports/proxy.xml', 'reports/proxy.json'], log: /proxy/, staging: servers.mock },
        {
          name: 'tests failing',
          exit: 1,
          reports: ['reports/proxy.xml', 'reports/proxy.json'],
          log: /proxy/,
          staging: servers.mock,
          env: { E2E_OUTCOME: 'fail' },
        },
        {
          name: 'backend breaking the contract',
          exit: 1,
          reports: ['reports/proxy.xml', 'reports/proxy.json'],
          log: /✗ upstream/,
          staging: servers.broken,
        },
      ];
    case 'diff':
      return [
        {
          name: 'a pull request that breaks no client',
          exit: 0,
          reports: ['reports/spec-diff.txt'],
          log: /not breaking for clients/,
          edit: (spec) => spec.replace(/^(\s+)title: (.*)$/m, '$1title: $2 (edited)'),
        },
        {
          name: 'a pull request that breaks clients',
          exit: 1,
          reports: ['reports/spec-diff.txt'],
          log: /: breaking for clients|✗/,
          edit: (spec) => spec.replace(/maximum: 100\b/, 'maximum: 50'),
        },
      ];
    default:
      return [];
  }
}

async function runRecipe(
  recipe: Recipe,
  world: World,
  context: Omit<JobContext, 'cwd' | 'fill'>,
  fillLine: (text: string) => string,
  cwd: string,
): Promise<JobRun> {
  const job = { ...context, cwd, fill: fillLine, env: { ...context.env, ...world.env } };
  if (recipe.platform === 'github') return runGithubJob(recipe.github!, job);
  if (recipe.platform === 'gitlab') return runGitlabJob(recipe.gitlab!, job);
  return runShellScript(recipe.shell!, job);
}

/** Every recipe of the pages in each of its worlds, judged; the start step's reaction to a dead mock timed. */
async function runRecipes(pages: string[], app: string, scratch: string, env: NodeJS.ProcessEnv, mockUrl: string): Promise<void> {
  const broken = await startBrokenBackend();
  const closed = `http://127.0.0.1:${await freePort()}`;
  const servers = { mock: mockUrl, broken: broken.url, closed };
  const skip = (command: string) =>
    /^npm ci\b/.test(command.trim()) ? "the project's own install (the install ways above ran it)" : undefined;
  let count = 0;
  try {
    for (const page of pages) {
      for (const recipe of recipesOf(page, fs.readFileSync(path.join(ROOT, page), 'utf8'))) {
        const kind = kindOf(recipe);
        const what = `${page}: ${recipe.platform} ${recipe.title}`;
        if (!kind) {
          if (/docker\//.test(JSON.stringify(recipe))) continue; // release-style snippets of docker actions: not a recipe of ours
          report(what, 'a recipe scripts/doc-lines.ts does not know how to run (no client-records-mock command in it)', false);
          continue;
        }
        for (const world of worldsOf(kind, servers)) {
          const dir = path.join(scratch, 'jobs', `${++count}`);
          const cwd = kind === 'diff' ? pullRequestCheckout(dir, app, path.join(ROOT, 'openapi.yaml'), world.edit!) : jobFolder(dir, app);
          const [port4000, port4010] = [await freePort(), await freePort()];
          const fillLine = (text: string) =>
            fill(text, world.staging, undefined)
              .replace(/127\.0\.0\.1:4000/g, `127.0.0.1:${port4000}`)
              .replace(/--port 4000/g, `--port ${port4000}`)
              .replace(/4010/g, String(port4010));
          const scriptDir = fs.mkdtempSync(path.join(scratch, 'scripts-'));
          const started = Date.now();
          const ran = await runRecipe(
            recipe,
            world,
            {
              env: { ...env, GITHUB_BASE_REF: 'main', CI_MERGE_REQUEST_TARGET_BRANCH_NAME: 'main' },
              secrets: { CLIENT_RECORDS_API_KEY: KEY },
              skip,
              scriptDir,
            },
            fillLine,
            cwd,
          );
          judge(what, world, ran, cwd, (Date.now() - started) / 1000);
          if (kind === 'diff' && world.exit === 0) {
            // The line issue 38 found failing on a pull request's shallow checkout: it still does.
            const old = run('git', ['show', 'main:openapi.yaml'], { cwd, env });
            say(`       (in that depth-1 checkout, git show main:openapi.yaml: exit ${old.status}, ${lastLines(old.stderr, 1)})`);
          }
        }
      }
    }
  } finally {
    await broken.stop();
  }
}

function judge(what: string, world: World, ran: JobRun, cwd: string, seconds: number): void {
  const problems: string[] = [];
  const exitOk = world.exit === 'non-zero' ? ran.exit !== 0 : ran.exit === world.exit;
  if (!exitOk) problems.push(`exit ${ran.exit}, expected ${world.exit}`);
  const missing = world.reports.filter((file) => {
    const uploaded = ran.uploads.find((upload) => upload.path.replace(/\/$/, '') === file.replace(/\/$/, ''));
    // A recipe without an upload step (a plain script) must still leave the file for whatever uploads it.
    return uploaded ? !uploaded.present : !fs.existsSync(path.join(cwd, file));
  });
  if (missing.length > 0) problems.push(`not written or not uploaded: ${missing.join(', ')}`);
  const log = ran.output.replace(/\r/g, '');
  if (!world.log.test(log.split('\n').find((line) => world.log.test(line)) ?? '')) problems.push(`the log does not show ${world.log}`);
  if (ran.leftRunning.length > 0) problems.push(`left running: ${ran.leftRunning.join(' | ')}`);
  if (/curl: \(7\)/.test(log)) problems.push('curl: (7) lines in the log');
  let startStep = '';
  if (world.name === 'mock not starting') {
    // The failing step: it must print the mock's own line first, and fail at once, not at its 30 s deadline.
    const failed = ran.steps.find((step) => typeof step.status === 'number' && step.status !== 0);
    const first = failed?.output.trim().split('\n')[0] ?? '';
    if (!world.log.test(first)) problems.push(`the failing step's first line is not the mock's: ${first}`);
    if (failed && failed.seconds >= 25)
      problems.push(`the failing step waited ${failed.seconds.toFixed(1)} s: it did not notice the mock exit`);
    startStep = failed ? `; the start step failed after ${failed.seconds.toFixed(1)} s, first line: ${first}` : '';
  }
  const steps = ran.steps.map((step) => `${step.status === 'skipped' ? 'skipped' : `exit ${step.status}`}`).join(', ');
  const uploaded = ran.uploads.map((upload) => `${upload.path}${upload.present ? '' : ' (none)'}`).join(', ');
  report(
    `${what}, ${world.name}`,
    `job exit ${ran.exit} in ${seconds.toFixed(1)} s (steps: ${steps}); uploaded: ${uploaded || '—'}; nothing left running${startStep}` +
      (problems.length > 0
        ? `\n       PROBLEMS: ${problems.join('; ')}\n${log
            .trim()
            .split('\n')
            .slice(-15)
            .map((line) => `         | ${line}`)
            .join('\n')}`
        : ''),
    problems.length === 0,
  );
}

/** `--help` of every command: nothing there may need a checkout of this repository either. */
function helpTexts(app: string, env: NodeJS.ProcessEnv): void {
  const rule = RULES.find((candidate) => candidate.kind === 'repository-only')!;
  for (const command of ['', 'serve', 'contract', 'seed', 'diff', 'proxy', 'mcp']) {
    const args = [...(command ? [command] : []), '--help'];
    const ran = run(NPM, ['exec', '--no', '--', 'client-records-mock', ...args], { cwd: app, env });
    const bad = ran.stdout
      .split('\n')
      .filter((line) => /npm (start|test|run \S+)|node (examples|dist)\//.test(line) || rule.match.test(line.trim()));
    report(
      `client-records-mock ${args.join(' ')}`,
      `exit ${ran.status}, ${ran.stdout.split('\n').length} lines${bad.length > 0 ? `; repository-only: ${bad.join(' | ')}` : ', no repository-only command'}`,
      ran.status === 0 && bad.length === 0,
    );
  }
}

async function main(): Promise<void> {
  const scratch = scratchDir('doc-lines');
  // The repository's address leads to this checkout (committed state), as GitHub would serve it.
  const gitConfig = path.join(scratch, 'gitconfig');
  fs.writeFileSync(
    gitConfig,
    `[url "${ROOT}"]\n\tinsteadOf = ${REPOSITORY_URL}.git\n\tinsteadOf = ${REPOSITORY_URL}\n[protocol "file"]\n\tallow = always\n`,
  );
  const env = { ...QUIET_ENV, GIT_CONFIG_GLOBAL: gitConfig, GIT_CONFIG_NOSYSTEM: '1' };
  let mock: Background | undefined;
  let proxy: Background | undefined;
  const release = await startReleaseStandIn(packInto(scratch), scratch);
  try {
    const tarball = fs.readdirSync(scratch).find((file) => file.endsWith('.tgz'))!;
    const pages = shippedPages(path.join(scratch, tarball));
    const lines = pages.flatMap(linesOf);
    say(`== doc-lines: ${lines.length} lines and the recipes of ${pages.join(', ')} (the pages ${tarball} ships)`);
    // 1. The install ways, each from an empty npm cache; the first one's runner is the app.
    const app = path.join(scratch, 'app');
    const ways = installWays(lines);
    let first = true;
    for (const [index, block] of ways.entries()) {
      const runner = first ? app : path.join(scratch, `runner-${index + 1}`);
      if (await installWay(block, path.join(scratch, `consumer-${index + 1}`), runner, env, release.rewrite)) first = false;
    }
    if (first) throw new Error('no install way of the README installed the package: nothing to run the other lines with');
    const wayLines = new Set(ways.flat());
    // A spec-first project's two versions for the diff lines (here the same spec twice: no change, exit 0).
    for (const name of ['openapi.yaml', 'openapi.next.yaml']) fs.copyFileSync(path.join(ROOT, 'openapi.yaml'), path.join(app, name));
    mock = await startBackground('npx client-records-mock --port 0', app, env);
    say(`   (a mock for the placeholders: ${mock.url})`);
    // The journal lines of docs/proxy.md (127.0.0.1:4010) ask a running proxy: this one, in front of that mock.
    proxy = await startBackground(`npx client-records-mock proxy --upstream ${mock.url} --port 0`, app, env);
    say(`   (a proxy in front of it for :4010: ${proxy.url})`);
    // 2. Every other line, in the app.
    for (const line of lines.filter((candidate) => !wayLines.has(candidate))) {
      const rule = RULES.find((candidate) => candidate.match.test(line.text));
      if (!rule) {
        report(title(line), 'no rule of scripts/doc-lines.ts says how to run this line', false);
      } else if (rule.kind === 'skip') {
        say(`skip ${title(line)}\n       ${rule.reason}`);
      } else if (rule.kind === 'repository-only') {
        report(title(line), rule.reason, false);
      } else if (rule.kind === 'server') {
        const command = fill(line.text, mock.url);
        try {
          const server = await startBackground(command, app, env);
          const status = (await fetch(`${server.url}/api/v1/Diagnostics/Ping`)).status;
          await server.stop();
          report(title(line), `up on a free port, GET /api/v1/Diagnostics/Ping: ${status}`, status === 200);
        } catch (error) {
          report(title(line), (error as Error).message, false);
        }
      } else {
        const command = fill(line.text, mock.url, proxy.url);
        const curl = rule.kind === 'curl' ? ' -f -sS -o /dev/null -w "%{http_code}"' : '';
        const ran = run('bash', ['-c', `set -o pipefail; ${command}${curl}`], { cwd: app, env });
        const expected = curl && line.text.includes('code=404') ? 22 : 0; // curl -f exits 22 for the 404 the line asks for
        const shown = command === line.text ? '' : `as ${command}\n       `;
        report(title(line), `${shown}exit ${ran.status}: ${lastLines(ran.stdout || ran.stderr)}`, ran.status === expected);
      }
    }
    // 3. The recipes, 4. --help.
    await runRecipes(pages, app, scratch, env, mock.url);
    helpTexts(app, env);
  } finally {
    await proxy?.stop();
    await mock?.stop();
    await release.stop();
    fs.rmSync(scratch, { recursive: true, force: true });
  }
  say(failures.length === 0 ? '== doc-lines: passed' : `== doc-lines: FAILED\n${failures.map((f) => `- ${f}`).join('\n')}`);
  process.exit(failures.length === 0 ? 0 : 1);
}

main().catch((error: unknown) => {
  process.stderr.write(`doc-lines: ${(error as Error).message}\n`);
  process.exit(1);
});
