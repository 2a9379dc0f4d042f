// Why this file exists: every question the decider asks runs in a worker process of its own (worker.ts), so that
// a mutant that hangs, crashes or leaves state behind costs only that process. This starts one with a deadline
// and reads its one-line verdict; past the deadline the process is killed and the verdict is "no answer".
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { WorkerJob, WorkerVerdict } from './corpus-plan';
import { ROOT } from '../processes';

/** The compiled worker (npm run build). */
export const WORKER_JS = path.join(ROOT, 'dist/tools/mutation/worker.js');

export function runWorker(
  workDir: string,
  job: WorkerJob,
  deadlineMs: number,
  env: NodeJS.ProcessEnv = {},
): Promise<WorkerVerdict & { ms: number }> {
  const file = path.join(workDir, `job-${process.pid}.json`);
  fs.writeFileSync(file, JSON.stringify(job));
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [WORKER_JS, file], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err = (err + chunk.toString()).slice(-4000)));
    const timer = setTimeout(() => child.kill('SIGKILL'), deadlineMs);
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      const ms = performance.now() - started;
      const last = out.trim().split('\n').pop() ?? '';
      if (signal === 'SIGKILL')
        return resolve({ equivalent: false, error: `no verdict within ${Math.round(deadlineMs / 1000)} s (a hang)`, ms });
      try {
        resolve({ ...(JSON.parse(last) as WorkerVerdict), ms });
      } catch {
        resolve({
          equivalent: false,
          error: `the worker exited ${code ?? signal} without a verdict: ${err.trim().split('\n').pop() ?? ''}`,
          ms,
        });
      }
    });
  });
}
