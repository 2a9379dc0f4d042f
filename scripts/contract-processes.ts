// Child processes for the contract scripts: started with a bounded wait for
// their ready line, stopped with SIGTERM and, after a grace period, SIGKILL.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

/** The project root: the nearest folder above this module with a package.json (works from scripts/ and dist/scripts/). */
export function projectRoot(): string {
  let dir = __dirname;
  while (!fs.existsSync(path.join(dir, 'package.json')) || !fs.existsSync(path.join(dir, 'openapi.yaml'))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`no project root above ${__dirname}`);
    dir = parent;
  }
  return dir;
}

export interface Started {
  child: ChildProcess;
  /** The first capture group of the ready pattern. */
  ready: string;
  output(): string;
  stop(): Promise<void>;
}

const running = new Set<ChildProcess>();
// Whatever ends this process (an exception, a closed stdout pipe, process.exit), no child outlives it.
process.once('exit', () => {
  for (const child of running) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

/** Spawns `node <script> ...args` and resolves once its output matches `readyPattern`. */
export function startNodeProcess(
  name: string,
  script: string,
  args: string[],
  readyPattern: RegExp,
  timeoutMs: number,
  cwd: string,
): Promise<Started> {
  const child = spawn(process.execPath, [script, ...args], {
    cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NO_COLOR: '1' },
  });
  running.add(child);
  let output = '';
  const exited = new Promise<void>((resolve) =>
    child.once('exit', () => {
      running.delete(child);
      resolve();
    }),
  );
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

/** A port that was free a moment ago on 127.0.0.1 (for tools that cannot listen on port 0 and report it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
