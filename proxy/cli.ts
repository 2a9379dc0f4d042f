// `client-records-mock proxy --upstream URL [options]`: the settings checked at
// start (a bad one is one line on stderr and exit 2), one start-up line naming
// the upstream and the proxy's URL, one line per violation while it runs, and
// at SIGINT/SIGTERM the reports written, a summary line, and the exit code
// (0, or 1 when --fail-on-violation is set and a counted violation was seen).
// Importing this module does nothing; it runs itself only as the main module.
import { ConfigError, type ConfigOptions } from '../server/index';
import { DataFileError } from '../seeds/data-file';
import { DRAIN_MS, startProxy, type RunningProxy } from './proxy';
import { RESERVED_PREFIX } from './journal-http';
import { loadProxySettings, proxyHelpText, ProxySettingError, type ProxySettings } from './settings';

const EXIT_BAD_SETTING = 2;
const PROBE_TIMEOUT_MS = 3_000;
/** After the summary, how long the process may take to end by itself before it is ended. */
const EXIT_GRACE_MS = 2_000;

function startupLine(running: RunningProxy, settings: Readonly<ProxySettings>): string {
  const fallback = settings.fallback.size === 0 ? 'off' : [...settings.fallback].join(',');
  return (
    `Client Records proxy on ${running.url} → upstream ${running.upstream}` +
    (settings.journal ? `  journal ${running.url}${RESERVED_PREFIX}violations` : '  journal off') +
    `  fallback ${fallback}  fail-on-violation ${settings.failOn}` +
    (settings.rejectInvalidRequests ? '  rejecting invalid requests' : '')
  );
}

/** One GET of the upstream's root: a warning, not a failure, when nothing answers (it may come up later). */
async function probe(upstream: string): Promise<string | undefined> {
  try {
    const response = await fetch(`${upstream}/`, { signal: AbortSignal.timeout(PROBE_TIMEOUT_MS), redirect: 'manual' });
    await response.arrayBuffer();
    return undefined;
  } catch (error) {
    const code = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).name;
    return `upstream ${upstream} does not answer now (${code}): requests get 502/504 until it does, unless --fallback takes the cause`;
  }
}

/**
 * What the command line's dispatcher gives the proxy: how to read the mock's
 * settings from the environment, as `npm start` reads them (the server's
 * settings module is not one of its public faces, so the dispatcher, which may
 * import anything, passes its reader in).
 */
export interface ProxyCliContext {
  mockSettingsFromEnv?(env: NodeJS.ProcessEnv): Promise<Readonly<ConfigOptions>>;
}

/** The runner: resolves to the exit code once the proxy was stopped by a signal (or at once, for --help and bad settings). */
export async function runProxyCli(
  argv: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
  context: ProxyCliContext = {},
): Promise<number> {
  const out = (line: string) => process.stdout.write(`${line}\n`);
  if (argv.includes('--help') || argv.includes('-h')) {
    out(proxyHelpText());
    return 0;
  }
  let running: RunningProxy;
  let settings: Readonly<ProxySettings>;
  try {
    settings = loadProxySettings(argv, env);
    const mock = settings.fallback.size > 0 ? await context.mockSettingsFromEnv?.(env) : undefined;
    running = await startProxy({ ...settings, mock, log: out });
  } catch (error) {
    if (error instanceof ProxySettingError || error instanceof ConfigError) {
      process.stderr.write(`proxy: ${error.message}\n`);
      return EXIT_BAD_SETTING;
    }
    if (error instanceof DataFileError) {
      process.stderr.write(`proxy: DATA_FILE ${error.message}\n`);
      return EXIT_BAD_SETTING;
    }
    process.stderr.write(`proxy: ${(error as Error).message.split('\n')[0]}\n`);
    return EXIT_BAD_SETTING;
  }
  out(startupLine(running, settings));
  void probe(running.upstream).then((warning) => warning && process.stderr.write(`proxy: warning: ${warning}\n`));

  // The handlers stay: a second signal cuts the drain short, it never kills the process before the reports are written.
  const signal = await new Promise<NodeJS.Signals>((resolve) => {
    let stopping = false;
    const onSignal = (received: NodeJS.Signals) => {
      if (!stopping) {
        stopping = true;
        resolve(received);
        return;
      }
      out(`proxy: ${received} again: ending the answers under way now`);
      void running.close({ now: true });
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });
  out(`proxy: ${signal}: stopping, answers under way are finished first (${DRAIN_MS / 1000} s at most)`);
  const result = await running.close();
  out(result.summary);
  // The reports are written and the summary printed: nothing left may hold the exit (a socket a peer keeps half-open, a
  // timer of the fallback mock). unref()'d: it only ends a process that would otherwise linger.
  setTimeout(() => process.exit(result.exitCode), EXIT_GRACE_MS).unref();
  return result.exitCode;
}

if (require.main === module) {
  void runProxyCli(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
