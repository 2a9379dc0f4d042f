// The contract suite's runner: `client-records-mock contract --base-url URL
// --api-key KEY` (the package CLI dispatches here) or `npm run contract`. It
// runs the checks and the property run as plain functions, with no jest and no
// dev tooling, prints a readable result, and writes a JUnit XML report and a
// coverage JSON on request. Exit codes: 0 pass, 1 violations, 2 usage or target
// error (one line, within seconds: not a URL, connection refused, key rejected).
// Importing this module does nothing; it runs itself only as the main module.
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { CheckContext, contractChecks, runCheck, type ContractCheck, type Outcome } from './checks';
import { CoverageRecorder, describeCoverage, type CoverageReport } from './coverage';
import type { Exchange } from './http';
import { DEFAULT_RUNS, DEFAULT_SEED, describeOutcome, runProperties, type PropertyOutcome } from './properties';
import { specContract } from './spec-contract';
import { DEFAULT_API_KEY, type Target } from './target';

export const USAGE = `Usage: client-records-mock contract [--base-url URL] [options]

  --base-url URL      the deployment to check, with a path prefix if it has one (https://gw/records)
                      (default: our mock, started in-process on 127.0.0.1)
  --api-key KEY       a key the deployment accepts in X-Api-Key (default ${DEFAULT_API_KEY})
  --runs N            generated requests of the property run, N >= 1 (default ${DEFAULT_RUNS})
  --seed N            fast-check seed; the same seed replays a run (default ${DEFAULT_SEED})
  --origin ORIGIN     the Origin the CORS checks send (default https://contract-suite.example)
  --max-rate N        at most N requests per second, for a remote deployment (default: no limit)
  --junit FILE        write a JUnit XML report
  --coverage-out FILE write the coverage summary as JSON
  -h, --help          this text

Exit codes: 0 every check passed, 1 violations, 2 bad usage or an unreachable target.`;

/** A usage or target problem: one line, exit code 2. */
class StartError extends Error {}

interface Options {
  baseUrl?: string;
  apiKey: string;
  runs: number;
  seed: number;
  origin: string;
  maxRate?: number;
  junit?: string;
  coverageOut?: string;
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
        runs: { type: 'string' },
        seed: { type: 'string' },
        origin: { type: 'string' },
        'max-rate': { type: 'string' },
        junit: { type: 'string' },
        'coverage-out': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    throw new StartError(`${(error as Error).message.split('\n')[0]} (see --help)`);
  }
  const values = parsed.values;
  if (values.help) return 'help';
  if (values['api-key'] === '') throw new StartError('--api-key is empty');
  return {
    baseUrl: values['base-url'],
    apiKey: values['api-key'] ?? DEFAULT_API_KEY,
    runs: positiveInteger('runs', values.runs, DEFAULT_RUNS, 1),
    seed: positiveInteger('seed', values.seed, DEFAULT_SEED, 0),
    origin: values.origin ?? 'https://contract-suite.example',
    maxRate: values['max-rate'] === undefined ? undefined : positiveInteger('max-rate', values['max-rate'], 0, 1),
    junit: values.junit,
    coverageOut: values['coverage-out'],
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

/** Ping, then one keyed request: the three ways a run cannot start, each as one line. */
async function probeTarget(target: Target): Promise<void> {
  const paths = Object.fromEntries(specContract().operations.map((o) => [o.operationId, o.template]));
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
  if (ping.status !== 200)
    throw new StartError(`${target.baseUrl} does not look like this API: GET ${paths.ping} answered ${ping.status}, not 200 "Pong"`);
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
}

/** Runs every check, then the property run, against a target. */
export async function runSuite(
  target: Target,
  options: { runs: number; seed: number; origin: string; log?: (line: string) => void },
): Promise<{ results: RunResult[]; property: PropertyOutcome; requests: number; coverage: CoverageReport }> {
  const log = options.log ?? (() => undefined);
  const recorder = new CoverageRecorder(specContract());
  const recorded: Target = {
    ...target,
    onExchange: (exchange: Exchange) => {
      recorder.record(exchange);
      target.onExchange?.(exchange);
    },
  };
  const context = new CheckContext(recorded, options.origin);
  const results: RunResult[] = [];
  const checks: ContractCheck[] = contractChecks();
  for (const check of checks) {
    const result = await runCheck(check, context);
    const passed = result.outcome === 'pass' || result.outcome === 'skip';
    const message = result.error?.message;
    results.push({
      name: check.name,
      operation: check.operation,
      passed,
      outcome: result.outcome,
      ms: result.ms,
      error: message,
      reason: result.reason,
    });
    if (result.outcome === 'pass') log(`  ✓ ${check.name}`);
    else if (result.outcome === 'skip') log(`  - ${check.name}\n      skipped: ${result.reason}`);
    else log(`  ✗ ${check.name}\n      ${(message ?? '').split('\n').join('\n      ')}`);
  }
  const started = performance.now();
  const property = await runProperties(context, options.seed, options.runs);
  const name = `property run: ${options.runs} generated requests (seed ${options.seed}) → documented statuses, conforming bodies, 400 for invalid and 2xx for valid input`;
  results.push({
    name,
    operation: 'generated',
    passed: !property.failure,
    outcome: property.failure ? 'fail' : 'pass',
    ms: performance.now() - started,
    error: property.failure,
  });
  log(
    `  ${property.failure ? '✗' : '✓'} ${describeOutcome(property)}${property.failure ? `\n      ${property.failure.split('\n').join('\n      ')}` : ''}`,
  );
  return { results, property, requests: context.requestCount, coverage: recorder.report(results) };
}

async function writeJunit(file: string, results: readonly RunResult[], target: string): Promise<void> {
  // junit-report-builder: a maintained JUnit XML writer (Jenkins/GitLab/GitHub compatible), no test framework needed.
  const { default: junit } = await import('junit-report-builder');
  const builder = junit.newBuilder();
  const byOperation = new Map<string, RunResult[]>();
  for (const result of results) byOperation.set(result.operation, [...(byOperation.get(result.operation) ?? []), result]);
  for (const [operation, items] of byOperation) {
    const suite = builder.testSuite().name(`contract: ${operation}`).property('target', target);
    for (const result of items) {
      const testCase = suite
        .testCase()
        .className(`contract.${operation}`)
        .name(result.name)
        .time(result.ms / 1000);
      if (!result.passed) testCase.failure(result.error?.split('\n')[0] ?? 'failed').standardOutput(result.error ?? '');
    }
  }
  fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  builder.writeTo(file);
}

/** The runner: resolves to the exit code (0 pass, 1 violations, 2 usage or target error). */
export async function runContractCli(argv: readonly string[]): Promise<number> {
  const out = (line: string) => process.stdout.write(`${line}\n`);
  let close: (() => Promise<void>) | undefined;
  try {
    const options = parseOptions(argv);
    if (options === 'help') {
      out(USAGE);
      return 0;
    }
    let baseUrl: string;
    let description: string;
    if (options.baseUrl !== undefined) {
      baseUrl = parseBaseUrl(options.baseUrl);
      description = baseUrl;
    } else {
      // Our own mock, in-process: only loaded when no deployment is named.
      const { startServer } = await import('../server/mock');
      const running = await startServer({ host: '127.0.0.1', port: 0 });
      close = running.close;
      baseUrl = running.url;
      description = `our mock in-process at ${baseUrl}`;
    }
    const target: Target = { baseUrl, apiKey: options.apiKey, maxRate: options.maxRate };
    await probeTarget(target);

    out(`contract suite against ${description}`);
    const started = performance.now();
    const run = await runSuite(target, { runs: options.runs, seed: options.seed, origin: options.origin, log: out });
    const seconds = (performance.now() - started) / 1000;
    const failed = run.results.filter((result) => !result.passed);

    out('');
    out(describeCoverage(run.coverage));
    if (options.junit) await writeJunit(options.junit, run.results, baseUrl);
    if (options.coverageOut) {
      fs.mkdirSync(path.dirname(path.resolve(options.coverageOut)), { recursive: true });
      fs.writeFileSync(
        options.coverageOut,
        `${JSON.stringify({ target: baseUrl, seed: options.seed, runs: options.runs, ...run.coverage }, null, 2)}\n`,
      );
    }
    out(
      `\n${failed.length === 0 ? 'PASS' : 'FAIL'}: ${run.results.length - failed.length}/${run.results.length} checks passed, ` +
        `${run.requests} requests in ${seconds.toFixed(1)} s (seed ${options.seed}, ${options.runs} generated)` +
        (options.junit ? `; JUnit: ${options.junit}` : '') +
        (options.coverageOut ? `; coverage: ${options.coverageOut}` : ''),
    );
    for (const result of failed) out(`  ✗ ${result.name}`);
    return failed.length === 0 ? 0 : 1;
  } catch (error) {
    if (error instanceof StartError) {
      process.stderr.write(`contract: ${error.message}\n`);
      return 2;
    }
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`contract: ${message.split('\n')[0]}\n`);
    return 2;
  } finally {
    await close?.();
  }
}

if (require.main === module) {
  void runContractCli(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
