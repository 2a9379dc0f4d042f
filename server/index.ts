// The package's programmatic API: `import { startServer } from 'client-records-mock'`.
// A program's options go through the same settings table as the command line
// (process/config.ts: a bad option is a ConfigError naming it), then the one
// road of mock.ts (spec → data → app); startServer adds the socket layer and
// the control room's helpers for tests (the journal, scenarios, coverage:
// control.openapi.yaml, without HTTP).
import { configFromOptions, type Config, type ConfigOptions } from './process/config';
import { createLogger } from './process/logger';
import { startHttpServer } from './listener/http-server';
import { controlFor, mockFromConfig, openState, type Mock as MockOf } from './mock';
import type { Control } from './control/control';
import { finishCoverage } from './control/coverage-files';
import type { JournalEntry, JournalQuery } from './control/journal';
import type { ScenarioRequest } from './control/scenarios';
import type { ScenarioState } from './control/sessions';
import type { CoverageReport } from '../contract/coverage-report';

export { ConfigError, type Config, type ConfigOptions } from './process/config';
export type { components, operations, paths } from '../generated/openapi';
export { coverageShortfalls, parseCoverageMin, type CoverageMin } from './control/coverage';
export type { CoverageReport } from '../contract/coverage-report';
export type { JournalEntry, ScenarioRequest, ScenarioState };

/** What mock.journal() filters by (control.openapi.yaml, readJournal); `limit` defaults to 10,000. */
export type JournalFilter = Partial<JournalQuery>;

/** A built mock: its settings, its data, its app (a Node request handler) and its logger. */
export type Mock = MockOf<Config>;

/**
 * The mock for a program's options, checked by the settings module (a bad
 * option rejects with a ConfigError naming it). Programs get a quiet log
 * unless they ask for one (`logLevel`).
 */
export function createMock(options: Readonly<ConfigOptions> = {}): Promise<Mock> {
  const config = configFromOptions({ logLevel: 'silent', ...options });
  return mockFromConfig(config, createLogger(config.logLevel, undefined, config.logFormat));
}

export interface RunningMock {
  /** e.g. `http://127.0.0.1:41234`, without a trailing slash. */
  url: string;
  port: number;
  /** Stops accepting, lets in-flight requests finish, then resolves (and writes `coverageOut`, when given). */
  close(): Promise<void>;
  /** The journal's entries that match `filter`, oldest first (the control API's readJournal, without HTTP). */
  journal(filter?: JournalFilter): Promise<JournalEntry[]>;
  /** Removes every journal entry, or one session's. */
  clearJournal(session?: string): Promise<void>;
  /** Switches the server, or one session (`{ session }`), to a scenario: `'down'`, `{ scenario: 'slow', min: 200 }`. */
  setScenario(scenario: string | ScenarioRequest, options?: { session?: string }): Promise<ScenarioState>;
  /** Back to normal: the server's scenario, and every session forgotten. */
  resetScenarios(): Promise<void>;
  /** What the traffic so far exercised of openapi.yaml (the shared coverage format, side consumer). */
  coverage(): Promise<CoverageReport>;
}

/** The control room of a mock whose control API is on, or an Error saying how to turn it on. */
function steering(control: Control | undefined): Control {
  if (!control?.steering) throw new Error('the control API is off for this mock (control: off); start it with control: on');
  return control;
}

/**
 * Starts the mock on `host:port` (default 127.0.0.1 and, unlike the CLI, any
 * free port). With `state: 'redis://HOST:PORT'` its control state is shared
 * through that Redis (docs/control.md, "More than one process"); it rejects
 * with a one-line Error when Redis does not answer within a few seconds.
 */
export async function startServer(options: Readonly<ConfigOptions> = {}): Promise<RunningMock> {
  const config = configFromOptions({ logLevel: 'silent', port: 0, ...options });
  const logger = createLogger(config.logLevel, undefined, config.logFormat);
  const store = await openState(config, logger);
  const mock = await mockFromConfig(config, logger, controlFor(config, store)).catch(async (error: unknown) => {
    await store?.close();
    throw error;
  });
  const running = await startHttpServer(mock.app, mock.config.port, mock.config.host, mock.logger, {
    maxConnections: mock.config.maxConnections,
  });
  // Listening first, then the background work, in slices between requests (engine/background.ts); close() stops it.
  const background = new AbortController();
  void mock.app.prebuild(background.signal);
  const host = mock.config.host === '0.0.0.0' || mock.config.host === '::' ? '127.0.0.1' : mock.config.host;
  const control = mock.control;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${running.port}`,
    port: running.port,
    close: async () => {
      background.abort();
      await running.stop();
      try {
        if (control && mock.config.coverageOut !== undefined) finishCoverage(await control.coverage(), mock.config.coverageOut, {});
      } finally {
        await control?.store.close();
      }
    },
    journal: async (filter = {}) => (await steering(control).readJournal({ limit: 10_000, ...filter })).entries,
    clearJournal: (session) => steering(control).clearJournal(session),
    setScenario: (scenario, options = {}) => {
      const request = typeof scenario === 'string' ? { scenario } : scenario;
      return options.session === undefined ? steering(control).setServer(request) : steering(control).setSession(options.session, request);
    },
    resetScenarios: async () => {
      await steering(control).resetSessions();
      await steering(control).setServer(null);
    },
    coverage: async () => {
      if (!control) throw new Error('coverage is counted with the control API on, or with coverageOut / coverageMin set');
      return control.coverage();
    },
  };
}
