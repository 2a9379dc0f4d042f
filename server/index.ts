// The package's programmatic API: `import { startServer } from 'client-records-mock'`.
// A program's options go through the same settings table as the command line
// (process/config.ts: a bad option is a ConfigError naming it), then the one
// road of mock.ts (spec → data → app); startServer adds the socket layer.
import { configFromOptions, type Config, type ConfigOptions } from './process/config';
import { createLogger } from './process/logger';
import { startHttpServer } from './listener/http-server';
import { mockFromConfig, type Mock as MockOf } from './mock';

export { ConfigError, type Config, type ConfigOptions } from './process/config';
export type { components, operations, paths } from '../generated/openapi';

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
  /** Stops accepting, lets in-flight requests finish, then resolves. */
  close(): Promise<void>;
}

/** Starts the mock on `host:port` (default 127.0.0.1 and, unlike the CLI, any free port). */
export async function startServer(options: Readonly<ConfigOptions> = {}): Promise<RunningMock> {
  const mock = await createMock({ port: 0, ...options });
  const running = await startHttpServer(mock.app, mock.config.port, mock.config.host, mock.logger, {
    maxConnections: mock.config.maxConnections,
  });
  // Listening first, then the background work, in slices between requests (engine/background.ts); close() stops it.
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
