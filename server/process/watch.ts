// Live reload for spec-first work (--watch): when the spec or the data file
// changes, a whole new app (spec, data, validator, cache) is built beside the
// running one and swapped in only once it answers Ping. A change that does not
// load is reported in one line (a YAML error's line and column, a $ref's missing
// target) and the last good app keeps serving: requests never meet a
// half-loaded state, since the swap is one assignment. A change that loads is
// followed by what it changes for clients, against the last good version.
import fs from 'node:fs';
import path from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { SPEC_PATH, type OpenApiDocument, type SpecSource } from '../../contract/spec';
import { createApp, warmUp, type App } from '../pipeline/app';
import type { Config } from './config';
import { buildStore, specOf } from '../mock';

/** How often the files are stat'ed. Polling, not fs.watch: editors save by rename, which fs.watch loses track of. */
const POLL_MS = 250;
/** Saves come in bursts (write, then touch); one reload for the burst. */
const SETTLE_MS = 150;

/** The files a config's app is built from: the spec (SPEC_FILE or the package's own) and the data file. */
export function watchedFiles(config: Readonly<Config>): string[] {
  const files = [path.resolve(config.specFile ?? SPEC_PATH)];
  if (config.dataFile) files.push(path.resolve(config.dataFile));
  return files;
}

/**
 * Builds the complete app for a config, or throws an Error with a one-line
 * message: unreadable or unparsable spec, a spec the validator cannot use
 * (Ping does not answer 200), a data file that fails validation.
 */
export async function loadApp(config: Readonly<Config>, logger: Logger): Promise<LoadedApp> {
  const spec = specOf(config);
  const store = buildStore(config, spec);
  const app = createApp(config, store, logger, spec);
  const status = await warmUp(app);
  if (status !== 200) throw new Error(`the validator cannot use ${spec.path} (Ping answered ${status}; the error is logged above)`);
  return { app, clients: store.size, spec };
}

export interface LoadedApp {
  app: App;
  clients: number;
  /** The spec the app serves: what the next reload is compared with. */
  spec: SpecSource;
}

/**
 * Lines saying what a reload changed in the spec, for clients (the CLI hands in
 * spec-diff's verdict); [] when the API did not change.
 */
export type SpecComparer = (before: OpenApiDocument, after: OpenApiDocument) => string[];

export interface WatchedApp {
  /** The handler to serve: it always runs the last app that loaded completely. */
  app: App;
  close(): void;
}

/** One line for a failed load: the first line of the message, never a stack. */
function oneLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0]!;
}

/**
 * Serves `initial` and reloads on every change of the watched files. `report`
 * receives one line per reload, good or bad (the CLI writes them to stderr).
 */
export function watchApp(
  config: Readonly<Config>,
  logger: Logger,
  initial: LoadedApp,
  report: (line: string) => void,
  options: { compare?: SpecComparer } = {},
): WatchedApp {
  let current = initial.app;
  // The last version that loaded completely: each reload's verdict is against it, not against a broken save.
  let lastGood = initial.spec;
  // The background work (App.prebuild) of the app being served: stopped when
  // a reload replaces it, so that the replaced data set (at a million
  // clients, 1 GB of records being written) is not kept alive for nothing.
  let currentWork = new AbortController();
  // The signal the program gave prebuild (startServer's close), which stops the work of every app to come too.
  let outer: AbortSignal | undefined;
  const startWork = (): Promise<void> => {
    currentWork.abort();
    currentWork = new AbortController();
    return current.prebuild(outer ? AbortSignal.any([outer, currentWork.signal]) : currentWork.signal);
  };
  let running: Promise<void> = Promise.resolve();
  let pending = false;
  let timer: NodeJS.Timeout | undefined;
  const files = watchedFiles(config);

  const reload = async (): Promise<void> => {
    try {
      const loaded = await loadApp(config, logger);
      current = loaded.app;
      void startWork();
      report(`reloaded ${files.map((file) => path.basename(file)).join(' and ')}`);
      const before = lastGood;
      lastGood = loaded.spec;
      if (options.compare && before.text !== loaded.spec.text) {
        try {
          for (const line of options.compare(before.document, loaded.spec.document)) report(line);
        } catch (error) {
          report(`cannot compare the spec with the last good version: ${oneLine(error)}`);
        }
      }
    } catch (error) {
      report(`reload failed, still serving the last good version: ${oneLine(error)}`);
    }
  };
  // Reloads run one at a time; changes during one cause exactly one more.
  const schedule = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      if (pending) return;
      pending = true;
      running = running.then(() => {
        pending = false;
        return reload();
      });
    }, SETTLE_MS);
  };
  const onChange = (now: fs.Stats, before: fs.Stats) => {
    if (now.mtimeMs !== before.mtimeMs || now.size !== before.size || now.ino !== before.ino) schedule();
  };
  for (const file of files) fs.watchFile(file, { interval: POLL_MS, persistent: false }, onChange);

  const handler = (req: IncomingMessage, res: ServerResponse) => current(req, res);
  const app = Object.defineProperties(handler, {
    cache: { get: () => current.cache },
    prebuild: {
      value: (signal?: AbortSignal) => {
        outer = signal;
        return startWork();
      },
    },
  }) as unknown as App;
  return {
    app,
    close: () => {
      clearTimeout(timer);
      for (const file of files) fs.unwatchFile(file, onChange);
    },
  };
}
