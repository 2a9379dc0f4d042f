// npm run seed -- --clients N --seed S --out FILE: writes a data file that
// DATA_FILE / --data serves instead of generated clients.
import { parseArgs } from 'node:util';
import { writeDataFile } from './data-file';

const USAGE = 'usage: npm run seed -- --clients N --seed S --out FILE';

function wholeNumber(name: string, raw: string | undefined, fallback: number, max: number): number {
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) > max) {
    process.stderr.write(`seed: invalid --${name}=${JSON.stringify(raw)}: must be a whole number up to ${max}\n`);
    process.exit(2);
  }
  return Number(raw);
}

async function main(): Promise<void> {
  let values: { clients?: string; seed?: string; out?: string; help?: boolean };
  try {
    ({ values } = parseArgs({
      options: { clients: { type: 'string' }, seed: { type: 'string' }, out: { type: 'string' }, help: { type: 'boolean' } },
    }));
  } catch (error) {
    process.stderr.write(`seed: ${(error as Error).message}\n${USAGE}\n`);
    process.exit(2);
  }
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  if (!values.out) {
    process.stderr.write(`seed: --out FILE is required\n${USAGE}\n`);
    process.exit(2);
  }
  const clients = wholeNumber('clients', values.clients, 1000, 1_000_000);
  const seed = wholeNumber('seed', values.seed, 1, 2 ** 32 - 1);
  if (clients < 1) {
    process.stderr.write('seed: --clients must be at least 1\n');
    process.exit(2);
  }
  await writeDataFile(values.out, seed, clients);
  process.stdout.write(`wrote ${clients} clients (seed ${seed}) to ${values.out}\n`);
}

void main();
