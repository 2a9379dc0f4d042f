// Why this file exists: `npm run mutation`'s second half. Stryker (stryker.config.mjs, the contract suite as the
// killer) says which mutants the suite detects; this decides, by machine, which of the rest are equivalent: a
// surviving (or never covered) mutant is equivalent only when the mutated server answers a fixed corpus byte for
// byte as the original does (corpus-plan.ts: the suite's own requests in two orders and generated ones, over five
// data sets, cold and settled, and through the MSW handlers). It then computes the score (score.ts) and writes
// the per-mutant table, reports/mutation/mutants.md and .json. No row is classed by reading.
//   node dist/tools/mutation/decide.js [--run REPORT[:SAMPLE]]... [--generated 3000] [--no-recheck] [--ahead SAMPLE] [--decided-only]
// REPORT is Stryker's mutation.json, or the killer's MUTATION_TIMES log (.jsonl) of a run cut short.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { INSTANCES, instanceName, instancesReaching, type InstanceCoverage, type WorkerJob, type WorkerVerdict } from './corpus-plan';
import { bundleRoads, instrumentScope, mutantKey, type DeciderMutant } from './instrument';
import { describeScore, markdownTable, scoreOf, type Equivalence, type MutantRow, type StrykerStatus } from './score';
import { ROOT } from '../processes';
import { runWorker } from './run-worker';

const OUT = path.join(ROOT, 'reports/mutation');
const WORK = path.join(OUT, 'decider');
/** The property generator's seed for the corpus (the killer's own) and how many requests it makes. */
const SEED = 20260101;
/** One request of the original takes milliseconds: a mutant's that takes this long is not answering. */
const REQUEST_MS = 30_000;

interface Options {
  runs: { report: string; sample?: string }[];
  generated: number;
  recheck: boolean;
  /** --ahead SAMPLE: decide a sample's mutants without a report (their verdicts are kept for the report's run). */
  ahead?: string;
  /** --decided-only: table and score from the verdicts made so far, deciding nothing more. */
  decidedOnly: boolean;
}

function parseOptions(argv: readonly string[]): Options {
  const runs: Options['runs'] = [];
  let generated = 3000;
  let recheck = true;
  let ahead: string | undefined;
  let decidedOnly = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--run') {
      const [report, sample] = (argv[++i] ?? '').split(':');
      runs.push({ report: path.resolve(ROOT, report!), ...(sample ? { sample: path.resolve(ROOT, sample) } : {}) });
    } else if (arg === '--generated') generated = Number(argv[++i]);
    else if (arg === '--no-recheck') recheck = false;
    else if (arg === '--decided-only') decidedOnly = true;
    else if (arg === '--ahead') ahead = path.resolve(ROOT, argv[++i] ?? '');
    else throw new Error(`unknown argument ${arg}`);
  }
  if (runs.length === 0) runs.push({ report: path.join(OUT, 'mutation.json') });
  if (!Number.isInteger(generated) || generated < 0) throw new Error('--generated must be a whole number');
  return { runs, generated, recheck, decidedOnly, ...(ahead ? { ahead } : {}) };
}

interface ReportMutant {
  id: string;
  mutatorName: string;
  replacement?: string;
  status: StrykerStatus;
  location: { start: { line: number; column: number }; end: { line: number; column: number } };
}

interface Report {
  files: Record<string, { mutants: ReportMutant[] }>;
}

function firstDifference(verdict: WorkerVerdict): string {
  if (verdict.equivalent) return '';
  if (verdict.request) {
    const [statusA] = (verdict.original ?? '').split(':');
    const [statusB, headersB, bodyB] = (verdict.mutant ?? '').split(':');
    const [, headersA, bodyA] = (verdict.original ?? '').split(':');
    const what = [
      statusA !== statusB ? `status ${statusA} → ${statusB}` : '',
      headersA !== headersB ? 'headers' : '',
      bodyA !== bodyB ? 'body' : '',
    ]
      .filter(Boolean)
      .join(', ');
    return `${verdict.instance}, request ${verdict.index! + 1}: ${verdict.request} (${what} differ)`;
  }
  return `${verdict.instance ? `${verdict.instance}: ` : ''}${verdict.error ?? 'differs'}`;
}

/**
 * A run cut short has no report: the killer's own log (MUTATION_TIMES, one line per mutant it finished) stands in
 * for it, killed or survived, with the decider's locations (its ids are Stryker's for a whole-scope run). A mutant
 * Stryker timed out, or never reached, has no line and is left out.
 */
function reportFromKillerLog(file: string, byId: ReadonlyMap<string, DeciderMutant>): Report {
  const report: Report = { files: {} };
  const lines = fs.readFileSync(file, 'utf8').trim().split('\n').filter(Boolean);
  for (const line of lines) {
    const { mutant, killed } = JSON.parse(line) as { mutant: string | null; killed: boolean };
    const m = mutant === null ? undefined : byId.get(mutant);
    if (!m) continue;
    (report.files[m.file] ??= { mutants: [] }).mutants.push({
      id: m.id,
      mutatorName: m.mutatorName,
      replacement: m.replacement,
      status: killed ? 'Killed' : 'Survived',
      location: { start: { line: m.line, column: m.column }, end: { line: m.endLine, column: m.endColumn } },
    });
  }
  return report;
}

/** The corpus, the original's fingerprints and coverage: made once for a bundle and a corpus size, then reused. */
interface Prepared {
  base: WorkerJob;
  corpusSize: string;
  /** How long the original took to answer the whole corpus, for the mutants' deadlines. */
  originalMs: number;
  instancesFor(id: string): WorkerJob['instances'];
}

async function prepare(bundle: string, options: Options, log: (line: string) => void): Promise<Prepared> {
  const files = {
    corpus: path.join(WORK, 'corpus.json'),
    fingerprints: path.join(WORK, 'fingerprints.json'),
    coverage: path.join(WORK, 'coverage.json'),
    state: path.join(WORK, 'prepared.json'),
  };
  const base: WorkerJob = {
    bundle,
    corpus: files.corpus,
    fingerprints: files.fingerprints,
    coverage: files.coverage,
    instances: [...INSTANCES],
    requestMs: REQUEST_MS,
  };
  const identity = `${hashOf(fs.readFileSync(bundle))}/${options.generated}/${SEED}/${JSON.stringify(INSTANCES)}`;
  let state: { identity: string; corpusSize: string; originalMs: number } | undefined;
  try {
    state = JSON.parse(fs.readFileSync(files.state, 'utf8')) as typeof state;
  } catch {
    state = undefined;
  }
  if (state?.identity === identity) log(`reusing the corpus and the original's answers (${path.relative(ROOT, files.state)})`);
  else {
    const captured = await runWorker(WORK, { ...base, capture: { generated: options.generated, seed: SEED } }, 1_800_000);
    if (!('suite' in captured)) throw new Error(`capturing the corpus failed: ${firstDifference(captured as WorkerVerdict)}`);
    const original = await runWorker(WORK, base, 7_200_000);
    if (!original.equivalent) throw new Error(`the original's run failed: ${firstDifference(original)}`);
    const corpusSize = `${(captured as unknown as { suite: number }).suite} suite requests (in 2 orders) + ${options.generated} generated (seed ${SEED}); ${original.requests} answers over ${INSTANCES.length} instances (${INSTANCES.map(instanceName).join(', ')})`;
    log(`corpus: ${corpusSize}; the original answered it in ${(original.ms / 1000).toFixed(1)} s`);
    if (options.recheck) {
      // The original against itself, in a new process: any difference would be nondeterminism, not a mutant.
      const again = await runWorker(WORK, { ...base, mutant: 'none' }, Math.max(1_800_000, original.ms * 4), {
        __STRYKER_ACTIVE_MUTANT__: 'none',
      });
      if (!again.equivalent) throw new Error(`the original does not answer its own corpus the same twice: ${firstDifference(again)}`);
      log(`recheck: the original answers the corpus the same in a second process (${(again.ms / 1000).toFixed(1)} s)`);
    }
    state = { identity, corpusSize, originalMs: original.ms };
    fs.writeFileSync(files.state, JSON.stringify(state));
    // Verdicts were made against the old corpus: they go.
    fs.rmSync(path.join(WORK, 'verdicts.json'), { force: true });
  }
  const coverage = JSON.parse(fs.readFileSync(files.coverage, 'utf8')) as InstanceCoverage;
  return {
    base,
    corpusSize: state.corpusSize,
    originalMs: state.originalMs,
    instancesFor: (id: string) => instancesReaching(coverage, id),
  };
}

function hashOf(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex').slice(0, 16);
}

/** Verdicts by mutant key, kept beside the prepared corpus: a re-run decides only mutants it has not decided. */
class VerdictCache {
  private readonly file = path.join(WORK, 'verdicts.json');
  private readonly verdicts: Record<string, Equivalence>;

  constructor() {
    try {
      this.verdicts = JSON.parse(fs.readFileSync(this.file, 'utf8')) as Record<string, Equivalence>;
    } catch {
      this.verdicts = {};
    }
  }

  get(key: string): Equivalence | undefined {
    this.merge();
    return this.verdicts[key];
  }

  private merge(): void {
    try {
      Object.assign(this.verdicts, JSON.parse(fs.readFileSync(this.file, 'utf8')) as Record<string, Equivalence>);
    } catch {
      // none written yet
    }
  }

  /** Kept with what another decider (a second one beside this, on the other core) wrote meanwhile. */
  set(key: string, verdict: Equivalence): void {
    this.merge();
    this.verdicts[key] = verdict;
    fs.writeFileSync(this.file, JSON.stringify(this.verdicts));
  }
}

async function decideOne(
  mutant: DeciderMutant,
  prepared: Prepared,
  cache: VerdictCache,
  log: (line: string) => void,
): Promise<Equivalence> {
  const key = mutantKey(mutant);
  const known = cache.get(key);
  if (known) return known;
  const instances = prepared.instancesFor(mutant.id);
  let equivalence: Equivalence;
  if (instances.length === 0) equivalence = { equivalent: true, how: 'never reached', requests: 0 };
  else {
    const verdict = await runWorker(WORK, { ...prepared.base, instances, mutant: mutant.id }, Math.max(600_000, prepared.originalMs * 3), {
      __STRYKER_ACTIVE_MUTANT__: mutant.id,
    });
    equivalence = verdict.equivalent
      ? { equivalent: true, how: 'same answers', requests: verdict.requests }
      : { equivalent: false, firstDifference: firstDifference(verdict) };
    log(
      `${mutant.file}:${mutant.line} ${mutant.mutatorName}: ${verdict.equivalent ? 'equivalent' : 'NOT equivalent'} (${(verdict.ms / 1000).toFixed(1)} s, ${instances.length} instances)`,
    );
  }
  cache.set(key, equivalence);
  return equivalence;
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  fs.mkdirSync(WORK, { recursive: true });
  const t0 = performance.now();
  const log = (line: string) => console.log(`[${((performance.now() - t0) / 1000).toFixed(0)} s] ${line}`);

  const { texts, mutants } = await instrumentScope(ROOT);
  const bundle = await bundleRoads(ROOT, texts, WORK);
  const byKey = new Map<string, DeciderMutant>(mutants.map((m) => [mutantKey(m), m]));
  const byId = new Map<string, DeciderMutant>(mutants.map((m) => [m.id, m]));
  log(`instrumented ${texts.size} files, ${mutants.length} mutants; bundle ${path.relative(ROOT, bundle)}`);
  const prepared = await prepare(bundle, options, log);
  const cache = new VerdictCache();

  if (options.ahead) {
    // Before (or beside) Stryker: decide a sample's mutants by the decider's own ids, which are Stryker's for a
    // whole-scope run (the same instrumenter over the same files); the report is matched by key afterwards.
    const ids = (JSON.parse(fs.readFileSync(options.ahead, 'utf8')) as { ids: string[] }).ids;
    // MUTATION_DECIDE_FROM_END=1: a second decider beside the first takes the sample from its end.
    for (const id of process.env.MUTATION_DECIDE_FROM_END === '1' ? [...ids].reverse() : ids) {
      const mutant = byId.get(id);
      if (mutant) await decideOne(mutant, prepared, cache, log);
    }
    log(`decided ${ids.length} mutants ahead; their verdicts are kept in ${path.relative(ROOT, WORK)}/verdicts.json`);
    return;
  }

  const rows: MutantRow[] = [];
  for (const run of options.runs) {
    const report = run.report.endsWith('.jsonl')
      ? reportFromKillerLog(run.report, byId)
      : (JSON.parse(fs.readFileSync(run.report, 'utf8')) as Report);
    const sample = run.sample ? new Set((JSON.parse(fs.readFileSync(run.sample, 'utf8')) as { ids: string[] }).ids) : undefined;
    for (const [file, { mutants: reported }] of Object.entries(report.files)) {
      for (const m of reported) {
        if (sample && !sample.has(m.id)) continue;
        const row: MutantRow = {
          id: m.id,
          file,
          line: m.location.start.line,
          mutatorName: m.mutatorName,
          replacement: m.replacement ?? '',
          status: m.status,
        };
        rows.push(row);
        if (m.status !== 'Survived' && m.status !== 'NoCoverage') continue;
        const ours = byKey.get(
          mutantKey({
            file,
            line: m.location.start.line,
            column: m.location.start.column,
            endLine: m.location.end.line,
            endColumn: m.location.end.column,
            mutatorName: m.mutatorName,
            replacement: m.replacement ?? '',
          }),
        );
        if (!ours)
          row.equivalence = {
            equivalent: false,
            firstDifference: "not in the decider's instrumentation (the code changed since the report): not decided",
          };
        else if (options.decidedOnly) {
          // --decided-only: what the deciders have decided so far; the rest stay undecided, and the score is given both ways.
          const known = cache.get(mutantKey(ours));
          if (known) row.equivalence = known;
        } else row.equivalence = await decideOne(ours, prepared, cache, log);
      }
    }
  }
  const corpusSize = prepared.corpusSize;

  const score = scoreOf(rows);
  const survivors = rows.filter((row) => row.equivalence);
  const undecided = rows.filter((row) => (row.status === 'Survived' || row.status === 'NoCoverage') && !row.equivalence);
  const decided = survivors.filter((row) => row.equivalence);
  const bounds = undecided.length
    ? [
        `- **Not decided yet: ${undecided.length} survivors** (--decided-only). The score above leaves them out; counted as undetected (the lowest it can be) it is ${describeScore(scoreOf(rows.map((row) => (undecided.includes(row) ? { status: row.status, equivalence: { equivalent: false as const, firstDifference: '' } } : row))))}`,
      ]
    : [];
  const header = [
    '# Mutation testing: the per-mutant table',
    '',
    '<!-- Generated by `npm run mutation` (tools/mutation/decide.ts): do not edit. docs/mutation.md says how to read it. -->',
    '',
    `- Reports: ${options.runs.map((run) => `${path.relative(ROOT, run.report)}${run.sample ? ` (sample ${path.relative(ROOT, run.sample)})` : ''}`).join(', ')}`,
    `- Mutants: ${rows.length}; survivors and uncovered put to the differential run: ${decided.length}, of which ${decided.filter((r) => !r.equivalence!.equivalent).length} NOT equivalent`,
    `- Corpus: ${corpusSize}`,
    `- **Score: ${describeScore(score)}**`,
    ...bounds,
  ];
  fs.writeFileSync(path.join(OUT, 'mutants.md'), markdownTable(rows, header));
  fs.writeFileSync(path.join(OUT, 'mutants.json'), `${JSON.stringify({ corpus: corpusSize, score, rows }, null, 1)}\n`);
  log(`score: ${describeScore(score)}`);
  log(`table: ${path.relative(ROOT, path.join(OUT, 'mutants.md'))}`);
}

main().catch((error: unknown) => {
  console.error(`mutation decide: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 2;
});
