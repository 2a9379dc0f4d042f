// npm run bench:journal-flood [-- --requests 20000 --journal-size 1000 --amount 30000 --rounds 5]
//
// The control room's memory bounds and its cost on the default path (docs/control.md,
// "The journal's memory bound"), on 127.0.0.1 only, bounded in time:
// 1. Journal: a flood of requests each with the longest path, query and headers the
//    journal keeps (every text over its cut), against a mock whose journal keeps N
//    entries and one whose journal keeps none, in this process: the heap after GC
//    grows by the journal alone in the first; per entry that is set against the stated
//    bound (2 bytes a character for MAX_ENTRY_CHARS, plus the object overhead). A
//    second flood five times longer must not grow it further.
// 2. Sessions: a flood of distinct X-Mock-Session names, past the table's capacity.
// 3. The default path: a cached Simple page with autocannon against the built CLI with
//    the control API on and off, rotating order: the server's CPU time per request
//    (what the hook costs, whatever else the machine runs), median of per-round ratios.
// Exit code 1 when a bound is broken. Figures are only as quiet as the machine.
import http from 'node:http';
import autocannon from 'autocannon';
import { createMock } from '../server/index';
import { startHttpServer } from '../server/listener/http-server';
import { CUT, MAX_ENTRY_CHARS } from '../server/control/journal';
import { SESSION_CAPACITY } from '../server/control/sessions';
import { cpuMs, HOST, median, startOurServer, stopAllOnExit } from '../tools/processes';

/** What an entry object, its header record and its strings' headers cost beyond their characters (V8, 64-bit): counted high. */
const ENTRY_OVERHEAD_BYTES = 1024;
/** The bound docs/control.md states for one entry. */
const ENTRY_BOUND_BYTES = 2 * MAX_ENTRY_CHARS + ENTRY_OVERHEAD_BYTES;
/** What a session record may cost (its name up to 128 characters, the Map slot, the record). */
const SESSION_BOUND_BYTES = 2 * 128 + 400;

function option(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  const raw = at < 0 ? String(fallback) : (process.argv[at + 1] ?? '');
  if (!/^\d+$/.test(raw) || Number(raw) <= 0) {
    process.stderr.write(`journal-flood: --${name} must be a whole number above 0\n`);
    process.exit(2);
  }
  return Number(raw);
}

const gc = (globalThis as { gc?: () => void }).gc;

function heapBytes(): number {
  gc!();
  gc!();
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.external;
}

/** `count` requests with every text of the entry over its cut, 16 at a time on keep-alive connections. */
async function flood(port: number, count: number, from: number, session: (n: number) => string | undefined): Promise<void> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
  const longHeaders: Record<string, string> = {};
  for (let i = 0; i < 20; i++) longHeaders[`x-filler-${i}`] = 'h'.repeat(CUT.headerValue + 50);
  const one = (n: number) =>
    new Promise<void>((resolve, reject) => {
      const name = session(n);
      // A path that is no operation (404) and a query over its cut: the journal keeps both, cut.
      const path = `/api/v1/${'p'.repeat(CUT.path)}${n}?${'q'.repeat(CUT.query)}=${n}`;
      http
        .get(
          {
            host: HOST,
            port,
            path,
            agent,
            headers: { ...longHeaders, 'X-Api-Key': 'dev-key', ...(name ? { 'X-Mock-Session': name } : {}) },
          },
          (res) => res.resume().on('end', resolve),
        )
        .on('error', reject);
    });
  for (let n = from; n < from + count; n += 16)
    await Promise.all(Array.from({ length: Math.min(16, from + count - n) }, (_, i) => one(n + i)));
  agent.destroy();
}

async function growth(options: {
  journalSize: number;
  requests: number;
  session?: (n: number) => string;
}): Promise<{ first: number; longer: number }> {
  const mock = await createMock({ clients: 100, cache: false, journalSize: options.journalSize });
  const running = await startHttpServer(mock.app, 0, HOST, mock.logger);
  const session = options.session ?? (() => undefined);
  // Warm-up, out of the measured range: code, the first allocations of every kind.
  await flood(running.port, 200, 10_000_000, () => undefined);
  const before = heapBytes();
  await flood(running.port, options.requests, 0, session);
  const first = heapBytes() - before;
  await flood(running.port, options.requests * 5, options.requests, session);
  const longer = heapBytes() - before;
  await running.stop();
  return { first, longer };
}

/** The CPU time a process has used, in ms (/proc/PID/stat: utime + stime, in clock ticks of 10 ms). */
/**
 * `amount` requests for one cached Simple page: the server's CPU time per request (what the
 * control room's hook adds, whatever else the machine is doing) and the throughput seen.
 */
async function cachedCost(server: { pid: number; port: number }, amount: number): Promise<{ cpuUs: number; rps: number }> {
  const before = cpuMs(server.pid);
  const result = await autocannon({
    url: `http://${HOST}:${server.port}/api/v1/Client/Simple?pageSize=25`,
    connections: 20,
    amount,
    headers: { 'X-Api-Key': 'dev-key' },
  });
  return { cpuUs: ((cpuMs(server.pid) - before) * 1000) / amount, rps: result.requests.average };
}

async function memoryBounds(requests: number, size: number): Promise<boolean> {
  let broken = false;
  process.stdout.write(`journal: ${requests} requests, then ${requests * 5} more, each entry's texts over their cuts\n`);
  const withJournal = await growth({ journalSize: size, requests });
  const without = await growth({ journalSize: 1, requests });
  const perEntry = (withJournal.first - without.first) / (size - 1);
  const perEntryLonger = (withJournal.longer - without.longer) / (size - 1);
  process.stdout.write(
    `  heap growth after GC: journal ${size} ${(withJournal.first / 2 ** 20).toFixed(2)} MB, then ${(withJournal.longer / 2 ** 20).toFixed(2)} MB; ` +
      `journal 1 ${(without.first / 2 ** 20).toFixed(2)} MB, then ${(without.longer / 2 ** 20).toFixed(2)} MB\n` +
      `  per entry: ${Math.round(perEntry)} bytes (after 5x more: ${Math.round(perEntryLonger)}); stated bound ${ENTRY_BOUND_BYTES} bytes ` +
      `(2 x ${MAX_ENTRY_CHARS} characters + ${ENTRY_OVERHEAD_BYTES}); ${size} entries: ${((perEntry * size) / 2 ** 20).toFixed(2)} MB, bound ${((ENTRY_BOUND_BYTES * size) / 2 ** 20).toFixed(2)} MB\n`,
  );
  if (perEntry > ENTRY_BOUND_BYTES || perEntryLonger > ENTRY_BOUND_BYTES) {
    process.stdout.write('  BOUND BROKEN: an entry holds more than stated\n');
    broken = true;
  }

  const sessionFlood = SESSION_CAPACITY * 2;
  process.stdout.write(`sessions: ${sessionFlood} distinct session names (capacity ${SESSION_CAPACITY}), journal 1\n`);
  const sessions = await growth({ journalSize: 1, requests: sessionFlood, session: (n) => `session-${'s'.repeat(100)}-${n}` });
  const noSessions = await growth({ journalSize: 1, requests: sessionFlood });
  const perSession = (sessions.first - noSessions.first) / SESSION_CAPACITY;
  process.stdout.write(
    `  heap growth after GC: ${(sessions.first / 2 ** 20).toFixed(2)} MB, then ${(sessions.longer / 2 ** 20).toFixed(2)} MB after 5x more; ` +
      `about ${Math.round(perSession)} bytes a session (bound ${SESSION_BOUND_BYTES})\n`,
  );
  if (sessions.longer > sessions.first * 1.5 + 2 ** 20) {
    process.stdout.write('  BOUND BROKEN: the session table grew past its capacity\n');
    broken = true;
  }

  return broken;
}

async function main(): Promise<void> {
  if (!gc) throw new Error('run with node --expose-gc (npm run bench:journal-flood does)');
  stopAllOnExit();
  const requests = option('requests', 20_000);
  const size = option('journal-size', 1_000);
  const amount = option('amount', 30_000);
  const rounds = option('rounds', 5);
  let broken = false;

  if (!process.argv.includes('--speed-only')) broken = await memoryBounds(requests, size);

  process.stdout.write(
    `default path: one cached Simple page, ${amount} requests a round x ${rounds} rounds, control on vs off (rotating); server CPU per request\n`,
  );
  const on = await startOurServer('control on', ['--log-level', 'silent']);
  const off = await startOurServer('control off', ['--log-level', 'silent', '--control', 'off']);
  for (const server of [on, off]) await cachedCost(server, 2_000);
  const ratios: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? [on, off] : [off, on];
    const cost = new Map<unknown, { cpuUs: number; rps: number }>();
    for (const server of order) cost.set(server, await cachedCost(server, amount));
    const [a, b] = [cost.get(on)!, cost.get(off)!];
    ratios.push(a.cpuUs / b.cpuUs);
    process.stdout.write(
      `  round ${round + 1}: on ${a.cpuUs.toFixed(1)} µs CPU/request (${Math.round(a.rps)} req/s), off ${b.cpuUs.toFixed(1)} µs (${Math.round(b.rps)} req/s), on/off ${(a.cpuUs / b.cpuUs).toFixed(3)}\n`,
    );
  }
  process.stdout.write(`  median CPU per request on/off: ${median(ratios).toFixed(3)}\n`);
  await on.stop();
  await off.stop();
  process.exitCode = broken ? 1 : 0;
}

void main();
