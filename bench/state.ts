// npm run bench:state [-- --rounds 7 --requests 20000 --connections 10]
//
// What the shared state costs per request (docs/control.md, "More than one
// process"), on 127.0.0.1 only, bounded in count and time: the built CLI with
// its state in memory (the default) and with --state on a redis-server started
// here, side by side, rotating order, on a plain request (a cached Simple
// page, no session) and on the same request with an X-Mock-Session (journaled
// and touched under the session). Each round sends --requests requests to
// each and reads the CPU time the mock (and Redis) spent per request, which
// other load on the machine inflates far less than wall time; the figure is
// the median of per-round ratios (Redis mode ÷ memory mode), the
// requests per second beside it for what they are worth. Then Redis's
// memory: the journal after --journal-size entries whose every text is over
// its cut, and the session keys after twice SESSION_CAPACITY distinct
// sessions (trimmed to the capacity), read with MEMORY USAGE.
import http from 'node:http';
import autocannon from 'autocannon';
import { Redis } from 'ioredis';
import { CUT } from '../server/control/journal';
import { SESSION_CAPACITY } from '../server/control/sessions';
import { cpuMs, HOST, median, startOurServer, stopAllOnExit, type Started } from '../tools/processes';
import { missing, REDIS_SERVER, startRedis } from '../tools/services';

function option(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  const raw = at < 0 ? String(fallback) : (process.argv[at + 1] ?? '');
  if (!/^\d+$/.test(raw) || Number(raw) <= 0) {
    process.stderr.write(`state: --${name} must be a whole number above 0\n`);
    process.exit(2);
  }
  return Number(raw);
}

const PAGE = '/api/v1/Client/Simple?pageSize=25';

interface Cost {
  /** The mock's CPU time per request, µs. */
  mockUs: number;
  /** Redis's CPU time per request, µs (0 for the in-memory mode). */
  redisUs: number;
  rps: number;
}

async function cost(
  server: Started,
  redisPid: number,
  amount: number,
  connections: number,
  headers: Record<string, string>,
): Promise<Cost> {
  const mockBefore = cpuMs(server.pid);
  const redisBefore = redisPid ? cpuMs(redisPid) : 0;
  const result = await autocannon({ url: `http://${HOST}:${server.port}${PAGE}`, connections, amount, headers });
  return {
    mockUs: ((cpuMs(server.pid) - mockBefore) * 1000) / amount,
    redisUs: redisPid ? ((cpuMs(redisPid) - redisBefore) * 1000) / amount : 0,
    rps: result.requests.average,
  };
}

/** `count` requests, 16 at a time, each with its own session or texts over their cuts. */
async function send(
  port: number,
  count: number,
  headersOf: (n: number) => Record<string, string>,
  pathOf: (n: number) => string,
): Promise<void> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
  const one = (n: number) =>
    new Promise<void>((resolve, reject) => {
      const req = http.get({ host: HOST, port, path: pathOf(n), agent, headers: headersOf(n) }, (res) => {
        res.resume();
        res.on('end', resolve);
      });
      req.on('error', reject);
    });
  for (let n = 0; n < count; n += 16) await Promise.all(Array.from({ length: Math.min(16, count - n) }, (_, i) => one(n + i)));
  agent.destroy();
}

async function main(): Promise<void> {
  const skip = missing(REDIS_SERVER);
  if (skip) {
    process.stdout.write(`state: ${skip}\n`);
    return;
  }
  stopAllOnExit();
  const rounds = option('rounds', 7);
  const requests = option('requests', 20_000);
  const connections = option('connections', 10);
  const redis = await startRedis();
  try {
    const memory = await startOurServer('ours, state in memory', []);
    const shared = await startOurServer('ours, --state redis', ['--state', redis.url]);
    const kinds = { plain: { 'X-Api-Key': 'dev-key' }, session: { 'X-Api-Key': 'dev-key', 'X-Mock-Session': 'bench-session' } };
    // Warm both: the cache holds the page, the validator has seen it.
    for (const server of [memory, shared]) await cost(server, 0, 2_000, connections, kinds.plain);
    process.stdout.write(`${rounds} rounds of ${requests} requests each, ${connections} connections, GET ${PAGE}, order rotating\n`);
    const ratios: Record<keyof typeof kinds, { mock: number[]; total: number[]; rps: number[] }> = {
      plain: { mock: [], total: [], rps: [] },
      session: { mock: [], total: [], rps: [] },
    };
    for (let round = 0; round < rounds; round++) {
      for (const kind of Object.keys(kinds) as (keyof typeof kinds)[]) {
        const order = round % 2 === 0 ? [memory, shared] : [shared, memory];
        const figures = new Map<Started, Cost>();
        for (const server of order)
          figures.set(server, await cost(server, server === shared ? redis.pid() : 0, requests, connections, kinds[kind]));
        const m = figures.get(memory)!;
        const r = figures.get(shared)!;
        ratios[kind].mock.push(r.mockUs / m.mockUs);
        ratios[kind].total.push((r.mockUs + r.redisUs) / m.mockUs);
        ratios[kind].rps.push(r.rps / m.rps);
        process.stdout.write(
          `  round ${round + 1} ${kind.padEnd(7)} memory ${m.mockUs.toFixed(1)} µs CPU/request (${Math.round(m.rps)} req/s) | ` +
            `redis: mock ${r.mockUs.toFixed(1)} µs + redis-server ${r.redisUs.toFixed(1)} µs (${Math.round(r.rps)} req/s)\n`,
        );
      }
    }
    for (const kind of Object.keys(kinds) as (keyof typeof kinds)[]) {
      process.stdout.write(
        `${kind}: redis mode ÷ memory mode, medians of per-round ratios: the mock's CPU per request ${median(ratios[kind].mock).toFixed(2)}, ` +
          `with redis-server's ${median(ratios[kind].total).toFixed(2)}; requests per second ${median(ratios[kind].rps).toFixed(2)}\n`,
      );
    }

    // Redis's memory: twice the session capacity, then a full journal of the longest entries.
    const client = new Redis(redis.url);
    const long: Record<string, string> = {};
    for (let i = 0; i < 20; i++) long[`x-filler-${i}`] = 'h'.repeat(CUT.headerValue + 50);
    await send(
      shared.port,
      SESSION_CAPACITY * 2,
      (n) => ({ 'X-Api-Key': 'dev-key', 'X-Mock-Session': `bench-${'s'.repeat(100)}-${n}` }),
      () => '/api/v1/Diagnostics/Ping',
    );
    // Then the journal's 1,000 entries (the default --journal-size), the longest an entry can be.
    await send(
      shared.port,
      1_000,
      () => ({ 'X-Api-Key': 'dev-key', ...long }),
      (n) => `/api/v1/${'p'.repeat(CUT.path)}${n}?${'q'.repeat(CUT.query)}=${n}`,
    );
    // A read is a barrier: every buffered exchange is written before it answers.
    await new Promise<void>((resolve) =>
      http.get({ host: HOST, port: shared.port, path: '/__control/journal?limit=1' }, (res) => res.resume().on('end', resolve)),
    );
    const usage = async (key: string) => Number((await client.call('MEMORY', 'USAGE', key, 'SAMPLES', '0')) ?? 0);
    const journalBytes = await usage('crm:journal');
    const kept = await client.llen('crm:journal');
    const sessionBytes = (await Promise.all(['crm:sessions', 'crm:requests', 'crm:seen', 'crm:own'].map(usage))).reduce((a, b) => a + b, 0);
    const sessions = await client.zcard('crm:sessions');
    const coverageBytes = await usage('crm:coverage');
    process.stdout.write(
      `redis memory: journal ${kept} entries, ${(journalBytes / 2 ** 20).toFixed(2)} MB (${Math.round(journalBytes / kept)} B an entry, the longest each); ` +
        `sessions ${sessions} kept, ${(sessionBytes / 2 ** 20).toFixed(2)} MB (${Math.round(sessionBytes / sessions)} B a session of 110 characters); coverage ${coverageBytes} B\n`,
    );
    client.disconnect();
  } finally {
    await redis.stop();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`state: ${(error as Error).stack ?? String(error)}\n`);
    process.exit(1);
  },
);
