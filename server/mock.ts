// The mock as a value: its settings → the spec it serves → the data → the app,
// on one road that the public API (index.ts), the in-process MSW handlers
// (msw.ts) and the CLI's serve and --watch (process/) all take, so they serve
// the same data through the same app. The spec is read here, once per build,
// and passed down to everything that needs it (data file validation, the
// pipeline, the docs page); nothing below reads openapi.yaml on its own.
// Settings arrive as values: the process's settings table parses them. The
// control room (server/control) is made once per process and handed to every
// app built, through the pipeline's ControlPort: its sessions, journal and
// tally outlive a --watch reload. Its state store is this process's memory,
// or (--state) Redis, opened here by a dynamic import so that a process
// without it never loads ioredis.
import os from 'node:os';
import path from 'node:path';
import type { Logger } from 'pino';
import { generateClients, generatedSource } from '../seeds/client';
import { DataFileError, loadDataFile } from '../seeds/data-file';
import { bundledSpec, readSpec, SpecSchemas, type SpecSource } from '../contract/spec';
import type * as AppModule from './pipeline/app';
import type { App } from './pipeline/app';
import { apiPath, type ApiPath, type AppSettings } from './pipeline/api-path';
import { ClientStore } from './engine/store';
import { Control } from './control/control';
import type { CoverageMin } from './control/coverage';
import { CONTROL_PREFIX } from './control/document';
import { controlPort } from './control/http';
import type { ProcessLabel } from './control/journal';
import { MemoryState } from './control/memory-state';
import type { StateStore } from './control/state';
import { digestMatcher } from './pipeline/key-digest';

/** A data file that does not load (the CLI turns it into one line and exit 2). */
export { DataFileError };

/** What a mock is built from: the pipeline's settings and the data's (process/config.ts's Config holds them all, checked). */
export interface MockSettings extends AppSettings {
  seed: number;
  clients: number;
  dataFile: string | undefined;
  dataFileMaxMb: number;
  /** SPEC_FILE; undefined = the package's own openapi.yaml. */
  specFile: string | undefined;
  /** The control API, sessions, scenarios and journal (CONTROL). */
  control: boolean;
  journalSize: number;
  /** STATE: redis://HOST:PORT, or undefined for this process's memory. */
  state: string | undefined;
  statePrefix: string;
  stateTtl: number;
  /** The server's scenario at start (SCENARIO). */
  scenario: string | undefined;
  coverageOut: string | undefined;
  coverageMin: CoverageMin;
}

export interface Mock<Settings extends MockSettings = MockSettings> {
  config: Readonly<Settings>;
  store: ClientStore;
  app: App;
  logger: Logger;
  /** The control room, or undefined when neither the control API nor a coverage report is asked for. */
  control: Control | undefined;
}

/** This process, as journal entries and states name it. */
export function processLabel(): ProcessLabel {
  return { host: os.hostname().slice(0, 255), pid: process.pid };
}

/** The control room is made: the control API is on, or a coverage report is asked for. */
export function controlWanted(settings: Readonly<MockSettings>): boolean {
  return settings.control || settings.coverageOut !== undefined || Object.keys(settings.coverageMin).length > 0;
}

/**
 * The Redis store of --state, connected and read (a one-line Error when Redis
 * does not answer in a few seconds), or undefined: the control room then keeps
 * its state in memory.
 */
export async function openState(settings: Readonly<MockSettings>, logger: Logger): Promise<StateStore | undefined> {
  if (settings.state === undefined || !controlWanted(settings)) return undefined;
  const { openRedisState } = await import('./control/redis-state');
  return openRedisState({
    url: settings.state,
    prefix: settings.statePrefix,
    sessionTtlSeconds: settings.stateTtl,
    journalSize: settings.control ? settings.journalSize : 0,
    process: processLabel(),
    logger,
  }).catch((error: unknown) => {
    throw new Error(`invalid --state (STATE): ${(error as Error).message}`, { cause: error });
  });
}

/**
 * The control room for these settings: with the control API on, or when only
 * coverage is asked for (--coverage-out, --coverage-min: then it counts, and
 * neither steers nor journals). `store`: the shared one openState opened;
 * without it, this process's memory.
 */
export function controlFor(settings: Readonly<MockSettings>, store?: StateStore): Control | undefined {
  if (!controlWanted(settings)) return undefined;
  if (settings.state !== undefined && !store) {
    throw new Error(
      'state: a Redis store is opened by startServer or the serve command (openState); in-process handlers keep their state in memory',
    );
  }
  const source = settings.dataFile
    ? `mock, data ${path.basename(settings.dataFile)}`
    : `mock, seed ${settings.seed}, ${settings.clients} clients`;
  return new Control(
    {
      steering: settings.control,
      seed: settings.seed,
      scenario: settings.scenario,
      source,
      run: {
        seed: settings.seed,
        clients: settings.dataFile ? 'data file' : settings.clients,
        ...(settings.specFile ? { spec: settings.specFile } : {}),
      },
    },
    store ?? new MemoryState(settings.control ? settings.journalSize : 0, processLabel()),
  );
}

/** The served spec's paths under the control API's prefix: there must be none while it is on. */
function reservedPaths(spec: SpecSource): string[] {
  return Object.keys(spec.document.paths).filter(
    (template) => template.startsWith(CONTROL_PREFIX) || template === CONTROL_PREFIX.slice(0, -1),
  );
}

/**
 * Express and express-openapi-validator load when the first app is made, not
 * with this module: the in-process lean path (msw-core.ts) may never need them.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use, see above.
const appModule = (): typeof AppModule => require('./pipeline/app') as typeof AppModule;

/**
 * What an app is made of for a spec and its data (pipeline/api-path.ts), with
 * the control room when there is one. Throws a one-line Error when the spec
 * has a path under /__control/ (the control API would hide it) or --scenario
 * names no scenario of it.
 */
export function apiPathFor(
  settings: Readonly<MockSettings>,
  store: ClientStore,
  logger: Logger,
  spec: SpecSource,
  control: Control | undefined,
): ApiPath {
  if (control && settings.control) {
    const taken = reservedPaths(spec);
    if (taken.length > 0) {
      throw new Error(
        `${spec.path} has paths under ${CONTROL_PREFIX}, which the control API reserves (${taken.join(', ')}): rename them, or set --control off`,
      );
    }
  }
  control?.useSpec(spec);
  return apiPath(settings, store, logger, spec, control && controlPort(control), digestMatcher);
}

/** The Express app on an API path (pipeline/app.ts, appOn). */
export function appOn(path: ApiPath): App {
  return appModule().appOn(path);
}

/** The app for a spec and its data (apiPathFor's checks apply). */
export function appFor(
  settings: Readonly<MockSettings>,
  store: ClientStore,
  logger: Logger,
  spec: SpecSource,
  control: Control | undefined,
): App {
  return appOn(apiPathFor(settings, store, logger, spec, control));
}

/** Resolves when the app's validator is ready (app.ts, warmUp), to Ping's status. */
export function warmUp(app: App): Promise<number> {
  return appModule().warmUp(app);
}

/** The spec the settings serve: SPEC_FILE when set (read afresh), else the package's own openapi.yaml. */
export function specOf(settings: Pick<MockSettings, 'specFile'>): SpecSource {
  return settings.specFile ? readSpec(path.resolve(settings.specFile)) : bundledSpec();
}

/** How a mock is built: what may wait for the first request that needs it. */
export interface BuildOptions {
  /**
   * The records, the filters' groups and the search index made by the first request that needs each, not before
   * the first answer (the in-process handlers: msw-core.ts). A server makes them all at start: its requests should
   * not pay for them, and its background work compacts the records.
   */
  lazy?: boolean;
}

/** The data the settings name: the data file, else `clients` generated from `seed`. Throws DataFileError on a bad file. */
export function buildStore(settings: Readonly<MockSettings>, spec: SpecSource, options: BuildOptions = {}): ClientStore {
  const lazy = options.lazy ?? false;
  if (settings.dataFile) {
    return new ClientStore(loadDataFile(settings.dataFile, settings.dataFileMaxMb * 2 ** 20, new SpecSchemas(spec.document)), { lazy });
  }
  // Lazy: ordered from each client's first draws, each record generated when read (the same records).
  const clients = lazy ? generatedSource(settings.seed, settings.clients) : generateClients(settings.seed, settings.clients);
  return new ClientStore(clients, { lazy });
}

/** The app for ready settings; the validator is warmed so the first request meets a ready app. */
export async function mockFromConfig<Settings extends MockSettings>(
  config: Readonly<Settings>,
  logger: Logger,
  control: Control | undefined = controlFor(config),
): Promise<Mock<Settings>> {
  const spec = specOf(config);
  const store = buildStore(config, spec);
  const app = appFor(config, store, logger, spec, control);
  await warmUp(app);
  return { config, store, app, logger, control };
}
