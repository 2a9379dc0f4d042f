// All configuration in one place. loadConfig is pure: (argv, env) → a frozen,
// typed Config, or a ConfigError whose one-line message names the bad setting.
// A flag wins over its environment variable; defaults live in the table (settings.ts).
import { parseArgs } from 'node:util';
import { defaultMaxConnections } from '../listener/connections';
import { ConfigError, optionsToConfig, settingsTable, type Config, type ConfigOptions } from './settings';

export {
  ConfigError,
  LOG_FORMATS,
  LOG_LEVELS,
  type Config,
  type ConfigOptions,
  type LogFormat,
  type LogLevel,
  type Range,
  type Toggle,
} from './settings';

const SETTINGS = settingsTable(defaultMaxConnections);

/** The settings table as documentation shows it (README's table is checked against it). */
export function describeSettings(): { flag: string; env: string; fallback: string }[] {
  return SETTINGS.map((s) => ({ flag: s.flag, env: s.env, fallback: s.fallback }));
}

/** The environment variable of every setting: tools that must run the server on its defaults clear these. */
export function settingEnvNames(): string[] {
  return SETTINGS.map((s) => s.env);
}

/** `--help`: the bin's usage lines (cli/main.ts knows the commands), then this table. */
export function helpText(usage: readonly string[]): string {
  const rows = SETTINGS.map((s) => `  ${`${s.flag} <value>`.padEnd(28)} ${s.env.padEnd(19)} ${s.help} (default: ${s.fallback || 'none'})`);
  const bare = (flag: string, meaning: string) => `  ${flag.padEnd(28)} ${''.padEnd(19)} ${meaning}`;
  return [
    ...usage,
    '',
    'Spec-first mock of the Client Records and Diagnostics Service (openapi.yaml).',
    'Every option can also be set by its environment variable; the flag wins.',
    '',
    `  ${'flag'.padEnd(28)} ${'environment'.padEnd(19)} meaning`,
    ...rows,
    bare(
      '--watch',
      'reload when the spec or the data file changes, saying whether the edit breaks clients; a bad change keeps the last good one',
    ),
    bare('--version', 'print the version and exit'),
    bare('--help', 'print this help and exit'),
  ].join('\n');
}

/** Raw values from argv through node:util parseArgs: `--port 0` and `--port=0` both work. */
function readFlags(argv: readonly string[]): Map<string, string> {
  const flags = new Map<string, string>();
  // Not strict: parseArgs' own messages are long; the tokens let this name the bad option in one line.
  const { tokens } = parseArgs({
    args: [...argv],
    options: Object.fromEntries(SETTINGS.map((s) => [s.flag.slice(2), { type: 'string' as const }])),
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  for (const token of tokens) {
    if (token.kind === 'positional') throw new ConfigError(`unexpected argument ${JSON.stringify(token.value)} (see --help)`);
    if (token.kind !== 'option') continue;
    const name = `--${token.name}`;
    if (!SETTINGS.some((s) => s.flag === name)) throw new ConfigError(`unknown option ${token.rawName} (see --help)`);
    if (token.value === undefined) throw new ConfigError(`option ${name} needs a value`);
    flags.set(name, token.value);
  }
  return flags;
}

/**
 * The Config for a program's options (startServer, createHandlers): the same
 * table, parsers and defaults as loadConfig; an unknown option or a bad value
 * is a ConfigError naming the option. The environment is not read: a test
 * set-up says what it means.
 */
export function configFromOptions(options: Readonly<ConfigOptions> = {}): Readonly<Config> {
  return optionsToConfig(SETTINGS, options);
}

export function loadConfig(argv: readonly string[], env: Readonly<Record<string, string | undefined>>): Readonly<Config> {
  const flags = readFlags(argv);
  const config: Partial<Record<keyof Config, unknown>> = {};
  for (const s of SETTINGS) {
    const fromFlag = flags.get(s.flag);
    const fromEnv = env[s.env];
    const raw = fromFlag ?? fromEnv ?? s.fallback;
    try {
      config[s.key] = s.parse(raw);
    } catch (error) {
      const source = fromFlag !== undefined ? s.flag : fromEnv !== undefined ? s.env : `default of ${s.env}`;
      // Keys are secrets: a bad one is named, never echoed.
      const shown = s.key === 'apiKeys' ? '' : `=${JSON.stringify(raw)}`;
      throw new ConfigError(`invalid ${source}${shown}: ${(error as Error).message}`);
    }
  }
  config.apiKeysGiven = flags.has('--api-keys') || env.API_KEYS !== undefined;
  return Object.freeze(config as Config);
}
