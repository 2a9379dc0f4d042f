// Issue 36, "The report always lands": the built CLI, as a CI job runs it, in
// front of an upstream that hangs, with a caller whose request is under way on
// a half-closed socket and another that connected and said nothing. SIGTERM
// (and SIGINT twice) must still write the JUnit file, the JSON report and the
// summary line, and exit with the code the counts call for: the hung exchange
// is ended as the upstream's timeout (its caller gets the 504), a transport
// fault --fail-on-violation counts, so the exit code is 1.
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { proxySpec } from '../../proxy/journal-http';
import type { ProxyReport } from '../../proxy/report';
import { startTestServer, type TestServer } from '../support/servers';
import { startHostileUpstream, type HostileUpstream } from './hostile-upstream';
import { startProxyProcess } from './proxy-process';

const PING = '/api/v1/Diagnostics/Ping';
/** The stop's drain (8 s) and its grace, with room for a loaded machine. */
const STOP_BOUND_MS = 20_000;

let origin: TestServer;
let hostile: HostileUpstream;
let scratch: string;
beforeAll(async () => {
  origin = await startTestServer();
  hostile = await startHostileUpstream({ origin: origin.baseUrl });
  hostile.behave('hang-before-head');
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'proxy-stop-'));
});
afterAll(async () => {
  await hostile.stop();
  await origin.stop();
  fs.rmSync(scratch, { recursive: true, force: true });
});

/** A caller that sends its request and shuts its sending side (half-open), collecting what comes back. */
function halfClosedCaller(port: number): { answer: Promise<string> } {
  const socket = net.connect(port, '127.0.0.1', () => socket.end(`GET ${PING} HTTP/1.1\r\nHost: proxy\r\n\r\n`));
  let text = '';
  socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
  return { answer: new Promise((resolve) => socket.on('close', () => resolve(text)).on('error', () => resolve(text))) };
}

/** The proxy's own count of exchanges under way (its journal's report). */
async function exchangesUnderWay(url: string): Promise<number> {
  const report = (await (await fetch(`${url}/__proxy/report`)).json()) as ProxyReport;
  return report.exchanges.inFlight;
}

async function eventually(condition: () => Promise<boolean>, ms = 10_000): Promise<boolean> {
  const until = performance.now() + ms;
  while (!(await condition()) && performance.now() < until) await new Promise((resolve) => setTimeout(resolve, 20));
  return condition();
}

function bounded<T>(promise: Promise<T>, what: string): Promise<T> {
  return Promise.race([
    promise,
    new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`${what} took over ${STOP_BOUND_MS} ms`)), STOP_BOUND_MS).unref()),
  ]);
}

describe('client-records-mock proxy --fail-on-violation: stopped while an exchange hangs', () => {
  test.each([
    ['SIGTERM', ['SIGTERM']],
    ['SIGINT twice (the second ends the drain at once)', ['SIGINT', 'SIGINT']],
  ] as const)(
    '%s, a half-open caller and an idle connection → 504 to the caller, JUnit and report written, summary line, exit 1',
    async (_what, signals) => {
      const junit = path.join(scratch, `${signals.length}.xml`);
      const reportFile = path.join(scratch, `${signals.length}.json`);
      const proxy = await startProxyProcess([
        '--upstream',
        hostile.baseUrl,
        '--fail-on-violation',
        '--junit',
        junit,
        '--report',
        reportFile,
      ]);
      const port = Number(new URL(proxy.url).port);
      const idle = net.connect(port, '127.0.0.1');
      idle.on('error', () => undefined);
      const caller = halfClosedCaller(port);
      // The exchange is under way: the upstream has the request and says nothing (--upstream-timeout is 10 s).
      expect(await eventually(async () => (await exchangesUnderWay(proxy.url)) === 1)).toBe(true);

      proxy.child.kill(signals[0]);
      if (signals.length > 1) setTimeout(() => proxy.child.kill(signals[1]), 200);
      const exitCode = await bounded(proxy.exited, 'the stop');
      const answer = await bounded(caller.answer, "the caller's answer");

      expect(exitCode).toBe(1);
      expect(answer).toMatch(/^HTTP\/1\.1 504 /);
      expect(answer).toContain('X-Proxy-Answered-By: proxy;cause="timeout"');
      const report = JSON.parse(fs.readFileSync(reportFile, 'utf8')) as ProxyReport;
      expect(proxySpec().validator('#/components/schemas/ProxyReport')(report)).toBe(true);
      expect(report.exchanges).toEqual({ total: 1, bodiesOverCap: 0, inFlight: 0 });
      expect(report.answeredBy).toEqual({ 'proxy;cause="timeout"': 1 });
      expect(report.violations).toEqual({ request: 0, response: 1, transport: 1, counted: 1 });
      expect(report.causes[0]).toEqual(
        expect.objectContaining({ kind: 'transport', rule: 'transport.timeout', cause: 'answer not complete at the stop' }),
      );
      const xml = fs.readFileSync(junit, 'utf8');
      expect(xml).toMatch(/<testsuite name="proxy upstream: ping"[^>]* failures="1"/);
      expect(xml).toContain('transport.timeout');
      expect(proxy.stdout()).toMatch(/^proxy: ✗ upstream ping transport\.timeout: .*\n {4}reproduce: curl /m);
      expect(proxy.stdout()).toMatch(
        new RegExp(
          `^proxy: 1 exchanges \\(proxy;cause="timeout" 1\\); 1 upstream violations \\(1 causes; 1 transport faults\\), 0 caller violations; counted by --fail-on-violation=upstream: 1; JUnit: ${junit.replace(/[.]/g, '\\.')}; report: ${reportFile.replace(/[.]/g, '\\.')}$`,
          'm',
        ),
      );
      idle.destroy();
    },
    60_000,
  );
});
