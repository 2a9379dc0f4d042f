// Playwright's global set-up for an app under test (issue 38), so a project's e2e folder holds no
// start-up code of its own: the mock on a free port (startServer, port 0) and the app's dev server on
// another, started with the mock's address in its environment; both addresses handed to the tests
// (MOCK_URL for the client-records-mock/playwright fixture, APP_URL for the config's baseURL), and both
// stopped when the run ends (the mock's stop writes its coverage report, when asked for one). With
// MOCK_URL already set, that running mock is used and none is started (a mock in a container, several
// behind a load balancer). Every wait has a deadline; an app that exits first is reported with its output.
//
//   // e2e/global-setup.ts
//   import { mockAndApp } from 'client-records-mock/playwright';
//   export default mockAndApp({ app: { command: 'npm run dev -- --port {port} --strictPort --host 127.0.0.1' } });
import { spawn } from 'node:child_process';
import net from 'node:net';
import type { ConfigOptions } from './process/config';

export interface AppServer {
  /** The dev server's command, run by a shell in `cwd`; `{port}` is replaced by a free port (also in PORT). */
  command: string;
  /** Where to run it; default the current folder (where `playwright test` runs). */
  cwd?: string;
  /** Extra environment of the dev server (it also gets MOCK_URL and PORT). */
  env?: Record<string, string>;
  /** The path that answers once the app is ready; default `/`. */
  readyPath?: string;
  /** How long the app may take to answer; default 60,000 ms. */
  timeoutMs?: number;
}

export interface MockAndAppOptions {
  /** The mock's settings, as startServer takes them (`seed`, `clients`, `coverageOut`, …); unused when MOCK_URL is set. */
  mock?: Readonly<ConfigOptions>;
  app: AppServer;
}

/** What Playwright runs as `globalSetup`: starts both, returns the teardown that stops both. */
export type GlobalSetup = () => Promise<() => Promise<void>>;

const POLL_MS = 100;
const STOP_GRACE_MS = 5_000;
/** The app's last lines kept for an error message. */
const OUTPUT_LINES = 30;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
    probe.once('error', reject);
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Starts the app's dev server in a process group of its own; resolves once `url` answers, rejects if it exits or is late. */
async function startApp(app: AppServer, mockUrl: string): Promise<{ url: string; stop: () => Promise<void> }> {
  const port = await freePort();
  const child = spawn(app.command.replaceAll('{port}', String(port)), {
    cwd: app.cwd ?? process.cwd(),
    env: { ...process.env, ...app.env, MOCK_URL: mockUrl, PORT: String(port) },
    shell: true,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = `${output}${chunk.toString()}`.split('\n').slice(-OUTPUT_LINES).join('\n');
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const alive = () => child.exitCode === null && child.signalCode === null;
  const stop = async () => {
    const signal = (name: NodeJS.Signals) => {
      try {
        process.kill(-child.pid!, name); // the group: a shell, npm and the dev server under it
      } catch {
        // gone already
      }
    };
    signal('SIGTERM');
    if (await Promise.race([exited.then(() => true), sleep(STOP_GRACE_MS).then(() => false)])) return;
    signal('SIGKILL');
    await exited;
  };
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + (app.timeoutMs ?? 60_000);
  for (;;) {
    const status = await fetch(`${url}${app.readyPath ?? '/'}`).then(
      (response) => response.status,
      () => 0,
    );
    if (status > 0 && status < 500) return { url, stop };
    if (!alive() || Date.now() > deadline) {
      const why = alive()
        ? `did not answer on ${url} within ${app.timeoutMs ?? 60_000} ms`
        : `exited (${child.exitCode ?? child.signalCode})`;
      await stop();
      throw new Error(`client-records-mock/playwright: the app's dev server (${app.command}) ${why}:\n${output.trim()}`);
    }
    await sleep(POLL_MS);
  }
}

/**
 * A Playwright `globalSetup`: the mock (or the one MOCK_URL names) and the app's dev server, their
 * addresses in MOCK_URL and APP_URL for the workers, and a teardown that stops both.
 */
export function mockAndApp(options: MockAndAppOptions): GlobalSetup {
  return async () => {
    const given = process.env.MOCK_URL;
    // Loaded here, not at the top: the fixture's workers import this module too, and need no server.
    const mock = given ? undefined : await (await import('./index')).startServer({ logLevel: 'warn', ...options.mock });
    const mockUrl = given ?? mock!.url;
    const app = await startApp(options.app, mockUrl).catch(async (error: unknown) => {
      await mock?.close();
      throw error;
    });
    process.env.MOCK_URL = mockUrl;
    process.env.APP_URL = app.url;
    return async () => {
      await app.stop();
      await mock?.close();
    };
  };
}
