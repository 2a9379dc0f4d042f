// Issue 36, "Bounded everything": the violation log stays bounded under any
// flood of causes. Through a real proxy: 1,100 distinct causes (an unknown
// query parameter of a new name each time) log one line each for the first
// 1,000 (the report's bound on distinct causes) and --log-repeats lines for
// all the rest together, never one per cause. And the byte cap, which a real
// flood would need minutes to reach: LogGate fed 100,000 distinct causes
// writes at most LOG_MAX_BYTES and one line saying the cap was reached.
import { startProxy } from '../../proxy/proxy';
import { MAX_CAUSES } from '../../proxy/journal';
import { LOG_MAX_BYTES, LogGate } from '../../proxy/report';
import { startTestServer, type TestServer } from '../support/servers';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.stop();
});

describe('the violation log under a flood of causes', () => {
  test('1,100 distinct causes, --log-repeats 3 → 1,000 lines, then 3 for the 100 causes past the bound; the summary counts the rest', async () => {
    const lines: string[] = [];
    const proxy = await startProxy({ upstream: server.baseUrl, logRepeats: 3, log: (line) => lines.push(line) });

    for (let i = 0; i < MAX_CAUSES + 100; i++) await (await fetch(`${proxy.url}/api/v1/Diagnostics/Ping?unknown${i}=1`)).text();
    const { report, summary } = await proxy.close();

    expect(report.violations.request).toBe(MAX_CAUSES + 100);
    expect(report.causesDropped).toBe(100);
    expect(lines).toHaveLength(MAX_CAUSES + 3);
    expect(lines.at(-1)).toMatch(/\[the last line of the causes past the first 1000: later ones are counted, see the journal\]/);
    expect(summary).toContain('; 97 not logged (over --log-repeats or the log');
  }, 60_000);

  test('100,000 distinct causes offered to the log → at most LOG_MAX_BYTES of lines, then one line saying the cap is reached', () => {
    const written: string[] = [];
    const gate = new LogGate(0, (line) => written.push(line));
    const line = (i: number) => `proxy: ✗ upstream ping response.schema: a violation of cause ${i} ${'x'.repeat(200)}`;

    for (let i = 1; i <= 100_000; i++) gate.offer(1, () => line(i));

    const bytes = written.reduce((sum, text) => sum + Buffer.byteLength(text) + 1, 0);
    expect(bytes).toBeLessThanOrEqual(LOG_MAX_BYTES + 300);
    expect(written.at(-1)).toMatch(
      /^proxy: the log holds its 8 MB of violation lines: later violations are journaled and counted, not logged/,
    );
    expect(gate.withheld).toBe(100_000 - (written.length - 1));
  });
});
