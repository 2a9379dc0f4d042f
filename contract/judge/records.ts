// The in-record rules (contract/record-rules.ts) as judge violations, one cause per field and rule.
import { recordProblems, type RecordProblem } from '../record-rules';
import type { Judging } from './judging';
import type { JudgeRule } from './rules';
import { wildcard } from './words';

type Json = Record<string, unknown>;

export function recordRules(j: Judging, record: Json, at: string): void {
  for (const rule of [
    'record.luhn',
    'record.birth-date',
    'record.full-name',
    'record.basic-fields',
    'record.staff-name',
    'record.location-name',
  ] as const)
    j.apply(rule);
  for (const problem of recordProblems(record) as RecordProblem[]) {
    const field = problem.field.replace(/\./g, '/');
    j.add(
      problem.rule as JudgeRule,
      wildcard(`${at}/${field}`),
      problem.expected,
      `${at === '' ? '' : `${at.replace(/^\/Results\/(\d+)/, 'Results[$1]')} `}${String(record.IdClient ?? '')} ${problem.field}: ${problem.actual}`.trim(),
    );
  }
}
