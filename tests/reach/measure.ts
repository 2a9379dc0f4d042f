// Why: the reach of the contract suite has to be measured on things it was not shown. This harness runs the
// suite's CLI, as a backend team's CI would, against every data shape and every correct-but-unusual variant of
// the third implementation (each must pass: exit 0) and against every fault of faults.ts (each must fail: exit
// 1), then prints the table and writes reports/reach/reach.md with the kill ratio. Exit 2 or 3 (or a time-out) is not
// "caught": it is reported apart, as a harness or suite problem. Before a fault counts, its probe must show it
// is live, so a fault that changed nothing is a harness problem, never a "miss".
//
//   npm run reach -- [--runs 200] [--only id,id] [--kinds shape,variant,fault] [--jobs 1] [--timeout 600]
//                    [--out reports/reach/reach.md | --no-write] [--min-kill 1]
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SHAPES, type ShapeName } from './data';
import { FAULTS, VARIANTS, probeContext, type FaultCase, type VariantCase } from './faults';
import { ALLOWED_ORIGIN, type ImplFaultId, type ImplVariantId, type ProxyFaultId, type ProxyVariantId } from './ids';
import { IMPL_API_KEY, startImpl } from './impl';
import { startProxy } from './proxy';

/** The repository: the nearest folder above this file with the package's package.json (this file also runs bundled from dist/). */
function findRoot(...starts: string[]): string {
  for (const from of starts) {
    for (let dir = from; ; dir = path.dirname(dir)) {
      const pkg = path.join(dir, 'package.json');
      if (fs.existsSync(pkg) && (JSON.parse(fs.readFileSync(pkg, 'utf8')) as { name?: string }).name === 'client-records-mock') return dir;
      if (path.dirname(dir) === dir) break;
    }
  }
  return path.resolve(__dirname, '../..');
}
export const ROOT = findRoot(__dirname, process.cwd());

export type Kind = 'shape' | 'variant' | 'fault';

export interface Started {
  url: string;
  apiKey: string;
  origin?: string;
  close(): Promise<void>;
}

export interface Target {
  kind: Kind;
  id: string;
  injection: 'impl' | 'proxy';
  expect: 'pass' | 'fail';
  fault?: FaultCase;
  variant?: VariantCase;
  start(real: RealServer): Promise<Started>;
}

export interface Check {
  name: string;
  message: string;
}

export type Verdict = 'caught' | 'missed' | 'passed' | 'false alarm' | 'problem';

export interface RunResult {
  kind: Kind;
  id: string;
  injection: 'impl' | 'proxy';
  expect: 'pass' | 'fail';
  exitCode: number | null;
  timedOut: boolean;
  durationMs: number;
  tests: number;
  failed: Check[];
  skipped: Check[];
  verdict: Verdict;
  /** Why a result is a problem (exit 2/3, time-out, fault not live, target failed to start). */
  problem?: string;
  outputTail: string;
}

// ---- the project's real server (for proxy targets) ------------------------------------------------------------

export interface RealServer {
  url(): Promise<string>;
  close(): Promise<void>;
}

interface ServerModule {
  startServer(options: Record<string, unknown>): Promise<{ url: string; close(): Promise<void> }>;
}

/** The built package's public startServer (dist/server/index.js), started once, on demand, with 300 clients. */
export function realServer(root = ROOT): RealServer {
  let running: Promise<{ url: string; close(): Promise<void> }> | undefined;
  return {
    url: async () => {
      if (!running) {
        const entry = path.join(root, 'dist/server/index.js');
        if (!fs.existsSync(entry)) throw new Error(`${entry} is missing: run npm run build first`);
        // eslint-disable-next-line @typescript-eslint/no-require-imports
        const mod = require(entry) as ServerModule;
        running = mod.startServer({ seed: 1, clients: 300, logLevel: 'silent' });
      }
      return (await running).url;
    },
    close: async () => {
      if (running) await (await running).close();
      running = undefined;
    },
  };
}

// ---- the targets -------------------------------------------------------------------------------------------------

export function allTargets(): Target[] {
  const out: Target[] = [];
  for (const shape of SHAPES) {
    out.push({
      kind: 'shape',
      id: shape,
      injection: 'impl',
      expect: 'pass',
      start: async () => ({ ...(await startImpl({ shape })), apiKey: IMPL_API_KEY }),
    });
  }
  for (const v of VARIANTS) {
    out.push({
      kind: 'variant',
      id: v.id,
      injection: v.injection,
      expect: 'pass',
      variant: v,
      start: async (real) =>
        v.injection === 'impl'
          ? {
              ...(await startImpl({ shape: 'typical', variant: v.id as ImplVariantId })),
              apiKey: IMPL_API_KEY,
              origin: v.id === 'cors-allow-list' ? ALLOWED_ORIGIN : undefined,
            }
          : { ...(await startProxy({ upstream: await real.url(), variant: v.id as ProxyVariantId })), apiKey: 'dev-key' },
    });
  }
  for (const f of FAULTS) {
    out.push({
      kind: 'fault',
      id: f.id,
      injection: f.injection,
      expect: 'fail',
      fault: f,
      start: async (real) =>
        f.injection === 'impl'
          ? { ...(await startImpl({ shape: 'typical', fault: f.id as ImplFaultId })), apiKey: IMPL_API_KEY }
          : { ...(await startProxy({ upstream: await real.url(), fault: f.id as ProxyFaultId })), apiKey: 'dev-key' },
    });
  }
  return out;
}

/** The shape's clients, for a shape target's id (typed for the caller). */
export function isShape(id: string): id is ShapeName {
  return (SHAPES as readonly string[]).includes(id);
}

// ---- the suite ---------------------------------------------------------------------------------------------------

export interface SuiteCommand {
  command: string;
  args: string[];
}

/**
 * How to run the contract suite: REACH_SUITE_CLI (a script, with REACH_SUITE_SUBCOMMAND before its flags), else
 * the package's bin when it is the house CLI (`node dist/cli/main.js contract …`), else dist/contract-suite/cli.js.
 */
export function suiteCommand(root = ROOT, env: NodeJS.ProcessEnv = process.env): SuiteCommand {
  if (env.REACH_SUITE_CLI) {
    return { command: process.execPath, args: [env.REACH_SUITE_CLI, ...(env.REACH_SUITE_SUBCOMMAND ? [env.REACH_SUITE_SUBCOMMAND] : [])] };
  }
  const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { bin?: string | Record<string, string> };
  const bins = typeof pkg.bin === 'string' ? [pkg.bin] : Object.values(pkg.bin ?? {});
  const houseCli = path.join(root, 'dist/cli/main.js');
  const oldCli = path.join(root, 'dist/contract-suite/cli.js');
  const binIsHouse = bins.some((b) => path.resolve(root, b) === houseCli);
  if (binIsHouse && fs.existsSync(houseCli)) return { command: process.execPath, args: [houseCli, 'contract'] };
  if (fs.existsSync(oldCli)) return { command: process.execPath, args: [oldCli] };
  if (fs.existsSync(houseCli)) return { command: process.execPath, args: [houseCli, 'contract'] };
  throw new Error('no built contract suite (dist/contract-suite/cli.js or dist/cli/main.js): run npm run build first');
}

function decodeXml(text: string): string {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&#(\d+);/g, (_m, n: string) => String.fromCodePoint(Number(n)))
    .replace(/&#x([0-9a-f]+);/gi, (_m, n: string) => String.fromCodePoint(parseInt(n, 16)))
    .replace(/&amp;/g, '&');
}

function attr(tag: string, name: string): string | undefined {
  const m = new RegExp(`\\s${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)')`).exec(tag);
  return m ? decodeXml(m[1] ?? m[2]!) : undefined;
}

/** Attributes of an XML start tag: a `>` inside a quoted value does not end the tag. */
const ATTRS = `((?:\\s+[\\w:.-]+\\s*=\\s*(?:"[^"]*"|'[^']*'))*)\\s*`;

/** The test cases of a JUnit XML report: failed (failure or error) and skipped, with the first line of their message. */
export function parseJunit(xml: string): { tests: number; failed: Check[]; skipped: Check[] } {
  const failed: Check[] = [];
  const skipped: Check[] = [];
  let tests = 0;
  const re = new RegExp(`<testcase${ATTRS}(/>|>([\\s\\S]*?)</testcase>)`, 'g');
  for (const m of xml.matchAll(re)) {
    tests++;
    const open = m[1]!;
    const inner = m[3] ?? '';
    const name = [attr(open, 'classname'), attr(open, 'name')].filter(Boolean).join(' › ');
    const bad = new RegExp(`<(failure|error)${ATTRS}(?:/>|>([\\s\\S]*?)</\\1>)`).exec(inner);
    const skip = new RegExp(`<skipped${ATTRS}(?:/>|>([\\s\\S]*?)</skipped>)`).exec(inner);
    const firstLine = (a?: string, body?: string) => (a || decodeXml(body ?? '').trim() || '').split('\n')[0]!.slice(0, 300);
    if (bad) failed.push({ name, message: firstLine(attr(bad[2] ?? '', 'message'), bad[3]) });
    else if (skip) skipped.push({ name, message: firstLine(attr(skip[1] ?? '', 'message'), skip[2]) });
  }
  return { tests, failed, skipped };
}

export interface RunOptions {
  runs: number;
  timeoutMs: number;
  suite: SuiteCommand;
  workDir: string;
}

function runProcess(
  cmd: SuiteCommand,
  args: string[],
  timeoutMs: number,
): Promise<{ code: number | null; timedOut: boolean; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(cmd.command, [...cmd.args, ...args], { stdio: ['ignore', 'pipe', 'pipe'], cwd: ROOT });
    let output = '';
    const keep = (c: Buffer) => {
      output += c.toString('utf8');
      if (output.length > 200_000) output = output.slice(-100_000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, timedOut, output });
    });
  });
}

/** One target: start it, prove a fault or variant is live, run the suite, judge the exit code. */
export async function measureTarget(target: Target, real: RealServer, o: RunOptions): Promise<RunResult> {
  const base: Omit<RunResult, 'verdict' | 'exitCode' | 'timedOut' | 'durationMs' | 'tests' | 'failed' | 'skipped' | 'outputTail'> = {
    kind: target.kind,
    id: target.id,
    injection: target.injection,
    expect: target.expect,
  };
  const empty = { exitCode: null, timedOut: false, durationMs: 0, tests: 0, failed: [], skipped: [], outputTail: '' };
  let started: Started;
  try {
    started = await target.start(real);
  } catch (error) {
    return { ...base, ...empty, verdict: 'problem', problem: `target did not start: ${(error as Error).message}` };
  }
  try {
    const probe = target.fault?.shows ?? target.variant?.shows;
    if (probe) {
      let live = false;
      try {
        live = await probe(probeContext(started.url, started.apiKey));
      } catch (error) {
        return { ...base, ...empty, verdict: 'problem', problem: `probe failed: ${(error as Error).message}` };
      }
      if (!live) return { ...base, ...empty, verdict: 'problem', problem: `the ${target.kind} is not live (its probe does not show it)` };
    }
    const junit = path.join(o.workDir, `${target.kind}-${target.id.replace(/[^A-Za-z0-9_.-]/g, '_')}.xml`);
    fs.rmSync(junit, { force: true });
    const args = ['--base-url', started.url, '--api-key', started.apiKey, '--runs', String(o.runs), '--junit', junit];
    if (started.origin) args.push('--origin', started.origin);
    const t0 = Date.now();
    const run = await runProcess(o.suite, args, o.timeoutMs);
    const durationMs = Date.now() - t0;
    const report = fs.existsSync(junit) ? parseJunit(fs.readFileSync(junit, 'utf8')) : { tests: 0, failed: [], skipped: [] };
    const outputTail = run.output.split('\n').slice(-15).join('\n');
    const common = { exitCode: run.code, timedOut: run.timedOut, durationMs, ...report, outputTail };
    if (run.timedOut) return { ...base, ...common, verdict: 'problem', problem: `time-out after ${o.timeoutMs} ms` };
    if (run.code === 0) return { ...base, ...common, verdict: target.expect === 'pass' ? 'passed' : 'missed' };
    if (run.code === 1) return { ...base, ...common, verdict: target.expect === 'pass' ? 'false alarm' : 'caught' };
    const last = run.output.trim().split('\n').filter(Boolean).slice(-1)[0] ?? '';
    return { ...base, ...common, verdict: 'problem', problem: `exit ${String(run.code)}: ${last.slice(0, 200)}` };
  } finally {
    await started.close();
  }
}

// ---- the report ----------------------------------------------------------------------------------------------

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');
const names = (checks: Check[], n = 3) =>
  checks.length === 0
    ? ''
    : checks
        .slice(0, n)
        .map((c) => c.name)
        .join('; ') + (checks.length > n ? ` (+${checks.length - n})` : '');

export interface Summary {
  faults: number;
  caught: number;
  missed: number;
  faultProblems: number;
  killRatio: number;
  passTargets: number;
  passing: number;
  falseAlarms: number;
  passProblems: number;
}

export function summarise(results: RunResult[]): Summary {
  const faults = results.filter((r) => r.kind === 'fault');
  const pass = results.filter((r) => r.kind !== 'fault');
  const caught = faults.filter((r) => r.verdict === 'caught').length;
  return {
    faults: faults.length,
    caught,
    missed: faults.filter((r) => r.verdict === 'missed').length,
    faultProblems: faults.filter((r) => r.verdict === 'problem').length,
    killRatio: faults.length ? caught / faults.length : 0,
    passTargets: pass.length,
    passing: pass.filter((r) => r.verdict === 'passed').length,
    falseAlarms: pass.filter((r) => r.verdict === 'false alarm').length,
    passProblems: pass.filter((r) => r.verdict === 'problem').length,
  };
}

export function consoleTable(results: RunResult[]): string {
  const lines: string[] = [];
  for (const r of results) {
    const what =
      r.kind === 'fault' ? (r.verdict === 'caught' ? `caught by ${names(r.failed, 2) || '(no JUnit failure)'}` : r.verdict) : r.verdict;
    const extra =
      r.kind !== 'fault'
        ? `exit ${String(r.exitCode)}, ${r.skipped.length} skipped${r.failed.length ? `, failed: ${names(r.failed, 2)}` : ''}`
        : '';
    lines.push(`${r.kind.padEnd(7)} ${r.id.padEnd(36)} ${what}${extra ? `  (${extra})` : ''}${r.problem ? `  [${r.problem}]` : ''}`);
  }
  const s = summarise(results);
  lines.push(
    '',
    `faults caught ${s.caught}/${s.faults} (kill ratio ${(100 * s.killRatio).toFixed(1)}%), missed ${s.missed}, problems ${s.faultProblems}`,
    `correct targets passing ${s.passing}/${s.passTargets}, false alarms ${s.falseAlarms}, problems ${s.passProblems}`,
  );
  return lines.join('\n');
}

export function markdown(results: RunResult[], meta: { suite: string; runs: number; date: string }): string {
  const s = summarise(results);
  const out: string[] = [];
  out.push(
    '# Reach of the contract suite',
    '',
    "Measured by `npm run reach` (tests/reach/measure.ts): the contract suite's CLI run against a third implementation",
    'written from openapi.yaml alone (tests/reach/impl.ts) in every data shape and correct-but-unusual variant (each must',
    'pass, exit 0), and against faults nobody listed for the suite (tests/reach/faults.ts; each breaks one sentence of',
    'openapi.yaml or an RFC it cites and must fail the run, exit 1). Exit 2/3, a time-out or a fault whose probe does not',
    'show it are problems, reported apart and never counted as caught. Regenerate with `npm run reach`.',
    '',
    `- Suite: \`${meta.suite}\`, \`--runs ${meta.runs}\`; measured ${meta.date}.`,
    `- **Faults caught: ${s.caught} / ${s.faults} (kill ratio ${(100 * s.killRatio).toFixed(1)}%)**; missed ${s.missed}; harness/suite problems ${s.faultProblems}.`,
    `- **Correct targets passing: ${s.passing} / ${s.passTargets}**; false alarms ${s.falseAlarms}; harness/suite problems ${s.passProblems}.`,
    '',
    '## Data shapes and variants (must pass)',
    '',
    '| kind | target | verdict | exit | skipped checks | failing checks (first line of the message) |',
    '|---|---|---|---|---|---|',
  );
  for (const r of results.filter((x) => x.kind !== 'fault')) {
    const failing = r.failed.map((c) => `${c.name}: ${c.message}`).join('<br>');
    const skipped = r.skipped.length ? `${r.skipped.length}: ${r.skipped.map((c) => c.name).join('; ')}` : '0';
    out.push(
      `| ${r.kind} | ${r.id} | ${r.verdict}${r.problem ? ` (${cell(r.problem)})` : ''} | ${String(r.exitCode)} | ${cell(skipped)} | ${cell(failing)} |`,
    );
  }
  out.push(
    '',
    '## Faults (must fail)',
    '',
    '| fault | injection | area | verdict | caught by (failed checks) | sentence it breaks |',
    '|---|---|---|---|---|---|',
  );
  for (const r of results.filter((x) => x.kind === 'fault')) {
    const f = FAULTS.find((x) => x.id === r.id);
    out.push(
      `| ${r.id} | ${r.injection} | ${f?.area ?? ''} | ${r.verdict}${r.problem ? ` (${cell(r.problem)})` : ''} | ${cell(names(r.failed, 4))} | ${cell(f?.breaks ?? '')} |`,
    );
  }
  out.push('', '## How each fault is injected', '', '| fault | where the sentence stands | injection |', '|---|---|---|');
  for (const f of FAULTS.filter((x) => results.some((r) => r.id === x.id))) out.push(`| ${f.id} | ${cell(f.source)} | ${cell(f.how)} |`);
  out.push('', '## The variants (each allowed by the document)', '', '| variant | choice | allowed by |', '|---|---|---|');
  for (const v of VARIANTS.filter((x) => results.some((r) => r.id === x.id)))
    out.push(`| ${v.id} | ${cell(v.choice)} | ${cell(v.allowedBy)} |`);
  return `${out.join('\n')}\n`;
}

// ---- the command ---------------------------------------------------------------------------------------------------

export interface MeasureOptions {
  runs: number;
  only?: string[];
  kinds: Kind[];
  jobs: number;
  timeoutMs: number;
  out?: string;
  minKill: number;
  suite?: SuiteCommand;
  log?: (line: string) => void;
}

export function selectTargets(only: string[] | undefined, kinds: Kind[]): Target[] {
  return allTargets().filter(
    (t) => kinds.includes(t.kind) && (!only || only.some((o) => t.id === o || (o.endsWith('*') && t.id.startsWith(o.slice(0, -1))))),
  );
}

export async function measure(o: MeasureOptions): Promise<RunResult[]> {
  const suite = o.suite ?? suiteCommand();
  const targets = selectTargets(o.only, o.kinds);
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'reach-'));
  const real = realServer();
  const results: RunResult[] = new Array<RunResult>(targets.length);
  let next = 0;
  const worker = async () => {
    while (next < targets.length) {
      const i = next++;
      const t = targets[i]!;
      const r = await measureTarget(t, real, { runs: o.runs, timeoutMs: o.timeoutMs, suite, workDir });
      results[i] = r;
      o.log?.(
        `${t.kind} ${t.id}: ${r.verdict}${r.problem ? ` [${r.problem}]` : ''} (exit ${String(r.exitCode)}, ${(r.durationMs / 1000).toFixed(1)} s)`,
      );
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.max(1, o.jobs) }, worker));
  } finally {
    await real.close();
    fs.rmSync(workDir, { recursive: true, force: true });
  }
  return results;
}

function parseArgs(argv: string[]): MeasureOptions {
  const o: MeasureOptions = {
    runs: 200,
    kinds: ['shape', 'variant', 'fault'],
    jobs: 1,
    timeoutMs: 600_000,
    out: path.join(ROOT, 'reports/reach/reach.md'),
    minKill: 1,
  };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i]!;
    const value = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${flag} needs a value`);
      return v;
    };
    const num = (v: string, min: number) => {
      const n = Number(v);
      if (!Number.isFinite(n) || n < min) throw new Error(`${flag} must be a number >= ${min}, not ${v}`);
      return n;
    };
    if (flag === '--runs') o.runs = num(value(), 1);
    else if (flag === '--only') o.only = value().split(',').filter(Boolean);
    else if (flag === '--kinds') {
      const kinds = value().split(',');
      for (const k of kinds) if (!['shape', 'variant', 'fault'].includes(k)) throw new Error(`--kinds: unknown kind ${k}`);
      o.kinds = kinds as Kind[];
    } else if (flag === '--jobs') o.jobs = num(value(), 1);
    else if (flag === '--timeout') o.timeoutMs = num(value(), 1) * 1000;
    else if (flag === '--out') o.out = path.resolve(value());
    else if (flag === '--no-write') o.out = undefined;
    else if (flag === '--min-kill') o.minKill = num(value(), 0);
    else if (flag === '-h' || flag === '--help') {
      console.log(
        'npm run reach -- [--runs N] [--only id,id,prefix*] [--kinds shape,variant,fault] [--jobs N] [--timeout S] [--out FILE | --no-write] [--min-kill R]',
      );
      process.exit(0);
    } else throw new Error(`unknown option ${flag}`);
  }
  return o;
}

async function main(): Promise<void> {
  let o: MeasureOptions;
  let suite: SuiteCommand;
  try {
    o = parseArgs(process.argv.slice(2));
    suite = suiteCommand();
  } catch (error) {
    console.error(`reach: ${(error as Error).message}`);
    process.exit(2);
  }
  const results = await measure({ ...o, suite, log: (l) => console.error(l) });
  console.log(consoleTable(results));
  if (o.out) {
    fs.writeFileSync(
      o.out,
      markdown(results, {
        suite: `node ${suite.args.map((a) => path.relative(ROOT, a) || a).join(' ')}`,
        runs: o.runs,
        date: new Date().toISOString().slice(0, 16).replace('T', ' '),
      }),
    );
    console.log(`\nwritten ${path.relative(process.cwd(), o.out)}`);
  }
  const s = summarise(results);
  // Exit 1 when the suite is short of the bar (a false alarm, a problem, or a kill ratio under --min-kill).
  process.exit(s.falseAlarms + s.passProblems + s.faultProblems > 0 || (s.faults > 0 && s.killRatio < o.minKill) ? 1 : 0);
}

// Run only as the program (npm run reach), never when bundled into or imported by another script.
if (require.main === module && /^measure\.[jt]s$/.test(path.basename(process.argv[1] ?? ''))) void main();
