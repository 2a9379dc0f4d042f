// Why this file exists: the mutation score is computed, never graded. A mutant Stryker reports Killed or Timeout
// is detected; Survived or NoCoverage is undetected unless the differential run (decide.ts) found it answers the
// whole corpus byte for byte as the original does, in which case it is equivalent and leaves the denominator;
// CompileError, RuntimeError and Ignored are not mutants the suite could be asked about and are counted apart.
// This module turns Stryker's statuses and the decider's verdicts into rows, the score, its 90 % Wilson interval
// and the generated table (reports/mutation/mutants.md).

export type StrykerStatus = 'Killed' | 'Timeout' | 'Survived' | 'NoCoverage' | 'CompileError' | 'RuntimeError' | 'Ignored' | 'Pending';

/** What the differential run said of a survivor. */
export type Equivalence =
  { equivalent: true; how: 'same answers' | 'never reached'; requests: number } | { equivalent: false; firstDifference: string };

export interface MutantRow {
  /** Stryker's id in the report it came from. */
  id: string;
  file: string;
  line: number;
  mutatorName: string;
  replacement: string;
  status: StrykerStatus;
  /** Survivors only. */
  equivalence?: Equivalence;
}

/** `not decided`: a survivor the differential run has not been asked about yet (decide.ts --decided-only). */
export type Verdict = 'detected' | 'undetected' | 'equivalent' | 'not decided' | 'not scored';

export function verdictOf(row: Pick<MutantRow, 'status' | 'equivalence'>): Verdict {
  switch (row.status) {
    case 'Killed':
    case 'Timeout':
      return 'detected';
    case 'Survived':
    case 'NoCoverage':
      if (!row.equivalence) return 'not decided';
      return row.equivalence.equivalent ? 'equivalent' : 'undetected';
    default:
      return 'not scored';
  }
}

export interface Score {
  detected: number;
  undetected: number;
  equivalent: number;
  notDecided: number;
  notScored: number;
  /** detected / (detected + undetected), as a fraction; NaN when nothing is scored. */
  score: number;
  /** The 90 % Wilson score interval of `score`. */
  low: number;
  high: number;
}

/** z for a two-sided 90 % interval. */
const Z90 = 1.6448536269514722;

/** The Wilson score interval of `successes` in `trials` (E. B. Wilson, 1927), at z. */
export function wilson(successes: number, trials: number, z = Z90): { low: number; high: number } {
  if (trials === 0) return { low: 0, high: 1 };
  const p = successes / trials;
  const z2 = z * z;
  const centre = (p + z2 / (2 * trials)) / (1 + z2 / trials);
  const half = (z / (1 + z2 / trials)) * Math.sqrt((p * (1 - p)) / trials + z2 / (4 * trials * trials));
  return { low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}

export function scoreOf(rows: readonly Pick<MutantRow, 'status' | 'equivalence'>[]): Score {
  const count = (verdict: Verdict) => rows.filter((row) => verdictOf(row) === verdict).length;
  const detected = count('detected');
  const undetected = count('undetected');
  const { low, high } = wilson(detected, detected + undetected);
  return {
    detected,
    undetected,
    equivalent: count('equivalent'),
    notDecided: count('not decided'),
    notScored: count('not scored'),
    score: detected / (detected + undetected),
    low,
    high,
  };
}

const percent = (fraction: number) => `${(fraction * 100).toFixed(1)} %`;

export function describeScore(score: Score): string {
  return (
    `${percent(score.score)} (90 % Wilson interval ${percent(score.low)}–${percent(score.high)}): ` +
    `${score.detected} detected of ${score.detected + score.undetected} non-equivalent mutants; ` +
    `${score.equivalent} equivalent by the differential run; ${score.notScored} not scored (compile or runtime errors, ignored)` +
    (score.notDecided ? `; ${score.notDecided} survivors not decided yet, left out` : '')
  );
}

function cell(text: string): string {
  const flat = text.replace(/\s+/g, ' ').replace(/\|/g, '\\|');
  return flat.length > 160 ? `${flat.slice(0, 157)}…` : flat;
}

function equivalenceCell(row: MutantRow): string {
  const e = row.equivalence;
  if (!e) return '';
  if (e.equivalent)
    return e.how === 'never reached' ? 'equivalent: the corpus never runs it' : `equivalent: same answers to ${e.requests} requests`;
  return `NOT equivalent: ${e.firstDifference}`;
}

/** The generated table: the figures, then one row per mutant, undetected first. */
export function markdownTable(rows: readonly MutantRow[], header: readonly string[]): string {
  const order: Record<Verdict, number> = { undetected: 0, 'not decided': 1, equivalent: 2, detected: 3, 'not scored': 4 };
  const sorted = [...rows].sort(
    (a, b) => order[verdictOf(a)] - order[verdictOf(b)] || a.file.localeCompare(b.file) || a.line - b.line || Number(a.id) - Number(b.id),
  );
  const lines = [
    ...header,
    '',
    '| id | file:line | mutator | replacement | Stryker | verdict | differential run |',
    '|---:|---|---|---|---|---|---|',
    ...sorted.map(
      (row) =>
        `| ${row.id} | ${row.file}:${row.line} | ${row.mutatorName} | \`${cell(row.replacement).replace(/`/g, "'")}\` | ${row.status} | ${verdictOf(row)} | ${cell(equivalenceCell(row))} |`,
    ),
  ];
  return `${lines.join('\n')}\n`;
}
