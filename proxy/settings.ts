// The proxy's rows of the one settings machinery (settings/), as
// server/process/settings.ts holds the mock's: each with its flag, its
// environment variable, its default and its parser, so the command line, the
// environment (the container image) and startProxy()'s options go through one
// parser, --help is written from the table, and a bad value is one line naming
// the setting (exit 2), never a crash later.
import { loadSettings } from '../settings/argv';
import { hostName, toggle, TOGGLE_WORDS, wholeNumber } from '../settings/parse';
import { describeRows, helpLine, helpTable, resolveOptions, SettingError, type Rows } from '../settings/table';

/** Why the proxy answers from the mock instead of the upstream (docs/proxy.md, "Fallback"). */
export const FALLBACK_CAUSES = ['unreachable', 'timeout', 'reset', 'malformed', '501', '502', '503', '504', '404-undeployed'] as const;
export type FallbackCause = (typeof FALLBACK_CAUSES)[number];

/** What --fail-on-violation counts: nothing, the upstream's answers, or the callers' requests too. */
export const FAIL_ON = ['off', 'upstream', 'all'] as const;
export type FailOn = (typeof FAIL_ON)[number];

export interface ProxySettings {
  upstream: string;
  port: number;
  host: string;
  upstreamTimeoutMs: number;
  answerDeadlineMs: number;
  fallback: ReadonlySet<FallbackCause>;
  failOn: FailOn;
  rejectInvalidRequests: boolean;
  junit: string | undefined;
  report: string | undefined;
  coverageOut: string | undefined;
  specFile: string | undefined;
  journal: boolean;
  journalKey: string | undefined;
  journalSize: number;
  judgeMaxKb: number;
  rememberClients: number;
  logRepeats: number;
}

/** A bad proxy setting: the one error type of the settings (settings/table.ts), named for the proxy's callers. */
export { SettingError as ProxySettingError };

const optionalText = (raw: string): string | undefined => (raw.trim() === '' ? undefined : raw.trim());

/** `http(s)://host[:port][/prefix]` without a trailing slash: the API's paths are appended to it. */
export function parseUpstream(raw: string): string {
  let url: URL | undefined;
  try {
    url = new URL(raw.trim());
  } catch {
    url = undefined;
  }
  if (!url || !/^https?:$/.test(url.protocol) || url.hostname === '')
    throw new Error('must be an http(s) URL such as http://staging.example.org or http://127.0.0.1:8080/records');
  if (url.search !== '' || url.hash !== '') throw new Error('must have no query or fragment: scheme, host, port and path prefix only');
  if (url.username !== '' || url.password !== '') throw new Error('must not hold credentials: send them as headers from the caller');
  return url.href.replace(/\/+$/, '');
}

function parseFallback(raw: string): ReadonlySet<FallbackCause> {
  const value = raw.trim();
  if (value === 'off' || value === 'none' || value === '') return new Set();
  if (value === 'all') return new Set(FALLBACK_CAUSES);
  const causes = value.split(',').map((cause) => cause.trim());
  for (const cause of causes) {
    if (!(FALLBACK_CAUSES as readonly string[]).includes(cause))
      throw new Error(`${JSON.stringify(cause)} is no cause; give off, all, or some of ${FALLBACK_CAUSES.join(',')}`);
  }
  return new Set(causes as FallbackCause[]);
}

// The order of this table is the order of --help.
const SETTINGS: Rows<ProxySettings> = [
  {
    key: 'upstream',
    env: 'UPSTREAM_URL',
    flag: '--upstream',
    fallback: '',
    help: 'the deployment to forward to, with its path prefix if it has one (required)',
    parse: (raw) => {
      if (raw.trim() === '') throw new Error('is required: the deployment to forward to, e.g. --upstream http://127.0.0.1:8080');
      return parseUpstream(raw);
    },
  },
  {
    key: 'port',
    env: 'PORT',
    flag: '--port',
    fallback: '4010',
    help: 'port to listen on; 0 = any free port',
    parse: wholeNumber(0, 65535),
  },
  {
    key: 'host',
    env: 'HOST',
    flag: '--host',
    fallback: '127.0.0.1',
    help: 'interface to bind; 0.0.0.0 in a container',
    parse: hostName,
  },
  {
    key: 'upstreamTimeoutMs',
    env: 'UPSTREAM_TIMEOUT_MS',
    flag: '--upstream-timeout',
    fallback: '10000',
    help: 'ms the upstream may take to send its answer head, and then each next piece of its body',
    parse: wholeNumber(1, 600_000),
  },
  {
    key: 'answerDeadlineMs',
    env: 'ANSWER_DEADLINE_MS',
    flag: '--answer-deadline',
    fallback: '30000',
    help: 'ms the upstream may take for its whole answer, however it trickles (time spent waiting for a slow caller not counted)',
    parse: wholeNumber(1, 3_600_000),
  },
  {
    key: 'fallback',
    env: 'FALLBACK',
    flag: '--fallback',
    fallback: 'off',
    help: `answer from the mock for these causes: off, all, or a list of ${FALLBACK_CAUSES.join(',')}`,
    parse: parseFallback,
  },
  {
    key: 'failOn',
    env: 'FAIL_ON_VIOLATION',
    flag: '--fail-on-violation',
    fallback: 'off',
    bare: 'upstream',
    bareValues: FAIL_ON,
    help: "exit 1 at the stop if any was seen: upstream (the flag alone: the upstream's answers), all (callers' requests too), off",
    parse: (raw) => {
      const value = raw.trim();
      if (!(FAIL_ON as readonly string[]).includes(value)) throw new Error(`must be one of ${FAIL_ON.join(', ')}`);
      return value as FailOn;
    },
  },
  {
    key: 'rejectInvalidRequests',
    env: 'REJECT_INVALID_REQUESTS',
    flag: '--reject-invalid-requests',
    fallback: 'off',
    bare: 'on',
    bareValues: TOGGLE_WORDS,
    help: 'answer a request that breaks openapi.yaml with its documented error instead of forwarding it',
    parse: toggle,
  },
  { key: 'junit', env: 'PROXY_JUNIT', flag: '--junit', fallback: '', help: 'write a JUnit XML report at the stop', parse: optionalText },
  { key: 'report', env: 'PROXY_REPORT', flag: '--report', fallback: '', help: 'write the JSON report at the stop', parse: optionalText },
  {
    key: 'coverageOut',
    env: 'PROXY_COVERAGE_OUT',
    flag: '--coverage-out',
    fallback: '',
    help: "write the coverage of the traffic at the stop, in the contract suite's format (side provider)",
    parse: optionalText,
  },
  {
    key: 'specFile',
    env: 'SPEC_FILE',
    flag: '--spec',
    fallback: '',
    help: "judge against this OpenAPI file instead of the package's openapi.yaml (the fallback mock serves it too)",
    parse: optionalText,
  },
  {
    key: 'journal',
    env: 'PROXY_JOURNAL',
    flag: '--journal',
    fallback: 'on',
    help: 'serve the journal under /__proxy/ (off: those paths are forwarded too)',
    parse: toggle,
  },
  {
    key: 'journalKey',
    env: 'PROXY_JOURNAL_KEY',
    flag: '--journal-key',
    fallback: '',
    help: 'require X-Proxy-Key: KEY on the journal (a proxy on a shared network); never printed',
    // The journal key is a secret: a bad one is named, never echoed.
    secret: true,
    parse: optionalText,
  },
  {
    key: 'journalSize',
    env: 'PROXY_JOURNAL_SIZE',
    flag: '--journal-size',
    fallback: '1000',
    help: 'violations the journal keeps (the oldest go first; the report counts them all)',
    parse: wholeNumber(1, 100_000),
  },
  {
    key: 'judgeMaxKb',
    env: 'PROXY_JUDGE_MAX_KB',
    flag: '--judge-max-kb',
    fallback: '1024',
    help: 'bodies up to this size (KB, decoded) are judged; longer ones are forwarded whole, status and headers judged',
    parse: wholeNumber(1, 65_536),
  },
  {
    key: 'rememberClients',
    env: 'PROXY_REMEMBER_CLIENTS',
    flag: '--remember-clients',
    fallback: '10000',
    help: 'list rows remembered (least recently seen go first) to hold a Detail to what the lists said',
    parse: wholeNumber(0, 1_000_000),
  },
  {
    key: 'logRepeats',
    env: 'PROXY_LOG_REPEATS',
    flag: '--log-repeats',
    fallback: '10',
    help: 'log lines per cause; later violations of a cause are counted and kept in the journal (0: log every one)',
    parse: wholeNumber(0, 1_000_000),
  },
];

/** The settings as documentation shows them (docs/proxy.md's table is checked against it). */
export function describeProxySettings(): { flag: string; env: string; fallback: string }[] {
  return describeRows(SETTINGS);
}

const LAYOUT = { flagWidth: 36, envWidth: 24, defaults: true, heading: true };

export function proxyHelpText(): string {
  return [
    'Usage: client-records-mock proxy --upstream URL [options]',
    '',
    'Forwards every request to the upstream and returns its answer unchanged, holding each',
    "exchange to openapi.yaml with the contract suite's rules. Violations: one log line each,",
    'the X-Proxy-Violations header, the journal at /__proxy/violations, and --junit/--report at the stop.',
    'Every option can also be set by its environment variable; the flag wins.',
    '',
    ...helpTable(SETTINGS, LAYOUT),
    helpLine(LAYOUT, '--help', 'print this help and exit'),
    '',
    "The fallback mock takes the mock server's settings from the environment (SEED, CLIENTS, DATA_FILE,",
    'API_KEYS, ...), as `client-records-mock serve` does. Stop with SIGINT or SIGTERM: the reports are written, then the',
    'exit code is 0, or 1 when --fail-on-violation is set and a counted violation was seen; 2 for a bad setting.',
  ].join('\n');
}

/** The settings from the command line and the environment: the flag wins; a bad value is a ProxySettingError of one line. */
export function loadProxySettings(argv: readonly string[], env: Readonly<Record<string, string | undefined>>): Readonly<ProxySettings> {
  return loadSettings(SETTINGS, argv, env).values;
}

/** What a program may pass to startProxy: any setting, as its typed value or its text. */
export type ProxyOptions = {
  [K in keyof ProxySettings]?: ProxySettings[K] | string | number | boolean | readonly string[];
};

/** The settings for startProxy's options: the same table and parsers; the environment is not read. */
export function proxySettingsFromOptions(options: Readonly<ProxyOptions>): Readonly<ProxySettings> {
  // A program that starts a proxy in a test wants any free port unless it names one.
  return resolveOptions(SETTINGS, options, (row) => (row.key === 'port' ? '0' : row.fallback));
}
