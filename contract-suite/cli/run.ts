// One run of the suite against a target: every check in order, then the property run, each exchange recorded
// for coverage; the outcome of each check and the exit code the run calls for.
import { operationPathname, type Exchange } from '../../contract/exchange';
import { specContract, type SpecContract } from '../../contract/spec-contract';
import { CheckContext, contractChecks, runCheck, withControlChecks, type CheckGroup, type ContractCheck, type Outcome } from '../registry';
import { CoverageRecorder } from '../kit/coverage';
import { toCurl } from '../kit/http';
import type { Target } from '../kit/target';
import { describeOutcome, runProperties, type PropertyOutcome } from '../property/properties';
import { groupCauses } from './causes';
import type { RunResult, SuiteRun } from './results';

/** A progress line every this many checks outside --verbose: a long run shows it is alive in a CI log. */
const PROGRESS_EVERY = 50;

function progressLine(results: readonly RunResult[], total: number): string {
  const count = (outcome: Outcome) => results.filter((r) => r.outcome === outcome).length;
  return `  checks: ${results.length}/${total} run, ${count('fail')} failed, ${count('skip')} skipped${count('error') > 0 ? `, ${count('error')} suite errors` : ''}`;
}

/** Runs every check, then the property run, against a target, judging against `contract` (default: the bundled openapi.yaml). */
export async function runSuite(
  target: Target,
  options: {
    runs: number;
    seed: number;
    origin?: string;
    /** Also the RFC 9112 MUST-400s Node's server takes (--strict-http; derived/framing.ts). */
    strictHttp?: boolean;
    log?: (line: string) => void;
    /** Log every check's line as it ends (--verbose); else a progress line every PROGRESS_EVERY checks. */
    verbose?: boolean;
    contract?: SpecContract;
    /** Check groups to run (default: every group of checks.ts), e.g. with the derived checks added. */
    groups?: readonly CheckGroup[];
    /** The control API's checks too (--control), before coverage. */
    control?: boolean;
    /** What the coverage report names as its source (default: the base URL). */
    source?: string;
  },
): Promise<SuiteRun> {
  const log = options.log ?? (() => undefined);
  const contract = options.contract ?? specContract();
  const recorder = new CoverageRecorder(contract, target);
  const recorded: Target = {
    ...target,
    onExchange: (exchange: Exchange) => {
      recorder.record(exchange);
      target.onExchange?.(exchange);
    },
  };
  const context = new CheckContext(recorded, options.origin, { contract, seed: options.seed, strictHttp: options.strictHttp });
  const results: RunResult[] = [];
  const checks: ContractCheck[] = contractChecks(contract, options.control ? withControlChecks(options.groups) : options.groups, {
    strictHttp: options.strictHttp,
    seed: options.seed,
  });
  const exercised = new Set<string>();
  for (const check of checks) {
    const result = await runCheck(check, context);
    const error = result.error as (Error & { exchange?: Exchange; rule?: string; place?: string; curl?: string }) | undefined;
    const exchange = error?.exchange;
    results.push({
      name: check.name,
      operation: check.operation,
      passed: result.outcome === 'pass' || result.outcome === 'skip',
      outcome: result.outcome,
      ms: result.ms,
      error: error?.message,
      reason: result.reason,
      violations: result.violations,
      rule: error?.rule,
      place: error?.place,
      checkRules: check.rules,
      curl: error?.curl ?? (exchange ? toCurl(target, exchange.request) : undefined),
      where: exchange
        ? { operation: contract.findOperation(operationPathname(exchange))?.operation.operationId ?? 'routing', status: exchange.status }
        : undefined,
    });
    if (result.outcome === 'pass' || result.outcome === 'fail') for (const rule of check.rules ?? []) exercised.add(rule);
    if (!options.verbose) {
      if (results.length % PROGRESS_EVERY === 0 || results.length === checks.length) log(progressLine(results, checks.length));
    } else if (result.outcome === 'pass') log(`  ✓ ${check.name}`);
    else if (result.outcome === 'skip') log(`  - ${check.name}\n      skipped: ${result.reason}`);
    else if (result.outcome === 'error')
      log(`  ! ${check.name}\n      SUITE ERROR (a bug of the contract suite, not of the deployment): ${error?.stack ?? error?.message}`);
    else log(`  ✗ ${check.name}\n      ${(error?.message ?? '').split('\n').join('\n      ')}`);
  }
  const started = performance.now();
  let property: PropertyOutcome;
  try {
    property = await runProperties(context, options.seed, options.runs);
  } catch (thrown) {
    // runProperties reports what it meets; anything that still escapes is a bug of the suite, never the deployment's fault.
    property = {
      seed: options.seed,
      runs: 0,
      requests: 0,
      valid: 0,
      invalid: 0,
      statuses: [],
      suiteBug: `the property run threw ${String(thrown)}`,
    };
  }
  const name = `property run: ${options.runs} generated requests (seed ${options.seed}) → the judge's statuses, schemas, headers and list rules for valid and invalid input`;
  const propertyOutcome: Outcome = property.unreachable ? 'unreachable' : property.suiteBug ? 'error' : property.failure ? 'fail' : 'pass';
  results.push({
    name,
    operation: 'generated',
    passed: propertyOutcome === 'pass',
    outcome: propertyOutcome,
    ms: performance.now() - started,
    error: property.unreachable ?? property.suiteBug ?? property.failure,
    violations: property.violations ?? [],
    curl: /reproduce: (.*)/.exec(property.failure ?? '')?.[1],
  });
  log(
    `  ${propertyOutcome === 'pass' ? '✓' : propertyOutcome === 'error' ? '!' : '✗'} ${describeOutcome(property)}` +
      (property.suiteBug
        ? `\n      SUITE ERROR: ${property.suiteBug}`
        : property.failure && options.verbose
          ? `\n      ${property.failure.split('\n').join('\n      ')}`
          : ''),
  );
  for (const rule of context.applied) exercised.add(rule);
  const coverage = recorder.report({
    source: options.source ?? target.baseUrl,
    exercised,
    run: { seed: options.seed, runs: options.runs },
  });
  return { results, property, requests: context.requestCount, coverage, causes: groupCauses(results), context };
}
