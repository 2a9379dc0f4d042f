// The tool helpers of bench/, scripts/ and tests (one module, no copies): child
// processes started on 127.0.0.1 only, tracked, and always stopped (SIGTERM,
// then SIGKILL) however the tool ends; free ports, RSS, the built CLI's path.
// In tools/, which the build may depend on (scripts/ do), never in bench/.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { SPEC_PATH } from '../contract/spec';
import { settingEnvNames } from '../server/process/config';

/** The project root (where openapi.yaml is), from the sources and from dist/ alike. */
export const ROOT = path.dirname(SPEC_PATH);
export const MAIN_JS = path.join(ROOT, 'dist/cli/main.js');
export const API_KEY = 'dev-key';
export const HOST = '127.0.0.1';

/** Every child still running, with a promise of its exit. */
const running = new Map<ChildProcess, Promise<void>>();
// Whatever ends this process (an exception, a closed stdout pipe, process.exit), no child outlives it.
process.once('exit', () => {
  for (const child of running.keys()) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

export interface Started {
  child: ChildProcess;
  pid: number;
  port: number;
  /** Milliseconds from spawn to the first 200 on the probe path. */
  readyMs: number;
  stop(): Promise<void>;
}

/** The CPU time a process has used so far (user + system, from /proc), in ms: a cost that other load on the machine does not inflate as it does wall time. */
export function cpuMs(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** A port that was free a moment ago (the OS picks it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, HOST, () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function getStatus(port: number, probePath: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve) => {
    const req = http.get({ host: HOST, port, path: probePath, headers, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', () => resolve(0));
    req.setTimeout(2_000, () => req.destroy());
  });
}

export interface SpawnOptions {
  name: string;
  args: string[];
  env?: Record<string, string>;
  port: number;
  probePath: string;
  probeHeaders?: Record<string, string>;
  timeoutMs?: number;
  /** Where the child's stdout (its log lines) goes; /dev/null by default so the disk does not fill. */
  logFile?: string;
}

/** Spawns `node args…` and resolves once the probe path answers 200 (polled every 5 ms). */
export async function spawnAndWait(options: SpawnOptions): Promise<Started> {
  const out = fs.openSync(options.logFile ?? '/dev/null', 'w');
  let stderr = '';
  const started = performance.now();
  const child = spawn(process.execPath, options.args, {
    cwd: ROOT,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', out, 'pipe'],
  });
  fs.closeSync(out);
  child.stderr!.on('data', (chunk: Buffer) => {
    if (stderr.length < 4000) stderr += chunk.toString();
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  running.set(child, exited);
  void exited.then(() => running.delete(child));

  const deadline = started + (options.timeoutMs ?? 60_000);
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`${options.name} exited before answering (${child.exitCode ?? child.signalCode}): ${stderr.trim()}`);
    }
    if ((await getStatus(options.port, options.probePath, options.probeHeaders ?? {})) === 200) break;
    if (performance.now() > deadline) {
      await stopChild(child, exited);
      throw new Error(`${options.name} did not answer 200 on ${options.probePath} in time: ${stderr.trim()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  const readyMs = performance.now() - started;
  return { child, pid: child.pid!, port: options.port, readyMs, stop: () => stopChild(child, exited) };
}

async function stopChild(child: ChildProcess, exited: Promise<void>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}

/** Stops every child still running (used at the end and on Ctrl-C). */
export async function stopAll(): Promise<void> {
  await Promise.all([...running].map(([child, exited]) => stopChild(child, exited)));
}

/** On Ctrl-C or an uncaught error, children die with the benchmark. */
export function stopAllOnExit(): void {
  const bail = (code: number) => () => {
    for (const child of running.keys()) child.kill('SIGKILL');
    process.exit(code);
  };
  process.once('SIGINT', bail(130));
  process.once('SIGTERM', bail(143));
  process.on('exit', () => {
    for (const child of running.keys()) child.kill('SIGKILL');
  });
}

function children(pid: number): number[] {
  const found: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      // Field 4 (after the parenthesised name) is the parent pid.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) found.push(Number(entry));
    } catch {
      // The process ended while we looked.
    }
  }
  return found;
}

function rssKb(pid: number): number {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  } catch {
    return 0;
  }
}

/** Resident set size in MB of a process, with its children (cluster workers) when asked. */
export function rssMb(pid: number, withChildren = false): number {
  let kb = rssKb(pid);
  if (withChildren) for (const child of children(pid)) kb += rssKb(child);
  return Math.round(kb / 1024);
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export async function getJson<T>(port: number, pathAndQuery: string, headers: Record<string, string> = {}): Promise<T> {
  const response = await fetch(`http://${HOST}:${port}${pathAndQuery}`, { headers });
  if (!response.ok) throw new Error(`GET ${pathAndQuery} → ${response.status}`);
  return (await response.json()) as T;
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export const PING = '/api/v1/Diagnostics/Ping';

const PRISM_CLI = path.join(ROOT, 'node_modules/@stoplight/prism-cli/dist/index.js');

/** Prism's mock of openapi.yaml on a free port: static (examples) unless `dynamic` (generated bodies). */
export async function startPrism(name: string, dynamic = false): Promise<Started> {
  const port = await freePort();
  return spawnAndWait({
    name,
    args: [PRISM_CLI, 'mock', ...(dynamic ? ['-d'] : []), 'openapi.yaml', '-p', String(port), '-h', HOST],
    port,
    probePath: PING,
    timeoutMs: 60_000,
  });
}

/** This environment without any of our settings (derived from the settings table): "defaults" means defaults. */
export function cleanEnv(): Record<string, string> {
  const ours = new Set(settingEnvNames());
  return Object.fromEntries(Object.entries(process.env).filter(([name, value]) => !ours.has(name) && value !== undefined)) as Record<
    string,
    string
  >;
}

/** The built server on a free port of 127.0.0.1, ready once Ping answers 200. */
export async function startOurServer(name: string, args: string[], env: Record<string, string> = {}, timeoutMs = 60_000): Promise<Started> {
  const port = await freePort();
  return spawnAndWait({
    name,
    args: [MAIN_JS, '--port', String(port), ...args],
    env: { ...cleanEnv(), ...env },
    port,
    probePath: PING,
    timeoutMs,
  });
}

export interface StartedByLine {
  child: ChildProcess;
  /** The first capture group of the ready pattern. */
  ready: string;
  output(): string;
  stop(): Promise<void>;
}

/** Spawns `node <script> ...args` and resolves once its output matches `readyPattern` (for servers that pick their own port and print it). */
export function startNodeProcess(
  name: string,
  script: string,
  args: string[],
  readyPattern: RegExp,
  timeoutMs: number,
  cwd: string,
): Promise<StartedByLine> {
  const child = spawn(process.execPath, [script, ...args], {
    cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NO_COLOR: '1' },
  });
  let output = '';
  const exited = new Promise<void>((resolve) =>
    child.once('exit', () => {
      running.delete(child);
      resolve();
    }),
  );
  running.set(child, exited);
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const grace = setTimeout(() => child.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(grace);
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop().then(() => reject(new Error(`${name} did not start within ${timeoutMs} ms:\n${output.slice(-2000)}`)));
    }, timeoutMs);
    // Output keeps flowing (a full pipe would block the child); only the last 200 kB are kept.
    const collect = (chunk: Buffer) => {
      output = (output + chunk.toString('utf8')).slice(-200_000);
    };
    const onReady = () => {
      const match = readyPattern.exec(output);
      if (!match) return;
      clearTimeout(timer);
      child.stdout!.off('data', onReady);
      resolve({ child, ready: match[1] ?? match[0], output: () => output, stop });
    };
    child.stdout!.on('data', collect);
    child.stderr!.on('data', collect);
    child.stdout!.on('data', onReady);
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`${name} exited with ${child.exitCode ?? child.signalCode} before it was ready:\n${output.slice(-2000)}`));
    });
  });
}
