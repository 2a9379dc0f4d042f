// The contract command's options: parsed and checked before anything runs, each bad value one line (exit 2).
import { parseArgs } from 'node:util';
import { DEFAULT_RUNS, DEFAULT_SEED } from '../property/properties';
import { DEFAULT_API_KEY } from '../kit/target';
import { DEFAULT_ORIGIN } from '../kit/context';
import { StartError } from './errors';
import { CAUSE_LINES, MAX_CAUSES, type Detail } from './results';

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
  --summary             print only the causes (all of them) and the verdict
  --verbose             print every check's line as it runs, every cause and every sentence not enforced
                        (default: progress lines, at most ${MAX_CAUSES} causes of at most ${CAUSE_LINES} lines each,
                        skipped checks, coverage totals and the verdict: what a CI log can carry)
  --coverage-out FILE   write the coverage report (client-records-coverage/1): FILE.json, .xml (JUnit) or .html;
                        repeat the option for several
  --list-relations      print the metamorphic relations the suite checks, each with the sentences of the document
                        in use it stands on, and exit (nothing is sent)
  -h, --help            this text

Exit codes:
  0  every check that could run passed (checks the deployment's data cannot run are skipped, with the reason)
  1  the deployment broke the contract: any check, at any phase, the first probes included
  2  bad usage or an unreachable target (one line on stderr)
  3  the suite itself failed: a check threw something that is no contract violation (a bug of the suite; please report it)`;

export interface Options {
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
  /** --summary / --verbose: how much the run prints. */
  detail: Detail;
  /** --list-relations: print the relations and their sentences, run nothing. */
  listRelations: boolean;
}

function positiveInteger(name: string, text: string | undefined, fallback: number, min: number): number {
  if (text === undefined) return fallback;
  if (!/^\d+$/.test(text) || Number(text) < min || !Number.isSafeInteger(Number(text)))
    throw new StartError(`--${name} must be a whole number >= ${min}, got ${JSON.stringify(text)}`);
  return Number(text);
}

export function parseOptions(argv: readonly string[]): Options | 'help' {
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
        summary: { type: 'boolean' },
        verbose: { type: 'boolean' },
        'list-relations': { type: 'boolean' },
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
  if (values.summary && values.verbose) throw new StartError('--summary and --verbose exclude each other');
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
    detail: values.summary ? 'summary' : values.verbose ? 'verbose' : 'default',
    listRelations: values['list-relations'] ?? false,
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
