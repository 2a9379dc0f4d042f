// `client-records-mock mcp` driven by a real MCP client of the official SDK
// (Client + StdioClientTransport) spawning the built CLI: the tools are listed
// and called over stdio exactly as a coding agent would, never by calling our
// functions. A scenario switched through a tool must show in the journal and
// in the answers of the mock it controls.
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { startServer, type RunningMock } from '../../server/index';
import { CONTRACT_SUMMARY_MAX_CHARS, contractSummary } from '../../mcp/server';
import { freePort } from '../../tools/processes';
import { startMutantProxy } from '../../tools/mutants';

const CLI = path.resolve(__dirname, '../../dist/cli/main.js');
const API_KEY = 'dev-key';

interface ToolText {
  content: { type: string; text: string }[];
  isError?: boolean;
}

async function connect(args: string[]): Promise<{ client: Client; stderr: () => string }> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp', ...args], stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const client = new Client({ name: 'jest-agent', version: '1.0.0' });
  await client.connect(transport);
  return { client, stderr: () => stderr };
}

async function call<T>(client: Client, name: string, args: Record<string, unknown> = {}): Promise<{ value: T; isError: boolean }> {
  const result = (await client.callTool({ name, arguments: args })) as ToolText;
  const text = result.content[0]!.text;
  let value: T;
  try {
    value = JSON.parse(text) as T;
  } catch {
    value = text as unknown as T;
  }
  return { value, isError: result.isError === true };
}

describe('client-records-mock mcp with a mock of its own (in-process, port 0)', () => {
  let client: Client;
  beforeAll(async () => {
    ({ client } = await connect(['--clients', '200']));
  }, 60_000);
  afterAll(async () => {
    await client?.close();
  });

  test('tools/list → the control tools, the lookups and the contract suite, each with a description', async () => {
    const { tools } = await client.listTools();

    expect(tools.map((tool) => tool.name).sort()).toEqual(
      [
        'clear_journal',
        'find_clients',
        'get_client',
        'list_scenarios',
        'read_coverage',
        'read_journal',
        'reset_scenarios',
        'run_contract_suite',
        'switch_scenario',
      ].sort(),
    );
    expect(tools.every((tool) => (tool.description ?? '').length > 20)).toBe(true);
  });

  test("switch_scenario down for a session → that session's lookups answer 500 and the journal shows them under down; another session is normal", async () => {
    const switched = await call<{ scenario: { scenario: string }; sendHeaders: Record<string, string> }>(client, 'switch_scenario', {
      scenario: 'down',
      session: 'agent-1',
    });
    const down = await call<{ status: number; body: { Code: string } }>(client, 'find_clients', { session: 'agent-1', filter: 'a' });
    const other = await call<{ status: number; total: string }>(client, 'find_clients', { session: 'agent-2' });
    const journal = await call<{
      entries: { scenario: string; status: number; session: string; operationId: string; code: string | null }[];
    }>(client, 'read_journal', { session: 'agent-1' });

    expect(switched.value).toMatchObject({
      scenario: { scenario: 'down' },
      sendHeaders: { 'X-Mock-Session': 'agent-1', 'X-Mock-Scenario': 'down' },
    });
    expect(down.value).toMatchObject({ status: 500, body: { Code: 'INTERNAL_ERROR' } });
    expect(other.value).toMatchObject({ status: 200, total: '200' });
    expect(journal.value.entries).toEqual([
      expect.objectContaining({
        session: 'agent-1',
        scenario: 'down',
        status: 500,
        code: 'INTERNAL_ERROR',
        operationId: 'getClientsExtended',
      }),
    ]);
  });

  test('list_scenarios, reset_scenarios, read_coverage → the table, back to normal, what the traffic exercised', async () => {
    const table = await call<{ scenarios: { name: string }[] }>(client, 'list_scenarios');
    await call(client, 'switch_scenario', { scenario: 'empty' });
    const emptyPage = await call<{ body: { Results: unknown[] } }>(client, 'find_clients');
    const reset = await call<{ scenario: { scenario: string } }>(client, 'reset_scenarios');
    const coverage = await call<{ side: string; operations: { operationId: string; requests: number }[] }>(client, 'read_coverage');

    expect(table.value.scenarios.map((row) => row.name)).toEqual(
      expect.arrayContaining(['normal', 'empty', 'down', 'slow', 'flaky', 'unauthorised']),
    );
    expect(emptyPage.value.body.Results).toEqual([]);
    expect(reset.value.scenario.scenario).toBe('normal');
    expect(coverage.value.side).toBe('consumer');
    expect(coverage.value.operations.find((o) => o.operationId === 'getClientsExtended')!.requests).toBeGreaterThanOrEqual(3);
  });

  test('a bad argument → the tool answers isError with one line naming it, the server keeps running', async () => {
    const bad = await call<string>(client, 'switch_scenario', { scenario: 'dwon' });
    const still = await call<{ scenarios: unknown[] }>(client, 'list_scenarios');

    expect(bad.isError).toBe(true);
    expect(bad.value).toMatch(/^400 VALIDATION_ERROR: body field 'scenario' is 'dwon', which is no scenario/);
    expect(still.isError).toBe(false);
  });

  test('run_contract_suite against a port nobody listens on → exit 2, "bad usage or unreachable target"', async () => {
    const run = await call<{ exitCode: number; meaning: string; summary: string }>(client, 'run_contract_suite', {
      baseUrl: 'http://127.0.0.1:9',
    });

    expect(run.value).toMatchObject({ exitCode: 2, meaning: 'bad usage or unreachable target' });
  }, 60_000);
});

describe('client-records-mock mcp --mock-url (a mock running elsewhere)', () => {
  let mock: RunningMock;
  let client: Client;
  beforeAll(async () => {
    mock = await startServer({ clients: 100 });
    ({ client } = await connect(['--mock-url', mock.url]));
  }, 60_000);
  afterAll(async () => {
    await client?.close();
    await mock?.close();
  });

  test('switch_scenario unauthorised for the server → that mock answers every key 401 over plain HTTP', async () => {
    await call(client, 'switch_scenario', { scenario: 'unauthorised' });

    const response = await fetch(`${mock.url}/api/v1/Client/Simple`, { headers: { 'X-Api-Key': API_KEY } });
    await call(client, 'reset_scenarios');
    const after = await fetch(`${mock.url}/api/v1/Client/Simple`, { headers: { 'X-Api-Key': API_KEY } });

    expect(response.status).toBe(401);
    expect(after.status).toBe(200);
  });

  test("run_contract_suite against that mock → exit 0 and the suite's summary", async () => {
    const run = await call<{ exitCode: number; meaning: string; summary: string }>(client, 'run_contract_suite', {
      baseUrl: mock.url,
      apiKey: API_KEY,
    });

    expect(run.value).toMatchObject({ exitCode: 0, meaning: 'every enforced check passed' });
    expect(run.value.summary).toMatch(/^PASS: /);
  }, 300_000);

  test('run_contract_suite against a front that drops three security headers → the verdict first, then the three causes, each with its sentence and curl', async () => {
    const front = await startMutantProxy(mock.url, {
      name: 'three security headers missing',
      response(_request, response) {
        for (const name of ['content-security-policy', 'x-frame-options', 'x-content-type-options']) delete response.headers[name];
      },
    });
    try {
      const run = await call<{ exitCode: number; verdict: string; summary: string }>(client, 'run_contract_suite', {
        baseUrl: front.baseUrl,
        apiKey: API_KEY,
      });

      console.log(`run_contract_suite's answer for three missing headers:\n${run.value.summary}`);
      expect(run.value.exitCode).toBe(1);
      expect(run.value.verdict).toMatch(/^FAIL: .*; 3 distinct causes of failure$/);
      const lines = run.value.summary.split('\n');
      expect(lines[0]).toBe(run.value.verdict);
      for (const name of ['Content-Security-Policy', 'X-Frame-Options', 'X-Content-Type-Options']) {
        expect(run.value.summary).toMatch(new RegExp(`^\\d\\. response\\.header ${name} \\(`, 'm'));
        expect(run.value.summary).toMatch(new RegExp(`spec: +header\\.${name}:`));
      }
      expect(run.value.summary).toContain('reproduce: curl');
      expect(run.value.summary.length).toBeLessThanOrEqual(CONTRACT_SUMMARY_MAX_CHARS);
    } finally {
      await front.stop();
    }
  }, 300_000);
});

describe('client-records-mock mcp --mock-url where no mock answers', () => {
  test('a tool that needs the mock → isError, naming the URL and what to run', async () => {
    const url = `http://127.0.0.1:${await freePort()}`;
    const { client } = await connect(['--mock-url', url]);
    try {
      const answer = await call<string>(client, 'list_scenarios');

      expect(answer.isError).toBe(true);
      expect(answer.value).toContain(`no mock answers at ${url}`);
      expect(answer.value).toContain('npx client-records-mock --port 4000');
    } finally {
      await client.close();
    }
  }, 60_000);
});

describe('contractSummary: what run_contract_suite returns of a run', () => {
  const cause = (n: number) => [
    `${n}. response.header X-${n} (3 checks)`,
    '   expected: a header',
    '   got:      absent',
    `   checks:   check ${n}`,
  ];

  test('the verdict first, then every cause, when they fit', () => {
    const output = ['CAUSES: 2 distinct causes behind 6 failed checks', ...cause(1), ...cause(2), '', 'FAIL: 1/7 checks passed'].join('\n');

    const { verdict, summary } = contractSummary(output);

    expect(verdict).toBe('FAIL: 1/7 checks passed');
    expect(summary.split('\n')[0]).toBe(verdict);
    expect(summary).toContain('1. response.header X-1');
    expect(summary).toContain('2. response.header X-2');
  });

  test('causes beyond the size are left out whole, and counted', () => {
    const output = ['CAUSES: 500 distinct causes', ...Array.from({ length: 500 }, (_, i) => cause(i + 1)).flat(), 'FAIL: x'].join('\n');

    const { summary } = contractSummary(output, 4_000);

    expect(summary.length).toBeLessThanOrEqual(4_000);
    expect(summary).toMatch(/… \d+ more causes left out to stay within 4000 characters/);
    expect(
      summary
        .split('\n')
        .filter((line) => /^\d+\. /.test(line))
        .every((line, i) => line.startsWith(`${i + 1}. `)),
    ).toBe(true);
  });
});

test('mcp --mock-url with a mock setting → one line and exit 2', async () => {
  const { spawnSync } = await import('node:child_process');
  const result = spawnSync(process.execPath, [CLI, 'mcp', '--mock-url', 'http://127.0.0.1:4000', '--seed', '3'], { encoding: 'utf8' });

  expect(result.status).toBe(2);
  expect(result.stderr.trim().split('\n')).toHaveLength(1);
  expect(result.stderr).toMatch(/--mock-url controls a running mock/);
});
