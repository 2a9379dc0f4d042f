// npm run soak [-- --duration 60] [-- --connections 50]: a soak and a shutdown
// drill against the built server, on 127.0.0.1 only, bounded in time.
//
// 1. Soak: autocannon keeps `connections` keep-alive connections busy for
//    `duration` seconds with a mix of every operation: lists, filters, details,
//    Ping, Exception (its 500s are expected), 400s, 401s and 404s (expected too).
//    The server's RSS is sampled every 5 s; growth is measured after warm-up.
// 2. Cache churn, on the same process: `--unique-duration` seconds (default a
//    third of the soak, at least 10) of requests that never repeat, so every
//    answer is a miss the response cache then keeps; RSS every 5 s against the
//    bound docs/reliability.md states (RSS at start + factor × CACHE_MB).
// 3. Shutdown drill, on the same soaked process: mixed keep-alive load plus slow
//    requests (Prefer: delay) in flight, then SIGTERM. Every request the server
//    accepted (its id is in the server's log, or an answer came back) must
//    complete with its normal status, none may be reset, new connections must
//    be refused while it drains, and it must exit 0 within 10 s.
//
// One summary line at the end; exit code 1 if any target is missed.
import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { cacheBoundMb, describeBound, uniqueFlood } from './unique-flood';

const HOST = '127.0.0.1';
const API_KEY = 'dev-key';
const MAIN_JS = path.resolve(__dirname, '../cli/main.js');
const RSS_EVERY_MS = 5_000;
const RSS_GROWTH_TARGET = 0.1;
const EXIT_TARGET_MS = 10_000;
/** Stated on the command line so the bound below is computed from the size in use. */
const SOAK_CACHE_MB = 64;

// ---------------------------------------------------------------- the request mix

type Kind = 'ping' | 'exception' | 'simple' | 'extended' | 'detail' | 'badRequest' | 'noKey' | 'unknownId' | 'unknownRoute';

export interface MixedRequest {
  kind: Kind;
  path: string;
  headers: Record<string, string>;
  /** The status a correct server answers. */
  expect: number;
}

// Weights per 100 requests: mostly the Client reads a frontend makes, some of every error.
const WEIGHTS: [Kind, number][] = [
  ['simple', 22],
  ['extended', 22],
  ['detail', 22],
  ['ping', 10],
  ['exception', 6],
  ['badRequest', 7],
  ['noKey', 3],
  ['unknownId', 5],
  ['unknownRoute', 3],
];
const FILTERS = ['an', 'er', 'son', 'ö', 'å', 'li', 'ma', 'example', '19', '+46', '070', 'berg', 'e', 'nil'];
const BAD_QUERIES = ['pageSize=0', 'pageSize=101', 'page=0', 'page=1&page=2', 'active=maybe', 'idStaff=not-a-uuid', 'x=1', 'page=%E0%A4%A'];

/** A deterministic, endless mix over a bounded set of URLs (so the response cache reaches a steady state). */
export class RequestMix {
  private readonly schedule: Kind[] = WEIGHTS.flatMap(([kind, weight]) => Array<Kind>(weight).fill(kind));
  private n = 0;

  constructor(private readonly ids: readonly string[]) {}

  static async forServer(baseUrl: string): Promise<RequestMix> {
    const ids: string[] = [];
    for (let page = 1; page <= 10; page++) {
      const response = await fetch(`${baseUrl}/api/v1/Client/Simple?pageSize=100&page=${page}`, { headers: { 'X-Api-Key': API_KEY } });
      const body = (await response.json()) as { Results: { IdClient: string }[] };
      ids.push(...body.Results.map((client) => client.IdClient));
      if (body.Results.length < 100) break;
    }
    return new RequestMix(ids);
  }

  /** A read the server holds for `delayMs` (Prefer: delay) before answering 200. */
  slow(i: number, delayMs: number): MixedRequest {
    const prefer = { Prefer: `delay=${delayMs}` };
    const key = { 'X-Api-Key': API_KEY, ...prefer };
    if (i % 3 === 0) return { kind: 'ping', path: '/api/v1/Diagnostics/Ping', headers: prefer, expect: 200 };
    if (i % 3 === 1) return { kind: 'simple', path: `/api/v1/Client/Simple?pageSize=5&page=${i}`, headers: key, expect: 200 };
    return { kind: 'detail', path: `/api/v1/Client/Detail/${this.ids[i % this.ids.length]}`, headers: key, expect: 200 };
  }

  next(): MixedRequest {
    const n = this.n++;
    // Spread kinds evenly: a stride coprime with 100 walks the whole schedule.
    const kind = this.schedule[(n * 37) % this.schedule.length]!;
    const k = n >> 3;
    const key = { 'X-Api-Key': API_KEY };
    switch (kind) {
      case 'ping':
        return { kind, path: '/api/v1/Diagnostics/Ping', headers: {}, expect: 200 };
      case 'exception':
        return { kind, path: '/api/v1/Diagnostics/Exception', headers: {}, expect: 500 };
      case 'simple':
        return { kind, path: `/api/v1/Client/Simple?page=${1 + (k % 40)}&pageSize=${[10, 25, 50, 100][k % 4]}`, headers: key, expect: 200 };
      case 'extended': {
        const filter = encodeURIComponent(FILTERS[k % FILTERS.length]!);
        const active = ['', '&active=true', '&active=false'][k % 3];
        return { kind, path: `/api/v1/Client/Extended?filter=${filter}${active}&page=${1 + (k % 3)}`, headers: key, expect: 200 };
      }
      case 'detail':
        return { kind, path: `/api/v1/Client/Detail/${this.ids[k % this.ids.length]}`, headers: key, expect: 200 };
      case 'badRequest':
        return { kind, path: `/api/v1/Client/Simple?${BAD_QUERIES[k % BAD_QUERIES.length]}`, headers: key, expect: 400 };
      case 'noKey':
        return { kind, path: '/api/v1/Client/Simple', headers: {}, expect: 401 };
      case 'unknownId':
        return {
          kind,
          path: `/api/v1/Client/Detail/00000000-0000-4000-8000-${String(k % 1000).padStart(12, '0')}`,
          headers: key,
          expect: 404,
        };
      case 'unknownRoute':
        return { kind, path: '/api/v1/Client/Nope', headers: key, expect: 404 };
    }
  }
}

// ---------------------------------------------------------------- the shutdown drill

export interface DrillTarget {
  baseUrl: string;
  /** Sends SIGTERM to the server. */
  terminate(): void;
  /** Resolves with the exit code. */
  exited: Promise<number | null>;
  /** The server's log (stdout) so far: accepted request ids are read from it. */
  logText(): string;
}

export interface DrillOptions {
  /** Concurrent keep-alive request loops. */
  loops: number;
  /** Slow requests (Prefer: delay) in flight when the signal comes. */
  slow: number;
  slowDelayMs: number;
  /** When SIGTERM is sent, after the slow requests went out. */
  signalAfterMs: number;
  /**
   * Answers the loops must have had before the slow requests go out (at most WARM_DEADLINE_MS of waiting): the load
   * at the signal is then a count, not whatever a loaded machine managed in a fixed time.
   */
  answeredFirst: number;
}

/** The longest the drill waits for its `answeredFirst` answers. */
const WARM_DEADLINE_MS = 10_000;

export interface DrillFigures {
  sent: number;
  accepted: number;
  /** Accepted requests still unanswered when SIGTERM was sent. */
  inFlightAtSignal: number;
  slowCompleted: number;
  slow: number;
  /** Accepted requests that did not complete with their normal status. */
  failed: number;
  /** Accepted requests whose connection was reset. */
  resets: number;
  /** Requests the server never accepted, by error (ECONNREFUSED once it stopped listening). */
  notAccepted: Record<string, number>;
  /** Milliseconds from SIGTERM to the first refused connection, while the server was still draining. */
  refusedAfterMs: number | undefined;
  exitCode: number | null;
  exitMs: number;
}

interface Outcome {
  id: string;
  expect: number;
  sentAt: number;
  doneAt: number;
  status?: number;
  error?: string;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function send(url: URL, request: MixedRequest, id: string, agent: http.Agent): Promise<Outcome> {
  const sentAt = performance.now();
  return new Promise((resolve) => {
    const req = http.request(
      { host: url.hostname, port: url.port, path: request.path, headers: { ...request.headers, 'X-Request-Id': id }, agent },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ id, expect: request.expect, sentAt, doneAt: performance.now(), status: res.statusCode }));
        res.on('error', (error: NodeJS.ErrnoException) =>
          resolve({ id, expect: request.expect, sentAt, doneAt: performance.now(), error: error.code ?? error.message }),
        );
      },
    );
    req.on('error', (error: NodeJS.ErrnoException) =>
      resolve({ id, expect: request.expect, sentAt, doneAt: performance.now(), error: error.code ?? error.message }),
    );
    req.end();
  });
}

function connectRefused(url: URL): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(Number(url.port), url.hostname);
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
  });
}

/** Mixed keep-alive load and slow requests in flight, then SIGTERM; figures from both sides of the wire. */
export async function shutdownDrill(target: DrillTarget, mix: RequestMix, options: Partial<DrillOptions> = {}): Promise<DrillFigures> {
  const { loops, slow, slowDelayMs, signalAfterMs, answeredFirst } = {
    loops: 8,
    slow: 10,
    slowDelayMs: 1_000,
    signalAfterMs: 300,
    answeredFirst: 0,
    ...options,
  };
  const url = new URL(target.baseUrl);
  const agent = new http.Agent({ keepAlive: true, maxSockets: loops });
  const slowAgent = new http.Agent({ keepAlive: true });
  const outcomes: Outcome[] = [];
  let exitedAt: number | undefined;
  let exitCode: number | null = null;
  const exited = target.exited.then((code) => {
    exitedAt = performance.now();
    exitCode = code;
  });
  let n = 0;
  const nextId = () => `drill-${process.pid}-${n++}`;

  const loop = async () => {
    while (exitedAt === undefined) {
      const outcome = await send(url, mix.next(), nextId(), agent);
      outcomes.push(outcome);
      // Refused: the server stopped listening; try again shortly until it is gone.
      if (outcome.error) await sleep(10);
    }
  };
  const running = Array.from({ length: loops }, loop);
  await sleep(100);
  const warmUntil = performance.now() + WARM_DEADLINE_MS;
  while (outcomes.filter((o) => o.status !== undefined).length < answeredFirst && performance.now() < warmUntil) await sleep(20);

  const slowOnes = Array.from({ length: slow }, (_, i) => send(url, mix.slow(i, slowDelayMs), `drill-slow-${process.pid}-${i}`, slowAgent));
  await sleep(signalAfterMs);

  const signalAt = performance.now();
  target.terminate();
  let refusedAt: number | undefined;
  while (exitedAt === undefined && refusedAt === undefined && performance.now() - signalAt < EXIT_TARGET_MS) {
    if (await connectRefused(url)) refusedAt = performance.now();
    else await sleep(25);
  }
  const slowOutcomes = await Promise.all(slowOnes);
  let giveUp: NodeJS.Timeout | undefined;
  await Promise.race([exited, new Promise((resolve) => (giveUp = setTimeout(resolve, EXIT_TARGET_MS + 2_000)))]);
  clearTimeout(giveUp);
  // Stop the loops even if the server never exited.
  exitedAt ??= Number.POSITIVE_INFINITY;
  await Promise.all(running);
  agent.destroy();
  slowAgent.destroy();

  const all = [...outcomes, ...slowOutcomes];
  const logged = new Set(target.logText().match(/drill-[\w-]+/g) ?? []);
  const accepted = all.filter((o) => o.status !== undefined || logged.has(o.id));
  const notAccepted: Record<string, number> = {};
  for (const o of all) if (!accepted.includes(o)) notAccepted[o.error ?? 'none'] = (notAccepted[o.error ?? 'none'] ?? 0) + 1;
  return {
    sent: all.length,
    accepted: accepted.length,
    inFlightAtSignal: accepted.filter((o) => o.sentAt < signalAt && o.doneAt > signalAt).length,
    slowCompleted: slowOutcomes.filter((o) => o.status === 200).length,
    slow,
    failed: accepted.filter((o) => o.status !== o.expect).length,
    resets: accepted.filter((o) => o.error !== undefined && /ECONNRESET|EPIPE|hang up/i.test(o.error)).length,
    notAccepted,
    refusedAfterMs: refusedAt === undefined ? undefined : refusedAt - signalAt,
    exitCode,
    exitMs: (exitedAt === Number.POSITIVE_INFINITY ? performance.now() : exitedAt) - signalAt,
  };
}

export function describeDrill(f: DrillFigures): string {
  const refused =
    f.refusedAfterMs === undefined
      ? 'new connections NOT refused'
      : `new connections refused ${(f.refusedAfterMs / 1000).toFixed(2)} s after`;
  const unaccepted =
    Object.entries(f.notAccepted)
      .map(([error, count]) => `${error} ${count}`)
      .join(', ') || 'none';
  return (
    `SIGTERM under load: accepted ${f.accepted}/${f.sent}, in flight at the signal ${f.inFlightAtSignal} (slow ${f.slowCompleted}/${f.slow} completed), ` +
    `in-flight failed ${f.failed}, resets ${f.resets}, ${refused} (not accepted: ${unaccepted}), exit code ${f.exitCode} in ${(f.exitMs / 1000).toFixed(2)} s`
  );
}

export function drillPassed(f: DrillFigures): boolean {
  return (
    f.failed === 0 &&
    f.resets === 0 &&
    f.slowCompleted === f.slow &&
    f.refusedAfterMs !== undefined &&
    f.exitCode === 0 &&
    f.exitMs < EXIT_TARGET_MS
  );
}

// ---------------------------------------------------------------- the soak

/** The part of autocannon 9's API the soak uses (the package ships no types). */
interface Cannon {
  (options: {
    url: string;
    connections: number;
    duration: number;
    timeout: number;
    requests: {
      setupRequest(request: Record<string, unknown>, context: Record<string, unknown>): Record<string, unknown>;
      onResponse(status: number, body: string, context: Record<string, unknown>): void;
    }[];
  }): Promise<{ requests: { total: number }; errors: number; timeouts: number; duration: number; '5xx': number }>;
}

function readArg(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  if (at < 0) return fallback;
  const value = Number(process.argv[at + 1]);
  if (!Number.isFinite(value) || value <= 0) {
    process.stderr.write(`soak: --${name} must be a positive number\n`);
    process.exit(2);
  }
  return value;
}

/** Resident set size in MB (Linux /proc), or NaN once the process is gone. */
function rssMb(pid: number): number {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN) / 1024;
  } catch {
    return NaN;
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer().listen(0, HOST, () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
    probe.once('error', reject);
  });
}

async function startServer(logFile: string): Promise<{ child: ChildProcess; baseUrl: string; exited: Promise<number | null> }> {
  const port = await freePort();
  const out = fs.openSync(logFile, 'w');
  const args = [MAIN_JS, '--port', String(port), '--host', HOST, '--log-level', 'info', '--cache-mb', String(SOAK_CACHE_MB)];
  const child = spawn(process.execPath, args, {
    stdio: ['ignore', out, 'inherit'],
  });
  fs.closeSync(out);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  // However the soak ends (Ctrl-C included), the server ends with it.
  process.on('exit', () => {
    child.kill('SIGKILL');
    fs.rmSync(logFile, { force: true });
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130));
  const baseUrl = `http://${HOST}:${port}`;
  for (let tries = 0; ; tries++) {
    const ok = await fetch(`${baseUrl}/api/v1/Diagnostics/Ping`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (tries > 600 || child.exitCode !== null) throw new Error('the server did not start');
    await sleep(50);
  }
  return { child, baseUrl, exited };
}

/** The tail of the log from `offset`: the drill's request lines are at its end. */
function readFrom(file: string, offset: number): string {
  const fd = fs.openSync(file, 'r');
  try {
    const size = fs.fstatSync(fd).size;
    const buffer = Buffer.alloc(Math.max(0, size - offset));
    fs.readSync(fd, buffer, 0, buffer.length, offset);
    return buffer.toString('utf8');
  } finally {
    fs.closeSync(fd);
  }
}

async function soak(): Promise<void> {
  const durationS = readArg('duration', 60);
  const connections = readArg('connections', 50);
  const warmUpS = Math.max(5, Math.round(durationS / 3));
  const logFile = path.join(os.tmpdir(), `soak-${process.pid}.log`);
  const server = await startServer(logFile);
  const pid = server.child.pid!;
  const mix = await RequestMix.forServer(server.baseUrl);
  process.stderr.write(`soak: ${durationS} s, ${connections} connections against ${server.baseUrl} (pid ${pid}), log ${logFile}\n`);

  const rss: { atS: number; mb: number }[] = [{ atS: 0, mb: rssMb(pid) }];
  const startedAt = performance.now();
  const sampler = setInterval(() => rss.push({ atS: Math.round((performance.now() - startedAt) / 1000), mb: rssMb(pid) }), RSS_EVERY_MS);
  const tally = { unexpected5xx: 0, expected5xx: 0, expected4xx: 0, otherUnexpected: 0 };
  const cannon = createRequire(__filename)('autocannon') as Cannon;
  const result = await cannon({
    url: server.baseUrl,
    connections,
    duration: durationS,
    timeout: 10,
    requests: [
      {
        setupRequest: (request, context) => {
          const next = mix.next();
          context.expect = next.expect;
          return { ...request, method: 'GET', path: next.path, headers: next.headers };
        },
        onResponse: (status, _body, context) => {
          if (status === context.expect) {
            if (status >= 500) tally.expected5xx++;
            else if (status >= 400) tally.expected4xx++;
          } else if (status >= 500) tally.unexpected5xx++;
          else tally.otherUnexpected++;
        },
      },
    ],
  });
  clearInterval(sampler);
  rss.push({ atS: Math.round((performance.now() - startedAt) / 1000), mb: rssMb(pid) });

  const churnS = readArg('unique-duration', Math.max(10, Math.round(durationS / 3)));
  const churnRss: number[] = [];
  const churnSampler = setInterval(() => churnRss.push(rssMb(pid)), RSS_EVERY_MS);
  const churn = await uniqueFlood(Number(new URL(server.baseUrl).port), churnS * 1000, connections);
  clearInterval(churnSampler);
  churnRss.push(rssMb(pid));
  const boundMb = cacheBoundMb(rss[0]!.mb, SOAK_CACHE_MB);
  const churnPeak = Math.max(...churnRss);

  const logOffset = fs.statSync(logFile).size;
  const figures = await shutdownDrill(
    {
      baseUrl: server.baseUrl,
      terminate: () => server.child.kill('SIGTERM'),
      exited: server.exited,
      logText: () => readFrom(logFile, logOffset),
    },
    mix,
  );

  const afterWarmUp = rss.filter((sample) => sample.atS >= warmUpS);
  const base = afterWarmUp[0]?.mb ?? rss[0]!.mb;
  const last = rss[rss.length - 1]!.mb;
  const growth = (last - base) / base;
  const peak = (Math.max(...afterWarmUp.map((sample) => sample.mb)) - base) / base;
  const total = result.requests.total;
  const pct = (x: number) => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)}%`;
  const line =
    `soak ${durationS} s, ${connections} connections: requests ${total} (${Math.round(total / result.duration)}/s), ` +
    `errors ${result.errors}, timeouts ${result.timeouts}, unexpected 5xx ${tally.unexpected5xx} ` +
    `(expected: 500 ${tally.expected5xx}, 4xx ${tally.expected4xx}; other unexpected ${tally.otherUnexpected}); ` +
    `RSS ${base.toFixed(0)} → ${last.toFixed(0)} MB after ${warmUpS} s warm-up (${pct(growth)}, peak ${pct(peak)}; ` +
    `every 5 s: ${rss.map((sample) => sample.mb.toFixed(0)).join(' ')}); ` +
    `cache churn ${churnS} s, every request unique: requests ${churn.requests}, errors ${churn.errors}, ` +
    `RSS every 5 s ${churnRss.map((mb) => mb.toFixed(0)).join(' ')}, peak ${churnPeak.toFixed(0)} MB, ` +
    `bound ${describeBound(rss[0]!.mb, SOAK_CACHE_MB)} ${churnPeak <= boundMb ? 'held' : 'EXCEEDED'}; ` +
    `${describeDrill(figures)}`;
  process.stdout.write(line + '\n');

  const passed =
    result.errors === 0 &&
    result.timeouts === 0 &&
    tally.unexpected5xx === 0 &&
    tally.otherUnexpected === 0 &&
    growth < RSS_GROWTH_TARGET &&
    churn.errors === 0 &&
    churnPeak <= boundMb &&
    drillPassed(figures);
  process.exitCode = passed ? 0 : 1;
}

if (require.main === module) {
  soak().catch((error: unknown) => {
    process.stderr.write(`soak: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  });
}
