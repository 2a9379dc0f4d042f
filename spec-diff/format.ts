// Why: one report, three readers: a person at a terminal (breaking changes
// first, each with where it is), a machine (`--json`, a stable format), and
// the --watch reload line (the verdict and the first few changes).
import type { OpenApiDocument } from '../contract/spec';
import { diffSpecs, type Change, type DiffReport } from './diff';

export const JSON_FORMAT = 'client-records-spec-diff/1';

function counts(report: DiffReport): { breaking: number; notBreaking: number } {
  const breaking = report.changes.filter((change) => change.breaking).length;
  return { breaking, notBreaking: report.changes.length - breaking };
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

/** `breaking for clients: 2 breaking changes, 1 not breaking`, or the two quieter verdicts. */
export function verdict(report: DiffReport): string {
  const { breaking, notBreaking } = counts(report);
  if (report.changes.length === 0) return 'no changes';
  if (breaking === 0) return `not breaking for clients: ${plural(notBreaking, 'change')}, none breaking`;
  return `BREAKING for clients: ${plural(breaking, 'breaking change')}, ${notBreaking} not breaking`;
}

/** The operations a change reaches, after its first place: `(also getClientsExtended, getClientDetail)`. */
function alsoIn(change: Change): string {
  const others = change.operations.filter((operation) => !change.where.startsWith(operation));
  return others.length > 0 ? ` (also ${others.join(', ')})` : '';
}

/** The readable report: the verdict, the breaking changes, then the others, each with where it is. */
export function formatText(report: DiffReport, oldName: string, newName: string): string {
  const lines = [`${oldName} → ${newName}: ${verdict(report)}`];
  const section = (title: string, mark: string, changes: Change[]) => {
    if (changes.length === 0) return;
    lines.push('', title);
    for (const change of changes) {
      lines.push(`  ${mark} ${change.message}`);
      if (change.operations[0] !== 'document') lines.push(`      ${change.where}${alsoIn(change)}  #${change.pointer}`);
    }
  };
  section(
    'Breaking for clients:',
    '✗',
    report.changes.filter((change) => change.breaking),
  );
  section(
    'Not breaking:',
    '✓',
    report.changes.filter((change) => !change.breaking),
  );
  return lines.join('\n') + '\n';
}

/** The machine-readable report (`--json`). */
export function formatJson(report: DiffReport, oldName: string, newName: string): string {
  return (
    JSON.stringify(
      {
        format: JSON_FORMAT,
        old: oldName,
        new: newName,
        breaking: report.breaking,
        summary: counts(report),
        changes: report.changes,
      },
      null,
      2,
    ) + '\n'
  );
}

/** At most this many changes in a --watch report; the rest are counted. */
const WATCH_LINES = 5;

/**
 * The --watch lines for a reload: the verdict against the last good version,
 * then the first changes (breaking first). Empty when the API did not change.
 */
export function watchVerdict(before: OpenApiDocument, after: OpenApiDocument): string[] {
  const report = diffSpecs(before, after);
  if (report.changes.length === 0) return [];
  const shown = report.changes.slice(0, WATCH_LINES).map((change) => {
    const operations = change.operations[0] === 'document' ? '' : ` (${change.operations.join(', ')})`;
    return `  ${change.breaking ? '✗' : '✓'} ${change.message}${operations}`;
  });
  const more = report.changes.length - shown.length;
  return [
    `spec against the last good version: ${verdict(report)}`,
    ...shown,
    ...(more > 0 ? [`  … and ${more} more (client-records-mock diff OLD NEW lists them all)`] : []),
  ];
}
