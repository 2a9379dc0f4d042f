// `client-records-mock seed` (npm run seed --): writes a data file that
// DATA_FILE / --data serves instead of generated clients. `--out -` writes to
// standard output. Every failure is one line on stderr and exit code 2.
import { loadSettings } from '../settings/argv';
import { SettingError, type Rows } from '../settings/table';
import { writeDataFile } from './data-file';

const USAGE = 'usage: client-records-mock seed --clients N --seed S --out FILE (--out - writes to standard output)';

function wholeNumber(min: number, max: number) {
  return (raw: string): number => {
    if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) throw new Error(`must be a whole number from ${min} to ${max}`);
    return Number(raw);
  };
}

// The command's rows of the one settings machinery (settings/): no environment, its usage line is its help.
const ROWS: Rows<{ out: string; clients: number; seed: number }> = [
  {
    key: 'out',
    flag: '--out',
    fallback: '',
    help: 'the file to write; - writes to standard output',
    parse: (raw) => {
      if (raw === '') throw new SettingError('--out FILE is required');
      return raw;
    },
  },
  { key: 'clients', flag: '--clients', fallback: '1000', help: 'clients to write', parse: wholeNumber(0, 1_000_000) },
  { key: 'seed', flag: '--seed', fallback: '1', help: 'the Faker seed', parse: wholeNumber(0, 2 ** 32 - 1) },
];

/** Runs the seed command for `argv` (without the command name); resolves to the exit code. */
export async function runSeedCli(argv: readonly string[]): Promise<number> {
  let out = '';
  try {
    const read = loadSettings(ROWS, argv, {}, { help: true, wording: { unknown: (rawName) => `unknown option ${rawName}` } });
    if (read.help) {
      process.stdout.write(`${USAGE}\n`);
      return 0;
    }
    const { clients, seed } = read.values;
    out = read.values.out;
    if (out === '-') {
      await writeDataFile(process.stdout, seed, clients);
      return 0;
    }
    await writeDataFile(out, seed, clients);
    process.stdout.write(`wrote ${clients} clients (seed ${seed}) to ${out}\n`);
    return 0;
  } catch (error) {
    const { code, message } = error as NodeJS.ErrnoException;
    // The reader went away (`--out - | head`): as for any Unix filter, not an error worth a trace.
    if (code === 'EPIPE') return 0;
    if (error instanceof SettingError) {
      process.stderr.write(`seed: ${message.split('\n')[0]}\n${USAGE}\n`);
    } else if (code === 'ENOENT' || code === 'EACCES' || code === 'EISDIR' || code === 'ENOTDIR' || code === 'ENOSPC' || code === 'EROFS') {
      // The folder is missing, not writable or full: one line, not a stack trace.
      process.stderr.write(`seed: cannot write ${out} (${code})\n`);
    } else {
      throw error;
    }
    return 2;
  }
}

if (require.main === module) {
  void runSeedCli(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
