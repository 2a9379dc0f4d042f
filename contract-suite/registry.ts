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
import {
  CheckContext,
  CheckSkipped,
  ContractViolation,
  noting,
  type CheckContextOptions,
  type ContractCheck,
  type Define,
  type DefineOptions,
  type Outcome,
  type Evaluated,
} from './kit/context';
import { coverageChecks } from './checks/coverage';
import { controlChecks } from './checks/control';
import { crossCuttingChecks } from './checks/cross-cutting';
import { derivedChecks } from './derived';
import { detailChecks } from './checks/detail';
import { diagnosticsChecks } from './checks/diagnostics';
import { filterChecks } from './checks/filters';
import { historyChecks } from './history';
import { listChecks } from './checks/lists';
import { relationChecks } from './relations';
import { walkChecks } from './checks/walk';
import { answersAtAll, TransportError } from './kit/http';
import type { Violation } from '../contract/judge';
import { specContract, type SpecContract } from '../contract/spec-contract';
import type { Target } from './kit/target';

export type { Outcome } from './kit/context';
export {
  CheckContext,
  CheckSkipped,
  ContractViolation,
  type ContractCheck,
  type DefineOptions,
  type OperationName,
  type Sample,
} from './kit/context';

/** A group of checks: defines them, given the contract in use (the bundled openapi.yaml or --spec FILE) and the run's options. */
export type CheckGroup = (check: Define, contract: SpecContract, options: DefineOptions) => void;

/** The groups, in run order; history next to last, since it replays what the others sent; coverage last, since it reads what they reached. */
export const CHECK_GROUPS: readonly CheckGroup[] = [
  diagnosticsChecks,
  listChecks,
  filterChecks,
  relationChecks,
  detailChecks,
  walkChecks,
  derivedChecks,
  crossCuttingChecks,
  historyChecks,
  coverageChecks,
];

/** The groups with the control API's checks (--control) added before history and coverage, which read what the others sent and reached. */
export function withControlChecks(groups: readonly CheckGroup[] = CHECK_GROUPS): CheckGroup[] {
  const last = [historyChecks, coverageChecks].map((group) => groups.indexOf(group)).filter((i) => i >= 0);
  const at = last.length === 0 ? groups.length : Math.min(...last);
  return [...groups.slice(0, at), controlChecks, ...groups.slice(at)];
}

/** Every check, in run order, for the contract in use; `groups` adds others (the derived checks) before coverage; `options` adds the opt-in ones. */
export function contractChecks(
  contract: SpecContract = specContract(),
  groups: readonly CheckGroup[] = CHECK_GROUPS,
  options: DefineOptions = {},
): ContractCheck[] {
  const checks: ContractCheck[] = [];
  const define: Define = (operation, name, run, rules) => {
    if (checks.some((existing) => existing.name === name)) throw new Error(`two contract checks are named ${name}`);
    checks.push({ operation, name, run, ...(rules ? { rules } : {}) });
  };
  for (const group of groups) group(define, contract, options);
  return checks;
}

export interface CheckResult {
  check: ContractCheck;
  outcome: Outcome;
  /** Set for fail, error and unreachable (kept for callers that test `error`); never for pass or skip. */
  error?: Error;
  /** Why the check was skipped. */
  reason?: string;
  /** The judge's violations behind a failure ([] when the check's own assertion failed). */
  violations: Violation[];
  ms: number;
}

/** Classifies what a check threw. */
export function outcomeOf(thrown: unknown): { outcome: Outcome; error?: Error; reason?: string; violations: Violation[] } {
  if (thrown instanceof CheckSkipped) return { outcome: 'skip', reason: thrown.reason, violations: [] };
  if (thrown instanceof ContractViolation) return { outcome: 'fail', error: thrown, violations: thrown.violations };
  if (thrown instanceof TransportError) {
    if (thrown.unreachable) return { outcome: 'unreachable', error: thrown, violations: [] };
    if (!thrown.answerFailed) return { outcome: 'error', error: thrown, violations: [] };
    // The deployment took the request and gave no HTTP answer (reset, timeout): that breaks the contract.
    const failed = new ContractViolation(`no HTTP answer: ${thrown.message}`);
    failed.rule = 'response.transport';
    return { outcome: 'fail', error: failed, violations: [] };
  }
  return { outcome: 'error', error: thrown instanceof Error ? thrown : new Error(String(thrown)), violations: [] };
}

/** The start of the reason a check that passed without asserting anything is skipped with. */
export const ASSERTED_NOTHING = 'asserted nothing';

/**
 * Whether a check that ran to its end asserted anything: at least one of the
 * rules it declares was evaluated while it ran, applied by the judge to an
 * exchange it had judged (context.call and get, expectList, a derived check's
 * judge) or named by one of its own assertions (context.expect, expectStatus,
 * expectError, fail), whichever way it came out. An assertion of its own that
 * names no rule counts too; so does any rule evaluated, for a check that
 * declares none. Else the check passed vacuously: its data gave it nothing to
 * hold the deployment to.
 */
export function assertedSomething(check: Pick<ContractCheck, 'rules'>, evaluated: Evaluated): boolean {
  if (evaluated.unnamed > 0) return true;
  const declared = check.rules ?? [];
  if (declared.length === 0) return evaluated.rules.size > 0;
  return declared.some((rule) => evaluated.rules.has(rule));
}

/** The skip reason of a check that passed without asserting anything. */
function vacuousReason(check: ContractCheck): string {
  const rules = check.rules ?? [];
  return `${ASSERTED_NOTHING}: it ran to its end without evaluating ${rules.length > 0 ? `any of its rules (${rules.join(', ')})` : 'any rule'}, so the deployment's data gave it nothing to hold`;
}

/**
 * An outcome of `unreachable` held against the target as it is now: a server that answers a plain request is no
 * outage. Then a refused or unroutable connection is the deployment's failure to answer that request, and a host
 * the suite could not resolve while fetch reaches it is the suite's own bug (exit 3), never blamed on the deployment.
 */
async function confirmedUnreachable(thrown: unknown, context: CheckContext): Promise<ReturnType<typeof outcomeOf> | undefined> {
  if (!(thrown instanceof TransportError) || !thrown.unreachable || !(await answersAtAll(context.target))) return undefined;
  if (['ENOTFOUND', 'EAI_AGAIN'].includes(thrown.code))
    return { outcome: 'error', error: new Error(`the suite could not resolve a host fetch reaches: ${thrown.message}`), violations: [] };
  const failed = new ContractViolation(`no HTTP answer, though the deployment answers other requests: ${thrown.message}`);
  failed.rule = 'response.transport';
  return { outcome: 'fail', error: failed, violations: [] };
}

/**
 * Runs one check against the context and says how it ended (never throws). A
 * check that ran to its end but asserted nothing (assertedSomething) is
 * skipped with that reason, never counted as a pass.
 */
export async function runCheck(check: ContractCheck, context: CheckContext): Promise<CheckResult> {
  const started = performance.now();
  let result: CheckResult;
  // The control API's requests are state on purpose (scenarios, sessions): not the run's requests to replay.
  context.journal.open = check.operation !== 'control';
  try {
    const evaluated = await noting(() => check.run(context));
    result = assertedSomething(check, evaluated)
      ? { check, outcome: 'pass', violations: [], ms: performance.now() - started }
      : { check, outcome: 'skip', reason: vacuousReason(check), violations: [], ms: performance.now() - started };
  } catch (thrown) {
    const outcome = outcomeOf(thrown);
    result = {
      check,
      ...(outcome.outcome === 'unreachable' ? ((await confirmedUnreachable(thrown, context)) ?? outcome) : outcome),
      ms: performance.now() - started,
    };
  }
  if (result.outcome === 'skip') context.skipped.push({ name: check.name, reason: result.reason! });
  if (result.outcome === 'fail') context.failed.push(check.name);
  return result;
}

/**
 * Runs the checks against a target, in order, collecting every outcome
 * instead of stopping at the first failure.
 */
export async function runChecks(
  target: Target,
  only: (check: ContractCheck) => boolean = () => true,
  options: CheckContextOptions & DefineOptions & { origin?: string; groups?: readonly CheckGroup[] } = {},
): Promise<{ results: CheckResult[]; context: CheckContext }> {
  const context = new CheckContext(target, options.origin, options);
  const results: CheckResult[] = [];
  for (const item of contractChecks(context.contract, options.groups, { strictHttp: options.strictHttp, seed: options.seed })) {
    if (!only(item)) continue;
    results.push(await runCheck(item, context));
  }
  return { results, context };
}
