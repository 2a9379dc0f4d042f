// The CI recipes of docs/ (issue 38), run as their platforms run them, by scripts/doc-lines.ts: a GitHub
// Actions job step by step, each `run:` as GitHub runs it (`bash --noprofile --norc -eo pipefail FILE`),
// a step skipped after a failure unless its `if:` says always() or failure(), an upload-artifact step
// judged by whether its files exist once the steps before it ran; a GitLab CI job as its runner does
// (the `script:` lines in one bash with `set -eo pipefail`, then `after_script:` in a shell of its own,
// whatever happened, then `artifacts:` by their `when:`). Each recipe runs against a passing and a
// failing world: its tests failing, and its backend failing (a mock that cannot start, a backend that
// breaks the contract, one that cannot be reached, a spec edit that breaks clients). Every run must stop
// what it started (no process of its steps outlives the job), write and upload the reports it names,
// print the log, and exit with the right code. The recipe's placeholders are the only words changed:
// staging is a server started here, ports 4000 and 4010 free ones, `npm run e2e` the script below.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { parse } from 'yaml';
import { run, runOrFail } from './scratch';

interface GithubStep {
  name?: string;
  if?: string;
  uses?: string;
  run?: string;
  env?: Record<string, string | number>;
  with?: Record<string, unknown>;
}
interface GithubJob {
  steps: GithubStep[];
  env?: Record<string, string>;
}
interface GitlabJob {
  script: string[];
  after_script?: string[];
  variables?: Record<string, string>;
  artifacts?: { when?: 'on_success' | 'on_failure' | 'always'; paths?: string[]; reports?: Record<string, string | string[]> };
}

/** One recipe: a fenced block of a page, a GitHub job, a GitLab job or a plain shell script. */
export interface Recipe {
  page: string;
  title: string;
  platform: 'github' | 'gitlab' | 'shell';
  github?: GithubJob;
  gitlab?: GitlabJob;
  shell?: string;
}

/** The recipes of a page: each yaml block's jobs, and each sh block that starts a background process and stops it. */
export function recipesOf(page: string, markdown: string): Recipe[] {
  const recipes: Recipe[] = [];
  for (const [, lang, body] of markdown.matchAll(/```(sh|yaml)\n([\s\S]*?)\n```/g)) {
    if (lang === 'sh') {
      if (/&\n/.test(`${body!}\n`) && /\bkill\b/.test(body!))
        recipes.push({ page, title: 'shell script', platform: 'shell', shell: body! });
      continue;
    }
    const doc = parse(body!) as Record<string, unknown> | unknown[] | null;
    if (Array.isArray(doc)) {
      // A list of GitHub steps (to paste into a job of one's own).
      recipes.push({ page, title: 'steps', platform: 'github', github: { steps: doc as GithubStep[] } });
      continue;
    }
    if (!doc || typeof doc !== 'object') continue;
    const jobs = (doc.jobs ?? doc) as Record<string, GithubJob | GitlabJob>;
    for (const [name, job] of Object.entries(jobs)) {
      if (job && 'steps' in job) recipes.push({ page, title: name, platform: 'github', github: job });
      else if (job && 'script' in job) recipes.push({ page, title: name, platform: 'gitlab', gitlab: job });
    }
  }
  return recipes;
}

/** What a recipe does, read from its commands: how to judge it, and which worlds to run it in. */
export type RecipeKind = 'service' | 'contract' | 'proxy' | 'diff';

export function kindOf(recipe: Recipe): RecipeKind | undefined {
  const text = JSON.stringify(recipe);
  if (/client-records-mock proxy /.test(text)) return 'proxy';
  if (/client-records-mock contract /.test(text)) return 'contract';
  if (/client-records-mock diff /.test(text)) return 'diff';
  if (/client-records-mock --port /.test(text)) return 'service';
  return undefined;
}

interface StepRun {
  name: string;
  status: number | 'skipped';
  output: string;
  seconds: number;
}

export interface JobRun {
  /** The job's exit code: the first failing step's (GitHub, shell) or the script's (GitLab); 0 when none failed. */
  exit: number;
  steps: StepRun[];
  /** Each file or folder an upload step or `artifacts:` names, and whether it was there to upload. */
  uploads: { path: string; present: boolean }[];
  /** Processes of the job's steps still running after it ended (then killed here). */
  leftRunning: string[];
  output: string;
}

const STEP_TIMEOUT_MS = 240_000;

/** A shell script as the platform runs it, in its own process group (so what it leaves running can be found). */
async function runScript(script: string, cwd: string, env: NodeJS.ProcessEnv, scriptDir: string, groups: number[]): Promise<StepRun> {
  const file = path.join(scriptDir, `step-${groups.length + 1}.sh`);
  fs.writeFileSync(file, `${script}\n`);
  const started = Date.now();
  const child = spawn('bash', ['--noprofile', '--norc', '-eo', 'pipefail', file], {
    cwd,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  groups.push(child.pid!);
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  // The step ends when its shell exits; a background process it started may still hold the pipes, so the
  // end is the exit, not the pipes' close.
  const status = await new Promise<number>((resolve) => {
    const timer = setTimeout(() => {
      killGroup(child.pid!);
      resolve(124);
    }, STEP_TIMEOUT_MS);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      resolve(code ?? (signal ? 128 : 1));
    });
  });
  await new Promise((resolve) => setTimeout(resolve, 50)); // the last chunks of the shell's own output
  child.stdout.destroy();
  child.stderr.destroy();
  return { name: script.split('\n')[0]!.slice(0, 80), status, output, seconds: (Date.now() - started) / 1000 };
}

function groupAlive(group: number): boolean {
  try {
    process.kill(-group, 0);
    return true;
  } catch {
    return false;
  }
}

function killGroup(group: number): void {
  try {
    process.kill(-group, 'SIGKILL');
  } catch {
    // gone already
  }
}

/** After the job: what its steps left running (named by `ps`), then stopped. */
function leftRunning(groups: number[]): string[] {
  const left: string[] = [];
  for (const group of groups.filter(groupAlive)) {
    const listed = run('ps', ['-o', 'pid=,args=', '-g', String(group)]).stdout.trim();
    left.push(...listed.split('\n').filter(Boolean));
    killGroup(group);
  }
  return left;
}

function present(cwd: string, file: string): boolean {
  const full = path.join(cwd, file);
  if (!fs.existsSync(full)) return false;
  return fs.statSync(full).isDirectory() ? fs.readdirSync(full).length > 0 : true;
}

/** `${{ secrets.NAME }}` and `${{ vars.NAME }}` as the repository would give them. */
const fillExpressions = (value: string, secrets: Record<string, string>) =>
  value.replace(/\$\{\{\s*(?:secrets|vars)\.(\w+)\s*\}\}/g, (_match, name: string) => secrets[name] ?? '');

/** GitHub's step condition: success() unless the step says otherwise. */
function githubShouldRun(condition: string | undefined, failed: boolean): boolean {
  const text = condition ?? 'success()';
  if (/always\(\)/.test(text)) return true;
  if (/failure\(\)/.test(text)) return failed;
  return !failed;
}

export interface JobContext {
  cwd: string;
  env: NodeJS.ProcessEnv;
  secrets: Record<string, string>;
  /** A command the harness does not run (the project install, done before), with the reason. */
  skip: (command: string) => string | undefined;
  /** Rewrites a command's placeholders (staging URLs, fixed ports). */
  fill: (command: string) => string;
  scriptDir: string;
}

export async function runGithubJob(job: GithubJob, context: JobContext): Promise<JobRun> {
  const groups: number[] = [];
  const steps: StepRun[] = [];
  const uploads: JobRun['uploads'] = [];
  let exit = 0;
  const jobEnv = Object.fromEntries(
    Object.entries(job.env ?? {}).map(([key, value]) => [key, fillExpressions(String(value), context.secrets)]),
  );
  for (const step of job.steps) {
    const name = step.name ?? step.uses ?? step.run?.split('\n')[0] ?? '?';
    if (!githubShouldRun(step.if, exit !== 0)) {
      steps.push({ name, status: 'skipped', output: '', seconds: 0 });
      continue;
    }
    if (step.uses) {
      if (step.uses.startsWith('actions/upload-artifact')) {
        for (const file of String(step.with?.path ?? '')
          .split('\n')
          .map((line) => line.trim())
          .filter(Boolean))
          uploads.push({ path: file, present: present(context.cwd, file) });
      }
      // actions/checkout, actions/setup-node: the harness's working folder and Node stand in for them.
      steps.push({ name, status: 0, output: '', seconds: 0 });
      continue;
    }
    const script = context.fill(step.run ?? '');
    const reason = context.skip(script);
    if (reason) {
      steps.push({ name, status: 0, output: `(not run here: ${reason})\n`, seconds: 0 });
      continue;
    }
    const stepEnv = Object.fromEntries(
      Object.entries(step.env ?? {}).map(([key, value]) => [key, context.fill(fillExpressions(String(value), context.secrets))]),
    );
    const ran = await runScript(script, context.cwd, { ...context.env, ...jobEnv, ...stepEnv }, context.scriptDir, groups);
    steps.push({ ...ran, name });
    if (ran.status !== 0 && exit === 0) exit = ran.status as number;
  }
  return finish(exit, steps, uploads, groups);
}

export async function runGitlabJob(job: GitlabJob, context: JobContext): Promise<JobRun> {
  const groups: number[] = [];
  const steps: StepRun[] = [];
  const variables = Object.fromEntries(Object.entries(job.variables ?? {}).map(([key, value]) => [key, context.fill(String(value))]));
  const env = { ...context.env, ...variables, ...context.secrets };
  const lines = job.script.map((line) => context.fill(line)).filter((line) => !context.skip(line));
  const skipped = job.script.filter((line) => context.skip(line));
  for (const line of skipped) steps.push({ name: line, status: 0, output: `(not run here: ${context.skip(line)})\n`, seconds: 0 });
  // GitLab's runner: one shell for the whole script, stopping at the first failing line.
  const script = await runScript(lines.join('\n'), context.cwd, env, context.scriptDir, groups);
  steps.push({ ...script, name: 'script' });
  if (job.after_script) {
    const after = await runScript(
      job.after_script.map((line) => context.fill(line)).join('\n'),
      context.cwd,
      env,
      context.scriptDir,
      groups,
    );
    steps.push({ ...after, name: 'after_script' });
  }
  const exit = script.status as number;
  const when = job.artifacts?.when ?? 'on_success';
  const uploads: JobRun['uploads'] = [];
  if (when === 'always' || (when === 'on_failure') === (exit !== 0)) {
    const files = [...(job.artifacts?.paths ?? []), ...Object.values(job.artifacts?.reports ?? {}).flat()];
    for (const file of files) uploads.push({ path: file, present: present(context.cwd, file) });
  }
  return finish(exit, steps, uploads, groups);
}

export async function runShellScript(script: string, context: JobContext): Promise<JobRun> {
  const groups: number[] = [];
  const ran = await runScript(context.fill(script), context.cwd, context.env, context.scriptDir, groups);
  return finish(ran.status as number, [{ ...ran, name: 'script' }], [], groups);
}

function finish(exit: number, steps: StepRun[], uploads: JobRun['uploads'], groups: number[]): JobRun {
  return {
    exit,
    steps,
    uploads,
    leftRunning: leftRunning(groups),
    output: steps.map((step) => step.output).join(''),
  };
}

/** A backend that breaks the contract everywhere: `200 {}` to every request. */
export async function startBrokenBackend(): Promise<{ url: string; stop: () => Promise<void> }> {
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * The user's own `npm run e2e`, stood in for: one request of the kind a page sends, through API_BASE_URL,
 * a JUnit file, and the exit code E2E_OUTCOME asks for (fail: 1).
 */
export const E2E_STAND_IN = `// The end-to-end tests of the project that pasted the recipe, stood in for (scripts/recipes.ts).
import fs from 'node:fs';
const base = process.env.API_BASE_URL;
const failing = process.env.E2E_OUTCOME === 'fail';
const status = await fetch(base + '/api/v1/Client/Extended?filter=asa&pageSize=5', {
  headers: { 'X-Api-Key': process.env.API_KEY ?? 'dev-key' },
}).then((response) => response.status, (error) => String(error));
console.log('e2e: GET ' + base + '/api/v1/Client/Extended → ' + status + (failing ? ', 1 test failing' : ', all passed'));
fs.mkdirSync('reports', { recursive: true });
fs.writeFileSync('reports/e2e.xml', '<testsuite name="e2e" tests="1" failures="' + (failing ? 1 : 0) + '"/>\\n');
process.exit(failing || status !== 200 ? 1 : 0);
`;

/** A folder to run one job in: the app's node_modules, a package.json whose `e2e` script is the stand-in. */
export function jobFolder(dir: string, app: string): string {
  fs.mkdirSync(dir, { recursive: true });
  fs.symlinkSync(path.join(app, 'node_modules'), path.join(dir, 'node_modules'));
  fs.writeFileSync(path.join(dir, 'e2e.mjs'), E2E_STAND_IN);
  fs.writeFileSync(
    path.join(dir, 'package.json'),
    `${JSON.stringify({ name: 'recipe-job', private: true, scripts: { e2e: 'node e2e.mjs' } }, null, 2)}\n`,
  );
  return dir;
}

/**
 * A pull request's checkout as GitHub and GitLab make it: `origin` holds `main` with the spec and a branch
 * `pr` that edits it (the edit given), and the job folder is a depth-1 clone of `pr` (so `git show
 * main:openapi.yaml` fails there, as issue 38 found).
 */
export function pullRequestCheckout(dir: string, app: string, spec: string, edit: (text: string) => string): string {
  const origin = path.join(dir, 'origin.git');
  const work = path.join(dir, 'author');
  const env = {
    ...process.env,
    GIT_AUTHOR_NAME: 'ci',
    GIT_AUTHOR_EMAIL: 'ci@example.org',
    GIT_COMMITTER_NAME: 'ci',
    GIT_COMMITTER_EMAIL: 'ci@example.org',
  };
  const git = (cwd: string, ...args: string[]) => runOrFail(`git ${args[0]}`, 'git', args, { cwd, env });
  fs.mkdirSync(work, { recursive: true });
  git(dir, 'init', '--quiet', '--bare', '--initial-branch=main', origin);
  git(work, 'init', '--quiet', '--initial-branch=main');
  fs.copyFileSync(spec, path.join(work, 'openapi.yaml'));
  git(work, 'add', 'openapi.yaml');
  git(work, 'commit', '--quiet', '-m', 'the spec');
  git(work, 'checkout', '--quiet', '-b', 'pr');
  fs.writeFileSync(path.join(work, 'openapi.yaml'), edit(fs.readFileSync(spec, 'utf8')));
  git(work, 'commit', '--quiet', '-am', 'the pull request');
  git(work, 'push', '--quiet', origin, 'main', 'pr');
  const checkout = path.join(dir, 'checkout');
  git(dir, 'clone', '--quiet', '--depth', '1', '--branch', 'pr', `file://${origin}`, checkout);
  fs.symlinkSync(path.join(app, 'node_modules'), path.join(checkout, 'node_modules'));
  return checkout;
}
