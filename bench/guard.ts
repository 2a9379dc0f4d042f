// npm run bench:guard [-- --rounds N --seconds S --baseline FILE]: CI's speed regression guard (issue 37
// item 3), a short side-by-side run that fails when a ratio falls more than 25 % below the value committed
// in bench/guard-baseline.json. Two ratios: our server with every default on against Express hello on Ping
// (the response cache's hit path, bench/cached-path.ts's first row), and against Prism's static mock on
// the varied mix (bench/traffic.ts at the default 1,000 clients, bench/varied.ts's loads). Only ratios:
// the shared two cores move absolute req/s by up to 2× from one hour to the next.
// Each round runs both pairs; which pair goes first, and which target first within a pair, rotate over
// four rounds; the figure is the median of the per-round ratios. 127.0.0.1 only, ports from the system,
// every load bounded in time, the whole run under a deadline; the three servers are stopped on every way
// out (tools/processes.ts). Exit 0: every ratio at or above its floor; 1: one below (a line each), or the
// run could not measure; 2: bad options or baseline file.
import path from 'node:path';
import {
  API_KEY,
  freePort,
  HOST,
  median,
  PING,
  ROOT,
  spawnAndWait,
  startOurServer,
  startPrism,
  stopAll,
  stopAllOnExit,
  type Started,
} from '../tools/processes';
import { ALLOWED_DROP, judge, readBaseline, type Baseline, type RatioName } from './guard-verdict';
import { varyingUrls } from './traffic';
import { loadUrls, sampleServed, type Load } from './varied';

const HELLO_JS = path.join(ROOT, 'dist/bench/express-hello.js');
const CONNECTIONS = 50;
const SEED = 13;
/** Our default data size (CLIENTS): the guard measures the server as `client-records-mock` starts. */
const CLIENTS = 1000;
/** A load generator above this share of a core may be what sets a figure: said beside the verdict. */
const GENERATOR_BUSY = 0.9;

function fail(code: number, line: string): never {
  process.stderr.write(`bench:guard: ${line}\n`);
  process.exit(code);
}

function wholeOption(name: string, fallback: number, max: number): number {
  const at = process.argv.indexOf(name);
  if (at < 0) return fallback;
  const value = Number(process.argv[at + 1]);
  if (!Number.isInteger(value) || value < 1 || value > max) fail(2, `${name} takes a whole number from 1 to ${max}`);
  return value;
}

function baselineFile(): string {
  const at = process.argv.indexOf('--baseline');
  if (at < 0) return path.join(ROOT, 'bench/guard-baseline.json');
  const file = process.argv[at + 1];
  if (!file) fail(2, '--baseline takes a file');
  return path.resolve(file);
}

const ROUNDS = wholeOption('--rounds', 7, 30);
const SECONDS = wholeOption('--seconds', 2, 10);
/**
 * A run not done by then has hung somewhere: it fails with a line rather than holding CI. 90 s for the start-ups
 * and the warm-up, then the four loads of each round with half as much again (174 s with the defaults; runs took
 * 68-88 s on the shared machine, the slowest at a load average of 12).
 */
const DEADLINE_MS = 90_000 + ROUNDS * 4 * SECONDS * 1_500;

interface Side {
  name: string;
  target: Started;
  /** The URLs of a round (the varied mix takes a new slice each round). */
  urls: (round: number) => readonly string[];
  headers: Record<string, string>;
}

interface Pair {
  ratio: RatioName;
  ours: Side;
  other: Side;
}

const fmt = (value: number) => Math.round(value).toLocaleString('en-US');

/** The two loads of a pair, ours first or second; returns ours / other for the round. */
async function runPair(pair: Pair, round: number, oursFirst: boolean, loads: Map<string, Load[]>): Promise<number> {
  const order = oursFirst ? [pair.ours, pair.other] : [pair.other, pair.ours];
  const measured = new Map<Side, Load>();
  for (const side of order) {
    const load = await loadUrls(side.target.port, side.urls(round), SECONDS, CONNECTIONS, side.headers);
    if (load.errors > 0) throw new Error(`${side.name}: ${load.errors} socket errors or timeouts in ${SECONDS} s`);
    measured.set(side, load);
    const key = `${pair.ratio} ${side.name}`;
    loads.set(key, [...(loads.get(key) ?? []), load]);
  }
  return measured.get(pair.ours)!.rps / measured.get(pair.other)!.rps;
}

async function measure(): Promise<{ ratios: Record<RatioName, number>; busyGenerator: string[] }> {
  const helloPort = await freePort();
  const [ours, express, prism] = await Promise.all([
    startOurServer('ours', ['--clients', String(CLIENTS)], {}, 60_000),
    spawnAndWait({ name: 'express hello', args: [HELLO_JS, String(helloPort)], port: helloPort, probePath: '/', timeoutMs: 30_000 }),
    startPrism('prism static'),
  ]);
  const key = { 'x-api-key': API_KEY };
  const sample = await sampleServed(ours.port, CLIENTS, SEED);
  const urlsPerRound = 40_000;
  const varied = varyingUrls(sample, urlsPerRound * ROUNDS, SEED);
  const ping = () => [PING];
  const slice = (round: number) => varied.slice(round * urlsPerRound, (round + 1) * urlsPerRound);
  const pairs: Pair[] = [
    {
      ratio: 'ping',
      ours: { name: 'ours', target: ours, urls: ping, headers: {} },
      other: { name: 'Express hello', target: express, urls: ping, headers: {} },
    },
    {
      ratio: 'varied',
      ours: { name: 'ours', target: ours, urls: slice, headers: key },
      other: { name: 'Prism static', target: prism, urls: slice, headers: key },
    },
  ];
  // Warm-up on other URLs, 2 s a load (the JIT, the first cache fills, Prism's lazy set-up; 1 s left the
  // first rounds at a third of the later ones on a busy machine): not counted.
  const warmVaried = varyingUrls(sample, 2000, SEED + 1);
  for (const pair of pairs)
    for (const side of [pair.ours, pair.other])
      await loadUrls(side.target.port, pair.ratio === 'varied' ? warmVaried : ping(), 2, CONNECTIONS, side.headers);

  const perRound: Record<RatioName, number[]> = { ping: [], varied: [] };
  const loads = new Map<string, Load[]>();
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? pairs : [...pairs].reverse();
    const oursFirst = Math.floor(round / 2) % 2 === 0;
    const line: string[] = [];
    for (const pair of order) {
      const ratio = await runPair(pair, round, oursFirst, loads);
      perRound[pair.ratio].push(ratio);
      const rps = (side: Side) => fmt(loads.get(`${pair.ratio} ${side.name}`)!.at(-1)!.rps);
      const first = oursFirst ? pair.ours : pair.other;
      const second = oursFirst ? pair.other : pair.ours;
      line.push(`${pair.ratio}: ${first.name} ${rps(first)}, ${second.name} ${rps(second)} req/s → ${ratio.toFixed(2)}×`);
    }
    process.stdout.write(`round ${round + 1}: ${line.join(' | ')}\n`);
  }
  const busyGenerator = [...loads]
    .map(([name, list]) => [name, Math.max(...list.map((load) => load.generatorCpu))] as const)
    .filter(([, cpu]) => cpu >= GENERATOR_BUSY)
    .map(([name, cpu]) => `${name} ${Math.round(cpu * 100)} %`);
  const spread = (name: RatioName) => `${Math.min(...perRound[name]).toFixed(2)}-${Math.max(...perRound[name]).toFixed(2)}×`;
  process.stdout.write(`per-round ratios spread: ping ${spread('ping')}, varied ${spread('varied')}\n`);
  return { ratios: { ping: median(perRound.ping), varied: median(perRound.varied) }, busyGenerator };
}

async function main(): Promise<void> {
  const started = performance.now();
  let baseline: Baseline;
  try {
    baseline = readBaseline(baselineFile());
  } catch (error) {
    fail(2, (error as Error).message);
  }
  stopAllOnExit();
  // Not unref'd: should every handle close while a promise never settles, Node would exit 0 with no verdict.
  const deadline = setTimeout(
    () => fail(1, `not done within ${Math.round(DEADLINE_MS / 1000)} s: no verdict (the servers are stopped)`),
    DEADLINE_MS,
  );
  process.stdout.write(
    `bench:guard: ${ROUNDS} rounds × ${SECONDS} s per load, ${CONNECTIONS} connections, on ${HOST}; the median of per-round ratios against ${path.relative(ROOT, baselineFile())}\n`,
  );
  const { ratios, busyGenerator } = await measure();
  await stopAll();
  clearTimeout(deadline);
  const verdict = judge(ratios, baseline);
  for (const line of verdict.lines) process.stdout.write(`${line}\n`);
  if (busyGenerator.length > 0)
    process.stdout.write(`the load generator neared a core (${busyGenerator.join(', ')}): there it, not the target, may set the figure\n`);
  const wall = `${Math.round((performance.now() - started) / 1000)} s`;
  if (verdict.failed) fail(1, `a ratio fell more than ${ALLOWED_DROP * 100} % below its committed value (${wall})`);
  process.stdout.write(`bench:guard: every ratio at or above its floor (${wall})\n`);
}

main().catch(async (error: unknown) => {
  process.stderr.write(`bench:guard: could not measure: ${(error as Error).message}\n`);
  await stopAll();
  process.exit(1);
});
