// Starting real servers for tests: in-process on port 0 (createApp + the real
// HTTP server), or as a separate process running the built CLI. Every server a
// test starts is stopped by that test.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { Writable } from 'node:stream';
import { loadConfig, type Config } from '../../server/process/config';
import { appOn, createApp, type App } from '../../server/pipeline/app';
import { apiPath } from '../../server/pipeline/api-path';
import { leanFirst } from '../../server/pipeline/lean-path';
import { digestMatcher } from '../../server/pipeline/key-digest';
import { createLogger } from '../../server/process/logger';
import { startHttpServer, type HttpServerOptions, type RunningServer } from '../../server/listener/http-server';
import { ClientStore } from '../../server/engine/store';
import { specOf } from '../../server/mock';
import { generatedSource, generateClients } from '../../seeds/client';
import type { ClientDetail } from '../../contract/wire-types';

export const API_KEY = 'dev-key';
export const ROOT = path.resolve(__dirname, '../..');
export const MAIN_JS = path.join(ROOT, 'dist/cli/main.js');

/** The default configuration, quiet, with overrides. */
export function testConfig(overrides: Partial<Config> = {}): Readonly<Config> {
  return Object.freeze({ ...loadConfig([], {}), logLevel: 'silent', ...overrides } as Config);
}

const storeCache = new Map<string, ClientStore>();

/** Stores are immutable, so tests share one per (seed, count). */
export function testStore(seed = 1, clients = 1000): ClientStore {
  const key = `${seed}/${clients}`;
  let store = storeCache.get(key);
  if (!store) {
    store = new ClientStore(generateClients(seed, clients));
    storeCache.set(key, store);
  }
  return store;
}

/** Collects the server's log lines as parsed JSON. */
export class LogCapture extends Writable {
  readonly lines: string[] = [];

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: () => void): void {
    this.lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    callback();
  }

  get text(): string {
    return this.lines.join('\n');
  }

  get records(): Record<string, unknown>[] {
    return this.lines.map((line) => JSON.parse(line) as Record<string, unknown>);
  }
}

export interface TestServer {
  baseUrl: string;
  app: App;
  logs: LogCapture;
  running: RunningServer;
  stop(): Promise<void>;
}

/** The real app behind the real HTTP server, on 127.0.0.1 and a free port; `http`: the listener's own settings (timeouts). */
export async function startTestServer(
  overrides: Partial<Config> = {},
  data?: readonly ClientDetail[],
  http: HttpServerOptions = {},
): Promise<TestServer> {
  const config = testConfig(overrides);
  const logs = new LogCapture();
  const logger = createLogger(config.logLevel, logs);
  const store = data ? new ClientStore(data) : testStore(config.seed, config.clients);
  return listening(createApp(config, store, logger, specOf(config)), config, logs, logger, http);
}

/** An app behind the real HTTP server on 127.0.0.1 and a free port, as a TestServer. */
async function listening(
  app: App,
  config: Readonly<Config>,
  logs: LogCapture,
  logger: ReturnType<typeof createLogger>,
  http: HttpServerOptions = {},
): Promise<TestServer> {
  const running = await startHttpServer(app, 0, '127.0.0.1', logger, { maxConnections: config.maxConnections, ...http });
  return {
    baseUrl: `http://127.0.0.1:${running.port}`,
    app,
    logs,
    running,
    stop: async () => {
      await running.stop();
    },
  };
}

/**
 * The in-process handlers' pipeline (a lazy store; the lean path first, the Express app for the rest: lean-path.ts,
 * leanFirst) behind the real HTTP server, so that what runs over HTTP (the contract suite) runs through it.
 */
export async function startLeanTestServer(
  overrides: Partial<Config> = {},
  data?: readonly ClientDetail[],
  http: HttpServerOptions = {},
): Promise<TestServer> {
  const config = testConfig(overrides);
  const logs = new LogCapture();
  const logger = createLogger(config.logLevel, logs);
  // A lazy store, as the in-process handlers build it (msw-core.ts): made afresh, since it fills in as it answers.
  const store = new ClientStore(data ?? generatedSource(config.seed, config.clients), { lazy: true });
  const path = apiPath(config, store, logger, specOf(config), undefined, digestMatcher);
  const full = appOn(path);
  const app: App = Object.assign(
    leanFirst(path, () => Promise.resolve(full)),
    { respond: full.respond, cache: full.cache, prebuild: full.prebuild },
  );
  return listening(app, config, logs, logger, http);
}

export interface SpawnedServer {
  baseUrl: string;
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  /** Sends the signal and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
  exited: Promise<number | null>;
}

/** Runs the built CLI (npm test builds it first) and waits for its start-up line. */
export function spawnServer(args: string[] = [], env: Record<string, string> = {}, timeoutMs = 60_000): Promise<SpawnedServer> {
  return spawnServerAt(MAIN_JS, args, env, timeoutMs);
}

/**
 * Runs the CLI at `script` (the repo's build, or an installed package's bin) on port 0 and waits for its start-up
 * line. A command (`serve`) in `args` stays first, where the bin reads it.
 */
export function spawnServerAt(
  script: string,
  args: string[] = [],
  env: Record<string, string> = {},
  timeoutMs = 60_000,
): Promise<SpawnedServer> {
  const command = args[0] !== undefined && !args[0].startsWith('-') ? args.slice(0, 1) : [];
  const child = spawn(process.execPath, [script, ...command, '--port', '0', ...args.slice(command.length)], {
    env: { ...process.env, LOG_LEVEL: 'silent', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`server did not start in ${timeoutMs} ms: ${err}`));
    }, timeoutMs);
    const onData = () => {
      const match = /on (http:\/\/[\d.]+:\d+)/.exec(out);
      if (!match) return;
      clearTimeout(timer);
      child.stdout!.off('data', onData);
      resolve({
        baseUrl: match[1]!,
        child,
        stdout: () => out,
        stderr: () => err,
        exited,
        stop: (signal = 'SIGTERM') => {
          if (child.exitCode === null && child.signalCode === null) child.kill(signal);
          return exited;
        },
      });
    };
    child.stdout!.on('data', onData);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code} before starting: ${err}`));
    });
  });
}

/** GET with the API key unless told otherwise. */
export function get(baseUrl: string, pathAndQuery: string, headers: Record<string, string> = { 'X-Api-Key': API_KEY }): Promise<Response> {
  return fetch(baseUrl + pathAndQuery, { headers });
}
