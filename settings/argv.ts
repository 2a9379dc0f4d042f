// The command line through node:util parseArgs, for every command's rows:
// `--port 0` and `--port=0` both work, a switch takes no value, a bare-able
// flag may stand alone, and every mistake is one SettingError line naming the
// option. Apart from table.ts so that the browser handlers load no Node built-in.
import { parseArgs } from 'node:util';
import { fromFlagsAndEnv, resolveRows, SettingError, type Rows } from './table';

/** How a command words the mistakes of its command line (each one line; the defaults are the server's). */
export interface Wording {
  unknown: (rawName: string) => string;
  unexpected: (value: string) => string;
  needsValue: (flag: string) => string;
}

const WORDING: Wording = {
  unknown: (rawName) => `unknown option ${rawName} (see --help)`,
  unexpected: (value) => `unexpected argument ${JSON.stringify(value)} (see --help)`,
  needsValue: (flag) => `option ${flag} needs a value`,
};

export interface ArgvRules {
  /** Arguments that are no option are kept (`diff OLD NEW`); otherwise each is an error. */
  positionals?: boolean;
  /** --help and -h are read (the command prints its help); otherwise they are unknown options. */
  help?: boolean;
  wording?: Partial<Wording>;
}

export interface Argv {
  /** Each given flag's texts, in order (a switch's is `on`). */
  flags: ReadonlyMap<string, readonly string[]>;
  positionals: readonly string[];
  help: boolean;
}

/** `--fail-on-violation` alone means `=upstream`: rewritten before parsing, since a string option would take the next flag as its value. */
function withBareValues(
  rows: readonly { flag: string; bare?: string; bareValues?: readonly string[] }[],
  argv: readonly string[],
): string[] {
  return argv.map((arg, i) => {
    const row = rows.find((r) => r.flag === arg && r.bare !== undefined);
    const next = argv[i + 1];
    return row && (next === undefined || !(row.bareValues ?? []).includes(next)) ? `${arg}=${row.bare!}` : arg;
  });
}

/** The flags of argv, checked against the rows. */
export function readArgv<T>(rows: Rows<T>, argv: readonly string[], rules: ArgvRules = {}): Argv {
  const wording = { ...WORDING, ...rules.wording };
  const options: Record<string, { type: 'string' | 'boolean'; short?: string }> = Object.fromEntries(
    rows.map((row) => [row.flag.slice(2), { type: row.switch ? ('boolean' as const) : ('string' as const) }]),
  );
  if (rules.help) options.help = { type: 'boolean', short: 'h' };
  // Not strict: parseArgs' own messages are long; the tokens let this name the bad option in one line.
  const { tokens } = parseArgs({ args: withBareValues(rows, argv), options, strict: false, allowPositionals: true, tokens: true });
  const flags = new Map<string, string[]>();
  const positionals: string[] = [];
  let help = false;
  for (const token of tokens) {
    if (token.kind === 'positional') {
      if (!rules.positionals) throw new SettingError(wording.unexpected(token.value));
      positionals.push(token.value);
      continue;
    }
    if (token.kind !== 'option') continue;
    const name = `--${token.name}`;
    if (rules.help && token.name === 'help' && token.value === undefined) {
      help = true;
      continue;
    }
    const row = rows.find((r) => r.flag === name);
    if (!row) throw new SettingError(wording.unknown(token.rawName));
    if (row.switch && token.value !== undefined) throw new SettingError(`option ${name} takes no value`);
    const text = row.switch ? 'on' : token.value;
    if (text === undefined) throw new SettingError(wording.needsValue(name));
    flags.set(name, [...(flags.get(name) ?? []), text]);
  }
  return { flags, positionals, help };
}

/**
 * The one parser: argv and the environment through the rows to a typed frozen object (the flag
 * wins over its variable, the variable over the fallback), or one SettingError naming the option.
 */
export function loadSettings<T>(
  rows: Rows<T>,
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
  rules: ArgvRules = {},
): Argv & { values: Readonly<T> } {
  const read = readArgv(rows, argv, rules);
  // Under --help nothing is parsed: a command prints its help whatever else is on the line.
  const values = read.help ? (Object.freeze({}) as Readonly<T>) : resolveRows(rows, fromFlagsAndEnv<T>(read.flags, env));
  return { ...read, values };
}
