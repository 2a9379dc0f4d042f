// The mock as a value, for programs: build it from options (createMock) and,
// when a port is wanted, listen (startServer). The CLI (main.ts), the package's
// programmatic API and the in-process MSW handlers all build it here, so they
// serve the same data through the same app.
import type { Logger } from 'pino';
import { generateClients } from '../seeds/client';
import { loadDataFile } from '../seeds/data-file';
import { SpecSchemas, type SpecSource } from '../contract/spec';
import { createApp, specOf, warmUp, type App } from './pipeline/app';
import { configFromOptions, type Config, type ConfigOptions } from './config';
import { startHttpServer } from './listener/http-server';
import { createLogger } from './logger';
import { ClientStore } from './engine/store';

export interface Mock {
  config: Readonly<Config>;
  store: ClientStore;
  app: App;
  logger: Logger;
}

/** The data the config names: the data file, else `clients` generated from `seed`. Throws DataFileError on a bad file. */
export function buildStore(config: Readonly<Config>, spec: SpecSource = specOf(config)): ClientStore {
  if (!config.dataFile) return new ClientStore(generateClients(config.seed, config.clients));
  return new ClientStore(loadDataFile(config.dataFile, config.dataFileMaxMb * 2 ** 20, new SpecSchemas(spec.document)));
}

/** The app for a ready config; the validator is warmed so the first request meets a ready app. */
export async function mockFromConfig(
  config: Readonly<Config>,
  logger: Logger = createLogger(config.logLevel, undefined, config.logFormat),
): Promise<Mock> {
  const spec = specOf(config);
  const store = buildStore(config, spec);
  const app = createApp(config, store, logger, spec);
  await warmUp(app);
  return { config, store, app, logger };
}

/**
 * The mock for a program's options, checked by the settings module (a bad
 * option rejects with a ConfigError naming it). Programs get a quiet log
 * unless they ask for one (`logLevel`).
 */
export function createMock(options: Readonly<ConfigOptions> = {}): Promise<Mock> {
  return mockFromConfig(configFromOptions({ logLevel: 'silent', ...options }));
}

export interface RunningMock {
  /** e.g. `http://127.0.0.1:41234`, without a trailing slash. */
  url: string;
  port: number;
  /** Stops accepting, lets in-flight requests finish, then resolves. */
  close(): Promise<void>;
}

/** Starts the mock on `host:port` (default 127.0.0.1 and, unlike the CLI, any free port). */
export async function startServer(options: Readonly<ConfigOptions> = {}): Promise<RunningMock> {
  const mock = await createMock({ port: 0, ...options });
  const running = await startHttpServer(mock.app, mock.config.port, mock.config.host, mock.logger, {
    maxConnections: mock.config.maxConnections,
  });
  // Listening first, then the background work, in slices between requests (background.ts); close() stops it.
  const background = new AbortController();
  void mock.app.prebuild(background.signal);
  const host = mock.config.host === '0.0.0.0' || mock.config.host === '::' ? '127.0.0.1' : mock.config.host;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${running.port}`,
    port: running.port,
    close: async () => {
      background.abort();
      await running.stop();
    },
  };
}
