// The one settings machinery every command declares its rows in (the server,
// the proxy, the contract suite, the diff, MCP, seed): the row type, the step
// from raw texts to a typed frozen object, a program's options through the same
// parsers, and the help printer. No imports at all, so the browser handlers
// (server/browser.ts) check their options with it too; reading argv with
// node:util is argv.ts's job.

/** A bad setting: its message is the one line a command prints before exiting 2. */
export class SettingError extends Error {}

interface RowBase<K extends string> {
  key: K;
  /** `--port`: the command-line name. */
  flag: string;
  /** `PORT`: the environment variable that sets it when the flag is absent; none for a command that reads no environment. */
  env?: string;
  /** The text parsed when neither flag nor variable is given. */
  fallback: string;
  help: string;
  /** What --help shows after the flag (`<value>`, `URL`, `N`); none for a switch. */
  value?: string;
  /** The value a flag given alone means (`--fail-on-violation` alone is `upstream`). */
  bare?: string;
  /** The values that may follow a bare-able flag as a separate argument. */
  bareValues?: readonly string[];
  /** A flag that takes no value (`--summary`): present means `on`, absent the fallback. */
  switch?: true;
  /** A secret: a bad value is named, never echoed. */
  secret?: true;
  /** Left out of the help table (its meaning is said in the command's own prose). */
  hidden?: true;
}

/** A setting given once; the last one given wins. */
export interface SingleRow<K extends string, V> extends RowBase<K> {
  repeat?: undefined;
  parse: (raw: string) => V;
}

/** A setting that may be given several times: its parser gets every value, in order (none: []). */
export interface RepeatedRow<K extends string, V> extends RowBase<K> {
  repeat: true;
  parseAll: (raws: readonly string[]) => V;
}

export type Setting<K extends string, V> = SingleRow<K, V> | RepeatedRow<K, V>;

/** The rows of a settings object T: one per key, each parsing to that key's type. */
export type Rows<T> = readonly { [K in keyof T & string]: Setting<K, T[K]> }[keyof T & string][];

/** Where a row's raw value came from, as an error names it: `--port`, `PORT`, `option port`. */
export interface Raw {
  texts: readonly string[];
  source: string;
}

/** Each row's raw texts through its parser; a bad one is a SettingError naming its source and value. */
export function resolveRows<T>(rows: Rows<T>, raw: (row: Rows<T>[number]) => Raw): Readonly<T> {
  const values: Partial<Record<string, unknown>> = {};
  for (const row of rows) {
    const { texts, source } = raw(row);
    try {
      values[row.key] = row.repeat ? row.parseAll(texts) : row.parse(texts.at(-1) ?? row.fallback);
    } catch (error) {
      if (error instanceof SettingError) throw error;
      const shown = row.secret || row.repeat ? '' : `=${JSON.stringify(texts.at(-1) ?? row.fallback)}`;
      throw new SettingError(`invalid ${source}${shown}: ${(error as Error).message}`);
    }
  }
  return Object.freeze(values as T);
}

/** The raw texts of a row from argv's flags, then the environment, then its fallback. */
export function fromFlagsAndEnv<T>(
  flags: ReadonlyMap<string, readonly string[]>,
  env: Readonly<Record<string, string | undefined>>,
): (row: Rows<T>[number]) => Raw {
  return (row) => {
    const fromFlag = flags.get(row.flag);
    if (fromFlag !== undefined) return { texts: fromFlag, source: row.flag };
    const fromEnv = row.env === undefined ? undefined : env[row.env];
    if (fromEnv !== undefined) return { texts: [fromEnv], source: row.env! };
    return { texts: row.repeat ? [] : [row.fallback], source: row.flag };
  };
}

/** A program's option as the text its row parses, so a program and the command line go through one parser. */
export function optionText(value: unknown): string {
  if (typeof value === 'boolean') return value ? 'on' : 'off';
  if (value instanceof Set) return value.size === 0 ? 'off' : [...(value as Set<unknown>)].map(String).join(',');
  if (Array.isArray(value)) return value.join(',');
  if (value !== null && typeof value === 'object' && 'min' in value && 'max' in value) return `${String(value.min)}-${String(value.max)}`;
  // An object of numbers ({operations: 100, statuses: 80}) → operations=100,statuses=80.
  if (value !== null && typeof value === 'object') {
    return Object.entries(value)
      .map(([name, item]) => `${name}=${String(item)}`)
      .join(',');
  }
  // A program's number in plain decimals, as the rows read them: 1e-7 → 0.0000001 (String() would give 1e-7).
  if (typeof value === 'number' && Number.isFinite(value) && !Number.isInteger(value)) return value.toFixed(20).replace(/\.?0+$/, '');
  return String(value);
}

/**
 * The settings for a program's options (startServer, startProxy, createHandlers): the same rows and
 * parsers as the command line; an unknown option or a bad value is a SettingError naming the option.
 * The environment is not read: a program says what it means.
 */
export function resolveOptions<T>(
  rows: Rows<T>,
  options: Readonly<Record<string, unknown>>,
  fallback: (row: Rows<T>[number]) => string = (row) => row.fallback,
): Readonly<T> {
  const known = new Set(rows.map((row) => row.key as string));
  for (const name of Object.keys(options)) if (!known.has(name)) throw new SettingError(`unknown option ${name}`);
  return resolveRows(rows, (row) => {
    const given = options[row.key];
    const source = `option ${row.key}`;
    // A repeated row takes a program's list item by item, and nothing when none is given.
    if (row.repeat) return { texts: given === undefined ? [] : [given].flat().map(optionText), source };
    return { texts: [given === undefined ? fallback(row) : optionText(given)], source };
  });
}

/** The rows as documentation shows them (README's and docs/proxy.md's tables are checked against them). */
export function describeRows(rows: readonly RowBase<string>[]): { flag: string; env: string; fallback: string }[] {
  return rows.filter((row) => !row.hidden).map((row) => ({ flag: row.flag, env: row.env ?? '', fallback: row.fallback }));
}

/** Widths of the help table's columns; env 0 = a command that reads no environment (no such column). */
export interface HelpLayout {
  flagWidth: number;
  envWidth: number;
  /** Write `(default: …)` after each meaning. */
  defaults: boolean;
  /** Open the table with a `flag environment meaning` line. */
  heading: boolean;
}

/** One help line of a flag (also one the rows do not hold: --help, --version); a meaning's further lines line up under its first. */
export function helpLine(layout: HelpLayout, flag: string, meaning: string, env = ''): string {
  const envColumn = layout.envWidth > 0 ? ` ${env.padEnd(layout.envWidth)}` : '';
  const indent = ' '.repeat(2 + layout.flagWidth + envColumn.length + 1);
  return `  ${flag.padEnd(layout.flagWidth)}${envColumn} ${meaning.split('\n').join(`\n${indent}`)}`;
}

/** The help table: a heading line, then one line per row, in the rows' order. */
export function helpTable(rows: readonly RowBase<string>[], layout: HelpLayout): string[] {
  const lines = rows
    .filter((row) => !row.hidden)
    .map((row) => {
      const value = row.switch ? '' : row.bare !== undefined ? ` [${row.value ?? '<value>'}]` : ` ${row.value ?? '<value>'}`;
      const fallback = layout.defaults ? ` (default: ${row.fallback || 'none'})` : '';
      return helpLine(layout, `${row.flag}${value}`, `${row.help}${fallback}`, row.env ?? '');
    });
  return layout.heading ? [helpLine(layout, 'flag', 'meaning', 'environment'), ...lines] : lines;
}
