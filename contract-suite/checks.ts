// The contract checks: named, target-independent, plain async functions that
// throw a ContractViolation, so the runner (cli.ts), the jest suite
// (tests/contract), the mutation harness and the Prism replay run exactly the
// same code. Every exchange a check makes is first held against openapi.yaml
// (status, content type, documented headers, body); then the check asserts the
// rule its title names.
//
// The registry is explicit: CHECK_GROUPS lists each group in run order, and
// contractChecks() builds a fresh list from them. Importing a module registers
// nothing. No check knows our seed: ids, staff, locations and search terms are
// discovered from the lists of the deployment under test.
import { CheckContext, type ContractCheck, type Define } from './context';
import { coverageChecks } from './checks/coverage';
import { crossCuttingChecks } from './checks/cross-cutting';
import { derivedChecks } from './derived';
import { detailChecks } from './checks/detail';
import { diagnosticsChecks } from './checks/diagnostics';
import { filterChecks } from './checks/filters';
import { listChecks } from './checks/lists';
import { walkChecks } from './checks/walk';
import { specContract, type SpecContract } from './spec-contract';
import type { Target } from './target';

export { CheckContext, ContractViolation, type ContractCheck, type OperationName, type Sample } from './context';

/** A group defines its checks from the document it is given (the derived group walks it; the others read a few values). */
export type CheckGroup = (check: Define, contract: SpecContract) => void;

/** The groups, in run order; coverage last, since it reads what the others reached. */
export const CHECK_GROUPS: readonly CheckGroup[] = [
  diagnosticsChecks,
  listChecks,
  filterChecks,
  detailChecks,
  walkChecks,
  derivedChecks,
  crossCuttingChecks,
  coverageChecks,
];

/** Every check, in run order, for the served document (by default the bundled openapi.yaml). */
export function contractChecks(contract: SpecContract = specContract()): ContractCheck[] {
  const checks: ContractCheck[] = [];
  const names = new Set<string>();
  const define: Define = (operation, name, run) => {
    if (names.has(name)) throw new Error(`two contract checks are named ${name}`);
    names.add(name);
    checks.push({ operation, name, run });
  };
  for (const group of CHECK_GROUPS) group(define, contract);
  return checks;
}

export interface CheckResult {
  check: ContractCheck;
  error?: Error;
}

/**
 * Runs the checks against a target, in order, collecting failures instead of
 * stopping at the first.
 */
export async function runChecks(
  target: Target,
  only: (check: ContractCheck) => boolean = () => true,
): Promise<{ results: CheckResult[]; context: CheckContext }> {
  const context = new CheckContext(target);
  const results: CheckResult[] = [];
  for (const item of contractChecks()) {
    if (!only(item)) continue;
    try {
      await item.run(context);
      results.push({ check: item });
    } catch (error) {
      results.push({ check: item, error: error instanceof Error ? error : new Error(String(error)) });
    }
  }
  return { results, context };
}
