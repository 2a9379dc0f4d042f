// npm run bench [-- --quick]: our server against its framework ceiling and Prism,
// side by side in one run, on 127.0.0.1 only, every load bounded.
//
// Targets: our server with its defaults (request and response validation on,
// cache on), the same with CACHE=off (every request through the validated
// pipeline), Prism's static mock of the same openapi.yaml, and a plain Express
// hello-world (the ceiling of the framework we use). For each endpoint the
// targets run one after the other, in a rotating order, so that the noise of a
// shared machine falls on all of them alike. Then: start-up to the first 200,
// RSS at 1,000 / 100,000 (/ 1,000,000) clients, the uncached text search over
// the varied mix's filter URLs at 100,000 (/ 1,000,000) clients, --workers 2,
// Prism's dynamic mock on the lists, the validating proxy's cost beside
// Prism's proxy (bench/proxy.ts; alone: npm run bench:proxy), and the in-process
// MSW set-up beside a hand-written handler (bench/in-process.ts).
import { inProcess, renderInProcess } from './in-process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { varyingUrls } from './traffic';
import { renderVaried, sampleServed, variedAt, variedWorkers, type VariedResult, type WorkersResult } from './varied';
import { proxyOverhead, renderProxyBench, type ProxyBenchOptions } from './proxy';
import {
  API_KEY,
  freePort,
  getJson,
  HOST,
  MAIN_JS,
  median,
  PING,
  ROOT,
  rssMb,
  sleep,
  spawnAndWait,
  startOurServer,
  startPrism,
  stopAll,
  stopAllOnExit,
  type Started,
} from '../tools/processes';

type RequestSpec = autocannon.Request;

const QUICK = process.argv.includes('--quick');
/** `--varied-only`: the headline alone (both sizes), without the repeated-URL table and the rest. */
const VARIED_ONLY = process.argv.includes('--varied-only');
const CONNECTIONS = 50;
/** Seconds of warm-up (discarded: fills the cache, lets the JIT settle) and of measurement per load. */
const WARMUP_S = QUICK ? 1 : 1;
const MEASURE_S = QUICK ? 2 : 5;
const STARTUP_RUNS = QUICK ? 1 : 3;
const HELLO_JS = path.join(ROOT, 'dist/bench/express-hello.js');
const KEY = { 'x-api-key': API_KEY };
type TargetName = 'ours' | 'oursNoCache' | 'prism' | 'express';
const TARGET_LABELS: Record<TargetName, string> = {
  ours: 'ours (defaults)',
  oursNoCache: 'ours, CACHE=off',
  prism: 'Prism static',
  express: 'Express hello',
};

interface Ids {
  clients: string[];
  staff: string;
}

interface Endpoint {
  name: string;
  /** The requests one connection cycles through, for a target. */
  requests(target: TargetName, ids: Ids): RequestSpec[];
}

const get = (requestPath: string, headers: Record<string, string> = KEY): RequestSpec => ({ method: 'GET', path: requestPath, headers });
// Prism answers its examples whatever the id; any well-formed uuids rotate through it.
const ANY_UUIDS = Array.from({ length: 100 }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`);

const ENDPOINTS: Endpoint[] = [
  { name: 'Ping', requests: () => [get(PING, {})] },
  { name: 'Simple 25', requests: () => [get('/api/v1/Client/Simple?page=1&pageSize=25')] },
  { name: 'Simple 100', requests: () => [get('/api/v1/Client/Simple?page=2&pageSize=100')] },
  { name: 'Extended 25', requests: () => [get('/api/v1/Client/Extended?page=1&pageSize=25')] },
  { name: 'Extended filter', requests: () => [get('/api/v1/Client/Extended?filter=an&pageSize=25')] },
  {
    name: 'Extended idStaff+active',
    requests: (target, ids) => [get(`/api/v1/Client/Extended?idStaff=${target === 'prism' ? ANY_UUIDS[0] : ids.staff}&active=true`)],
  },
  {
    name: 'Detail (100 ids)',
    requests: (target, ids) => (target === 'prism' ? ANY_UUIDS : ids.clients).map((id) => get(`/api/v1/Client/Detail/${id}`)),
  },
];

interface Measure {
  /** Median of the per-second request counts. */
  rps: number;
  meanRps: number;
  p50: number;
  p99: number;
  requests: number;
  non2xx: number;
  errors: number;
}

async function load(port: number, requests: RequestSpec[], seconds: number, connections = CONNECTIONS): Promise<Measure> {
  const result = await autocannon({ url: `http://${HOST}:${port}`, connections, duration: seconds, requests, timeout: 10 });
  return {
    rps: result.requests.p50,
    meanRps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: result['2xx'] + result.non2xx,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

async function measure(port: number, requests: RequestSpec[], connections = CONNECTIONS): Promise<Measure> {
  await load(port, requests, WARMUP_S, connections);
  return load(port, requests, MEASURE_S, connections);
}

function log(line: string): void {
  process.stdout.write(line + '\n');
}

async function startTargets(): Promise<Record<TargetName, Started>> {
  const helloPort = await freePort();
  return {
    ours: await startOurServer('ours', []),
    oursNoCache: await startOurServer('ours CACHE=off', [], { CACHE: 'off' }),
    prism: await startPrism('prism'),
    express: await spawnAndWait({
      name: 'express hello',
      args: [HELLO_JS, String(helloPort)],
      port: helloPort,
      probePath: '/',
      timeoutMs: 20_000,
    }),
  };
}

async function realIds(port: number): Promise<Ids> {
  const page = await getJson<{ Results: { IdClient: string; IdStaff: string | null }[] }>(
    port,
    '/api/v1/Client/Extended?pageSize=100',
    KEY,
  );
  const staff = page.Results.find((client) => client.IdStaff !== null)?.IdStaff;
  if (!staff) throw new Error('no client with staff in the first page');
  return { clients: page.Results.map((client) => client.IdClient), staff };
}

type Table = Record<string, Record<TargetName, Measure>>;

async function sideBySide(targets: Record<TargetName, Started>, ids: Ids): Promise<Table> {
  const order: TargetName[] = ['ours', 'oursNoCache', 'prism', 'express'];
  const table: Table = {};
  for (const [index, endpoint] of ENDPOINTS.entries()) {
    const row: Partial<Record<TargetName, Measure>> = {};
    // Rotate who goes first, so no target always meets the same neighbour's leftovers.
    const rotated = [...order.slice(index % order.length), ...order.slice(0, index % order.length)];
    for (const target of rotated) {
      row[target] = await measure(targets[target].port, endpoint.requests(target, ids));
    }
    table[endpoint.name] = row as Record<TargetName, Measure>;
    const cells = order.map((t) => `${TARGET_LABELS[t]} ${fmt(row[t]!.rps)}`).join(' | ');
    log(`  ${endpoint.name.padEnd(24)} ${cells}`);
  }
  return table;
}

function fmt(value: number): string {
  return Math.round(value).toLocaleString('en-US');
}

function ms(value: number): string {
  return value >= 10 ? value.toFixed(0) : value.toFixed(1).replace(/\.0$/, '');
}

function ratio(a: number, b: number): string {
  return b > 0 ? `${(a / b).toFixed(2)}×` : 'n/a';
}

function cell(m: Measure): string {
  const flag = m.non2xx + m.errors > 0 && m.non2xx + m.errors >= m.requests * 0.01 ? ` ⚠${fmt(m.non2xx + m.errors)} non-2xx` : '';
  return `${fmt(m.rps)} · ${ms(m.p50)} / ${ms(m.p99)}${flag}`;
}

function renderTable(table: Table): string {
  const head = [
    'endpoint',
    ...(['ours', 'oursNoCache', 'prism', 'express'] as TargetName[]).map((t) => TARGET_LABELS[t]),
    'ours/Express',
    'ours/Prism',
    'off/Express',
    'off/Prism',
  ];
  const lines = [`| ${head.join(' | ')} |`, `|${head.map((_, i) => (i === 0 ? '---' : '---:')).join('|')}|`];
  for (const [name, row] of Object.entries(table)) {
    lines.push(
      `| ${[
        name,
        cell(row.ours),
        cell(row.oursNoCache),
        cell(row.prism),
        cell(row.express),
        ratio(row.ours.rps, row.express.rps),
        ratio(row.ours.rps, row.prism.rps),
        ratio(row.oursNoCache.rps, row.express.rps),
        ratio(row.oursNoCache.rps, row.prism.rps),
      ].join(' | ')} |`,
    );
  }
  return lines.join('\n');
}

interface StartupFigure {
  clients: number;
  readyMs: number[];
  medianReadyMs: number;
  rssMb: number;
  rssAfterLoadMb?: number;
}

/** A short mixed load (every endpoint) so that RSS includes a working cache and warm code. */
function mixedRequests(ids: Ids): RequestSpec[] {
  return ENDPOINTS.flatMap((endpoint) => endpoint.requests('ours', ids)).concat(
    ['a', 'be', 'son', 'li', 'ma', 'er', 'anna', 'ö', 'jo', 'el'].map((term) =>
      get(`/api/v1/Client/Extended?filter=${encodeURIComponent(term)}`),
    ),
  );
}

async function startupAt(clients: number, runs: number, withLoad: boolean): Promise<StartupFigure> {
  const readyMs: number[] = [];
  let rss = 0;
  let rssAfterLoad: number | undefined;
  for (let run = 0; run < runs; run++) {
    const server = await startOurServer(`ours ${clients}`, ['--clients', String(clients)], {}, 180_000);
    readyMs.push(Math.round(server.readyMs));
    rss = rssMb(server.pid);
    if (withLoad && run === runs - 1) {
      await load(server.port, mixedRequests(await realIds(server.port)), QUICK ? 2 : 3);
      rssAfterLoad = rssMb(server.pid);
    }
    await server.stop();
  }
  return {
    clients,
    readyMs,
    medianReadyMs: median(readyMs),
    rssMb: rss,
    ...(rssAfterLoad === undefined ? {} : { rssAfterLoadMb: rssAfterLoad }),
  };
}

interface FilterFigure {
  clients: number;
  /** Distinct filter URLs each one-connection load cycles through (the varied mix's, bench/traffic.ts). */
  urls: number;
  /** One connection from the moment the server is ready, while it does its background work (search pieces, client views). */
  oneConnectionAtStart: Measure;
  /** One connection once that background work is over (settleS after ready). */
  oneConnection: Measure;
  settleS: number;
  fiftyConnections?: Measure;
}

// The background work after ready (server/engine/background.ts), measured idle: at
// 100,000 clients 0.5 s for the search index's frequent substrings, 1.2 s for
// the records as JSON, 2.3 s for the client views; at 1,000,000, ~6 s, ~14 s
// and ~8 s (the views stop at their bound).
const SETTLE_S: Record<number, number> = { 100_000: 10, 1_000_000: 40 };

/**
 * Extended with a text filter, CACHE=off: every request searches. The URLs
 * are the varied mix's filter requests (terms cut from served names, e-mails
 * and phones, some with active, pages 1-2), a fresh seed for each load, so
 * that a load never repeats the terms an earlier one left in the index's memo
 * of frequent results. Latency with one connection; throughput with 50 at 100,000.
 */
async function uncachedFilter(clients: number): Promise<FilterFigure> {
  const settleS = SETTLE_S[clients] ?? 10;
  const server = await startOurServer(`ours ${clients} CACHE=off`, ['--clients', String(clients)], { CACHE: 'off' }, 180_000);
  const sample = await sampleServed(server.port, clients, 5);
  const filterRequests = (seed: number) =>
    varyingUrls(sample, 30_000, seed)
      .filter((url) => url.includes('filter='))
      .map((url) => get(url));
  const atStart = filterRequests(31);
  const oneConnectionAtStart = await load(server.port, atStart, MEASURE_S, 1);
  await sleep(settleS * 1000);
  await load(server.port, filterRequests(37), WARMUP_S, 1);
  const oneConnection = await load(server.port, filterRequests(41), MEASURE_S, 1);
  const fiftyConnections = clients <= 100_000 ? await load(server.port, filterRequests(43), MEASURE_S) : undefined;
  await server.stop();
  return {
    clients,
    urls: atStart.length,
    oneConnectionAtStart,
    oneConnection,
    settleS,
    ...(fiftyConnections ? { fiftyConnections } : {}),
  };
}

interface WorkersFigure {
  endpoint: string;
  oneWorker: Measure;
  twoWorkers: Measure;
  twoWorkersRssMb: number;
}

/** Two workers against one, the control API off on both (workers share control state only through --state, a Redis this bench does not run). */
async function workers(ids: Ids): Promise<WorkersFigure[]> {
  const single = await startOurServer('ours 1 worker, control off', ['--control', 'off']);
  const two = await startOurServer('ours --workers 2, control off', ['--workers', '2', '--control', 'off']);
  // Both workers must be up (the primary prints its line when they are); the probe may hit the first alone.
  await sleep(1500);
  const figures: WorkersFigure[] = [];
  for (const endpoint of ENDPOINTS.filter((e) => ['Simple 25', 'Extended filter', 'Detail (100 ids)'].includes(e.name))) {
    const requests = endpoint.requests('ours', ids);
    const twoWorkers = await measure(two.port, requests);
    const oneWorker = await measure(single.port, requests);
    figures.push({ endpoint: endpoint.name, oneWorker, twoWorkers, twoWorkersRssMb: rssMb(two.pid, true) });
    log(`  ${endpoint.name.padEnd(24)} 1 worker ${fmt(oneWorker.rps)} req/s | 2 workers ${fmt(twoWorkers.rps)} req/s`);
  }
  await Promise.all([single.stop(), two.stop()]);
  return figures;
}

interface DynamicFigure {
  endpoint: string;
  ours: Measure;
  prismDynamic: Measure;
}

/** Prism's dynamic mock (-d: json-schema-faker per response) on the list endpoints, beside ours. */
async function prismDynamic(ids: Ids, ours: Started): Promise<DynamicFigure[]> {
  const prism = await startPrism('prism -d', true);
  const figures: DynamicFigure[] = [];
  for (const endpoint of ENDPOINTS.filter((e) => ['Simple 25', 'Extended 25', 'Extended filter'].includes(e.name))) {
    const dynamic = await measure(prism.port, endpoint.requests('prism', ids));
    const oursNow = await measure(ours.port, endpoint.requests('ours', ids));
    figures.push({ endpoint: endpoint.name, ours: oursNow, prismDynamic: dynamic });
    log(
      `  ${endpoint.name.padEnd(24)} ours ${fmt(oursNow.rps)} req/s | Prism dynamic ${fmt(dynamic.rps)} req/s (p50 ${ms(dynamic.p50)} ms) | ${ratio(oursNow.rps, dynamic.rps)}`,
    );
  }
  await prism.stop();
  return figures;
}

function machine(): Record<string, unknown> {
  const cpus = os.cpus();
  return {
    cpus: cpus.length,
    cpuModel: cpus[0]?.model ?? 'unknown',
    memoryGb: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
    platform: `${os.type()} ${os.release()}`,
    loadAverageAtStart: os.loadavg().map((l) => Number(l.toFixed(2))),
  };
}

async function main(): Promise<void> {
  stopAllOnExit();
  if (!fs.existsSync(MAIN_JS) || !fs.existsSync(HELLO_JS)) throw new Error('dist/ is missing: run `npm run bench` (it builds first)');
  const began = performance.now();
  const host = machine();
  log(
    `npm run bench${QUICK ? ' --quick' : ''}: ${host.cpus} × ${host.cpuModel}, Node ${host.node}, load ${String(host.loadAverageAtStart)}`,
  );
  log(
    `autocannon -c ${CONNECTIONS}, ${WARMUP_S} s warm-up + ${MEASURE_S} s per load; req/s = median of per-second counts; latency p50 / p99 in ms\n`,
  );

  log('Varied traffic (the headline; bench/traffic.ts mix, seeded):');
  const varied: VariedResult[] = [];
  for (const clients of [1_000, 100_000]) {
    log(` ${clients.toLocaleString('en-US')} clients:`);
    varied.push(
      await variedAt(clients, { sizes: [], rounds: QUICK ? 2 : 5, seconds: QUICK ? 2 : 5, connections: CONNECTIONS, seed: 13 }, log),
    );
  }
  const variedOptions = { sizes: [], rounds: QUICK ? 2 : 5, seconds: QUICK ? 2 : 5, connections: CONNECTIONS, seed: 13 };
  log('\n--workers 2 against 1 on the varied mix (1,000 clients, defaults):');
  const variedWorkerFigures: WorkersResult = await variedWorkers(1_000, variedOptions, log);
  log(
    `  1 worker ${fmt(variedWorkerFigures.oneWorker)} req/s, 2 workers ${fmt(variedWorkerFigures.twoWorkers)} req/s: ${variedWorkerFigures.ratio.toFixed(2)}× (load generator up to ${Math.round(variedWorkerFigures.generatorCpu * 100)}% of a core)`,
  );
  log("\nThe validating proxy's cost on the varied mix (direct, through a bare forwarder, ours, Prism's proxy; 1,000 clients):");
  const proxyOptions: ProxyBenchOptions = {
    rounds: QUICK ? 3 : 5,
    seconds: QUICK ? 2 : 5,
    connections: CONNECTIONS,
    latencyRequests: QUICK ? 200 : 600,
    seed: 13,
  };
  const proxyFigures = await proxyOverhead(1_000, proxyOptions, log);
  const variedMarkdown = [...varied.map(renderVaried), renderProxyBench(proxyFigures, proxyOptions)].join('\n\n');
  log('\n' + variedMarkdown + '\n');
  if (VARIED_ONLY) {
    writeReport({ varied, variedMarkdown, variedWorkers: variedWorkerFigures, proxy: proxyFigures }, began, host);
    return;
  }

  log("Repeated URLs, the cache's best case: a few URLs repeated (1,000 clients):");
  const targets = await startTargets();
  const ids = await realIds(targets.ours.port);
  const table = await sideBySide(targets, ids);
  const rssAfterBench = {
    ours: rssMb(targets.ours.pid),
    oursNoCache: rssMb(targets.oursNoCache.pid),
    prism: rssMb(targets.prism.pid),
    express: rssMb(targets.express.pid),
  };

  log('\n--workers 2 (cache on), side by side with one worker:');
  const workerFigures = await workers(ids);

  log('\nPrism dynamic mock (-d) on the list endpoints, side by side with ours (defaults):');
  const dynamicFigures = await prismDynamic(ids, targets.ours);
  await stopAll();

  log('\nStart-up (spawn → first 200 on Ping) and RSS:');
  const startup: StartupFigure[] = [];
  for (const [clients, runs] of [[1_000, STARTUP_RUNS], [100_000, 1], ...(QUICK ? [] : [[1_000_000, 1]])] as [number, number][]) {
    const figure = await startupAt(clients, runs, clients <= 100_000);
    startup.push(figure);
    const afterLoad = figure.rssAfterLoadMb === undefined ? '' : `, ${figure.rssAfterLoadMb} MB after a mixed load`;
    log(
      `  ${fmt(clients).padStart(9)} clients: ${figure.medianReadyMs} ms (runs ${figure.readyMs.join(', ')}), RSS ${figure.rssMb} MB at ready${afterLoad}`,
    );
  }

  const filters: FilterFigure[] = [];
  for (const clients of [100_000, ...(QUICK ? [] : [1_000_000])]) {
    const filter = await uncachedFilter(clients);
    filters.push(filter);
    log(
      `\nExtended with a text filter over ${fmt(clients)} clients, CACHE=off, the varied mix's filter URLs (${fmt(filter.urls)} per load, a new seed each):`,
    );
    log(
      `  1 connection, from ready (background work running): p50 ${ms(filter.oneConnectionAtStart.p50)} ms, p99 ${ms(filter.oneConnectionAtStart.p99)} ms, ${fmt(filter.oneConnectionAtStart.rps)} req/s`,
    );
    log(
      `  1 connection, ${filter.settleS} s after ready: p50 ${ms(filter.oneConnection.p50)} ms, p99 ${ms(filter.oneConnection.p99)} ms, ${fmt(filter.oneConnection.rps)} req/s`,
    );
    if (filter.fiftyConnections) {
      log(
        `  ${CONNECTIONS} connections: ${fmt(filter.fiftyConnections.rps)} req/s, p50 ${ms(filter.fiftyConnections.p50)} ms, p99 ${ms(filter.fiftyConnections.p99)} ms`,
      );
    }
  }

  await stopAll();
  log('\nIn-process set-up through MSW (fresh processes, rotated order; bench/in-process.ts):');
  const inProcessFigures = await inProcess([1_000, 10_000], QUICK ? 2 : 5, log);
  log('\n' + renderInProcess(inProcessFigures));

  const rendered = renderTable(table);
  log('\n' + rendered);
  const seconds = Math.round((performance.now() - began) / 1000);
  log(
    `\nRSS after the side-by-side loads: ours ${rssAfterBench.ours} MB, ours CACHE=off ${rssAfterBench.oursNoCache} MB, Prism ${rssAfterBench.prism} MB, Express hello ${rssAfterBench.express} MB. Total bench time ${seconds} s.`,
  );

  writeReport(
    {
      varied,
      variedMarkdown,
      variedWorkers: variedWorkerFigures,
      proxy: proxyFigures,
      settings: { connections: CONNECTIONS, warmupSeconds: WARMUP_S, measureSeconds: MEASURE_S, clients: 1000 },
      table,
      markdown: rendered,
      rssAfterBench,
      workers: workerFigures,
      prismDynamic: dynamicFigures,
      startup,
      uncachedFilter: filters,
      inProcess: inProcessFigures,
    },
    began,
    host,
  );
}

function writeReport(
  parts: Record<string, unknown> & { variedMarkdown: string; markdown?: string },
  began: number,
  host: Record<string, unknown>,
): void {
  const outDir = path.join(ROOT, 'bench-results');
  fs.mkdirSync(outDir, { recursive: true });
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const file = path.join(outDir, `bench-${stamp}${QUICK ? '-quick' : ''}.json`);
  const report = {
    when: new Date().toISOString(),
    quick: QUICK,
    machine: host,
    ...parts,
    totalSeconds: Math.round((performance.now() - began) / 1000),
  };
  fs.writeFileSync(file, JSON.stringify(report, null, 2) + '\n');
  fs.writeFileSync(path.join(outDir, 'latest.md'), [parts.variedMarkdown, parts.markdown ?? ''].join('\n\n') + '\n');
  log(`Wrote ${path.relative(ROOT, file)}`);
}

main()
  .catch(async (error: unknown) => {
    process.stderr.write(`bench failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  })
  .finally(() => stopAll());
