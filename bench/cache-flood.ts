// npm run bench:cache-flood [-- --duration 60 --clients 100000 --cache-mb 64 --connections 50 --cache off --heap-mb 1000]
//
// The response cache's memory bound (docs/reliability.md, "Memory bound"), on
// 127.0.0.1 only, bounded in time:
// 1. Accounting, in this process: fill a cache with unique 404s, then unique
//    list pages, and compare what the cache counts per entry with what the heap
//    really grew by (after GC). The count must not be lower.
// 2. Flood, against the built CLI: `duration` seconds of requests that never
//    repeat (bench/unique-flood.ts), RSS sampled every 5 s, against the bound
//    RSS at start (the data) + FLOOD_WORKING_SET_MB + CACHE_RSS_FACTOR × CACHE_MB.
// Exit code 1 when either fails. Figures are only as quiet as the machine.
import http from 'node:http';
import { createMock } from '../server/index';
import { startHttpServer } from '../server/listener/http-server';
import { freePort, HOST, MAIN_JS, rssMb, sleep, spawnAndWait, stopAllOnExit } from '../tools/processes';
import { cacheBoundMb, describeBound, uniqueFlood, uniquePath, warmListViews } from './unique-flood';
const RSS_EVERY_MS = 5_000;

function option(name: string, fallback: string): string {
  const at = process.argv.indexOf(`--${name}`);
  return at < 0 ? fallback : (process.argv[at + 1] ?? fallback);
}

function count(name: string, fallback: number): number {
  const raw = option(name, String(fallback));
  if (!/^\d+$/.test(raw) || Number(raw) <= 0) {
    process.stderr.write(`cache-flood: --${name} must be a whole number above 0\n`);
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

/** Counted and real bytes per cache entry, for requests of one kind (every 4th unique path from `kind`). */
async function entryCost(kind: 0 | 1, entries: number): Promise<{ counted: number; real: number }> {
  const mock = await createMock({ clients: 10_000, cacheMb: 4096 });
  const cache = mock.app.cache!;
  const running = await startHttpServer(mock.app, 0, HOST, mock.logger);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
  const get = (path: string) =>
    new Promise<void>((resolve, reject) => {
      http
        .get({ host: HOST, port: running.port, path, agent, headers: { 'X-Api-Key': 'dev-key' } }, (res) => res.resume().on('end', resolve))
        .on('error', reject);
    });
  const send = async (from: number, to: number) => {
    for (let n = from; n < to; n += 8 * 4) {
      await Promise.all(Array.from({ length: 8 }, (_, i) => n + i * 4).map((m) => get(uniquePath(m))));
    }
  };
  // Warm-up out of the measured range: the first entries carry one-off costs (the Map's first growth, code).
  await send(kind + 4 * 8 * 100_000, kind + 4 * 8 * 100_000 + 4 * 8 * 60);
  const before = { heap: heapBytes(), used: cache.usedBytes, size: cache.size };
  await send(kind, kind + 4 * entries);
  const added = cache.size - before.size;
  const result = { counted: (cache.usedBytes - before.used) / added, real: (heapBytes() - before.heap) / added };
  agent.destroy();
  await running.stop();
  return result;
}

async function main(): Promise<void> {
  const durationS = count('duration', 60);
  const clients = count('clients', 100_000);
  const cacheMb = count('cache-mb', 64);
  const connections = count('connections', 50);
  const cache = option('cache', 'on');
  // The V8 heap cap the server runs with (--max-old-space-size); 0 = none. Without one, V8 lets the heap
  // grow well past the live data before it collects, cache or not: docs/reliability.md, "Memory bound".
  const heapMb = count('heap-mb', 0);
  stopAllOnExit();
  let passed = true;

  if (gc) {
    for (const [name, kind] of [
      ['404s', 0],
      ['list pages', 1],
    ] as const) {
      const cost = await entryCost(kind, 8_000);
      const ok = cost.counted >= cost.real;
      passed &&= ok;
      process.stdout.write(
        `accounting, ${name}: counted ${cost.counted.toFixed(0)} bytes/entry, really kept ${cost.real.toFixed(0)} (${ok ? 'ok' : 'UNDER-COUNTED'})\n`,
      );
    }
  } else {
    process.stdout.write('accounting: skipped (run with node --expose-gc, as npm run bench:cache-flood does)\n');
  }

  const port = await freePort();
  const server = await spawnAndWait({
    name: 'server',
    args: [
      ...(heapMb > 0 ? [`--max-old-space-size=${heapMb}`] : []),
      MAIN_JS,
      '--port',
      String(port),
      '--clients',
      String(clients),
      '--cache-mb',
      String(cacheMb),
      '--cache',
      cache,
    ],
    port,
    probePath: '/api/v1/Diagnostics/Ping',
    timeoutMs: 180_000,
  });
  await warmListViews(port, clients);
  await sleep(1_000);
  const startMb = rssMb(server.pid);
  const boundMb = cacheBoundMb(startMb, cacheMb);
  const samples: number[] = [];
  const sampler = setInterval(() => samples.push(rssMb(server.pid)), RSS_EVERY_MS);
  const flood = await uniqueFlood(port, durationS * 1000, connections);
  clearInterval(sampler);
  samples.push(rssMb(server.pid));
  await server.stop();

  const peak = Math.max(...samples);
  // The bound is stated for a capped heap; an uncapped run is reported for comparison only.
  const held = cache === 'off' || heapMb === 0 || peak <= boundMb;
  passed &&= held && flood.errors === 0;
  process.stdout.write(
    `cache flood ${durationS} s, ${clients} clients, CACHE ${cache}, CACHE_MB ${cacheMb}, ${connections} connections, every request unique: ` +
      `requests ${flood.requests} (${Math.round(flood.requests / durationS)}/s), statuses ${JSON.stringify(flood.statuses)}, errors ${flood.errors}; ` +
      `RSS at start ${startMb} MB, every 5 s: ${samples.join(' ')}; peak ${peak} MB; ` +
      (heapMb > 0
        ? `heap cap ${heapMb} MB; bound ${describeBound(startMb, cacheMb)}: ${peak <= boundMb ? 'held' : 'EXCEEDED'}\n`
        : `no heap cap (pass --heap-mb N); the bound ${describeBound(startMb, cacheMb)} is stated for a capped heap: ${peak <= boundMb ? 'under it anyway' : 'over it, as expected without a cap'}\n`),
  );
  process.exitCode = passed ? 0 : 1;
}

main().catch((error: unknown) => {
  process.stderr.write(`cache-flood: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
