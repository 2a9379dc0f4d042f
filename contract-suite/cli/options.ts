// The contract command's options: its rows of the one settings machinery (settings/), parsed and
// checked before anything runs, each bad value one line (exit 2); --help is printed from the rows.
import { loadSettings } from '../../settings/argv';
import { helpLine, helpTable, SettingError, type Rows } from '../../settings/table';
import { DEFAULT_RUNS, DEFAULT_SEED } from '../property/properties';
import { DEFAULT_API_KEY } from '../kit/target';
import { DEFAULT_ORIGIN } from '../kit/context';
import { StartError } from './errors';
import { CAUSE_LINES, MAX_CAUSES, type Detail } from './results';

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

/** What the command line says, before --summary and --verbose become one Detail. */
interface Flags extends Omit<Options, 'detail'> {
  summary: boolean;
  verbose: boolean;
}

function wholeNumber(flag: string, min: number) {
  return (raw: string): number => {
    if (!/^\d+$/.test(raw) || Number(raw) < min || !Number.isSafeInteger(Number(raw)))
      throw new SettingError(`${flag} must be a whole number >= ${min}, got ${JSON.stringify(raw)}`);
    return Number(raw);
  };
}

const optional = (raw: string): string | undefined => (raw === '' ? undefined : raw);
const on = (raw: string): boolean => raw === 'on';

// The order of these rows is the order of --help; the suite reads no environment, its defaults are said in the help.
const ROWS: Rows<Flags> = [
  {
    key: 'baseUrl',
    flag: '--base-url',
    value: 'URL',
    fallback: '',
    help: 'the deployment to check, with a path prefix if it has one (https://gw/records)\n(default: our mock, started in-process on 127.0.0.1)',
    parse: optional,
  },
  {
    key: 'apiKey',
    flag: '--api-key',
    value: 'KEY',
    fallback: DEFAULT_API_KEY,
    help: `a key the deployment accepts in X-Api-Key (default ${DEFAULT_API_KEY})`,
    parse: (raw) => {
      if (raw === '') throw new SettingError('--api-key is empty');
      return raw;
    },
  },
  {
    key: 'spec',
    flag: '--spec',
    value: 'FILE',
    fallback: '',
    help: 'judge against this OpenAPI document instead of the bundled openapi.yaml\n(another version of it); the in-process mock serves it too',
    parse: optional,
  },
  {
    key: 'runs',
    flag: '--runs',
    value: 'N',
    fallback: String(DEFAULT_RUNS),
    help: `generated requests of the property run, N >= 1 (default ${DEFAULT_RUNS})`,
    parse: wholeNumber('--runs', 1),
  },
  {
    key: 'seed',
    flag: '--seed',
    value: 'N',
    fallback: String(DEFAULT_SEED),
    help: `fast-check seed; the same seed replays a run (default ${DEFAULT_SEED})`,
    parse: wholeNumber('--seed', 0),
  },
  {
    key: 'origin',
    flag: '--origin',
    value: 'ORIGIN',
    fallback: '',
    help: `the Origin the CORS checks send (default ${DEFAULT_ORIGIN}); a deployment\nthat accepts only listed origins needs one of them, else the CORS checks skip`,
    parse: optional,
  },
  {
    key: 'strictHttp',
    flag: '--strict-http',
    switch: true,
    fallback: 'off',
    help: [
      "also send the RFC 9112 MUST-400s Node's own http server takes (two Host lines,",
      'a Host that is no host, Transfer-Encoding: gzip), so off by default: every',
      'correct Express backend would fail them. Turn it on for a deployment whose HTTP',
      "front refuses them (Go's net/http, nginx, Kestrel, our mock)",
    ].join('\n'),
    parse: on,
  },
  {
    key: 'control',
    flag: '--control',
    switch: true,
    fallback: 'off',
    help: [
      "also check the mock's control API (control.openapi.yaml): every scenario of its table",
      'does what that document says (down, unauthorised, slow, flaky, the examples), chosen per',
      'request, never for the whole server; a target without one skips these checks',
    ].join('\n'),
    parse: on,
  },
  {
    key: 'maxRate',
    flag: '--max-rate',
    value: 'N',
    fallback: '',
    help: 'at most N requests per second, for a remote deployment (default: no limit)',
    parse: (raw) => (raw === '' ? undefined : wholeNumber('--max-rate', 1)(raw)),
  },
  {
    key: 'junit',
    flag: '--junit',
    value: 'FILE',
    fallback: '',
    help: 'write a JUnit XML report: one case per check (failure, <skipped> with the reason, error)',
    parse: optional,
  },
  {
    key: 'summary',
    flag: '--summary',
    switch: true,
    fallback: 'off',
    help: 'print only the causes (all of them) and the verdict',
    parse: on,
  },
  {
    key: 'verbose',
    flag: '--verbose',
    switch: true,
    fallback: 'off',
    help: [
      "print every check's line as it runs, every cause and every sentence not enforced",
      `(default: progress lines, at most ${MAX_CAUSES} causes of at most ${CAUSE_LINES} lines each,`,
      'skipped checks, coverage totals and the verdict: what a CI log can carry)',
    ].join('\n'),
    parse: on,
  },
  {
    key: 'coverageOut',
    flag: '--coverage-out',
    value: 'FILE',
    repeat: true,
    fallback: '',
    help: 'write the coverage report (client-records-coverage/1): FILE.json, .xml (JUnit) or .html;\nrepeat the option for several',
    parseAll: (files) => {
      for (const file of files)
        if (!/\.(json|xml|html?)$/i.test(file))
          throw new SettingError(`--coverage-out ${JSON.stringify(file)}: name a .json, .xml (JUnit) or .html file`);
      return [...files];
    },
  },
  {
    key: 'listRelations',
    flag: '--list-relations',
    switch: true,
    fallback: 'off',
    help: 'print the metamorphic relations the suite checks, each with the sentences of the document\nin use it stands on, and exit (nothing is sent)',
    parse: on,
  },
];

const LAYOUT = { flagWidth: 21, envWidth: 0, defaults: false, heading: false };

export const USAGE = [
  'Usage: client-records-mock contract [--base-url URL] [options]',
  '',
  ...helpTable(ROWS, LAYOUT),
  helpLine(LAYOUT, '-h, --help', 'this text'),
  '',
  'Exit codes:',
  "  0  every check that could run passed (checks the deployment's data cannot run are skipped, with the reason)",
  '  1  the deployment broke the contract: any check, at any phase, the first probes included',
  '  2  bad usage or an unreachable target (one line on stderr)',
  '  3  the suite itself failed: a check threw something that is no contract violation (a bug of the suite; please report it)',
].join('\n');

export function parseOptions(argv: readonly string[]): Options | 'help' {
  let read;
  try {
    read = loadSettings(ROWS, argv, {}, { help: true, wording: { unknown: (rawName) => `Unknown option '${rawName}' (see --help)` } });
  } catch (error) {
    if (error instanceof SettingError) throw new StartError(error.message);
    throw error;
  }
  if (read.help) return 'help';
  const { summary, verbose, ...values } = read.values;
  if (summary && verbose) throw new StartError('--summary and --verbose exclude each other');
  return { ...values, coverageOut: [...values.coverageOut], detail: summary ? 'summary' : verbose ? 'verbose' : 'default' };
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
