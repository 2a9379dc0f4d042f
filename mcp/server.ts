// `client-records-mock mcp`: the mock's controls as MCP tools over stdio (the
// official TypeScript SDK), for coding agents. Each tool is one or two calls
// of the control API (control.openapi.yaml) through ControlClient, so an agent
// steers exactly what a test runner steers: scenarios for the server or a
// session, the journal, coverage; plus looking clients up through the API
// itself and running the contract suite against a URL. It controls the mock
// named by --mock-url, or starts one in this process (port 0) and controls
// that. Standard output carries the protocol only: nothing else is printed
// there (the in-process mock logs nothing, the contract suite runs as a child
// process whose output is captured).
import { spawn } from 'node:child_process';
import path from 'node:path';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';
import { ControlClient } from '../server/control/client';
import { loadSettings } from '../settings/argv';
import { helpLine, helpTable, SettingError, type Rows } from '../settings/table';

/** What the command line says; the mock's own settings are checked by the mock started with them (configFromOptions). */
interface McpFlags {
  mockUrl: string | undefined;
  apiKey: string;
  seed: string | undefined;
  clients: string | undefined;
  specFile: string | undefined;
  dataFile: string | undefined;
}

const optional = (raw: string): string | undefined => (raw === '' ? undefined : raw);

// The command's rows of the one settings machinery (settings/); it reads no environment.
const ROWS: Rows<McpFlags> = [
  {
    key: 'mockUrl',
    flag: '--mock-url',
    value: 'URL',
    fallback: '',
    help: 'control the mock running there; without it, a mock is started in this process',
    parse: (raw) => {
      if (raw !== '' && !/^https?:\/\/[^\s/]+/.test(raw))
        throw new SettingError(`--mock-url must be an http(s) URL such as http://127.0.0.1:4000`);
      return optional(raw);
    },
  },
  {
    key: 'apiKey',
    flag: '--api-key',
    value: 'KEY',
    fallback: 'dev-key',
    help: 'the X-Api-Key the lookup tools send (default dev-key)',
    parse: (raw) => raw,
  },
  // The in-process mock's settings share one help line.
  { key: 'seed', flag: '--seed', fallback: '', help: '', hidden: true, parse: optional },
  { key: 'clients', flag: '--clients', fallback: '', help: '', hidden: true, parse: optional },
  { key: 'specFile', flag: '--spec', fallback: '', help: '', hidden: true, parse: optional },
  { key: 'dataFile', flag: '--data', fallback: '', help: '', hidden: true, parse: optional },
];

const LAYOUT = { flagWidth: 16, envWidth: 0, defaults: false, heading: false };

export const MCP_USAGE = [
  'Usage: client-records-mock mcp [--mock-url URL] [--api-key KEY] [--seed N] [--clients N] [--spec FILE] [--data FILE]',
  '',
  "Serves the mock's controls as MCP tools over standard input and output.",
  ...helpTable(ROWS, LAYOUT),
  helpLine({ ...LAYOUT, flagWidth: 35 }, '--seed, --clients, --spec, --data', 'settings of the mock started in this process'),
].join('\n');

/** Exit code of a bad argument (one line on standard error). */
const EXIT_USAGE = 2;
/** How long the contract suite may run from a tool call. */
const CONTRACT_TIMEOUT_MS = 10 * 60_000;
/** Client rows a lookup returns at most: an agent's context is not a data export. */
const MAX_ROWS = 25;

interface McpOptions {
  mockUrl: string | undefined;
  apiKey: string;
  mock: Record<string, string>;
}

function readOptions(argv: readonly string[]): McpOptions | 'help' {
  const read = loadSettings(ROWS, argv, {}, { help: true, wording: { unknown: (rawName) => `Unknown option '${rawName}'` } });
  if (read.help) return 'help';
  const { mockUrl, apiKey, ...settings } = read.values;
  // Only what was given: the in-process mock keeps its own defaults for the rest.
  const mock = Object.fromEntries(Object.entries(settings).filter(([, value]) => value !== undefined)) as Record<string, string>;
  if (mockUrl !== undefined && Object.keys(mock).length > 0)
    throw new Error('--mock-url controls a running mock: its settings are its own (drop --seed, --clients, --spec, --data)');
  return { mockUrl, apiKey, mock };
}

/** A tool's answer: its value as indented JSON text. */
function json(value: unknown) {
  return { content: [{ type: 'text' as const, text: JSON.stringify(value, null, 2) }] };
}

/** A tool that failed: the reason in one line, marked as an error for the agent. */
function failure(error: unknown) {
  return { content: [{ type: 'text' as const, text: (error as Error).message }], isError: true };
}

async function guarded<T>(work: () => Promise<T>, mockUrl?: string) {
  try {
    return json(await work());
  } catch (error) {
    return failure(mockUrl === undefined ? error : unreachableMock(mockUrl, error));
  }
}

/**
 * What run_contract_suite returns at most, in characters: the verdict and every cause that fits, at a cause's
 * boundary, and then how many were left out. An agent's context is not a CI log.
 */
export const CONTRACT_SUMMARY_MAX_CHARS = 16_000;

/** The run's `--summary` output (its causes, then its verdict) as the agent reads it: the verdict first, then every cause that fits. */
export function contractSummary(output: string, maxChars = CONTRACT_SUMMARY_MAX_CHARS): { verdict: string; summary: string } {
  const lines = output.trimEnd().split('\n');
  const verdict = lines.at(-1) ?? '';
  const causes: string[][] = [];
  const head: string[] = [];
  for (const line of lines.slice(0, -1)) {
    if (/^\d+\. /.test(line)) causes.push([line]);
    else if (causes.length > 0 && /^ {3}\S/.test(line)) causes.at(-1)!.push(line);
    else if (line.trim() !== '' && !/^… \d+ more cause/.test(line)) head.push(line);
  }
  const out = [verdict, ...head];
  let size = out.join('\n').length;
  let shown = 0;
  for (const cause of causes) {
    const text = cause.join('\n');
    if (size + text.length + 1 > maxChars - 200) break;
    out.push(text);
    size += text.length + 1;
    shown += 1;
  }
  if (shown < causes.length)
    out.push(
      `… ${causes.length - shown} more causes left out to stay within ${maxChars} characters: run the suite with --junit FILE for all of them`,
    );
  return { verdict, summary: out.join('\n') };
}

/** The contract suite of this package against `baseUrl`, as a child process (its output must not reach our stdout). */
function runContract(
  baseUrl: string,
  apiKey: string | undefined,
): Promise<{ exitCode: number | null; meaning: string; verdict: string; summary: string }> {
  const bin = path.join(__dirname, '..', 'cli', 'main.js');
  const args = [bin, 'contract', '--summary', '--base-url', baseUrl, ...(apiKey ? ['--api-key', apiKey] : [])];
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    let errors = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      errors = (errors + chunk.toString('utf8')).slice(-4_000);
    });
    const timer = setTimeout(() => child.kill('SIGTERM'), CONTRACT_TIMEOUT_MS);
    child.on('close', (exitCode) => {
      clearTimeout(timer);
      const meaning =
        {
          0: 'every enforced check passed',
          1: 'the deployment broke the contract',
          2: 'bad usage or unreachable target',
          3: 'the suite itself failed',
        }[exitCode ?? -1] ?? `stopped after ${CONTRACT_TIMEOUT_MS / 60_000} minutes`;
      // Exit 2 and 3 say why on stderr, in one line: that line is the verdict.
      const text = output.trim() === '' ? errors.trim() : errors.trim() === '' ? output : `${output}\n${errors.trim()}`;
      resolve({ exitCode, meaning, ...contractSummary(text) });
    });
  });
}

/** A request to the mock that found nobody there: which URL, and what to run. */
export function unreachableMock(mockUrl: string, error: unknown): Error {
  const code = (error as { cause?: { code?: string } }).cause?.code;
  if (!(error instanceof TypeError) || code === undefined) return error instanceof Error ? error : new Error(String(error));
  return new Error(
    `no mock answers at ${mockUrl} (${code}): start one with \`npx client-records-mock --port 4000\` and give this MCP server --mock-url http://127.0.0.1:4000, or start the MCP server without --mock-url to run a mock in its own process`,
  );
}

/** The tools, on a server controlling the mock at `mockUrl`. */
export function createMcpServer(mockUrl: string, apiKey: string, version: string): McpServer {
  const control = new ControlClient(mockUrl);
  const server = new McpServer({ name: 'client-records-mock', version });
  /** A tool that talks to the mock: a mock that is not there is named, with what to run. */
  const guard = <T>(work: () => Promise<T>) => guarded(work, mockUrl);
  const session = z
    .string()
    .regex(/^[A-Za-z0-9_.:@-]{1,128}$/)
    .optional()
    .describe('A session name (X-Mock-Session); omit for the whole server');
  const scenarioParameters = {
    min: z.number().int().min(0).max(60_000).optional().describe('slow: the shortest delay in ms'),
    max: z.number().int().min(0).max(60_000).optional().describe('slow: the longest delay in ms'),
    rate: z.number().min(0).max(1).optional().describe('flaky: probability that a Client request fails'),
    seed: z.number().int().min(0).max(4_294_967_295).optional().describe('flaky: the seed of the failure sequence'),
  };

  server.registerTool(
    'list_scenarios',
    {
      title: 'List scenarios',
      description: 'Every scenario the mock knows (derived from its openapi.yaml), with what each changes, and the server scenario now.',
    },
    () => guard(() => control.scenarios()),
  );
  server.registerTool(
    'switch_scenario',
    {
      title: 'Switch scenario',
      description:
        'Switch the whole mock, or one session, to a scenario (normal, down, slow, flaky, unauthorised, or a named example such as empty). The answer says which headers a client sends to be in that session.',
      inputSchema: { scenario: z.string().min(1).max(64).describe('A scenario name from list_scenarios'), session, ...scenarioParameters },
    },
    ({ scenario, session: name, ...parameters }) =>
      guard(async () => {
        const request = { scenario, ...Object.fromEntries(Object.entries(parameters).filter(([, value]) => value !== undefined)) };
        return name === undefined ? control.setServerScenario(request) : control.setSessionScenario(name, request);
      }),
  );
  server.registerTool(
    'reset_scenarios',
    {
      title: 'Reset scenarios',
      description: 'Back to normal: one session (it follows the server again), or with no session the server scenario and every session.',
      inputSchema: { session },
    },
    ({ session: name }) =>
      guard(async () => {
        if (name !== undefined) {
          await control.resetSession(name);
          return control.session(name);
        }
        await control.resetSessions();
        return control.resetServerScenario();
      }),
  );
  server.registerTool(
    'read_journal',
    {
      title: 'Read the journal',
      description:
        'The requests the mock answered (oldest first), filtered by operation, status, session, scenario and time: method, path, query, status, Code, duration, scenario, session.',
      inputSchema: {
        operation: z.string().max(64).optional().describe('An operationId, e.g. getClientsExtended, or none'),
        status: z.number().int().min(100).max(599).optional(),
        session,
        scenario: z.string().max(64).optional(),
        since: z.string().max(32).optional().describe('ISO 8601 date-time, inclusive'),
        until: z.string().max(32).optional().describe('ISO 8601 date-time, exclusive'),
        limit: z.number().int().min(1).max(1000).optional().describe('At most this many entries (default 100)'),
      },
    },
    (filter) => guard(() => control.journal(filter)),
  );
  server.registerTool(
    'clear_journal',
    { title: 'Clear the journal', description: "Remove every journal entry, or one session's.", inputSchema: { session } },
    ({ session: name }) =>
      guard(async () => {
        await control.clearJournal(name);
        return { cleared: name ?? 'all' };
      }),
  );
  server.registerTool(
    'read_coverage',
    {
      title: 'Read coverage',
      description:
        'What the traffic so far exercised of openapi.yaml: per operation the documented statuses reached, parameters sent and scenarios served (format client-records-coverage/1, side consumer).',
    },
    () => guard(() => control.coverage()),
  );
  server.registerTool(
    'find_clients',
    {
      title: 'Find clients',
      description: `Look clients up through the API (GET /api/v1/Client/Extended): by a text filter, active, idStaff, idLocation; at most ${MAX_ROWS} rows. Answers in the scenario of the session given, if any.`,
      inputSchema: {
        filter: z.string().max(200).optional().describe('Case- and accent-insensitive text over name, personal id, e-mail and phone'),
        active: z.boolean().optional(),
        idStaff: z.string().uuid().optional(),
        idLocation: z.string().uuid().optional(),
        page: z.number().int().min(1).optional(),
        pageSize: z.number().int().min(1).max(MAX_ROWS).optional(),
        session,
      },
    },
    ({ session: name, ...query }) =>
      guard(async () => {
        const search = new URLSearchParams();
        for (const [key, value] of Object.entries({ ...query, pageSize: query.pageSize ?? 10 }))
          if (value !== undefined) search.set(key, String(value));
        const response = await fetch(new URL(`/api/v1/Client/Extended?${search}`, mockUrl), {
          headers: { 'X-Api-Key': apiKey, ...(name ? { 'X-Mock-Session': name } : {}) },
        });
        const body = (await response.json()) as unknown;
        return { status: response.status, total: response.headers.get('x-total-count'), body };
      }),
  );
  server.registerTool(
    'get_client',
    {
      title: 'Get a client',
      description: 'One client in full (GET /api/v1/Client/Detail/{idClient}).',
      inputSchema: { idClient: z.string().uuid(), session },
    },
    ({ idClient, session: name }) =>
      guard(async () => {
        const response = await fetch(new URL(`/api/v1/Client/Detail/${idClient}`, mockUrl), {
          headers: { 'X-Api-Key': apiKey, ...(name ? { 'X-Mock-Session': name } : {}) },
        });
        return { status: response.status, body: (await response.json()) as unknown };
      }),
  );
  server.registerTool(
    'run_contract_suite',
    {
      title: 'Run the contract suite',
      description: `Check a deployment of the API (ours, staging, the real backend) against openapi.yaml with this package’s contract suite. Returns the exit code, its meaning, the verdict line, and a summary of at most ${CONTRACT_SUMMARY_MAX_CHARS} characters: the verdict first, then every cause (rule and place, expected, got, where seen, the sentence of openapi.yaml, a curl that reproduces it) that fits.`,
      inputSchema: {
        baseUrl: z.string().url().describe('The deployment to check, e.g. https://staging.example.org'),
        apiKey: z.string().min(1).max(256).optional().describe('Its X-Api-Key (default: the suite’s own default)'),
      },
    },
    ({ baseUrl, apiKey: key }) => guarded(() => runContract(baseUrl, key)),
  );
  return server;
}

/** Runs the MCP server until its standard input closes. */
export async function runMcp(argv: readonly string[], version: string): Promise<number | void> {
  let options: McpOptions | 'help';
  try {
    options = readOptions(argv);
  } catch (error) {
    process.stderr.write(`client-records-mock mcp: ${(error as Error).message.split('\n')[0]} (see mcp --help)\n`);
    return EXIT_USAGE;
  }
  if (options === 'help') {
    process.stdout.write(`${MCP_USAGE}\n`);
    return 0;
  }
  let mockUrl = options.mockUrl;
  let stopMock: (() => Promise<void>) | undefined;
  if (mockUrl === undefined) {
    const { startServer, ConfigError } = await import('../server/index');
    try {
      const running = await startServer({ ...options.mock, logLevel: 'silent', port: 0 });
      mockUrl = running.url;
      stopMock = running.close;
    } catch (error) {
      const message = error instanceof ConfigError ? error.message : (error as Error).message.split('\n')[0];
      process.stderr.write(`client-records-mock mcp: ${message}\n`);
      return EXIT_USAGE;
    }
  }
  const server = createMcpServer(mockUrl, options.apiKey, version);
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = resolve;
    process.stdin.once('end', resolve);
  });
  await server.connect(transport);
  process.stderr.write(`client-records-mock mcp: controlling ${mockUrl}\n`);
  await closed;
  await server.close().catch(() => undefined);
  await stopMock?.();
  return 0;
}
