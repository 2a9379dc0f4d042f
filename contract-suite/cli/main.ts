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
import { coverageToHtml, coverageToJson, coverageToJunit } from '../../contract/coverage-report';
import { readSpec } from '../../contract/spec';
import { SpecContract, specContract } from '../../contract/spec-contract';
import type { CheckGroup } from '../registry';
import type { Target } from '../kit/target';
import { StartError } from './errors';
import { EXIT, exitCodeOf } from './results';
import { parseBaseUrl, parseOptions, USAGE } from './options';
import { probeTarget } from './probe';
import { junitOf, summaryOf } from './report';
import { runSuite } from './run';
import { relationsText } from '../relations';

export { EXIT, USAGE, exitCodeOf, junitOf, parseBaseUrl, runSuite, summaryOf };
export { groupCauses } from './causes';
export type { Cause, RunResult, SuiteRun } from './results';

function writeFile(file: string, text: string): void {
  try {
    fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
    fs.writeFileSync(file, text);
  } catch (error) {
    throw new StartError(`cannot write ${file} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
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
    if (options.listRelations) {
      out(relationsText(contract));
      return EXIT.pass;
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

    if (options.detail !== 'summary') out(`contract suite against ${description}${options.spec ? `, judged against ${options.spec}` : ''}`);
    const started = performance.now();
    const run = await runSuite(target, {
      runs: options.runs,
      seed: options.seed,
      origin: options.origin,
      strictHttp: options.strictHttp,
      log: options.detail === 'summary' ? undefined : out,
      verbose: options.detail === 'verbose',
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
    if (options.detail !== 'summary') out('');
    for (const line of summaryOf(run, seconds, {
      seed: options.seed,
      runs: options.runs,
      junit: options.junit,
      coverageOut: options.coverageOut,
      detail: options.detail,
    }))
      out(line);
    const code = exitCodeOf(run.results);
    if (code === EXIT.usage) {
      const first = run.results.find((r) => r.outcome === 'unreachable');
      process.stderr.write(`contract: ${baseUrl} stopped answering during the run (${(first?.error ?? 'no connection').split('\n')[0]})\n`);
    }
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
