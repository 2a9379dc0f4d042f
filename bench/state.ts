// npm run bench:state [-- --rounds 5 --seconds 3 --connections 10]
//
// What the shared state costs per request (docs/control.md, "More than one
// process"), on 127.0.0.1 only, bounded in time: the built CLI with its state
// in memory (the default) and with --state on a redis-server started here,
// side by side, rotating order, on a plain request (a cached Simple page, no
// session) and on the same request with an X-Mock-Session (journaled and
// touched under the session); the figure is the median of per-round ratios
// (Redis ÷ memory), the only thing two noisy cores measure. Then Redis's
// memory: the journal after --journal-size entries whose every text is over
// its cut, and the session keys after twice SESSION_CAPACITY distinct
// sessions (trimmed to the capacity), read with MEMORY USAGE.
import http from 'node:http';
import autocannon from 'autocannon';
import { Redis } from 'ioredis';
import { CUT } from '../server/control/journal';
import { SESSION_CAPACITY } from '../server/control/sessions';
import { HOST, median, startOurServer, stopAllOnExit, type Started } from '../tools/processes';
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

async function rps(server: Started, seconds: number, connections: number, headers: Record<string, string>): Promise<number> {
  const result = await autocannon({ url: `http://${HOST}:${server.port}${PAGE}`, connections, duration: seconds, headers });
  return result.requests.average;
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
  const rounds = option('rounds', 5);
  const seconds = option('seconds', 3);
  const connections = option('connections', 10);
  const redis = await startRedis();
  try {
    const memory = await startOurServer('ours, state in memory', []);
    const shared = await startOurServer('ours, --state redis', ['--state', redis.url]);
    const kinds = { plain: { 'X-Api-Key': 'dev-key' }, session: { 'X-Api-Key': 'dev-key', 'X-Mock-Session': 'bench-session' } };
    // Warm both: the cache holds the page, the validator has seen it.
    for (const server of [memory, shared]) await rps(server, 1, connections, kinds.plain);
    process.stdout.write(`${rounds} rounds of ${seconds} s, ${connections} connections, GET ${PAGE}, order rotating\n`);
    const ratios: Record<keyof typeof kinds, number[]> = { plain: [], session: [] };
    for (let round = 0; round < rounds; round++) {
      for (const kind of Object.keys(kinds) as (keyof typeof kinds)[]) {
        const order = round % 2 === 0 ? [memory, shared] : [shared, memory];
        const figures = new Map<Started, number>();
        for (const server of order) figures.set(server, await rps(server, seconds, connections, kinds[kind]));
        const ratio = figures.get(shared)! / figures.get(memory)!;
        ratios[kind].push(ratio);
        process.stdout.write(
          `  round ${round + 1} ${kind.padEnd(7)} memory ${Math.round(figures.get(memory)!)} req/s, redis ${Math.round(figures.get(shared)!)} req/s: ${ratio.toFixed(2)}\n`,
        );
      }
    }
    for (const kind of Object.keys(kinds) as (keyof typeof kinds)[]) {
      process.stdout.write(`${kind}: redis / memory, median of per-round ratios ${median(ratios[kind]).toFixed(2)}\n`);
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
