// `client-records-mock seed` (npm run seed --): writes a data file that
// DATA_FILE / --data serves instead of generated clients. `--out -` writes to
// standard output. Every failure is one line on stderr and exit code 2.
import { parseArgs } from 'node:util';
import { writeDataFile } from './data-file';

const USAGE = 'usage: client-records-mock seed --clients N --seed S --out FILE (--out - writes to standard output)';

class UsageError extends Error {}

function wholeNumber(name: string, raw: string | undefined, fallback: number, min: number, max: number): number {
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new UsageError(`invalid --${name}=${JSON.stringify(raw)}: must be a whole number from ${min} to ${max}`);
  }
  return Number(raw);
}

/** Runs the seed command for `argv` (without the command name); resolves to the exit code. */
export async function runSeedCli(argv: readonly string[]): Promise<number> {
  let out = '';
  try {
    const { values } = parseArgs({
      args: [...argv],
      options: { clients: { type: 'string' }, seed: { type: 'string' }, out: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    });
    if (values.help) {
      process.stdout.write(`${USAGE}\n`);
      return 0;
    }
    if (!values.out) throw new UsageError('--out FILE is required');
    out = values.out;
    const clients = wholeNumber('clients', values.clients, 1000, 0, 1_000_000);
    const seed = wholeNumber('seed', values.seed, 1, 0, 2 ** 32 - 1);
    if (values.out === '-') {
      await writeDataFile(process.stdout, seed, clients);
      return 0;
    }
    await writeDataFile(values.out, seed, clients);
    process.stdout.write(`wrote ${clients} clients (seed ${seed}) to ${values.out}\n`);
    return 0;
  } catch (error) {
    const { code, message } = error as NodeJS.ErrnoException;
    // The reader went away (`--out - | head`): as for any Unix filter, not an error worth a trace.
    if (code === 'EPIPE') return 0;
    if (error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
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
