// The proxy's cost (issues 24 and 36): the varied mix (bench/traffic.ts) sent
// to one upstream (our server, defaults, 1,000 clients) directly, through a
// bare Node forwarder (bench/bare-forwarder.ts: the floor, no validation),
// through our proxy (`client-records-mock proxy`, defaults: every exchange
// judged) and through Prism's proxy (`prism proxy openapi.yaml UPSTREAM`,
// which validates too) on the same URLs, side by side in one run. Per round,
// in a rotating order: throughput with 50 connections (autocannon) and latency
// with one connection (a keep-alive loop timed with the high-resolution clock,
// since autocannon rounds latencies to whole milliseconds). Reported: the
// medians of per-round ratios. Targets (issue 36): at least 0.8× the bare
// forwarder's req/s, at least 3× Prism's, at most 0.5 ms added at p50.
// `npm run bench` runs it as one section; `npm run bench:proxy` alone
// (`-- --quick` for a short run, `-- --profile DIR` to write our proxy's
// --cpu-prof profile there and print its top entries).
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import fs from 'node:fs';
import {
  freePort,
  HOST,
  MAIN_JS,
  median,
  PING,
  ROOT,
  spawnAndWait,
  startOurServer,
  stopAll,
  stopAllOnExit,
  type Started,
} from '../tools/processes';
import { seededRandom, varyingUrls } from './traffic';
import { loadUrls, sampleServed } from './varied';
import { topOfProfile } from './profile-top';

const KEY = { 'x-api-key': 'dev-key' };
const PRISM_CLI = path.join(ROOT, 'node_modules/@stoplight/prism-cli/dist/index.js');
const BARE_FORWARDER = path.join(ROOT, 'dist/bench/bare-forwarder.js');

export type ProxyTarget = 'direct' | 'bare' | 'ours' | 'prism';
const ORDER: ProxyTarget[] = ['direct', 'bare', 'ours', 'prism'];
export const PROXY_LABELS: Record<ProxyTarget, string> = {
  direct: 'direct to the upstream (our server, defaults)',
  bare: 'through a bare Node forwarder (no validation)',
  ours: 'through our proxy (every exchange judged)',
  prism: 'through Prism 5.14 proxy (validating)',
};
/** Issue 36's targets. */
const TARGETS = { overBare: 0.8, overPrism: 3, addedP50Ms: 0.5 } as const;

export interface ProxyBenchOptions {
  rounds: number;
  seconds: number;
  connections: number;
  /** Requests of each one-connection latency sample. */
  latencyRequests: number;
  seed: number;
  /** Where our proxy writes its --cpu-prof profile (none: not profiled). */
  profileDir?: string;
}

interface Round {
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  generatorCpu: number;
}

export interface ProxyBenchResult {
  clients: number;
  rounds: number;
  loadAverageAtStart: number[];
  targets: Record<ProxyTarget, { rps: number; p50: number; p99: number; non2xx: number; generatorCpu: number }>;
  /** Medians of per-round values, against direct. */
  bare: Versus;
  ours: Versus;
  prism: Versus;
  /** Medians of per-round ratios of req/s. */
  oursOverBare: number;
  oursOverPrism: number;
  /** Our proxy's profile: its top entries by self time, when --profile was given. */
  profile?: string;
}

interface Versus {
  throughputRatio: number;
  addedP50: number;
  addedP99: number;
}

/** One connection, keep-alive, each URL in turn: per-request times in ms from the high-resolution clock. */
async function latencies(port: number, urls: readonly string[]): Promise<{ p50: number; p99: number; non2xx: number }> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const times: number[] = [];
  let non2xx = 0;
  for (const url of urls) {
    const started = process.hrtime.bigint();
    const status = await new Promise<number>((resolve, reject) => {
      const request = http.get({ host: HOST, port, path: url, headers: KEY, agent }, (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
      });
      request.on('error', reject);
    });
    times.push(Number(process.hrtime.bigint() - started) / 1e6);
    if (status < 200 || status >= 300) non2xx += 1;
  }
  agent.destroy();
  const sorted = times.sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  return { p50: at(0.5), p99: at(0.99), non2xx };
}

async function startTargets(clients: number, profileDir: string | undefined): Promise<Record<ProxyTarget, Started>> {
  const direct = await startOurServer(`upstream ${clients}`, ['--clients', String(clients)], {}, 180_000);
  const upstream = `http://${HOST}:${direct.port}`;
  const [barePort, oursPort, prismPort] = [await freePort(), await freePort(), await freePort()];
  const bare = await spawnAndWait({
    name: 'bare forwarder',
    args: [BARE_FORWARDER, String(barePort), upstream],
    port: barePort,
    probePath: PING,
    timeoutMs: 60_000,
  });
  const profiling = profileDir ? ['--cpu-prof', '--cpu-prof-dir', profileDir] : [];
  const ours = await spawnAndWait({
    name: 'our proxy',
    args: [...profiling, MAIN_JS, 'proxy', '--upstream', upstream, '--port', String(oursPort), '--host', HOST],
    port: oursPort,
    probePath: PING,
    timeoutMs: 60_000,
  });
  const prism = await spawnAndWait({
    name: 'prism proxy',
    args: [PRISM_CLI, 'proxy', 'openapi.yaml', upstream, '-p', String(prismPort), '-h', HOST],
    port: prismPort,
    probePath: PING,
    timeoutMs: 60_000,
  });
  return { direct, bare, ours, prism };
}

export async function proxyOverhead(clients: number, options: ProxyBenchOptions, log: (line: string) => void): Promise<ProxyBenchResult> {
  const loadAverageAtStart = os.loadavg().map((l) => Number(l.toFixed(2)));
  const targets = await startTargets(clients, options.profileDir);
  let stopped = false;
  try {
    const sample = await sampleServed(targets.direct.port, clients, options.seed);
    const urlsPerRound = 40_000;
    const all = varyingUrls(sample, urlsPerRound * options.rounds, options.seed);
    // The same latency URLs for every target in a round, drawn from that round's slice.
    const warm = varyingUrls(sample, 2_000, options.seed + 1);
    for (const target of ORDER) await loadUrls(targets[target].port, warm, 1, options.connections, KEY);
    const rounds: Record<ProxyTarget, Round>[] = [];
    for (let round = 0; round < options.rounds; round++) {
      const slice = all.slice(round * urlsPerRound, (round + 1) * urlsPerRound);
      const random = seededRandom(options.seed + round);
      const sampleUrls = Array.from({ length: options.latencyRequests }, () => slice[Math.floor(random() * slice.length)]!);
      const order = [...ORDER.slice(round % ORDER.length), ...ORDER.slice(0, round % ORDER.length)];
      const results: Partial<Record<ProxyTarget, Round>> = {};
      for (const target of order) {
        const load = await loadUrls(targets[target].port, slice, options.seconds, options.connections, KEY);
        const latency = await latencies(targets[target].port, sampleUrls);
        results[target] = {
          rps: load.rps,
          p50: latency.p50,
          p99: latency.p99,
          non2xx: load.non2xx + load.errors + latency.non2xx,
          generatorCpu: load.generatorCpu,
        };
      }
      rounds.push(results as Record<ProxyTarget, Round>);
      log(
        `  round ${round + 1}: ${ORDER.map((t) => `${t} ${Math.round(results[t]!.rps)} req/s, p50 ${results[t]!.p50.toFixed(2)} ms`).join(' | ')}`,
      );
    }
    const summary = (target: ProxyTarget) => ({
      rps: median(rounds.map((r) => r[target].rps)),
      p50: median(rounds.map((r) => r[target].p50)),
      p99: median(rounds.map((r) => r[target].p99)),
      non2xx: rounds.reduce((sum, r) => sum + r[target].non2xx, 0),
      generatorCpu: Math.max(...rounds.map((r) => r[target].generatorCpu)),
    });
    const versus = (target: ProxyTarget): Versus => ({
      throughputRatio: median(rounds.map((r) => r[target].rps / r.direct.rps)),
      addedP50: median(rounds.map((r) => r[target].p50 - r.direct.p50)),
      addedP99: median(rounds.map((r) => r[target].p99 - r.direct.p99)),
    });
    // Stopped (SIGTERM) before the profile is read: Node writes it as the process ends.
    await Promise.all(Object.values(targets).map((target) => target.stop()));
    stopped = true;
    return {
      clients,
      rounds: options.rounds,
      loadAverageAtStart,
      targets: { direct: summary('direct'), bare: summary('bare'), ours: summary('ours'), prism: summary('prism') },
      bare: versus('bare'),
      ours: versus('ours'),
      prism: versus('prism'),
      oursOverBare: median(rounds.map((r) => r.ours.rps / r.bare.rps)),
      oursOverPrism: median(rounds.map((r) => r.ours.rps / r.prism.rps)),
      ...(options.profileDir ? { profile: topOfProfile(options.profileDir, 25) } : {}),
    };
  } finally {
    if (!stopped) await Promise.all(Object.values(targets).map((target) => target.stop()));
  }
}

export function renderProxyBench(result: ProxyBenchResult, options: ProxyBenchOptions): string {
  const fmt = (value: number) => Math.round(value).toLocaleString('en-US');
  const ms = (value: number) => value.toFixed(2);
  const signed = (value: number) => `${value >= 0 ? '+' : ''}${value.toFixed(2)}`;
  const row = (target: ProxyTarget) => {
    const t = result.targets[target];
    const versus = target === 'direct' ? undefined : result[target];
    return `| ${PROXY_LABELS[target]} | ${fmt(t.rps)} | ${versus ? `${versus.throughputRatio.toFixed(2)}×` : '1.00×'} | ${ms(t.p50)} / ${ms(t.p99)} | ${versus ? `${signed(versus.addedP50)} / ${signed(versus.addedP99)}` : '—'} | ${fmt(t.non2xx)} | ${Math.round(t.generatorCpu * 100)}% |`;
  };
  const verdict = (met: boolean, by: string) => (met ? 'met' : `not met (${by})`);
  return [
    `**Proxy overhead, varied mix, ${fmt(result.clients)} clients** (median of ${result.rounds} rounds; ${options.connections} connections × ${options.seconds} s for req/s, ${options.latencyRequests} sequential requests on one keep-alive connection for latency; load average at start ${result.loadAverageAtStart.join(', ')})`,
    '',
    '| target | req/s | req/s vs direct | p50 / p99 ms, 1 connection | added p50 / p99 ms | non-2xx | load generator CPU (max) |',
    '|---|---:|---:|---:|---:|---:|---:|',
    row('direct'),
    row('bare'),
    row('ours'),
    row('prism'),
    '',
    '| target | value | verdict |',
    '|---|---:|---|',
    `| our proxy / the bare forwarder, req/s (median of per-round ratios) | ${result.oursOverBare.toFixed(2)}× | ≥ ${TARGETS.overBare}×: ${verdict(result.oursOverBare >= TARGETS.overBare, `${(TARGETS.overBare - result.oursOverBare).toFixed(2)} short`)} |`,
    `| our proxy / Prism's proxy, req/s (median of per-round ratios) | ${result.oursOverPrism.toFixed(2)}× | ≥ ${TARGETS.overPrism}×: ${verdict(result.oursOverPrism >= TARGETS.overPrism, `${(TARGETS.overPrism - result.oursOverPrism).toFixed(2)} short`)} |`,
    `| added p50 through our proxy, 1 connection | ${signed(result.ours.addedP50)} ms | ≤ ${TARGETS.addedP50Ms} ms: ${verdict(result.ours.addedP50 <= TARGETS.addedP50Ms, `${(result.ours.addedP50 - TARGETS.addedP50Ms).toFixed(2)} ms over`)} |`,
    ...(result.profile ? ['', `Our proxy's profile (node --cpu-prof), top entries by self time:`, '', result.profile] : []),
  ].join('\n');
}

async function main(): Promise<void> {
  stopAllOnExit();
  const quick = process.argv.includes('--quick');
  const profileAt = process.argv.indexOf('--profile');
  const profileDir = profileAt > 0 ? path.resolve(process.argv[profileAt + 1] ?? 'bench-results/profile') : undefined;
  if (profileDir) fs.mkdirSync(profileDir, { recursive: true });
  const options: ProxyBenchOptions = {
    rounds: 3,
    seconds: quick ? 3 : 10,
    connections: 50,
    latencyRequests: quick ? 200 : 600,
    seed: 13,
    ...(profileDir ? { profileDir } : {}),
  };
  log(
    `npm run bench:proxy${quick ? ' --quick' : ''}: ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'unknown'}, Node ${process.version}, load ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(', ')}`,
  );
  const result = await proxyOverhead(1_000, options, log);
  const rendered = renderProxyBench(result, options);
  log(`\n${rendered}`);
  const outDir = path.join(ROOT, 'bench-results');
  fs.mkdirSync(outDir, { recursive: true });
  const file = path.join(outDir, `bench-proxy-${new Date().toISOString().replace(/[:.]/g, '-')}${quick ? '-quick' : ''}.json`);
  fs.writeFileSync(file, `${JSON.stringify({ when: new Date().toISOString(), options, result, markdown: rendered }, null, 2)}\n`);
  log(`Wrote ${path.relative(ROOT, file)}`);
}

function log(line: string): void {
  process.stdout.write(`${line}\n`);
}

if (require.main === module) {
  main()
    .catch((error: unknown) => {
      process.stderr.write(`bench:proxy failed: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exitCode = 1;
    })
    .finally(() => stopAll());
}
