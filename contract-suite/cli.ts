// The contract suite's runner: `client-records-mock contract --base-url URL
// --api-key KEY` (the package CLI dispatches here) or `npm run contract`. It
// runs the checks and the property run as plain functions, with no jest and no
// dev tooling, against the document in use (the bundled openapi.yaml, or
// --spec FILE), and reports one fault once: failures that share a cause (the
// same operation, status, rule and place) are grouped under it, the summary
// starts with the causes, each with a curl that reproduces it, and its last
// line gives their number. Exit codes CI can act on: 0 every check that could
// run passed (skips are not failures), 1 the deployment broke the contract (at
// any phase, the first probes included), 2 bad usage or an unreachable target
// (one line, within seconds), 3 the suite itself failed (a check threw
// something that is no contract violation: a bug to report, never blamed on
// the deployment). Importing this module does nothing; it runs itself only as
// the main module.
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { coverageToHtml, coverageToJson, coverageToJunit } from '../contract/coverage-report';
import { junitXml, type JunitCase, type JunitSuite } from '../contract/junit-xml';
import { readSpec } from '../contract/spec';
import { CheckContext, contractChecks, runCheck, withControlChecks, type CheckGroup, type ContractCheck, type Outcome } from './checks';
import { CoverageRecorder, describeCoverage, type CoverageReport } from './coverage';
import { operationPathname, toCurl, type Exchange } from './http';
import type { Violation } from './judge';
import { DEFAULT_RUNS, DEFAULT_SEED, describeOutcome, runProperties, type PropertyOutcome } from './properties';
import { SpecContract, specContract } from './spec-contract';
import { DEFAULT_API_KEY, type Target } from './target';
import { DEFAULT_ORIGIN } from './context';

export const EXIT = { pass: 0, violation: 1, usage: 2, suite: 3 } as const;

export const USAGE = `Usage: client-records-mock contract [--base-url URL] [options]

  --base-url URL        the deployment to check, with a path prefix if it has one (https://gw/records)
                        (default: our mock, started in-process on 127.0.0.1)
  --api-key KEY         a key the deployment accepts in X-Api-Key (default ${DEFAULT_API_KEY})
  --spec FILE           judge against this OpenAPI document instead of the bundled openapi.yaml
                        (another version of it); the in-process mock serves it too
  --runs N              generated requests of the property run, N >= 1 (default ${DEFAULT_RUNS})
  --seed N              fast-check seed; the same seed replays a run (default ${DEFAULT_SEED})
  --origin ORIGIN       the Origin the CORS checks send (default ${DEFAULT_ORIGIN}); a deployment
                        that accepts only listed origins needs one of them, else the CORS checks skip
  --strict-http         also send the RFC 9112 MUST-400s Node's own http server takes (two Host lines,
                        a Host that is no host, Transfer-Encoding: gzip), so off by default: every
                        correct Express backend would fail them. Turn it on for a deployment whose HTTP
                        front refuses them (Go's net/http, nginx, Kestrel, our mock)
  --control             also check the mock's control API (control.openapi.yaml): every scenario of its table
                        does what that document says (down, unauthorised, slow, flaky, the examples), chosen per
                        request, never for the whole server; a target without one skips these checks
  --max-rate N          at most N requests per second, for a remote deployment (default: no limit)
  --junit FILE          write a JUnit XML report: one case per check (failure, <skipped> with the reason, error)
  --coverage-out FILE   write the coverage report (client-records-coverage/1): FILE.json, .xml (JUnit) or .html;
                        repeat the option for several
  -h, --help            this text

Exit codes:
  0  every check that could run passed (checks the deployment's data cannot run are skipped, with the reason)
  1  the deployment broke the contract: any check, at any phase, the first probes included
  2  bad usage or an unreachable target (one line on stderr)
  3  the suite itself failed: a check threw something that is no contract violation (a bug of the suite; please report it)`;

/** A usage or target problem: one line, exit code 2. */
class StartError extends Error {}

interface Options {
  baseUrl?: string;
  apiKey: string;
  spec?: string;
  runs: number;
  seed: number;
  /** undefined: the default Origin, not named by the user. */
  origin?: string;
  /** --strict-http: the framing checks Node's server would fail (derived/framing.ts). */
  strictHttp: boolean;
  maxRate?: number;
  junit?: string;
  coverageOut: string[];
  /** --control: the control API's checks too. */
  control: boolean;
}

function positiveInteger(name: string, text: string | undefined, fallback: number, min: number): number {
  if (text === undefined) return fallback;
  if (!/^\d+$/.test(text) || Number(text) < min || !Number.isSafeInteger(Number(text)))
    throw new StartError(`--${name} must be a whole number >= ${min}, got ${JSON.stringify(text)}`);
  return Number(text);
}

function parseOptions(argv: readonly string[]): Options | 'help' {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        'base-url': { type: 'string' },
        'api-key': { type: 'string' },
        spec: { type: 'string' },
        runs: { type: 'string' },
        seed: { type: 'string' },
        origin: { type: 'string' },
        'strict-http': { type: 'boolean' },
        'max-rate': { type: 'string' },
        control: { type: 'boolean' },
        junit: { type: 'string' },
        'coverage-out': { type: 'string', multiple: true },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    throw new StartError(`${(error as Error).message.split('\n')[0]} (see --help)`);
  }
  const values = parsed.values;
  if (values.help) return 'help';
  if (values['api-key'] === '') throw new StartError('--api-key is empty');
  for (const file of values['coverage-out'] ?? [])
    if (!/\.(json|xml|html?)$/i.test(file))
      throw new StartError(`--coverage-out ${JSON.stringify(file)}: name a .json, .xml (JUnit) or .html file`);
  return {
    baseUrl: values['base-url'],
    apiKey: values['api-key'] ?? DEFAULT_API_KEY,
    spec: values.spec,
    runs: positiveInteger('runs', values.runs, DEFAULT_RUNS, 1),
    seed: positiveInteger('seed', values.seed, DEFAULT_SEED, 0),
    origin: values.origin,
    strictHttp: values['strict-http'] ?? false,
    maxRate: values['max-rate'] === undefined ? undefined : positiveInteger('max-rate', values['max-rate'], 0, 1),
    junit: values.junit,
    coverageOut: values['coverage-out'] ?? [],
    control: values.control ?? false,
  };
}

/** `http(s)://host[:port][/prefix]` without a trailing slash, or a StartError naming what is wrong. */
export function parseBaseUrl(text: string): string {
  let url: URL | undefined;
  try {
    url = new URL(text);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.hostname === '')
    throw new StartError(`--base-url ${JSON.stringify(text)} is not a URL: expected http://host:port or https://host`);
  if (url.search !== '' || url.hash !== '')
    throw new StartError(`--base-url ${JSON.stringify(text)} has a query or fragment: give only scheme, host, port and path prefix`);
  // A path prefix (a gateway's /records) is kept: operations are matched below it (http.ts operationPathname).
  return text.replace(/\/+$/, '');
}

const PROBE_TIMEOUT_MS = 4_000;

/** Why a request could not be made, in words (connection refused, no such host, timeout). */
function unreachable(error: unknown, baseUrl: string): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  const code = cause?.code ?? (error as { name?: string }).name;
  if (code === 'ECONNREFUSED') return `connection refused to ${baseUrl}: nothing listens there`;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return `cannot resolve the host of ${baseUrl}`;
  if (code === 'TimeoutError' || code === 'UND_ERR_CONNECT_TIMEOUT' || code === 'AbortError')
    return `no answer from ${baseUrl} within ${PROBE_TIMEOUT_MS / 1000} s`;
  return `cannot reach ${baseUrl}: ${cause?.message ?? (error as Error).message}`;
}

/**
 * Before any check, the three ways a run cannot start, each one line (exit 2):
 * nothing answers, the base URL points at something that is not this API (a
 * redirect, or a 404 that is not even JSON: a wrong host or prefix), the key
 * is rejected. Anything else the probes see, even a broken Ping, is left to
 * the checks, which report it as a contract violation (exit 1).
 */
async function probeTarget(target: Target, contract: SpecContract): Promise<void> {
  const paths = Object.fromEntries(contract.operations.map((o) => [o.operationId, o.template]));
  const get = async (path: string, key?: string) => {
    try {
      return await fetch(target.baseUrl + path, {
        headers: key ? { 'X-Api-Key': key, Accept: 'application/json' } : { Accept: 'application/json' },
        signal: AbortSignal.timeout(PROBE_TIMEOUT_MS),
        redirect: 'manual',
      });
    } catch (error) {
      throw new StartError(unreachable(error, target.baseUrl));
    }
  };
  const ping = await get(paths.ping!);
  await ping.arrayBuffer();
  const json = /^application\/(.+\+)?json\b/i.test(ping.headers.get('content-type') ?? '');
  if (ping.status >= 300 && ping.status < 400)
    throw new StartError(
      `${target.baseUrl} redirects GET ${paths.ping} to ${ping.headers.get('location') ?? '(no Location)'}: give the URL it redirects to`,
    );
  if (ping.status === 404 && !json)
    throw new StartError(
      `${target.baseUrl} does not look like this API: GET ${paths.ping} answered 404 ${ping.headers.get('content-type') ?? 'without a Content-Type'} (wrong host or path prefix?)`,
    );
  const keyed = await get(`${paths.getClientsSimple}?pageSize=1`, target.apiKey);
  const body = await keyed.text();
  if (keyed.status === 401)
    throw new StartError(
      `key rejected by ${target.baseUrl}: GET ${paths.getClientsSimple} answered 401 ${body.includes('UNAUTHORIZED') ? 'UNAUTHORIZED' : ''}`.trim(),
    );
}

export interface RunResult {
  name: string;
  operation: string;
  /** True unless the check failed or erred: a skipped check raised no alarm. */
  passed: boolean;
  outcome: Outcome;
  ms: number;
  error?: string;
  /** Why the check was skipped. */
  reason?: string;
  /** The judge's violations behind a failure. */
  violations: Violation[];
  /** The check's own rule, when its own assertion failed. */
  rule?: string;
  /** The failing exchange, as a curl line. */
  curl?: string;
  /** The failing exchange's operation and status (for the cause of a check's own assertion). */
  where?: { operation: string; status: number };
}

/** One cause: what broke, where, the checks it failed, and how to see it. */
export interface Cause {
  key: string;
  /** `getClientDetail 200 response.schema /` */
  headline: string;
  expected?: string;
  actual?: string;
  sentences: string[];
  curl?: string;
  checks: string[];
}

const firstLine = (text: string | undefined) => (text ?? '').split('\n')[0]!.trim();

/** Failed checks grouped by cause: the judge's cause keys, or the check's own rule at the operation and status it failed on. */
export function groupCauses(results: readonly RunResult[]): Cause[] {
  const causes = new Map<string, Cause>();
  const add = (key: string, fill: () => Omit<Cause, 'key' | 'checks'>, check: string) => {
    let cause = causes.get(key);
    if (!cause) {
      cause = { key, ...fill(), checks: [] };
      causes.set(key, cause);
    }
    if (!cause.checks.includes(check)) cause.checks.push(check);
  };
  for (const result of results.filter((r) => r.outcome === 'fail')) {
    if (result.violations.length > 0) {
      for (const violation of result.violations)
        add(
          violation.cause,
          () => ({
            headline: violation.cause,
            expected: violation.expected,
            actual: violation.actual,
            sentences: violation.sentences,
            curl: result.curl,
          }),
          result.name,
        );
      continue;
    }
    const where = result.where ? `${result.where.operation} ${result.where.status}` : result.operation;
    const key = result.rule ? `${where} ${result.rule}` : `${where} ${result.name}: ${firstLine(result.error)}`;
    add(
      key,
      () => ({
        headline: result.rule ? key : `${where}: ${firstLine(result.error)}`,
        actual: firstLine(result.error),
        sentences: [],
        curl: result.curl,
      }),
      result.name,
    );
  }
  return [...causes.values()].sort((a, b) => b.checks.length - a.checks.length);
}

export interface SuiteRun {
  results: RunResult[];
  property: PropertyOutcome;
  requests: number;
  coverage: CoverageReport;
  causes: Cause[];
  context: CheckContext;
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
  const recorder = new CoverageRecorder(contract);
  const recorded: Target = {
    ...target,
    onExchange: (exchange: Exchange) => {
      recorder.record(exchange);
      target.onExchange?.(exchange);
    },
  };
  const context = new CheckContext(recorded, options.origin, { contract });
  const results: RunResult[] = [];
  const checks: ContractCheck[] = contractChecks(contract, options.control ? withControlChecks(options.groups) : options.groups, {
    strictHttp: options.strictHttp,
  });
  const exercised = new Set<string>();
  for (const check of checks) {
    const result = await runCheck(check, context);
    const error = result.error as (Error & { exchange?: Exchange; rule?: string; curl?: string }) | undefined;
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
      curl: error?.curl ?? (exchange ? toCurl(target, exchange.request) : undefined),
      where: exchange
        ? { operation: contract.findOperation(operationPathname(exchange))?.operation.operationId ?? 'routing', status: exchange.status }
        : undefined,
    });
    if (result.outcome === 'pass' || result.outcome === 'fail') for (const rule of check.rules ?? []) exercised.add(rule);
    if (result.outcome === 'pass') log(`  ✓ ${check.name}`);
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
        : property.failure
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

/** The exit code of a run: 2 when the target stopped answering, else 3 for a suite error, else 1 for a violation, else 0. */
export function exitCodeOf(results: readonly Pick<RunResult, 'outcome'>[]): number {
  if (results.some((r) => r.outcome === 'unreachable')) return EXIT.usage;
  if (results.some((r) => r.outcome === 'error')) return EXIT.suite;
  if (results.some((r) => r.outcome === 'fail')) return EXIT.violation;
  return EXIT.pass;
}

/** The run as JUnit XML: one suite per operation, one case per check; a failure names its causes, a skip its reason. */
export function junitOf(run: Pick<SuiteRun, 'results' | 'causes'>, target: string): string {
  const suites = new Map<string, JunitSuite>();
  for (const result of run.results) {
    let suite = suites.get(result.operation);
    if (!suite) {
      suite = { name: `contract: ${result.operation}`, properties: { target }, cases: [] };
      suites.set(result.operation, suite);
    }
    const causes = run.causes.filter((cause) => cause.checks.includes(result.name)).map((cause) => cause.headline);
    const junitCase: JunitCase = {
      name: result.name,
      className: `contract.${result.operation}`,
      time: result.ms / 1000,
      outcome: result.outcome === 'unreachable' ? 'error' : result.outcome,
      message:
        result.outcome === 'skip'
          ? result.reason
          : result.outcome === 'fail'
            ? causes.join('; ') || firstLine(result.error)
            : result.outcome === 'pass'
              ? undefined
              : `suite error: ${firstLine(result.error)}`,
      detail: result.outcome === 'pass' || result.outcome === 'skip' ? undefined : result.error,
    };
    suite.cases.push(junitCase);
  }
  return junitXml([...suites.values()]);
}

function writeFile(file: string, text: string): void {
  try {
    fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
    fs.writeFileSync(file, text);
  } catch (error) {
    throw new StartError(`cannot write ${file} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
}

/** The summary after the per-check lines: the causes first (each with its curl), suite errors, skipped checks, coverage; the last line counts the causes. */
export function summaryOf(
  run: SuiteRun,
  seconds: number,
  options: { seed: number; runs: number; junit?: string; coverageOut?: string[] },
): string[] {
  const lines: string[] = [];
  const failed = run.results.filter((r) => r.outcome === 'fail');
  const errors = run.results.filter((r) => r.outcome === 'error' || r.outcome === 'unreachable');
  const skipped = run.results.filter((r) => r.outcome === 'skip');
  const passed = run.results.filter((r) => r.outcome === 'pass');
  if (run.causes.length > 0) {
    lines.push(
      `CAUSES: ${run.causes.length} distinct cause${run.causes.length === 1 ? '' : 's'} behind ${failed.length} failed check${failed.length === 1 ? '' : 's'}`,
    );
    run.causes.forEach((cause, i) => {
      lines.push(`${i + 1}. ${cause.headline} (${cause.checks.length} check${cause.checks.length === 1 ? '' : 's'})`);
      if (cause.expected !== undefined) lines.push(`   expected: ${cause.expected}`);
      if (cause.actual !== undefined) lines.push(`   got:      ${cause.actual}`);
      if (cause.sentences.length > 0)
        lines.push(`   spec:     ${cause.sentences.slice(0, 3).join(', ')}${cause.sentences.length > 3 ? ', …' : ''}`);
      if (cause.curl) lines.push(`   reproduce: ${cause.curl}`);
      lines.push(
        `   checks:   ${cause.checks.slice(0, 3).join(' | ')}${cause.checks.length > 3 ? ` | … (+${cause.checks.length - 3})` : ''}`,
      );
    });
    lines.push('');
  }
  if (errors.length > 0) {
    lines.push(
      `SUITE ERRORS: ${errors.length} (not the deployment's fault${errors.some((e) => e.outcome === 'unreachable') ? '; or the target stopped answering' : ''})`,
    );
    for (const result of errors) lines.push(`  ! ${result.name}: ${firstLine(result.error)}`);
    lines.push('');
  }
  if (skipped.length > 0) {
    lines.push(`SKIPPED: ${skipped.length} check${skipped.length === 1 ? '' : 's'} not run to the end, each with why (not failures)`);
    for (const result of skipped) lines.push(`  - ${result.name}: ${result.reason}`);
    lines.push('');
  }
  lines.push(describeCoverage(run.coverage), '');
  const code = exitCodeOf(run.results);
  const verdict = code === EXIT.pass ? 'PASS' : code === EXIT.violation ? 'FAIL' : code === EXIT.suite ? 'SUITE ERROR' : 'UNREACHABLE';
  lines.push(
    `${verdict}: ${passed.length}/${run.results.length - skipped.length} checks passed, ${run.requests} requests in ${seconds.toFixed(1)} s ` +
      `(seed ${options.seed}, ${options.runs} generated); ${skipped.length} skipped; ${errors.length} suite errors` +
      (options.junit ? `; JUnit: ${options.junit}` : '') +
      (options.coverageOut && options.coverageOut.length > 0 ? `; coverage: ${options.coverageOut.join(', ')}` : '') +
      `; ${run.causes.length} distinct cause${run.causes.length === 1 ? '' : 's'} of failure`,
  );
  return lines;
}

/** A deployment started for a run that names none (the package's CLI passes our own mock, in-process, serving `spec` when given). */
export interface StartedTarget {
  baseUrl: string;
  description: string;
  close(): Promise<void>;
}

/**
 * The runner: resolves to the exit code (0 pass, 1 violations, 2 usage or
 * target error, 3 suite error). Without --base-url it checks what
 * `startDefaultTarget` starts, given the --spec file (the package's bin passes
 * our own mock; the suite never imports the server itself). `extra.groups`
 * replaces the check groups (a test's, the derived checks added).
 */
export async function runContractCli(
  argv: readonly string[],
  startDefaultTarget?: (spec?: string) => Promise<StartedTarget>,
  extra: { groups?: readonly CheckGroup[] } = {},
): Promise<number> {
  const out = (line: string) => process.stdout.write(`${line}\n`);
  let close: (() => Promise<void>) | undefined;
  try {
    const options = parseOptions(argv);
    if (options === 'help') {
      out(USAGE);
      return EXIT.pass;
    }
    let contract = specContract();
    if (options.spec !== undefined) {
      try {
        contract = new SpecContract(readSpec(options.spec).document);
      } catch (error) {
        throw new StartError(`--spec ${(error as Error).message.split('\n')[0]}`);
      }
    }
    let baseUrl: string;
    let description: string;
    if (options.baseUrl !== undefined) {
      baseUrl = parseBaseUrl(options.baseUrl);
      description = baseUrl;
    } else {
      if (!startDefaultTarget)
        throw new StartError('--base-url is required here (`client-records-mock contract` starts our mock without it)');
      const started = await startDefaultTarget(options.spec);
      close = started.close;
      baseUrl = started.baseUrl;
      description = started.description;
    }
    const target: Target = { baseUrl, apiKey: options.apiKey, maxRate: options.maxRate };
    await probeTarget(target, contract);

    out(`contract suite against ${description}${options.spec ? `, judged against ${options.spec}` : ''}`);
    const started = performance.now();
    const run = await runSuite(target, {
      runs: options.runs,
      seed: options.seed,
      origin: options.origin,
      strictHttp: options.strictHttp,
      log: out,
      contract,
      groups: extra.groups,
      control: options.control,
    });
    const seconds = (performance.now() - started) / 1000;

    if (options.junit) writeFile(options.junit, junitOf(run, baseUrl));
    for (const file of options.coverageOut) {
      const report = { ...run.coverage, run: { ...run.coverage.run, target: baseUrl, spec: options.spec ?? 'openapi.yaml (bundled)' } };
      writeFile(
        file,
        /\.xml$/i.test(file) ? coverageToJunit(report) : /\.html?$/i.test(file) ? coverageToHtml(report) : coverageToJson(report),
      );
    }
    out('');
    for (const line of summaryOf(run, seconds, {
      seed: options.seed,
      runs: options.runs,
      junit: options.junit,
      coverageOut: options.coverageOut,
    }))
      out(line);
    const code = exitCodeOf(run.results);
    if (code === EXIT.usage) process.stderr.write(`contract: ${baseUrl} stopped answering during the run (connection refused)\n`);
    if (code === EXIT.suite)
      process.stderr.write(
        `contract: the suite itself failed (${run.results.filter((r) => r.outcome === 'error').length} suite errors): see SUITE ERRORS above\n`,
      );
    return code;
  } catch (error) {
    if (error instanceof StartError) {
      process.stderr.write(`contract: ${error.message}\n`);
      return EXIT.usage;
    }
    const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
    process.stderr.write(`contract: the suite itself failed: ${message.split('\n')[0]}\n`);
    return EXIT.suite;
  } finally {
    await close?.();
  }
}

if (require.main === module) {
  void runContractCli(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
