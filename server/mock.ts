// The mock as a value: its settings → the spec it serves → the data → the app,
// on one road that the public API (index.ts), the in-process MSW handlers
// (msw.ts) and the CLI's serve and --watch (process/) all take, so they serve
// the same data through the same app. The spec is read here, once per build,
// and passed down to everything that needs it (data file validation, the
// pipeline, the docs page); nothing below reads openapi.yaml on its own.
// Settings arrive as values: the process's settings table parses them.
import path from 'node:path';
import type { Logger } from 'pino';
import { generateClients } from '../seeds/client';
import { DataFileError, loadDataFile } from '../seeds/data-file';
import { bundledSpec, readSpec, SpecSchemas, type SpecSource } from '../contract/spec';
import { createApp, warmUp, type App, type AppSettings } from './pipeline/app';
import { ClientStore } from './engine/store';

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
}

export interface Mock<Settings extends MockSettings = MockSettings> {
  config: Readonly<Settings>;
  store: ClientStore;
  app: App;
  logger: Logger;
}

/** The spec the settings serve: SPEC_FILE when set (read afresh), else the package's own openapi.yaml. */
export function specOf(settings: Pick<MockSettings, 'specFile'>): SpecSource {
  return settings.specFile ? readSpec(path.resolve(settings.specFile)) : bundledSpec();
}

/** The data the settings name: the data file, else `clients` generated from `seed`. Throws DataFileError on a bad file. */
export function buildStore(settings: Readonly<MockSettings>, spec: SpecSource): ClientStore {
  if (!settings.dataFile) return new ClientStore(generateClients(settings.seed, settings.clients));
  return new ClientStore(loadDataFile(settings.dataFile, settings.dataFileMaxMb * 2 ** 20, new SpecSchemas(spec.document)));
}

/** The app for ready settings; the validator is warmed so the first request meets a ready app. */
export async function mockFromConfig<Settings extends MockSettings>(config: Readonly<Settings>, logger: Logger): Promise<Mock<Settings>> {
  const spec = specOf(config);
  const store = buildStore(config, spec);
  const app = createApp(config, store, logger, spec);
  await warmUp(app);
  return { config, store, app, logger };
}
