// Why this file exists: a whole Stryker run of the scope takes hours on two shared cores, so a figure can come from
// a seeded uniform sample of its mutants instead. Stryker numbers the mutants of a whole-scope run 0..N-1; this
// draws `--size` of those numbers with `--seed` and writes them as JSON for the killer's MUTATION_SAMPLE
// (tests/mutation/contract-killer.test.ts), which then reports coverage for them alone, so Stryker runs them and
// no other. The decider scores the sample only (decide.ts --sample).
//   node dist/tools/mutation/sample.js --size 80 --seed 1 [--from 0] [--out reports/mutation/sample.json]
import fs from 'node:fs';
import path from 'node:path';
import { shuffled } from './corpus-plan';
import { instrumentScope } from './instrument';
import { ROOT } from '../processes';

function option(name: string, fallback?: string): string {
  const at = process.argv.indexOf(`--${name}`);
  const value = at < 0 ? fallback : process.argv[at + 1];
  if (value === undefined) throw new Error(`--${name} is required`);
  return value;
}

async function main(): Promise<void> {
  const size = Number(option('size'));
  const seed = Number(option('seed', '1'));
  // --from N: the draw's mutants N.. (a second part of the same sample, disjoint from the first N).
  const from = Number(option('from', '0'));
  const out = path.resolve(ROOT, option('out', 'reports/mutation/sample.json'));
  if (!Number.isInteger(size) || size < 1) throw new Error('--size must be a whole number of mutants');
  const { mutants } = await instrumentScope(ROOT);
  const ids = shuffled(
    mutants.map((m) => m.id),
    seed,
  )
    .slice(from, from + size)
    .sort((a, b) => Number(a) - Number(b));
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, `${JSON.stringify({ seed, from, population: mutants.length, ids })}\n`);
  console.log(
    `sample: ${ids.length} of ${mutants.length} mutants (seed ${seed}, draws ${from}..${from + ids.length - 1}) → ${path.relative(ROOT, out)}`,
  );
}

main().catch((error: unknown) => {
  console.error(`mutation sample: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 2;
});
