// Issue 24 (c): an upstream that refuses connections, one that hangs, one that
// stalls or resets in the middle of its body. Whatever the upstream does, the
// caller gets an answer within the upstream timeout (plus a generous margin for
// a loaded machine): the proxy's documented 502/504 ErrorDto, or with
// --fallback the mock's answer; never a crash, never a hung caller, and the
// proxy keeps answering afterwards.
import { proxySpec } from '../../proxy/journal-http';
import { startProxy, type RunningProxy } from '../../proxy/proxy';
import { brokenBodyUpstream, hangingUpstream, refusingUrl, type RawUpstream } from './upstreams';

const TIMEOUT_MS = 600;
/** Room for a loaded machine: the answer must still come long before a caller would give up. */
const MARGIN_MS = 4_000;
const PING = '/api/v1/Diagnostics/Ping';

const running: { stop(): Promise<unknown> }[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((item) => item.stop()));
});

async function proxyTo(upstream: string, fallback = 'off', judgeMaxKb = 1024): Promise<RunningProxy> {
  const proxy = await startProxy({ upstream, upstreamTimeoutMs: TIMEOUT_MS, fallback, judgeMaxKb });
  running.push({ stop: () => proxy.close() });
  return proxy;
}

async function upstreamOf(start: () => Promise<RawUpstream>): Promise<RawUpstream> {
  const upstream = await start();
  running.push(upstream);
  return upstream;
}

async function timed(url: string): Promise<{ status: number; headers: Headers; body: string; ms: number }> {
  const started = performance.now();
  const response = await fetch(url, { signal: AbortSignal.timeout(TIMEOUT_MS + MARGIN_MS + 5_000) });
  const body = await response.text();
  return { status: response.status, headers: response.headers, body, ms: performance.now() - started };
}

const errorDto = () => proxySpec().validator('#/components/schemas/ErrorDto');

describe('an upstream that cannot answer, fallback off → the proxy’s ErrorDto within the timeout', () => {
  test.each([
    ['refuses connections', 502, 'UPSTREAM_UNREACHABLE', 'unreachable', () => refusingUrl().then((baseUrl) => ({ baseUrl }))],
    ['accepts and never answers', 504, 'UPSTREAM_TIMEOUT', 'timeout', () => upstreamOf(hangingUpstream)],
    ['stalls in the middle of its body', 504, 'UPSTREAM_TIMEOUT', 'timeout', () => upstreamOf(() => brokenBodyUpstream('stall'))],
    ['resets in the middle of its body', 502, 'UPSTREAM_RESET', 'reset', () => upstreamOf(() => brokenBodyUpstream('reset'))],
  ] as const)(
    'an upstream that %s → %i %s, X-Proxy-Answered-By proxy;cause="%s"',
    async (_what, status, code, cause, start) => {
      const upstream = await start();
      const proxy = await proxyTo(upstream.baseUrl);

      const answer = await timed(proxy.url + PING);

      expect(answer.status).toBe(status);
      const body = JSON.parse(answer.body) as { Code: string; Message: string };
      expect(body.Code).toBe(code);
      expect(errorDto()(body)).toBe(true);
      expect(answer.headers.get('x-proxy-answered-by')).toBe(`proxy;cause="${cause}"`);
      expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
      expect(answer.headers.get('date')).toMatch(/ GMT$/);
      expect(answer.ms).toBeLessThan(TIMEOUT_MS + MARGIN_MS);
      // Still alive: the journal answers, and the answer was counted.
      const report = (await (await fetch(`${proxy.url}/__proxy/report`)).json()) as { answeredBy: Record<string, number> };
      expect(report.answeredBy).toEqual({ [`proxy;cause="${cause}"`]: 1 });
    },
    30_000,
  );
});

describe('the same upstreams with --fallback → the mock answers, within the timeout', () => {
  test.each([
    ['refuses connections', 'unreachable', () => refusingUrl().then((baseUrl) => ({ baseUrl }))],
    ['accepts and never answers', 'timeout', () => upstreamOf(hangingUpstream)],
    ['stalls in the middle of its body', 'timeout', () => upstreamOf(() => brokenBodyUpstream('stall'))],
    ['resets in the middle of its body', 'reset', () => upstreamOf(() => brokenBodyUpstream('reset'))],
  ] as const)(
    'an upstream that %s → 200 "Pong" from the mock, X-Proxy-Answered-By mock;cause="%s"',
    async (_what, cause, start) => {
      const upstream = await start();
      const proxy = await proxyTo(upstream.baseUrl, 'unreachable,timeout,reset');

      const answer = await timed(proxy.url + PING);

      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.body)).toBe('Pong');
      expect(answer.headers.get('x-proxy-answered-by')).toBe(`mock;cause="${cause}"`);
      expect(answer.ms).toBeLessThan(TIMEOUT_MS + MARGIN_MS);
    },
    30_000,
  );
});

describe('a body over the judging cap, streamed through when the upstream fails', () => {
  test.each([
    ['resets', 'reset'],
    ['stalls', 'stall'],
  ] as const)(
    'an upstream that %s after the cap → the caller’s read fails within the timeout, the proxy stays up',
    async (_what, how) => {
      // 1 KB cap, 64 KB promised, 8 KB sent: the head and 8 KB are already on their way when the upstream fails.
      const upstream = await upstreamOf(() => brokenBodyUpstream(how, 64 * 1024, 8 * 1024));
      const proxy = await proxyTo(upstream.baseUrl, 'unreachable,timeout,reset', 1);
      const started = performance.now();

      const response = await fetch(proxy.url + PING, { signal: AbortSignal.timeout(TIMEOUT_MS + MARGIN_MS + 5_000) });
      const read = await response.text().then(
        () => 'complete',
        () => 'cut',
      );

      expect(response.status).toBe(200);
      expect(response.headers.get('x-proxy-answered-by')).toBe('upstream');
      expect(read).toBe('cut');
      expect(performance.now() - started).toBeLessThan(TIMEOUT_MS + MARGIN_MS);
      expect((await fetch(`${proxy.url}/__proxy/report`)).status).toBe(200);
    },
    30_000,
  );
});

describe('many callers at once against a hanging upstream', () => {
  test('20 concurrent requests → 20 answers of 504 within the timeout, none hung', async () => {
    const upstream = await upstreamOf(hangingUpstream);
    const proxy = await proxyTo(upstream.baseUrl);

    const answers = await Promise.all(Array.from({ length: 20 }, () => timed(proxy.url + PING)));

    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(504));
    expect(Math.max(...answers.map((a) => a.ms))).toBeLessThan(TIMEOUT_MS + MARGIN_MS);
  }, 30_000);
});
