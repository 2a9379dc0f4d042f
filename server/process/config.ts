// All configuration in one place. loadConfig is pure: (argv, env) → a frozen,
// typed Config, or a ConfigError whose one-line message names the bad setting.
// A flag wins over its environment variable; defaults live in the table
// (settings.ts); the parser and the help printer are the shared ones (settings/).
import { loadSettings } from '../../settings/argv';
import { describeRows, helpLine, helpTable, type HelpLayout } from '../../settings/table';
import { defaultMaxConnections } from '../listener/connections';
import { optionsToConfig, settingsTable, type Config, type ConfigOptions } from './settings';

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
  return describeRows(SETTINGS);
}

/** The environment variable of every setting: tools that must run the server on its defaults clear these. */
export function settingEnvNames(): string[] {
  return SETTINGS.map((s) => s.env!);
}

const LAYOUT: HelpLayout = { flagWidth: 28, envWidth: 19, defaults: true, heading: true };

/** `--help`: the bin's usage lines (cli/main.ts knows the commands), then this table. */
export function helpText(usage: readonly string[]): string {
  return [
    ...usage,
    '',
    'Spec-first mock of the Client Records and Diagnostics Service (openapi.yaml).',
    'Every option can also be set by its environment variable; the flag wins.',
    '',
    ...helpTable(SETTINGS, LAYOUT),
    helpLine(
      LAYOUT,
      '--watch',
      'reload when the spec or the data file changes, saying whether the edit breaks clients; a bad change keeps the last good one',
    ),
    helpLine(LAYOUT, '--version', 'print the version and exit'),
    helpLine(LAYOUT, '--help', 'print this help and exit'),
  ].join('\n');
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
  const { values, flags } = loadSettings(SETTINGS, argv, env);
  return Object.freeze({ ...values, apiKeysGiven: flags.has('--api-keys') || env.API_KEYS !== undefined });
}
