// Every install and run line of README.md and docs/*.md, run as written (issue 26). The lines are
// read from the markdown itself (each ```sh block, and the commands of each ```yaml CI recipe), so a
// new line is run without anyone listing it; a line that no rule below knows how to run fails the
// check. Install lines run in a scratch project beside a clone of this repository (git's
// url.<base>.insteadOf sends the repository's GitHub address to the local checkout: the only network
// here is the npm registry); repository lines run in this checkout. What cannot run here is said,
// line by line: the registry form (not published yet), docker (no container engine), a user's own
// scripts. Placeholders are the only words changed: a staging URL or 127.0.0.1:4000 becomes a mock
// this check started on a free port, and KEY the mock's key.
// Usage: node dist/scripts/doc-lines.js   Exit 0 when every line ran as expected, 1 otherwise.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { parse } from 'yaml';
import { QUIET_ENV, ROOT, run, scratchDir } from './scratch';

const REPOSITORY_URL = 'https://github.com/client-records/client-records-mock';
const KEY = 'dev-key';
const PAGES = ['README.md', ...fs.readdirSync(path.join(ROOT, 'docs')).map((file) => `docs/${file}`)].filter((page) =>
  page.endsWith('.md'),
);

interface Line {
  page: string;
  /** The command as the page writes it (continuation lines joined). */
  text: string;
  /** The fenced block it came from (its lines share a server). */
  block: number;
  /** For a CI recipe: the step's whole script, and whether the step is GitHub's (bash -e) or GitLab's. */
  recipe?: 'github' | 'gitlab';
}

const say = (text: string) => process.stdout.write(`${text}\n`);
const failures: string[] = [];

/** The commands of a markdown page: sh blocks line by line, yaml recipes step by step. */
function linesOf(page: string): Line[] {
  const text = fs.readFileSync(path.join(ROOT, page), 'utf8');
  const lines: Line[] = [];
  let block = 0;
  for (const [, lang, body] of text.matchAll(/```(sh|bash|yaml)\n([\s\S]*?)\n```/g)) {
    block++;
    if (lang === 'yaml') {
      const doc = parse(body!) as Record<string, unknown>;
      const jobs = (doc.jobs ?? doc) as Record<string, { steps?: { run?: string }[]; script?: string[] }>;
      for (const job of Object.values(jobs)) {
        if (job.steps) for (const step of job.steps) if (step.run) lines.push({ page, text: step.run.trim(), block, recipe: 'github' });
        if (job.script) for (const command of job.script) lines.push({ page, text: command, block, recipe: 'gitlab' });
      }
      continue;
    }
    for (const raw of body!.replace(/\\\n\s*/g, ' ').split('\n')) {
      const command = raw.replace(/\s+#\s.*$/, '').trim();
      if (command && !command.startsWith('#')) lines.push({ page, text: command, block });
    }
  }
  return lines;
}

type Rule =
  | { kind: 'skip'; match: RegExp; reason: string }
  | { kind: 'install' | 'once' | 'server' | 'curl' | 'recipe-start' | 'recipe-once' | 'script'; match: RegExp; where: 'app' | 'repo' };

/** How each kind of line runs, first match wins. */
const RULES: Rule[] = [
  { kind: 'skip', match: /^npm ci && npm run check$/, reason: '.ci/run runs it itself, on Node 24 and Node 22' },
  { kind: 'skip', match: /^CHROMIUM_PATH= /, reason: "needs Playwright's own browser, which cannot be downloaded here" },
  { kind: 'skip', match: /npm run test:frontend/, reason: '`npm run check` runs it (.ci/run)' },
  { kind: 'skip', match: /^docker /, reason: 'no container engine on this machine: the Dockerfile is linted (npm run lint:deploy)' },
  // A block that starts a background process and goes on with its $! is one script: it runs whole (its other lines with it).
  { kind: 'script', match: /^(npx |node_modules\/\.bin\/)client-records-mock proxy .*&$/, where: 'app' },
  { kind: 'skip', match: /npm run e2e$/, reason: "the user's own end-to-end script" },
  {
    kind: 'skip',
    match: /(^|\s)(npm run mutation|npx stryker )/,
    reason: 'mutation testing takes hours: never part of CI (docs/mutation.md)',
  },
  {
    kind: 'skip',
    match: /^npm ci$/,
    reason: "the user's own project install (here: the scratch project installed by docs/frontend.md's lines)",
  },
  {
    kind: 'skip',
    match: /--state redis:\/\//,
    reason: 'needs a Redis: tests/state/ runs the same flags against a redis-server and nginx it starts itself',
  },
  { kind: 'install', match: /^(git clone |\(cd \.\.\/client-records-mock|npm install --save-dev )/, where: 'app' },
  { kind: 'recipe-start', match: /client-records-mock --port \d+.*&/, where: 'app' },
  { kind: 'recipe-once', match: /127\.0\.0\.1:4000\/api\/v1\/Diagnostics\/Ping/, where: 'app' },
  { kind: 'server', match: /^npx client-records-mock( -|$)/, where: 'app' },
  { kind: 'server', match: /^([A-Z_]+=\S* )*(npm ci && )?npm start$/, where: 'repo' },
  { kind: 'server', match: /^([A-Z_]+=\S* )*node examples\/frontend\/serve\.mjs$/, where: 'repo' },
  { kind: 'curl', match: /^curl /, where: 'app' },
  { kind: 'once', match: /^npx client-records-mock (contract|seed|diff) /, where: 'app' },
  { kind: 'once', match: /^git show main:openapi\.yaml > /, where: 'repo' },
  { kind: 'once', match: /^npm run (contract|seed)\b/, where: 'repo' },
];

/** The placeholders of a line, filled in: the staging URLs and :4000 name a running mock, KEY its key, :4010 a proxy in front of it. */
function fill(text: string, mockUrl: string | undefined, proxyUrl?: string): string {
  let filled = text.replace(/"\$KEY"|\bKEY\b/g, KEY);
  if (mockUrl) filled = filled.replace(/https:\/\/staging\.example\.(org|com)|http:\/\/127\.0\.0\.1:4000/g, mockUrl);
  if (proxyUrl) filled = filled.replace(/http:\/\/127\.0\.0\.1:4010/g, proxyUrl);
  return filled;
}

/** The user's own end-to-end run in a script line, stood in for by one request of the kind it sends (through `base`). */
const E2E_STAND_IN = (base: string) =>
  `curl -fsS -o /dev/null -H 'X-Api-Key: ${KEY}' '${base}/api/v1/Client/Extended?filter=asa&pageSize=5'`;

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

/** A server line in the background, on a free port (4000 and 5173 in the text become it); resolves once its URL answers. */
async function startBackground(command: string, cwd: string, env: NodeJS.ProcessEnv): Promise<Background> {
  const port = await freePort();
  const text = command.replace(/--port \d+/, `--port ${port}`);
  // Its own process group (detached), so npm start's shell and server stop with it.
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

function report(line: Line, verdict: string, ok: boolean): void {
  say(`${ok ? 'ok  ' : 'FAIL'} ${line.page}: ${line.text.split('\n')[0]}${line.text.includes('\n') ? ' …' : ''}\n       ${verdict}`);
  if (!ok) failures.push(`${line.page}: ${line.text.split('\n')[0]}`);
}

function lastLines(output: string, count = 2): string {
  return output.trim().split('\n').slice(-count).join(' | ').slice(0, 300);
}

async function main(): Promise<void> {
  const lines = PAGES.flatMap(linesOf);
  const scratch = scratchDir('doc-lines');
  const app = path.join(scratch, 'app');
  fs.mkdirSync(app);
  fs.writeFileSync(path.join(app, 'package.json'), `${JSON.stringify({ name: 'my-app', private: true }, null, 2)}\n`);
  // The repository's address leads to this checkout (committed state), as GitHub would serve it.
  const gitConfig = path.join(scratch, 'gitconfig');
  fs.writeFileSync(
    gitConfig,
    `[url "${ROOT}"]\n\tinsteadOf = ${REPOSITORY_URL}.git\n\tinsteadOf = ${REPOSITORY_URL}\n[protocol "file"]\n\tallow = always\n`,
  );
  const env = { ...QUIET_ENV, GIT_CONFIG_GLOBAL: gitConfig, GIT_CONFIG_NOSYSTEM: '1' };
  // Repository lines run in the clone docs/frontend.md's lines made (npm ci'd and built there), not in this checkout.
  const clone = path.join(scratch, 'client-records-mock');
  const cwdOf = (where: 'app' | 'repo') => (where === 'app' ? app : clone);
  // The recipe rules are for the commands of CI recipes only; a block is one page's.
  const ruleOf = (line: Line) =>
    RULES.find((rule) => rule.match.test(line.text) && (line.recipe !== undefined || !rule.kind.startsWith('recipe')));
  const sameBlock = (a: Line, b: Line) => a.page === b.page && a.block === b.block;
  let mock: Background | undefined;
  let proxy: Background | undefined;
  try {
    say(`== doc-lines: ${lines.length} lines from ${PAGES.join(', ')}`);
    // Installs first (in page order), so the app has the package for every later line.
    const installed = new Set<string>();
    for (const line of lines.filter((candidate) => ruleOf(candidate)?.kind === 'install')) {
      if (installed.has(line.text)) {
        say(`ok   ${line.page}: ${line.text}\n       the same line as above: ran once`);
        continue;
      }
      installed.add(line.text);
      const started = Date.now();
      // npm fetches a GitHub-hosted git dependency as a tarball from codeload.github.com (no fallback to git when
      // the host is unreachable), so the same install runs from the same repository by a plain git URL of it.
      const command = line.text.replace(`git+${REPOSITORY_URL}.git`, `git+file://${ROOT}`);
      if (command !== line.text) say(`       as ${command}: npm fetches GitHub git URLs from codeload.github.com, unreachable here`);
      const ran = run('bash', ['-c', command], { cwd: app, env, timeout: 15 * 60_000 });
      // npm 11 lists dependencies whose install scripts it skipped: none may be this package's or @scarf/scarf's
      // (msw's and esbuild's own are theirs, and a project that installs them sees them anyway).
      const ours = ran.output.split('\n').filter((text) => /install-scripts\s+(client-records-mock@|@scarf\/)/.test(text));
      const warnings = ours.length > 0 ? `; install-script warnings: ${ours.join(' | ')}` : '';
      report(
        line,
        `exit ${ran.status} in ${((Date.now() - started) / 1000).toFixed(0)} s${warnings}: ${lastLines(ran.stdout || ran.stderr, 1)}`,
        ran.status === 0 && !warnings,
      );
    }
    // A spec-first project's two versions for the diff lines (here the same spec twice: no change, exit 0), and a
    // local main branch in the clone for the line that diffs against main.
    for (const name of ['openapi.yaml', 'openapi.next.yaml']) fs.copyFileSync(path.join(ROOT, 'openapi.yaml'), path.join(app, name));
    if (fs.existsSync(clone) && run('git', ['rev-parse', '--verify', '-q', 'main'], { cwd: clone, env }).status !== 0) {
      run('git', ['branch', 'main', 'origin/main'], { cwd: clone, env });
    }
    mock = await startBackground('npx client-records-mock --port 0', app, env);
    say(`   (a mock for the placeholders: ${mock.url})`);
    // The journal lines of docs/proxy.md (127.0.0.1:4010) ask a running proxy: this one, in front of that mock.
    proxy = await startBackground(`npx client-records-mock proxy --upstream ${mock.url} --port 0`, app, env);
    say(`   (a proxy in front of it for :4010: ${proxy.url})`);
    const inScript = (line: Line) => lines.some((other) => other !== line && sameBlock(other, line) && ruleOf(other)?.kind === 'script');
    for (const line of lines) {
      const rule = ruleOf(line);
      if (inScript(line) && rule?.kind !== 'script') continue; // ran with its script's first line
      if (!rule) {
        report(line, 'no rule of scripts/doc-lines.ts says how to run this line', false);
        continue;
      }
      if (rule.kind === 'install' || (line.recipe && rule.kind === 'once')) continue;
      if (rule.kind === 'skip') {
        say(`skip ${line.page}: ${line.text.split('\n')[0]}\n       ${rule.reason}`);
        continue;
      }
      const cwd = cwdOf(rule.where);
      if (rule.kind === 'server') {
        const command = fill(line.text.replace(/^npm ci && /, ''), mock.url);
        try {
          const server = await startBackground(command, cwd, env);
          const probe = command.includes('serve.mjs') ? '/' : '/api/v1/Diagnostics/Ping';
          const status = (await fetch(`${server.url}${probe}`)).status;
          await server.stop();
          report(
            line,
            `${line.text.startsWith('npm ci &&') ? '(npm ci ran in the clone) ' : ''}up on a free port, GET ${probe}: ${status}`,
            status === 200,
          );
        } catch (error) {
          report(line, (error as Error).message, false);
        }
      } else if (rule.kind === 'script') {
        // The whole block as one bash script: the staging URL is the mock, 4010 a free port, the user's e2e run a
        // stand-in request through the proxy. It must exit 0 (the mock breaks no rule) and write the reports it names.
        const port = await freePort();
        const base = `http://127.0.0.1:${port}`;
        const script = lines
          .filter((other) => sameBlock(other, line))
          .map((other) => (/npm run e2e$/.test(other.text) ? E2E_STAND_IN(base) : fill(other.text, mock!.url)))
          .join('\n')
          .replace(/4010/g, String(port));
        const ran = run('bash', ['-c', script], { cwd: cwdOf(rule.where), env, timeout: 180_000 });
        const written = [...script.matchAll(/--(?:junit|report) (\S+)/g)].map((match) => match[1]!);
        const missing = written.filter((file) => !fs.existsSync(path.join(cwdOf(rule.where), file)));
        report(
          line,
          `the block as one script (e2e: ${E2E_STAND_IN(base)}): exit ${ran.status}${missing.length > 0 ? `; not written: ${missing.join(', ')}` : `; wrote ${written.join(', ')}`}: ${lastLines(ran.output)}`,
          ran.status === 0 && missing.length === 0,
        );
      } else if (rule.kind === 'curl' || rule.kind === 'once') {
        const command = fill(line.text, mock.url, proxy.url);
        const curl = rule.kind === 'curl' ? ' -f -sS -o /dev/null -w "%{http_code}"' : '';
        const ran = run('bash', ['-c', `set -o pipefail; ${command}${curl}`], { cwd, env });
        const expected = curl && line.text.includes('code=404') ? 22 : 0; // curl -f exits 22 for the 404 the line asks for
        const shown = command === line.text ? '' : `as ${command}\n       `;
        report(line, `${shown}exit ${ran.status}: ${lastLines(ran.stdout || ran.stderr)}`, ran.status === expected);
      } else if (rule.kind === 'recipe-start') {
        // The recipe's start step (GitHub: the step's whole script; GitLab: the start line and the wait line),
        // on a free port instead of 4000, with job control on so the mock has its own process group to stop.
        const port = await freePort();
        const wait = lines.find((other) => sameBlock(other, line) && other !== line && ruleOf(other)?.kind === 'recipe-once');
        const [start, ...rest] = [line.text, wait?.text ?? ''].join('\n').replace(/4000/g, String(port)).split('\n');
        const pidFile = path.join(scratch, `mock-${port}.pid`);
        const script = ['set -m', start, `echo $! > ${pidFile}`, ...rest].join('\n');
        const up = run('bash', ['-e', '-c', script], { cwd: app, env, timeout: 120_000 });
        const ping = await fetch(`http://127.0.0.1:${port}/api/v1/Diagnostics/Ping`).then(
          (response) => response.status,
          () => 0,
        );
        if (fs.existsSync(pidFile)) {
          try {
            process.kill(-Number(fs.readFileSync(pidFile, 'utf8')), 'SIGTERM');
          } catch {
            // already gone
          }
        }
        report(line, `the mock up on port ${port}: step exit ${up.status}, Ping ${ping}`, up.status === 0 && ping === 200);
        if (up.status !== 0) say(up.output);
        // And the same step when the mock cannot start (a bad setting): the step must fail.
        // On a port of its own: the first step's mock may still be draining on the first one.
        const brokenPort = await freePort();
        const brokenScript = script.replaceAll(String(port), String(brokenPort)).replace(/--clients \d+/, '--clients -1');
        const broken = run('bash', ['-e', '-c', brokenScript], { cwd: app, env, timeout: 120_000 });
        report(line, `the same step with the mock not starting (--clients -1): step exit ${broken.status}`, broken.status !== 0);
      } else if (rule.kind === 'recipe-once') {
        if (lines.some((other) => sameBlock(other, line) && ruleOf(other)?.kind === 'recipe-start')) continue; // run with its start line
        report(line, 'a wait for Ping with no start line in its recipe', false);
      }
    }
    // The contract step of each recipe: its own env (BASE_URL, API_KEY) pointed at the mock.
    for (const line of lines.filter((candidate) => candidate.recipe && /client-records-mock .*contract/.test(candidate.text))) {
      const ran = run('bash', ['-e', '-c', line.text], {
        cwd: app,
        env: { ...env, BASE_URL: mock.url, API_KEY: KEY, CLIENT_RECORDS_API_KEY: KEY },
      });
      report(line, `with BASE_URL=${mock.url}: exit ${ran.status}: ${lastLines(ran.stdout)}`, ran.status === 0);
    }
  } finally {
    await proxy?.stop();
    await mock?.stop();
    fs.rmSync(scratch, { recursive: true, force: true });
  }
  say(failures.length === 0 ? '== doc-lines: passed' : `== doc-lines: FAILED\n${failures.map((f) => `- ${f}`).join('\n')}`);
  process.exit(failures.length === 0 ? 0 : 1);
}

main().catch((error: unknown) => {
  process.stderr.write(`doc-lines: ${(error as Error).message}\n`);
  process.exit(1);
});
