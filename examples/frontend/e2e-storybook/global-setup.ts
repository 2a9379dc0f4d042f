// Builds the static Storybook into test-artifacts/storybook/static/ (CI keeps it with the screenshots: the
// pull request's preview) and serves test-artifacts/storybook/ with Python's http.server on a free port, so
// the build is opened from a sub-folder (/static/), as a preview host serves it. Every wait is bounded; the
// returned function stops the server.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ARTIFACTS } from './paths.ts';

const require = createRequire(import.meta.url);
const APP = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BUILD_MS = 180_000;
const SERVE_MS = 10_000;

function build(): void {
  const storybook = path.join(path.dirname(require.resolve('storybook/package.json')), 'dist', 'bin', 'dispatcher.js');
  const out = path.join(ARTIFACTS, 'static');
  const run = spawnSync(process.execPath, [storybook, 'build', '--config-dir', '.storybook', '--output-dir', out, '--quiet'], {
    cwd: APP,
    env: { ...process.env, STORYBOOK_DISABLE_TELEMETRY: '1' },
    encoding: 'utf8',
    timeout: BUILD_MS,
  });
  if (run.status !== 0) {
    const why = run.error ? run.error.message : `exit ${run.status ?? run.signal}`;
    throw new Error(`storybook build failed (${why}):\n${`${run.stdout}${run.stderr}`.trim().split('\n').slice(-30).join('\n')}`);
  }
}

/** Python's http.server on 127.0.0.1, port 0 (the system's choice), resolved with its port once it listens. */
function serve(dir: string): Promise<{ port: number; stop: () => void }> {
  const server = spawn('python3', ['-u', '-m', 'http.server', '0', '--bind', '127.0.0.1', '--directory', dir], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stop = () => server.kill();
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => {
      stop();
      reject(new Error(`python3 -m http.server did not listen within ${SERVE_MS} ms: ${output}`));
    }, SERVE_MS);
    server.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    server.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const port = /port (\d+)/.exec(output)?.[1];
      if (port) {
        clearTimeout(timer);
        resolve({ port: Number(port), stop });
      }
    });
    server.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  });
}

export default async function globalSetup(): Promise<() => void> {
  // This run's screenshots only: a story renamed or removed leaves no stale picture behind.
  fs.rmSync(path.join(ARTIFACTS, 'screenshots'), { recursive: true, force: true });
  build();
  const { port, stop } = await serve(ARTIFACTS);
  process.env.STORYBOOK_URL = `http://127.0.0.1:${port}/static/`;
  return stop;
}
