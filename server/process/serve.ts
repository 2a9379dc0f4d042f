// `client-records-mock serve` (the default command; cli/main.ts dispatches
// here): reads the settings, builds the data, listens, runs --workers, and
// stops cleanly on SIGTERM/SIGINT. The process's side effects live here and in
// cli/main.ts only; everything below is given what it needs.
import cluster from 'node:cluster';
import { ConfigError, helpText, loadConfig, type Config } from './config';
import { createLogger } from './logger';
import type { Logger } from 'pino';
import type { App } from '../pipeline/app';
import { startHttpServer, TIMEOUTS } from '../listener/http-server';
import { EXIT_CRASH, exitOnCrash } from './crash-policy';
import { controlFor, controlWanted, DataFileError, openState } from '../mock';
import type { Control } from '../control/control';
import { finishCoverage } from '../control/coverage-files';
import type { CoverageReport } from '../../contract/coverage-report';
import { loadApp, watchApp, type SpecComparer } from './watch';

/** Exit code for a configuration or data-file error (docs/decisions.md: a bad setting → one line, exit 2). */
const EXIT_BAD_SETTING = 2;
/** Exit code of a stop that had to cut requests still unanswered after the drain time (docs/reliability.md, "Shutdown"). */
const EXIT_CUT = 3;
/** Exit code of a clean stop whose coverage is below --coverage-min (docs/control.md, "Coverage"). */
const EXIT_COVERAGE = 1;

/** Coverage is asked for at exit: a report to write, or minimums to hold it to. */
function coverageAsked(config: Readonly<Config>): boolean {
  return config.coverageOut !== undefined || Object.keys(config.coverageMin).length > 0;
}

/** Writes the report and prints its lines; the exit code of a clean stop becomes 1 when a minimum is not met. */
function reportCoverage(config: Readonly<Config>, report: CoverageReport, code: number): number {
  const { lines, belowMin } = finishCoverage(report, config.coverageOut, config.coverageMin);
  for (const line of lines) process.stderr.write(`client-records-mock: ${line}\n`);
  return code === 0 && belowMin ? EXIT_COVERAGE : code;
}

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

/** Flags of the CLI itself, not settings: they take no value. */
const CLI_FLAGS = new Set(['--help', '-h', '--version', '-v', '--watch']);

interface ServeCommand {
  config: Readonly<Config>;
  watch: boolean;
}

/** What the bin tells serve about itself: its commands' usage lines (for --help) and the package's version. */
export interface ServeCli {
  usage: readonly string[];
  version: string;
  /** Under --watch, what a reload's spec edit changes for clients (spec-diff/'s verdict, loaded only then). */
  specVerdict?: () => Promise<SpecComparer>;
}

function readServeCommand(argv: readonly string[], cli: ServeCli): ServeCommand {
  const cliFlags = new Set(argv.filter((arg) => CLI_FLAGS.has(arg)));
  if (cliFlags.has('--help') || cliFlags.has('-h')) {
    process.stdout.write(helpText(cli.usage) + '\n');
    process.exit(0);
  }
  if (cliFlags.has('--version') || cliFlags.has('-v')) {
    process.stdout.write(`${cli.version}\n`);
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
    // Per-worker sessions and journals would answer a test in scenarios that depend on which worker took each request.
    if (config.workers > 1 && config.state === undefined && controlWanted(config)) {
      const off = config.control ? '--control off' : 'no --coverage-out or --coverage-min';
      throw new ConfigError(
        `--workers ${config.workers} shares the control state between workers only through Redis: add --state redis://HOST:PORT, or set ${off}`,
      );
    }
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

async function runWorker(config: Readonly<Config>, watch: boolean, cli: ServeCli): Promise<void> {
  const logger = createLogger(config.logLevel, undefined, config.logFormat);
  exitOnCrash(logger);
  // One control room per process, kept across --watch reloads; with --state its store is shared with every other process.
  const store = await openState(config, logger).catch((error: Error) => fail(error.message));
  const control = controlFor(config, store);
  const { app, clients } = await buildServedApp(config, watch, logger, cli, control);
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
      void finish(typeof process.exitCode === 'number' && process.exitCode !== 0 ? process.exitCode : cut > 0 ? EXIT_CUT : 0);
    });
  };
  // The coverage at a clean stop: a single process writes it; a worker hands its report (the store's, every worker's
  // traffic in it) to the primary, which writes the last one it gets. Then the store is let go of.
  const finish = async (code: number) => {
    if (control && coverageAsked(config)) {
      const report = await control.coverage().catch((error: Error) => {
        process.stderr.write(`client-records-mock: cannot read the coverage: ${error.message}\n`);
        return undefined;
      });
      if (report && cluster.isPrimary) code = reportCoverage(config, report, code);
      else if (report && process.send) await new Promise((resolve) => process.send!({ coverageAtExit: report }, resolve));
    }
    await control?.store.close();
    logger.flush(() => process.exit(code));
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
}

/**
 * The app to serve: built once, or (--watch) rebuilt on every change of the
 * spec or the data file. Either way the first build is loadApp's: a spec that
 * does not read, parse or validate, or a bad data file, is one line and exit 2.
 */
async function buildServedApp(
  config: Readonly<Config>,
  watch: boolean,
  logger: Logger,
  cli: ServeCli,
  control: Control | undefined,
): Promise<{ app: App; clients: number }> {
  const initial = await loadApp(config, logger, control).catch((error: unknown) =>
    fail(error instanceof DataFileError ? `DATA_FILE ${error.message}` : (error as Error).message.split('\n')[0]!),
  );
  if (!watch) return initial;
  // Each reload says whether the edit breaks clients: the bin hands in spec-diff's verdict (server/ imports no spec-diff/).
  const compare = await cli.specVerdict?.();
  const watched = watchApp(config, logger, initial, (line) => process.stderr.write(`client-records-mock: ${line}\n`), { compare, control });
  return { app: watched.app, clients: initial.clients };
}

async function runPrimary(config: Readonly<Config>): Promise<void> {
  // Workers share the listening port through node:cluster; each builds the same data from the same seed, and shares
  // the control state through the store (--state).
  // The coverage each worker read from the store as it stopped (a Ctrl-C reaches the workers too, so they cannot be asked after).
  const coverageAtExit: CoverageReport[] = [];
  const readyWorkers = new Set<number>();
  let startupErrorShown = false;
  for (let i = 0; i < config.workers; i++) {
    const worker = cluster.fork();
    worker.on('message', (message: { ready?: number; clients?: number; startupError?: string; coverageAtExit?: CoverageReport }) => {
      if (message.coverageAtExit) coverageAtExit.push(message.coverageAtExit);
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
    if (Object.keys(cluster.workers ?? {}).length === 0) {
      // The last worker to stop read the store after the others had written theirs.
      const last = coverageAtExit.at(-1);
      if (last) exitCode = reportCoverage(config, last, exitCode);
      process.exit(exitCode);
    }
  });
  function shutdown(): void {
    stopping = true;
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGTERM');
  }
  process.once('SIGTERM', shutdown);
  process.once('SIGINT', shutdown);
}

/** Serves with the settings of `argv` (flags) and the environment; resolves once listening (or the workers are started). */
export async function runServe(argv: readonly string[], cli: ServeCli): Promise<void> {
  const { config, watch } = readServeCommand(argv, cli);
  if (cluster.isPrimary && config.workers > 1) await runPrimary(config);
  else {
    await runWorker(config, watch, cli).catch((error: unknown) => {
      if (!(error instanceof StartupError)) throw error;
      exitWithStartupError(error.message);
    });
  }
}
