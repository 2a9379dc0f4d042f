// The server's rows of the one settings machinery (settings/): every setting's key, flag, variable,
// default, parser and help, and the Config a program's options make through them. Apart from
// config.ts (which reads argv and works out MAX_CONNECTIONS=auto from the file-descriptor limit) so
// that the browser handlers (server/browser.ts) check their options with the very same table,
// importing no Node built-in.
import { hostName, toggle, wholeNumber } from '../../settings/parse';
import { resolveOptions, SettingError, type Rows } from '../../settings/table';
import { parseCoverageMin, type CoverageMin } from '../control/coverage-min';

export type Toggle = boolean;
export interface Range {
  min: number;
  max: number;
}

export interface Config {
  port: number;
  host: string;
  seed: number;
  clients: number;
  dataFile: string | undefined;
  dataFileMaxMb: number;
  apiKeys: readonly string[];
  /** True when keys came from API_KEYS/--api-keys: then they are never printed. */
  apiKeysGiven: boolean;
  auth: Toggle;
  latencyMs: Range;
  errorRate: number;
  validateResponses: Toggle;
  fullResponseValidation: Toggle;
  corsOrigins: '*' | readonly string[];
  logLevel: LogLevel;
  workers: number;
  cache: Toggle;
  cacheMb: number;
  /** The contract served, validated against and watched; undefined = the package's own openapi.yaml. */
  specFile: string | undefined;
  logFormat: LogFormat;
  /** Makes paging Link headers absolute (docs/frontend.md); undefined = relative references. */
  publicUrl: string | undefined;
  /** Open connections a process keeps at most (docs/reliability.md, "Connections"). */
  maxConnections: number;
  /** The control API, sessions, scenarios and journal (control.openapi.yaml; docs/control.md). */
  control: Toggle;
  /** Where the control room's state is shared (redis://HOST:PORT); undefined = this process's memory. */
  state: string | undefined;
  /** The prefix of every Redis key and channel of the shared state. */
  statePrefix: string;
  /** Seconds the shared state keeps a session no request or switch used. */
  stateTtl: number;
  /** Exchanges the journal keeps; 0 keeps none. */
  journalSize: number;
  /** The server's scenario at start, in the X-Mock-Scenario syntax; undefined = normal. */
  scenario: string | undefined;
  /** Where the coverage report is written at exit (JSON, JUnit, HTML beside it); undefined = not written. */
  coverageOut: string | undefined;
  /** Minimum coverage percentages; a clean stop below one exits 1. */
  coverageMin: CoverageMin;
}

export const LOG_FORMATS = ['auto', 'pretty', 'json'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** A bad setting: the one error type of the settings (settings/table.ts), named for the server's callers. */
export { SettingError as ConfigError };

/** The settings the table holds: every Config key but apiKeysGiven, which says where apiKeys came from. */
type TableConfig = Omit<Config, 'apiKeysGiven'>;

// Decimals are plain too: Number() would also read 0x1, 1e0 and ' ', which nobody means in a setting.
const DECIMAL = /^\d+(?:\.\d+)?$/;

function list(raw: string): string[] {
  return raw
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item.length > 0);
}

function latency(raw: string): Range {
  const match = /^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$/.exec(raw);
  const min = Number(match?.[1]);
  const max = match?.[2] === undefined ? min : Number(match[2]);
  if (!match || min > max || max > 60_000) throw new Error('must be milliseconds (0 to 60000) or a range such as 100-400');
  return { min, max };
}

function fraction(raw: string): number {
  const value = Number(raw.trim());
  if (!DECIMAL.test(raw.trim()) || value > 1) throw new Error('must be a decimal number from 0 to 1, such as 0.25');
  return value;
}

// The order of this table is the order of --help.
export type AnySetting = Rows<TableConfig>[number];

/**
 * The table, with how `MAX_CONNECTIONS=auto` is worked out (from the file-descriptor limit in Node;
 * the browser handlers have no sockets and pass a constant).
 */
export function settingsTable(autoConnections: () => number): Rows<TableConfig> {
  return [
    {
      key: 'port',
      env: 'PORT',
      flag: '--port',
      fallback: '4000',
      help: 'port to listen on; 0 = any free port',
      parse: wholeNumber(0, 65535),
    },
    {
      key: 'host',
      env: 'HOST',
      flag: '--host',
      fallback: '127.0.0.1',
      help: 'interface to bind; 0.0.0.0 in a container',
      parse: hostName,
    },
    {
      key: 'seed',
      env: 'SEED',
      flag: '--seed',
      fallback: '1',
      help: 'Faker seed: same seed and count = same data',
      parse: wholeNumber(0, 2 ** 32 - 1),
    },
    {
      key: 'clients',
      env: 'CLIENTS',
      flag: '--clients',
      fallback: '1000',
      help: 'number of generated clients; 0 = an empty data set',
      parse: wholeNumber(0, 1_000_000),
    },
    {
      key: 'dataFile',
      env: 'DATA_FILE',
      flag: '--data',
      fallback: '',
      help: 'serve clients from this JSON file (the seed command writes one) instead of generating',
      parse: (raw) => {
        // Unset (or set empty) means generate; only spaces is a mistake that would silently serve generated data.
        if (raw === '') return undefined;
        if (raw.trim() === '') throw new Error('must be a file path (or unset to generate data)');
        return raw.trim();
      },
    },
    {
      key: 'dataFileMaxMb',
      env: 'DATA_FILE_MAX_MB',
      flag: '--data-max-mb',
      // 1,000,000 clients (the CLIENTS maximum) with room for pretty-printing; 4096 stays under Node's 4 GB Buffer limit.
      fallback: '2048',
      help: 'largest data file read, in MB (1,000,000 clients as the seed command writes them: about 1,010 MB)',
      parse: wholeNumber(1, 4096),
    },
    {
      key: 'apiKeys',
      env: 'API_KEYS',
      flag: '--api-keys',
      fallback: 'dev-key',
      help: 'comma-separated accepted X-Api-Key values',
      // Keys are secrets: a bad one is named, never echoed.
      secret: true,
      parse: (raw) => {
        const keys = list(raw);
        if (keys.length === 0) throw new Error('must hold at least one key');
        if (keys.some((key) => !/^[\x21-\x7e]{1,256}$/.test(key))) throw new Error('keys must be 1 to 256 printable ASCII characters');
        return Object.freeze(keys);
      },
    },
    { key: 'auth', env: 'AUTH', flag: '--auth', fallback: 'on', help: 'off lets every request in (local UI work)', parse: toggle },
    {
      key: 'latencyMs',
      env: 'LATENCY_MS',
      flag: '--latency',
      fallback: '0',
      help: 'added delay on Client endpoints: 200, or a range 100-400',
      parse: latency,
    },
    {
      key: 'errorRate',
      env: 'ERROR_RATE',
      flag: '--error-rate',
      fallback: '0',
      help: 'fraction 0..1 of Client requests answered with a simulated 500',
      parse: fraction,
    },
    {
      key: 'validateResponses',
      env: 'VALIDATE_RESPONSES',
      flag: '--validate-responses',
      fallback: 'on',
      help: 'check every response against openapi.yaml (each client view once, other bodies as sent)',
      parse: toggle,
    },
    {
      key: 'fullResponseValidation',
      env: 'FULL_RESPONSE_VALIDATION',
      flag: '--full-response-validation',
      fallback: 'off',
      help: 'on: every response body, client pages included, through the validator as sent (slower; for CI)',
      parse: toggle,
    },
    {
      key: 'corsOrigins',
      env: 'CORS_ORIGINS',
      flag: '--cors-origins',
      fallback: '*',
      help: 'allowed browser origins, comma-separated, or *',
      parse: (raw) => {
        if (raw.trim() === '*') return '*';
        const origins = list(raw);
        if (origins.length === 0 || origins.some((origin) => !/^https?:\/\/[^/\s]+$/.test(origin))) {
          throw new Error('must be * or origins such as http://localhost:5173');
        }
        return Object.freeze(origins);
      },
    },
    {
      key: 'logLevel',
      env: 'LOG_LEVEL',
      flag: '--log-level',
      fallback: 'info',
      help: `log level: ${LOG_LEVELS.join(', ')}`,
      parse: (raw) => {
        if (!(LOG_LEVELS as readonly string[]).includes(raw)) throw new Error(`must be one of ${LOG_LEVELS.join(', ')}`);
        return raw as LogLevel;
      },
    },
    { key: 'workers', env: 'WORKERS', flag: '--workers', fallback: '1', help: 'node:cluster worker processes', parse: wholeNumber(1, 64) },
    {
      key: 'cache',
      env: 'CACHE',
      flag: '--cache',
      fallback: 'on',
      help: 'serve repeated requests from the validated response cache',
      parse: toggle,
    },
    { key: 'cacheMb', env: 'CACHE_MB', flag: '--cache-mb', fallback: '64', help: 'response cache size in MB', parse: wholeNumber(1, 4096) },
    {
      key: 'specFile',
      env: 'SPEC_FILE',
      flag: '--spec',
      fallback: '',
      help: "serve this OpenAPI file instead of the package's openapi.yaml (what --watch reloads)",
      parse: (raw) => (raw.trim() === '' ? undefined : raw.trim()),
    },
    {
      key: 'logFormat',
      env: 'LOG_FORMAT',
      flag: '--log-format',
      fallback: 'auto',
      help: 'pretty (one readable line), json, or auto: pretty on a terminal, else json',
      parse: (raw) => {
        if (!(LOG_FORMATS as readonly string[]).includes(raw)) throw new Error(`must be one of ${LOG_FORMATS.join(', ')}`);
        return raw as LogFormat;
      },
    },
    {
      key: 'publicUrl',
      env: 'PUBLIC_URL',
      flag: '--public-url',
      fallback: '',
      help: 'the address browsers use, e.g. http://localhost:4000: makes Link headers absolute',
      parse: (raw) => {
        if (raw.trim() === '') return undefined;
        let url: URL;
        try {
          url = new URL(raw.trim());
        } catch {
          throw new Error('must be an absolute http(s) URL such as http://localhost:4000');
        }
        if (!/^https?:$/.test(url.protocol) || url.search || url.hash) {
          throw new Error('must be an absolute http(s) URL such as http://localhost:4000');
        }
        // Without a trailing slash: the API's paths are appended to it.
        return url.href.replace(/\/+$/, '');
      },
    },
    {
      key: 'maxConnections',
      env: 'MAX_CONNECTIONS',
      flag: '--max-connections',
      fallback: 'auto',
      help: 'open connections kept at most; at the cap idle ones are closed first; auto = from the file-descriptor limit',
      // auto reads the process's file-descriptor limit: the one input here that is not argv or env.
      parse: (raw) => (raw.trim() === 'auto' ? autoConnections() : wholeNumber(1, 1_000_000)(raw)),
    },
    {
      key: 'control',
      env: 'CONTROL',
      flag: '--control',
      fallback: 'on',
      help: 'the control API under /__control/ (scenarios, sessions, journal, coverage); off for a mock that must not be steered',
      parse: toggle,
    },
    {
      key: 'state',
      env: 'STATE',
      flag: '--state',
      fallback: '',
      help: 'share the control state (scenarios, sessions, journal, coverage) between workers and replicas through Redis: redis://HOST:PORT; unset = in this process',
      parse: (raw) => {
        if (raw.trim() === '') return undefined;
        let url: URL;
        try {
          url = new URL(raw.trim());
        } catch {
          throw new Error('must be a Redis URL such as redis://127.0.0.1:6379 (or rediss:// for TLS)');
        }
        if (!/^rediss?:$/.test(url.protocol) || url.hostname === '' || url.search || url.hash || !/^\/?\d{0,2}$/.test(url.pathname)) {
          throw new Error('must be a Redis URL such as redis://127.0.0.1:6379 (or rediss:// for TLS; an optional /DB number)');
        }
        return raw.trim();
      },
    },
    {
      key: 'statePrefix',
      env: 'STATE_PREFIX',
      flag: '--state-prefix',
      fallback: 'crm:',
      help: 'prefix of every Redis key and channel of the shared state (mocks with other prefixes share one Redis apart)',
      parse: (raw) => {
        if (!/^[A-Za-z0-9_.:{}-]{1,64}$/.test(raw.trim())) throw new Error('must be 1 to 64 characters of A-Z a-z 0-9 _ . : - { }');
        return raw.trim();
      },
    },
    {
      key: 'stateTtl',
      env: 'STATE_TTL',
      flag: '--state-ttl',
      fallback: '86400',
      help: 'seconds the shared state keeps a session that no request or switch used (with --state)',
      parse: wholeNumber(60, 30 * 86_400),
    },
    {
      key: 'journalSize',
      env: 'JOURNAL_SIZE',
      flag: '--journal-size',
      fallback: '1000',
      help: 'exchanges the journal keeps (each at most ~8 KB); 0 keeps none',
      parse: wholeNumber(0, 100_000),
    },
    {
      key: 'scenario',
      env: 'SCENARIO',
      flag: '--scenario',
      fallback: '',
      help: 'the server scenario at start, e.g. down, empty, slow;min=200;max=800 (GET /__control/scenarios lists them)',
      parse: (raw) => {
        if (raw.trim() === '') return undefined;
        // The names come from the served spec: they are checked when it is read (one line, exit 2).
        if (!/^[A-Za-z][\w;=.\s-]{0,127}$/.test(raw.trim()))
          throw new Error('must be a scenario name with ;name=value parameters, e.g. slow;min=200;max=800');
        return raw.trim();
      },
    },
    {
      key: 'coverageOut',
      env: 'COVERAGE_OUT',
      flag: '--coverage-out',
      fallback: '',
      help: 'write the coverage of the traffic at exit: FILE.json, FILE.junit.xml and FILE.html',
      parse: (raw) => (raw.trim() === '' ? undefined : raw.trim()),
    },
    {
      key: 'coverageMin',
      env: 'COVERAGE_MIN',
      flag: '--coverage-min',
      fallback: '',
      help: 'minimum coverage in percent, e.g. operations=100,statuses=80 (also parameters, scenarios); a clean stop below exits 1',
      parse: (raw) => Object.freeze(parseCoverageMin(raw)),
    },
  ];
}

/** The settings a program may pass to startServer / createHandlers: any Config key, as its typed value or its text. */
export type ConfigOptions = {
  [K in Exclude<keyof Config, 'apiKeysGiven'>]?: Config[K] | string | number | boolean | readonly string[];
};

/**
 * The Config for a program's options (startServer, createHandlers): the same
 * table, parsers and defaults as loadConfig; an unknown option or a bad value
 * is a ConfigError naming the option. The environment is not read: a test
 * set-up says what it means.
 */
export function optionsToConfig(SETTINGS: Rows<TableConfig>, options: Readonly<ConfigOptions> = {}): Readonly<Config> {
  const config = resolveOptions(SETTINGS, options);
  return Object.freeze({ ...config, apiKeysGiven: options.apiKeys !== undefined });
}

/** The in-process handlers' `scenario` option (Node's and the browser's), in the X-Mock-Scenario syntax, checked at once (the names are the served spec's: a bad one is the answers' 400). */
export function checkedScenario(scenario: string | undefined): string | undefined {
  if (scenario !== undefined && !/^[A-Za-z][A-Za-z0-9_-]{0,63}(\s*;\s*[a-z]+=[\d.]+)*$/.test(scenario)) {
    throw new SettingError(
      `invalid option scenario=${JSON.stringify(scenario)}: must be a scenario name with ;name=value parameters, e.g. slow;min=200;max=800`,
    );
  }
  return scenario;
}
