// Crash policy: a Node process that installed exitOnCrash (as the CLI does)
// and then crashes logs one fatal line without the error's message (it may
// quote request data) and exits 1, so a supervisor starts a fresh process.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from '../support/servers';

const DIST = path.join(ROOT, 'dist/server/process');
// What a crash message might quote: a personal id, an e-mail, a filter value.
const MARKER = 'PHI-MARKER 19121212-1212 anna.svensson@example.se';

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

/** Runs `crash` in a fresh node with the production logger and crash policy installed (built by npm test). */
function runCrashing(crash: string): Promise<Run> {
  const script = [
    `const { createLogger } = require(${JSON.stringify(path.join(DIST, 'logger.js'))});`,
    `const { exitOnCrash } = require(${JSON.stringify(path.join(DIST, 'crash-policy.js'))});`,
    `exitOnCrash(createLogger('info'));`,
    // A listening server keeps the event loop alive, as in production: the exit must be the policy's doing.
    `const server = require('node:http').createServer().listen(0, '127.0.0.1');`,
    `const MARKER = ${JSON.stringify(MARKER)};`,
    crash,
  ].join('\n');
  const startedAt = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the crashed process did not exit: ${stdout} ${stderr}`));
    }, 10_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, ms: performance.now() - startedAt });
    });
  });
}

function fatalLines(stdout: string): Record<string, unknown>[] {
  return stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((record) => record.level === 60);
}

describe('crash policy (server/process/crash-policy.ts)', () => {
  test.each([
    ['an exception thrown in a timer', 'setTimeout(() => { throw new TypeError(MARKER); }, 20);', 'uncaught exception', 'TypeError'],
    [
      'an exception thrown in a request handler',
      "server.on('request', () => { throw new Error(MARKER); }); server.on('listening', () => require('node:http').get('http://127.0.0.1:' + server.address().port + '/' + encodeURIComponent(MARKER)).on('error', () => {}));",
      'uncaught exception',
      'Error',
    ],
    [
      'a rejected promise nobody awaits',
      'setTimeout(() => { Promise.reject(new RangeError(MARKER)); }, 20);',
      'unhandled rejection',
      'RangeError',
    ],
    ['a rejection with a plain string', 'setTimeout(() => { Promise.reject(MARKER); }, 20);', 'unhandled rejection', undefined],
  ])('%s → one fatal log line without the message, exit code 1', async (_name, crash, kind, type) => {
    const run = await runCrashing(crash);

    expect(run.code).toBe(1);
    expect(run.ms).toBeLessThan(5_000);
    const [fatal, ...more] = fatalLines(run.stdout);
    expect(more).toEqual([]);
    expect(fatal?.msg).toMatch(new RegExp(`^${kind}`));
    const err = fatal?.err as { type?: string; frames?: unknown[] };
    if (type) {
      expect(err.type).toBe(type);
      expect(Array.isArray(err.frames)).toBe(true);
    }
    expect(run.stdout + run.stderr).not.toContain('19121212-1212');
    expect(run.stdout + run.stderr).not.toContain('example.se');
    expect(run.stdout + run.stderr).not.toContain('PHI-MARKER');
  });

  test('serve → installs the crash policy with its logger before it builds data or listens', () => {
    const main = fs.readFileSync(path.join(ROOT, 'server/process/serve.ts'), 'utf8');

    const installed = main.indexOf('exitOnCrash(logger)');

    expect(installed).toBeGreaterThan(0);
    expect(installed).toBeLessThan(main.indexOf('await buildServedApp('));
    expect(installed).toBeLessThan(main.indexOf('startHttpServer('));
  });
});
