#!/usr/bin/env node
// The only module with side effects: reads the command line, builds the data,
// listens, and stops cleanly on SIGTERM/SIGINT. `contract`, `seed` and `proxy`
// are dispatched to their own CLIs, loaded only when asked for (until cli/main.ts
// takes the dispatch over, PLAN.md).
import cluster from 'node:cluster';
import fs from 'node:fs';
import path from 'node:path';
import { ConfigError, helpText, loadConfig, type Config, type ConfigOptions } from './config';
import { createLogger } from './logger';
import type { Logger } from 'pino';
import type { App } from './app';
import { startHttpServer, TIMEOUTS } from './http-server';
import { EXIT_CRASH, exitOnCrash } from './crash-policy';
import { DataFileError } from '../seeds/data-file';
import { loadApp, watchApp } from './watch';

/** Exit code for a configuration or data-file error (docs/decisions.md: a bad setting → one line, exit 2). */
const EXIT_BAD_SETTING = 2;
/** Exit code of a stop that had to cut requests still unanswered after the drain time (docs/reliability.md, "Shutdown"). */
const EXIT_CUT = 3;

/** A start-up problem (bad data file, port taken): one line and exit 2, never a crash. */
class StartupError extends Error {}

function fail(message: string): never {
  throw new StartupError(message);
}

/** Prints the line and exits 2. A worker hands it to the primary instead, which prints it once for all workers. */
function exitWithStartupError(message: string): void {
  const line = `client-records-mock: ${message}\n`;
  if (cluster.isWorker && process.send) {
    process.send({ startupError: line }, () => process.exit(EXIT_BAD_SETTING));
    return;
  }
  process.stderr.write(line);
  process.exit(EXIT_BAD_SETTING);
}

/** The package's version, from the package.json above this module (src and dist alike). */
function packageVersion(): string {
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    const file = path.join(dir, 'package.json');
    if (fs.existsSync(file)) {
      const pkg = JSON.parse(fs.readFileSync(file, 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'client-records-mock') return pkg.version ?? 'unknown';
    }
    if (path.dirname(dir) === dir) return 'unknown';
  }
}

/** Flags of the CLI itself, not settings: they take no value. */
const CLI_FLAGS = new Set(['--help', '-h', '--version', '-v', '--watch']);

interface ServeCommand {
  config: Readonly<Config>;
  watch: boolean;
}

function readServeCommand(argv: readonly string[]): ServeCommand {
  const cliFlags = new Set(argv.filter((arg) => CLI_FLAGS.has(arg)));
  if (cliFlags.has('--help') || cliFlags.has('-h')) {
    process.stdout.write(helpText() + '\n');
    process.exit(0);
  }
  if (cliFlags.has('--version') || cliFlags.has('-v')) {
    process.stdout.write(`${packageVersion()}\n`);
    process.exit(0);
  }
  try {
    const config = loadConfig(
      argv.filter((arg) => !CLI_FLAGS.has(arg)),
      process.env,
    );
    const watch = cliFlags.has('--watch');
    // Each worker would reload on its own, at its own moment: replies would differ by worker.
    if (watch && config.workers > 1) throw new ConfigError('--watch needs WORKERS=1');
    return { config, watch };
  } catch (error) {
    if (error instanceof ConfigError) exitWithStartupError(error.message);
    throw error;
  }
}

function startupLine(config: Readonly<Config>, port: number, clients: number): string {
  const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  const key = config.auth ? (config.apiKeysGiven ? 'X-Api-Key: (as configured)' : `X-Api-Key: ${config.apiKeys[0]}`) : 'auth off';
  const source = config.dataFile ? `data ${config.dataFile}` : `seed ${config.seed}`;
  return `Client Records mock on ${url}  docs ${url}/docs  ${source}  clients ${clients}  ${key}`;
}

async function runWorker(config: Readonly<Config>, watch: boolean): Promise<void> {
  const logger = createLogger(config.logLevel, undefined, config.logFormat);
  exitOnCrash(logger);
  const { app, clients } = await buildServedApp(config, watch, logger);
  const running = await startHttpServer(app, config.port, config.host, logger, { maxConnections: config.maxConnections }).catch(
    (error: NodeJS.ErrnoException) => fail(`cannot listen on ${config.host}:${config.port} (${error.code ?? error.message})`),
  );
  if (cluster.isPrimary) process.stdout.write(startupLine(config, running.port, clients) + (watch ? '  watching for changes' : '') + '\n');
  else process.send?.({ ready: running.port, clients });
  // Ready first, then the search index's frequent pieces and the client views, in slices between requests (background.ts).
  void app.prebuild();

  const shutdown = (signal: string) => {
    logger.info({ signal }, 'stopping: draining in-flight requests');
    // stop() cuts what is left after TIMEOUTS.drainMs; should even that hang, give up before the 10 s promise.
    setTimeout(() => {
      logger.error('could not stop in time');
      logger.flush(() => process.exit(EXIT_CRASH));
    }, TIMEOUTS.drainMs + 1_500).unref();
    void running.stop().then(({ cut }) => {
      logger.info({ cut }, 'stopped');
      // A crash during the drain has set a non-zero exit code: it must not be reported as a clean stop.
      // Nor a stop that cut requests (docs/reliability.md, "Shutdown"): their clients got no answer.
      const code = typeof process.exitCode === 'number' && process.exitCode !== 0 ? process.exitCode : cut > 0 ? EXIT_CUT : 0;
      logger.flush(() => process.exit(code));
    });
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
}

/**
 * The app to serve: built once, or (--watch) rebuilt on every change of the
 * spec or the data file. Either way the first build is loadApp's: a spec that
 * does not read, parse or validate, or a bad data file, is one line and exit 2.
 */
async function buildServedApp(config: Readonly<Config>, watch: boolean, logger: Logger): Promise<{ app: App; clients: number }> {
  const initial = await loadApp(config, logger).catch((error: unknown) =>
    fail(error instanceof DataFileError ? `DATA_FILE ${error.message}` : (error as Error).message.split('\n')[0]!),
  );
  if (!watch) return initial;
  const watched = watchApp(config, logger, initial.app, (line) => process.stderr.write(`client-records-mock: ${line}\n`));
  return { app: watched.app, clients: initial.clients };
}

async function runPrimary(config: Readonly<Config>): Promise<void> {
  // Workers share the listening port through node:cluster; each builds the same data from the same seed.
  const readyWorkers = new Set<number>();
  let startupErrorShown = false;
  for (let i = 0; i < config.workers; i++) {
    const worker = cluster.fork();
    worker.on('message', (message: { ready?: number; clients?: number; startupError?: string }) => {
      // Every worker meets the same bad file or busy port: the first one's line is the one printed.
      if (message.startupError !== undefined && !startupErrorShown) {
        startupErrorShown = true;
        process.stderr.write(message.startupError);
      }
      if (message.ready === undefined) return;
      readyWorkers.add(worker.id);
      if (readyWorkers.size === config.workers) {
        process.stdout.write(`${startupLine(config, message.ready, message.clients ?? 0)}  workers ${config.workers}\n`);
      }
    });
  }
  let stopping = false;
  let exitCode = 0;
  cluster.on('exit', (worker, code) => {
    const failed = code !== 0;
    if (failed && !stopping && readyWorkers.has(worker.id)) {
      // A crash after start-up: replace the worker, as a supervisor would.
      process.stderr.write(`client-records-mock: worker ${worker.process.pid} exited with ${code}; starting another\n`);
      readyWorkers.delete(worker.id);
      const replacement = cluster.fork();
      replacement.on('message', (message: { ready?: number }) => {
        if (message.ready !== undefined) readyWorkers.add(replacement.id);
      });
    } else if (failed) {
      // A worker that never got ready (bad setting, port taken) would fail again: stop them all, exit non-zero.
      exitCode ||= code ?? 1;
      if (!stopping) shutdown();
    }
    if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(exitCode);
  });
  function shutdown(): void {
    stopping = true;
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGTERM');
  }
  process.once('SIGTERM', shutdown);
  process.once('SIGINT', shutdown);
}

/** The mock's settings from the environment alone (no flags: those are the proxy's), quiet, for the proxy's fallback mock. */
function mockSettingsFromEnv(env: NodeJS.ProcessEnv): Readonly<ConfigOptions> {
  const { apiKeysGiven, ...config } = loadConfig([], env);
  return { ...config, ...(apiKeysGiven ? {} : { apiKeys: undefined }), logLevel: 'silent' };
}

async function main(argv: readonly string[]): Promise<void> {
  const [command, ...rest] = argv;
  if (command === 'contract' || command === 'seed' || command === 'proxy') {
    // Loaded only when asked for: a plain server start does not load the suite or the proxy.
    if (command === 'proxy') {
      // The fallback mock reads its settings from the environment as this server does.
      const { runProxyCli } = await import('../proxy/cli');
      process.exitCode = await runProxyCli(rest, process.env, { mockSettingsFromEnv: mockSettingsFromEnv });
      return;
    }
    const run = command === 'contract' ? (await import('../contract-suite/cli')).runContractCli : (await import('../seeds/cli')).runSeedCli;
    process.exitCode = await run(rest);
    return;
  }
  const { config, watch } = readServeCommand(command === 'serve' ? rest : argv);
  if (cluster.isPrimary && config.workers > 1) await runPrimary(config);
  else {
    await runWorker(config, watch).catch((error: unknown) => {
      if (!(error instanceof StartupError)) throw error;
      exitWithStartupError(error.message);
    });
  }
}

void main(process.argv.slice(2));
