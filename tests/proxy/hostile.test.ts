// Issue 36: the proxy in front of an upstream that fails the way real ones do
// (tests/proxy/hostile-upstream.ts, one switch per behaviour), with and without
// --fallback. Whatever the upstream does, the caller gets an answer before the
// deadline (an upper bound with generous slack for a loaded machine, never a
// tight timing): the upstream's, the mock's, or the proxy's 502/504 ErrorDto,
// tagged with its cause in X-Proxy-Answered-By and with its own exchange
// number; a transport fault is a journal entry of kind `transport`, counted by
// --fail-on-violation (exit 1); the proxy closes every upstream socket it gave
// up on. The table of what each behaviour got is printed at the end (the
// must-show of the issue). Then the callers that misbehave: one that aborts,
// one that reads slowly, one that sends a head over the limit.
import http from 'node:http';
import net from 'node:net';
import { startProxy, type RunningProxy } from '../../proxy/proxy';
import type { JournalEntry } from '../../proxy/journal';
import { proxySpec } from '../../proxy/journal-http';
import { startTestServer, type TestServer } from '../support/servers';
import { startHostileUpstream, type HostileBehaviour, type HostileUpstream } from './hostile-upstream';

const UPSTREAM_TIMEOUT_MS = 1_000;
const ANSWER_DEADLINE_MS = 3_000;
/** Room for a loaded machine: the answer must still come long before a caller would give up. */
const SLACK_MS = 5_000;
const PING = '/api/v1/Diagnostics/Ping';
const HUGE_BYTES = 4 * 1024 * 1024;
const HEADER_LINES = 1_500;

let origin: TestServer;
let hostile: HostileUpstream;
beforeAll(async () => {
  origin = await startTestServer();
  hostile = await startHostileUpstream({ origin: origin.baseUrl, dripMs: 50, hugeBytes: HUGE_BYTES, headerLines: HEADER_LINES });
  // The origin's first answer is its slowest (code loaded, caches filled): not the time an honest upstream is held to.
  await (await fetch(origin.baseUrl + PING)).text();
});
afterAll(async () => {
  await hostile.stop();
  await origin.stop();
  process.stdout.write(`\n${table()}\n`);
});

interface Observed {
  status: number;
  answeredBy: string | null;
  exchange: string | null;
  headerLines: number;
  bodyBytes: number;
  ms: number;
}

/** One GET through node:http with no header-count limit (fetch would cut at its own), timed. */
function get(url: string, headers: Record<string, string> = {}): Promise<Observed> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const request = http.get(url, { headers, timeout: ANSWER_DEADLINE_MS + SLACK_MS }, (response) => {
      let bodyBytes = 0;
      response.on('data', (chunk: Buffer) => (bodyBytes += chunk.length));
      response.on('error', reject);
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          answeredBy: (response.headers['x-proxy-answered-by'] as string | undefined) ?? null,
          exchange: (response.headers['x-proxy-exchange'] as string | undefined) ?? null,
          headerLines: response.rawHeaders.length / 2,
          bodyBytes,
          ms: performance.now() - started,
        }),
      );
    });
    request.maxHeadersCount = 0;
    request.on('timeout', () => request.destroy(new Error(`no answer within ${ANSWER_DEADLINE_MS + SLACK_MS} ms`)));
    request.on('error', reject);
  });
}

async function eventually(condition: () => boolean, ms = SLACK_MS): Promise<boolean> {
  const until = performance.now() + ms;
  while (!condition() && performance.now() < until) await new Promise((resolve) => setTimeout(resolve, 20));
  return condition();
}

type Expected = { status: number; who: string; rule: string | undefined; kind?: 'contract' | 'transport' };
const upstream = (rule?: string): Expected => ({ status: 200, who: 'upstream', rule, kind: rule ? 'contract' : undefined });
const fault = (status: number, cause: string): Expected => ({
  status,
  who: `proxy;cause="${cause}"`,
  rule: `transport.${cause}`,
  kind: 'transport',
});

/** What each behaviour must give without fallback; with `--fallback all`, a transport fault is the mock's 200 instead. */
const CASES: [HostileBehaviour, Expected][] = [
  ['honest', upstream()],
  ['hang-before-head', fault(504, 'timeout')],
  ['close-before-head', fault(502, 'reset')],
  ['hang-after-head', fault(504, 'timeout')],
  ['reset-mid-body', fault(502, 'reset')],
  ['bad-chunk', fault(502, 'malformed')],
  ['garbage', fault(502, 'malformed')],
  ['switching-protocols', fault(502, 'malformed')],
  ['slow-drip', fault(504, 'timeout')],
  ['huge-body', upstream()],
  ['many-headers', upstream()],
  ['http10-no-length', upstream()],
  ['length-over', fault(502, 'reset')],
  ['length-under', fault(502, 'malformed')],
  ['gzip', upstream()],
  ['gzip-unlabelled', upstream('response.json')],
];

const rows: string[] = [];
function table(): string {
  return [
    `| behaviour | --fallback | status | X-Proxy-Answered-By | answered in (ms; deadline ${ANSWER_DEADLINE_MS}, idle ${UPSTREAM_TIMEOUT_MS}) | journal entry | exit code |`,
    '|---|---|---:|---|---:|---|---:|',
    ...rows,
  ].join('\n');
}

const entryValid = () => proxySpec().validator('#/components/schemas/JournalEntry');

describe.each(['off', 'all'] as const)('the proxy in front of a hostile upstream, --fallback %s', (fallback) => {
  let proxy: RunningProxy;
  const lines: string[] = [];
  beforeEach(async () => {
    lines.length = 0;
    proxy = await startProxy({
      upstream: hostile.baseUrl,
      upstreamTimeoutMs: UPSTREAM_TIMEOUT_MS,
      answerDeadlineMs: ANSWER_DEADLINE_MS,
      fallback,
      failOn: 'upstream',
      log: (line) => lines.push(line),
    });
  });
  afterEach(async () => {
    await proxy.close();
  });

  test.each(CASES)(
    'an upstream that answers %s → its status, tag, journal entry and exit code, before the deadline',
    async (behaviour, expected) => {
      hostile.behave(behaviour);
      const opened = hostile.accepted();

      const answer = await get(proxy.url + PING);
      const entries: JournalEntry[] = proxy.violations();
      const { exitCode, report } = await proxy.close();

      const faulted = expected.kind === 'transport';
      const status = faulted && fallback === 'all' ? 200 : expected.status;
      const who = faulted && fallback === 'all' ? expected.who.replace(/^proxy/, 'mock') : expected.who;
      const entry = entries[0];
      rows.push(
        `| ${behaviour} | ${fallback} | ${answer.status} | \`${answer.answeredBy}\` | ${Math.round(answer.ms)} | ${entry ? `${entry.kind} ${entry.rule}: ${entry.actual}` : 'none'} | ${exitCode} |`,
      );
      expect(answer.status).toBe(status);
      expect(answer.answeredBy).toBe(who);
      expect(answer.exchange).toBe('1');
      expect(answer.ms).toBeLessThan(ANSWER_DEADLINE_MS + SLACK_MS);
      expect(entries.map((e) => e.rule)).toEqual(expected.rule ? [expected.rule] : []);
      if (entry) {
        expect(entry).toEqual(expect.objectContaining({ kind: expected.kind, side: 'response', exchange: 1, answeredBy: who }));
        expect(entryValid()(entry)).toBe(true);
        // One line with a reproduction, for a transport fault as for any other violation.
        expect(lines.join('\n')).toMatch(
          new RegExp(`^proxy: ✗ upstream ping ${expected.rule!.replace('.', '\\.')}: .*\\n    reproduce: curl `, 'm'),
        );
      }
      expect(report.answeredBy).toEqual({ [who]: 1 });
      expect(report.violations.transport).toBe(faulted ? 1 : 0);
      expect(exitCode).toBe(expected.rule ? 1 : 0);
      if (behaviour === 'huge-body') expect(answer.bodyBytes).toBe(6 + HUGE_BYTES);
      // Every header line arrives: none dropped at 1,000.
      if (behaviour === 'many-headers') expect(answer.headerLines).toBeGreaterThan(HEADER_LINES);
      // No upstream socket left open once the proxy gave up on it (the 101's socket included).
      if (faulted) expect(await eventually(() => hostile.open() === 0)).toBe(true);
      expect(hostile.accepted()).toBeGreaterThan(opened);
    },
    30_000,
  );
});

describe('the fallback mock’s answers carry their own exchange’s tags', () => {
  test('one URL, the upstream failing four ways then answering → X-Proxy-Exchange 1-5, each with its own cause, the mock’s cache notwithstanding', async () => {
    const proxy = await startProxy({
      upstream: hostile.baseUrl,
      upstreamTimeoutMs: UPSTREAM_TIMEOUT_MS,
      answerDeadlineMs: ANSWER_DEADLINE_MS,
      fallback: 'all',
    });
    const seen: [string | null, string | null][] = [];

    for (const behaviour of ['hang-before-head', 'close-before-head', 'garbage', 'hang-before-head', 'honest'] as const) {
      hostile.behave(behaviour);
      const answer = await get(proxy.url + PING);
      seen.push([answer.exchange, answer.answeredBy]);
    }
    await proxy.close();

    expect(seen).toEqual([
      ['1', 'mock;cause="timeout"'],
      ['2', 'mock;cause="reset"'],
      ['3', 'mock;cause="malformed"'],
      ['4', 'mock;cause="timeout"'],
      ['5', 'upstream'],
    ]);
  }, 30_000);
});

describe('callers that misbehave', () => {
  let proxy: RunningProxy;
  const lines: string[] = [];
  beforeEach(async () => {
    lines.length = 0;
    proxy = await startProxy({
      upstream: hostile.baseUrl,
      upstreamTimeoutMs: UPSTREAM_TIMEOUT_MS,
      answerDeadlineMs: ANSWER_DEADLINE_MS,
      failOn: 'upstream',
      log: (line) => lines.push(line),
    });
  });
  /** Servers a test started beyond the proxy, stopped whether it passed or not. */
  const stopAfter: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    await proxy.close();
    for (const stop of stopAfter.splice(0)) await stop();
  });

  test('a caller that resets its connection while the upstream hangs → caller-gone, no violation, the upstream socket closed', async () => {
    hostile.behave('hang-before-head');
    const socket = net.connect(proxy.port, '127.0.0.1');
    socket.on('error', () => undefined);
    await new Promise((resolve) => socket.once('connect', resolve));
    const accepted = hostile.accepted();

    socket.write(`GET ${PING} HTTP/1.1\r\nHost: x\r\n\r\n`);
    await eventually(() => hostile.accepted() > accepted);
    socket.resetAndDestroy();

    expect(await eventually(() => proxy.report().exchanges.inFlight === 0)).toBe(true);
    expect(await eventually(() => hostile.open() === 0)).toBe(true);
    const { report, exitCode } = await proxy.close();
    expect(report.exchanges.total).toBe(1);
    // Not the upstream's timeout: the proxy gave up on it when its caller went away.
    expect(report.answeredBy).toEqual({ 'caller-gone': 1 });
    expect(report.violations).toEqual({ request: 0, response: 0, transport: 0, counted: 0 });
    expect(exitCode).toBe(0);
    expect(lines).toEqual([]);
  });

  test('a caller that sends half a head and goes away → not an exchange at all', async () => {
    const socket = net.connect(proxy.port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));

    socket.end('GET /api/v1/Diagnostics/Ping HTTP/1.1\r\nHost: x\r\nX-Half: ');
    await new Promise((resolve) => socket.once('close', resolve).resume());

    const { report } = await proxy.close();
    expect(report.exchanges.total).toBe(0);
    expect(report.answeredBy).toEqual({});
  });

  test('a caller that reads 64 MB slowly (pauses of 3× the upstream timeout, the socket buffers full) → the whole body, no violation', async () => {
    // Big enough that the caller's pauses fill every buffer between it and the upstream: the upstream is then held still.
    const big = await startHostileUpstream({ origin: origin.baseUrl, hugeBytes: 64 * 1024 * 1024 });
    big.behave('huge-body');
    // The whole answer may take its time (the default deadline): what is tested is that the pauses count for nothing.
    const slow = await startProxy({
      upstream: big.baseUrl,
      upstreamTimeoutMs: UPSTREAM_TIMEOUT_MS,
      failOn: 'upstream',
      log: (line) => lines.push(line),
    });
    stopAfter.push(
      () => slow.close(),
      () => big.stop(),
    );

    const received = await new Promise<number>((resolve, reject) => {
      http
        .get(slow.url + PING, (response) => {
          let bytes = 0;
          let pauses = 0;
          response.on('data', (chunk: Buffer) => {
            bytes += chunk.length;
            if (pauses < 3 && bytes > (pauses + 1) * 1024 * 1024) {
              pauses += 1;
              response.pause();
              setTimeout(() => response.resume(), 3 * UPSTREAM_TIMEOUT_MS);
            }
          });
          response.on('end', () => resolve(bytes));
          response.on('error', reject);
        })
        .on('error', reject);
    });

    const { report, exitCode } = await slow.close();
    expect(received).toBe(6 + 64 * 1024 * 1024);
    expect(report.violations.response).toBe(0);
    expect(report.answeredBy).toEqual({ upstream: 1 });
    expect(exitCode).toBe(0);
    expect(lines).toEqual([]);
  }, 30_000);

  test('a request head of 1 MB, 20 times → 20 answers of 431, never a reset', async () => {
    const head = `GET ${PING} HTTP/1.1\r\nHost: x\r\n${'X-Padding: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\r\n'.repeat(13_000)}\r\n`;

    const answers: string[] = [];
    for (let i = 0; i < 20; i++) {
      answers.push(
        await new Promise<string>((resolve) => {
          let text = '';
          const socket = net.connect(proxy.port, '127.0.0.1', () => socket.write(head, () => socket.end()));
          socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
          socket.on('error', (error: NodeJS.ErrnoException) => resolve(`${text.split('\r\n')[0] ?? ''} ${error.code ?? ''}`.trim()));
          socket.on('close', () => resolve(text.split('\r\n')[0] ?? ''));
        }),
      );
    }

    expect(answers).toEqual(Array(20).fill('HTTP/1.1 431 Request Header Fields Too Large'));
    const { report } = await proxy.close();
    expect(report.answeredBy).toEqual({ 'proxy;cause="unforwardable"': 20 });
  }, 30_000);
});
