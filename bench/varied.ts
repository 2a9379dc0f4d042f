// The headline of `npm run bench` (issue 13): varied traffic, not repeated
// URLs. A seeded URL mix (bench/traffic.ts) sampled from what the server under
// test serves, at 1,000 and 100,000 clients, against ours (defaults), ours
// CACHE=off, Prism's static mock on the same URLs, json-server v1 on the
// equivalent URLs (lists and Detail; it has no equivalent of our filters, so
// they are dropped), and Express 5 answering a fixed 25-item page.
//
// Rounds: every target gets the same slice of URLs in a round, in an order
// that rotates from round to round; a ratio is computed per round and the
// median of those is reported, so noise from the shared machine (which moves
// between rounds) falls on both sides of a ratio alike. The load generator
// (autocannon, in this process) has its CPU time measured per load: if it
// nears one core it, not the target, sets the figure, and the table says so.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { loadConfig } from '../server/process/config';
import { generateClients } from '../seeds/client';
import {
  API_KEY,
  freePort,
  getJson,
  HOST,
  median,
  ROOT,
  rssMb,
  spawnAndWait,
  startOurServer,
  startPrism,
  type Started,
} from '../tools/processes';
import { seededRandom, varyingUrls, type TrafficSample } from './traffic';

const JSON_SERVER_CLI = path.join(ROOT, 'node_modules/json-server/lib/bin.js');
const HELLO_JS = path.join(ROOT, 'dist/bench/express-hello.js');
const KEY = { 'x-api-key': API_KEY };

export type VariedTarget = 'ours' | 'oursNoCache' | 'prism' | 'jsonServer' | 'express';
export const VARIED_LABELS: Record<VariedTarget, string> = {
  ours: 'ours, defaults (cache on, validation on)',
  oursNoCache: 'ours, CACHE=off',
  prism: 'Prism 5.14 static mock (same URLs)',
  jsonServer: 'json-server v1 (lists and Detail; filters dropped)',
  express: 'Express 5 hello-world, fixed 25-item page',
};
const ORDER: VariedTarget[] = ['ours', 'oursNoCache', 'prism', 'jsonServer', 'express'];

export interface VariedOptions {
  sizes: number[];
  rounds: number;
  seconds: number;
  connections: number;
  seed: number;
}

export interface Load {
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  /** CPU the load generator used, as a share of one core over the load. */
  generatorCpu: number;
}

export interface VariedTargetResult {
  rps: number;
  p50: number;
  p99: number;
  generatorCpu: number;
  non2xx: number;
  rssMb: number;
}

export interface VariedResult {
  clients: number;
  rounds: number;
  targets: Record<VariedTarget, VariedTargetResult>;
  /** Medians of per-round ratios. */
  ratios: Record<string, number>;
  urlsPerRound: number;
}

/** Each connection takes the next URL of one shared list: no two connections replay the same sequence. */
export async function loadUrls(
  port: number,
  urls: readonly string[],
  seconds: number,
  connections: number,
  headers: Record<string, string>,
): Promise<Load> {
  let next = 0;
  const cpu = process.cpuUsage();
  const started = performance.now();
  const result = await autocannon({
    url: `http://${HOST}:${port}`,
    connections,
    duration: seconds,
    timeout: 10,
    requests: [{ method: 'GET', headers, setupRequest: (request) => ({ ...request, path: urls[next++ % urls.length]! }) }],
  });
  const used = process.cpuUsage(cpu);
  const wallMs = performance.now() - started;
  return {
    rps: (result['2xx'] + result.non2xx) / seconds,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    generatorCpu: (used.user + used.system) / 1000 / wallMs,
  };
}

/** Ids, names, e-mails, phones, staff and locations read from the served API (random pages of 100). */
export async function sampleServed(port: number, clients: number, seed: number): Promise<TrafficSample> {
  const random = seededRandom(seed);
  const pages = Math.ceil(clients / 100);
  const wanted = new Set<number>();
  while (wanted.size < Math.min(pages, 60)) wanted.add(1 + Math.floor(random() * pages));
  const sample = { total: clients, ids: [] as string[], names: [] as string[], emails: [] as string[], phones: [] as string[] };
  const staff = new Set<string>();
  const locations = new Set<string>();
  for (const page of [...wanted].sort((a, b) => a - b)) {
    const body = await getJson<{
      Results: { IdClient: string; FullName: string; Email: string; Phone: string; IdStaff: string | null; IdLocation: string | null }[];
    }>(port, `/api/v1/Client/Extended?page=${page}&pageSize=100`, KEY);
    for (const client of body.Results) {
      sample.ids.push(client.IdClient);
      sample.names.push(client.FullName);
      sample.emails.push(client.Email);
      sample.phones.push(client.Phone);
      if (client.IdStaff) staff.add(client.IdStaff);
      if (client.IdLocation) locations.add(client.IdLocation);
    }
  }
  return { ...sample, staff: [...staff], locations: [...locations] };
}

/** Our URLs as json-server v1 spells their nearest equivalent. */
function jsonServerUrl(url: string): string {
  const detail = /^\/api\/v1\/Client\/Detail\/(.+)$/.exec(url);
  if (detail) return `/clients/${detail[1]}`;
  const query = new URLSearchParams(url.slice(url.indexOf('?') + 1));
  return `/clients?_page=${query.get('page') ?? 1}&_per_page=${query.get('pageSize') ?? 25}`;
}

/** json-server's database: the same clients (default seed) as our Detail records, keyed by `id`. */
function writeJsonServerDb(clients: number): string {
  const file = path.join(os.tmpdir(), `bench-json-server-${process.pid}-${clients}.json`);
  const records = generateClients(loadConfig([], {}).seed, clients).map((client) => ({ id: client.IdClient, ...client }));
  fs.writeFileSync(file, JSON.stringify({ clients: records }));
  return file;
}

async function startAll(clients: number): Promise<{ targets: Record<VariedTarget, Started>; cleanup: () => void }> {
  const dbFile = writeJsonServerDb(clients);
  const [jsonPort, helloPort] = [await freePort(), await freePort()];
  const targets: Record<VariedTarget, Started> = {
    ours: await startOurServer(`ours ${clients}`, ['--clients', String(clients)], {}, 180_000),
    oursNoCache: await startOurServer(`ours ${clients} CACHE=off`, ['--clients', String(clients)], { CACHE: 'off' }, 180_000),
    prism: await startPrism('prism'),
    jsonServer: await spawnAndWait({
      name: 'json-server',
      args: [JSON_SERVER_CLI, '--port', String(jsonPort), '--host', HOST, dbFile],
      port: jsonPort,
      probePath: '/clients?_page=1&_per_page=1',
      timeoutMs: 120_000,
    }),
    express: await spawnAndWait({ name: 'express hello', args: [HELLO_JS, String(helloPort)], port: helloPort, probePath: '/page25' }),
  };
  return { targets, cleanup: () => fs.rmSync(dbFile, { force: true }) };
}

function urlsFor(target: VariedTarget, urls: readonly string[]): readonly string[] {
  if (target === 'express') return ['/page25'];
  if (target === 'jsonServer') return urls.map(jsonServerUrl);
  return urls;
}

export async function variedAt(clients: number, options: VariedOptions, log: (line: string) => void): Promise<VariedResult> {
  const { targets, cleanup } = await startAll(clients);
  try {
    const sample = await sampleServed(targets.ours.port, clients, options.seed);
    // Enough distinct URLs that a round does not wrap at the fastest target's rate.
    const urlsPerRound = 40_000;
    const all = varyingUrls(sample, urlsPerRound * options.rounds, options.seed);
    const perRound: Record<VariedTarget, Load>[] = [];
    // A short warm-up on other URLs (JIT, lazy compilation of validators), not measured.
    const warmUrls = varyingUrls(sample, 2000, options.seed + 1);
    for (const target of ORDER) await loadUrls(targets[target].port, urlsFor(target, warmUrls), 1, options.connections, KEY);
    for (let round = 0; round < options.rounds; round++) {
      const slice = all.slice(round * urlsPerRound, (round + 1) * urlsPerRound);
      const order = [...ORDER.slice(round % ORDER.length), ...ORDER.slice(0, round % ORDER.length)];
      const loads: Partial<Record<VariedTarget, Load>> = {};
      for (const target of order)
        loads[target] = await loadUrls(targets[target].port, urlsFor(target, slice), options.seconds, options.connections, KEY);
      perRound.push(loads as Record<VariedTarget, Load>);
      log(`  round ${round + 1}: ${ORDER.map((t) => `${t} ${Math.round(loads[t]!.rps)}`).join(' | ')} req/s`);
    }
    const ratio = (a: VariedTarget, b: VariedTarget) => median(perRound.map((round) => round[a].rps / round[b].rps));
    const summary = (target: VariedTarget): VariedTargetResult => ({
      rps: median(perRound.map((round) => round[target].rps)),
      p50: median(perRound.map((round) => round[target].p50)),
      p99: median(perRound.map((round) => round[target].p99)),
      generatorCpu: Math.max(...perRound.map((round) => round[target].generatorCpu)),
      non2xx: perRound.reduce((sum, round) => sum + round[target].non2xx + round[target].errors, 0),
      rssMb: rssMb(targets[target].pid),
    });
    return {
      clients,
      rounds: options.rounds,
      urlsPerRound,
      targets: Object.fromEntries(ORDER.map((target) => [target, summary(target)])) as Record<VariedTarget, VariedTargetResult>,
      ratios: {
        'ours / Prism': ratio('ours', 'prism'),
        'ours / Express page': ratio('ours', 'express'),
        'ours / json-server': ratio('ours', 'jsonServer'),
        'CACHE=off / Prism': ratio('oursNoCache', 'prism'),
        'cache on / off': ratio('ours', 'oursNoCache'),
      },
    };
  } finally {
    await Promise.all(Object.values(targets).map((target) => target.stop()));
    cleanup();
  }
}

const TARGETS_TO_MEET: [string, number][] = [
  ['ours / Prism', 2],
  ['ours / Express page', 0.5],
  ['CACHE=off / Prism', 1.2],
];

export function renderVaried(result: VariedResult): string {
  const fmt = (value: number) => Math.round(value).toLocaleString('en-US');
  const ms = (value: number) => (value >= 10 ? value.toFixed(0) : value.toFixed(1));
  const lines = [
    `**${result.clients.toLocaleString('en-US')} clients** (median of ${result.rounds} rounds)`,
    '',
    '| target | req/s | p50 / p99 ms | non-2xx | RSS MB | load generator CPU (max) |',
    '|---|---:|---:|---:|---:|---:|',
    ...ORDER.map((target) => {
      const t = result.targets[target];
      return `| ${VARIED_LABELS[target]} | ${fmt(t.rps)} | ${ms(t.p50)} / ${ms(t.p99)} | ${fmt(t.non2xx)} | ${t.rssMb} | ${Math.round(t.generatorCpu * 100)}% |`;
    }),
    '',
    '| ratio (median of per-round ratios) | value | target |',
    '|---|---:|---|',
    ...Object.entries(result.ratios).map(([name, value]) => {
      const goal = TARGETS_TO_MEET.find(([goalName]) => goalName === name);
      const verdict = goal ? `≥ ${goal[1]}× ${value >= goal[1] ? 'met' : `not met (${(goal[1] / value).toFixed(2)}× short)`}` : '';
      return `| ${name} | ${value.toFixed(2)}× | ${verdict} |`;
    }),
  ];
  return lines.join('\n');
}

export interface WorkersResult {
  clients: number;
  oneWorker: number;
  twoWorkers: number;
  /** Median of per-round ratios two / one. */
  ratio: number;
  generatorCpu: number;
}

/**
 * `--workers 2` against one worker on the varied mix (defaults otherwise, but the control API off on both: workers
 * share control state only through --state, a Redis this bench does not run), rotating order, medians.
 */
export async function variedWorkers(clients: number, options: VariedOptions, log: (line: string) => void): Promise<WorkersResult> {
  const one = await startOurServer('ours 1 worker', ['--clients', String(clients), '--control', 'off'], {}, 180_000);
  const two = await startOurServer('ours 2 workers', ['--clients', String(clients), '--workers', '2', '--control', 'off'], {}, 180_000);
  try {
    // Both workers must be up: the probe may have reached the first alone.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const sample = await sampleServed(one.port, clients, options.seed);
    const urlsPerRound = 40_000;
    const all = varyingUrls(sample, urlsPerRound * options.rounds, options.seed + 7);
    const rounds: { one: Load; two: Load }[] = [];
    for (let round = 0; round < options.rounds; round++) {
      const slice = all.slice(round * urlsPerRound, (round + 1) * urlsPerRound);
      const first = round % 2 === 0 ? one : two;
      const second = first === one ? two : one;
      const a = await loadUrls(first.port, slice, options.seconds, options.connections, KEY);
      const b = await loadUrls(second.port, slice, options.seconds, options.connections, KEY);
      const result = first === one ? { one: a, two: b } : { one: b, two: a };
      rounds.push(result);
      log(`  round ${round + 1}: 1 worker ${Math.round(result.one.rps)} | 2 workers ${Math.round(result.two.rps)} req/s`);
    }
    return {
      clients,
      oneWorker: median(rounds.map((r) => r.one.rps)),
      twoWorkers: median(rounds.map((r) => r.two.rps)),
      ratio: median(rounds.map((r) => r.two.rps / r.one.rps)),
      generatorCpu: Math.max(...rounds.flatMap((r) => [r.one.generatorCpu, r.two.generatorCpu])),
    };
  } finally {
    await Promise.all([one.stop(), two.stop()]);
  }
}
