// npm run bench:conn-flood [-- --duration 30 --sockets 10100 --attackers 2]
//
// The idle-socket flood of issue 16, on 127.0.0.1 only, bounded in time: two
// attacker processes each hold `sockets` idle connections (they send nothing,
// and reconnect when cut) while a fresh client sends one Ping on a new
// connection every 100 ms. Run twice against the built CLI: without a cap
// (--max-connections 1000000: the process meets its file-descriptor limit) and
// with the default (MAX_CONNECTIONS=auto). Reports the fresh client's Ping p50,
// p99 and failures for each, and the server's log lines during the flood.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { freePort, HOST, MAIN_JS, median, sleep, spawnAndWait, stopAllOnExit } from '../tools/processes';

const PING_EVERY_MS = 100;
const PING_TIMEOUT_MS = 10_000;

function count(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  const raw = at < 0 ? String(fallback) : (process.argv[at + 1] ?? '');
  if (!/^\d+$/.test(raw) || Number(raw) <= 0) {
    process.stderr.write(`conn-flood: --${name} must be a whole number above 0\n`);
    process.exit(2);
  }
  return Number(raw);
}

/** Attacker mode: hold `sockets` idle connections to the port for `seconds`, reconnecting each one that is cut. */
async function attack(port: number, sockets: number, seconds: number): Promise<void> {
  const endAt = Date.now() + seconds * 1000;
  let opened = 0;
  const hold = () => {
    if (Date.now() >= endAt) return;
    opened++;
    const socket = net.connect(port, HOST);
    socket.on('error', () => undefined);
    // Cut (by the cap, a timeout or a refusal): come back, as the attacker in the issue did, a little later.
    socket.on('close', () => setTimeout(hold, 50));
  };
  // Open them in batches so the attacker itself does not stall.
  for (let i = 0; i < sockets; i++) {
    hold();
    if (i % 500 === 499) await sleep(20);
  }
  await sleep(Math.max(0, endAt - Date.now()));
  process.stdout.write(`${opened}\n`);
  process.exit(0);
}

function ping(port: number): Promise<number | undefined> {
  const startedAt = performance.now();
  return new Promise((resolve) => {
    const req = http.get({ host: HOST, port, path: '/api/v1/Diagnostics/Ping', agent: false, timeout: PING_TIMEOUT_MS }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode === 200 ? performance.now() - startedAt : undefined));
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(undefined));
  });
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]!;
}

async function run(label: string, extraArgs: string[], durationS: number, sockets: number, attackers: number): Promise<string> {
  const port = await freePort();
  const logFile = path.join(os.tmpdir(), `conn-flood-${process.pid}-${port}.log`);
  const server = await spawnAndWait({
    name: label,
    args: [MAIN_JS, '--port', String(port), '--log-level', 'info', ...extraArgs],
    port,
    probePath: '/api/v1/Diagnostics/Ping',
    logFile,
  });
  const logBefore = fs.statSync(logFile).size;
  const children: ChildProcess[] = Array.from({ length: attackers }, () =>
    spawn(process.execPath, [__filename, '--attacker', String(port), String(sockets), String(durationS)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    }),
  );
  const killChildren = () => children.forEach((child) => child.kill('SIGKILL'));
  process.once('exit', killChildren);
  // Let the attackers reach their numbers, then measure for the rest of the flood.
  await sleep(Math.min(5_000, (durationS * 1000) / 3));
  const latencies: number[] = [];
  let failures = 0;
  const endAt = performance.now() + durationS * 1000 - 6_000;
  const pending: Promise<void>[] = [];
  while (performance.now() < endAt) {
    pending.push(
      ping(port).then((ms) => {
        if (ms === undefined) failures++;
        else latencies.push(ms);
      }),
    );
    await sleep(PING_EVERY_MS);
  }
  await Promise.all(pending);
  await Promise.all(children.map((child) => new Promise((resolve) => child.once('exit', resolve))));
  process.off('exit', killChildren);
  const logLines = fs.readFileSync(logFile, 'utf8').slice(logBefore).split('\n').filter(Boolean);
  await server.stop();
  fs.rmSync(logFile, { force: true });
  const requestLines = logLines.filter((line) => line.includes('"msg":"request"')).length;
  const sorted = latencies.sort((a, b) => a - b);
  return (
    `${label}: fresh-client Ping ×${latencies.length + failures}: p50 ${median(sorted).toFixed(1)} ms, ` +
    `p99 ${percentile(sorted, 99).toFixed(1)} ms, max ${(sorted[sorted.length - 1] ?? NaN).toFixed(0)} ms, failures ${failures}; ` +
    `server log: ${logLines.length} lines (${requestLines} request lines, ${logLines.length - requestLines} other)`
  );
}

async function main(): Promise<void> {
  const durationS = count('duration', 30);
  const sockets = count('sockets', 10_100);
  const attackers = count('attackers', 2);
  stopAllOnExit();
  process.stdout.write(
    `conn-flood: ${attackers} attackers × ${sockets} idle sockets, reconnecting when cut, ${durationS} s per run; ` +
      `a fresh Ping every ${PING_EVERY_MS} ms (${os.cpus().length} cores, load ${os.loadavg()[0]!.toFixed(1)})\n`,
  );
  process.stdout.write(
    `${await run('no cap (--max-connections 1000000)', ['--max-connections', '1000000'], durationS, sockets, attackers)}\n`,
  );
  process.stdout.write(`${await run('MAX_CONNECTIONS=auto', [], durationS, sockets, attackers)}\n`);
}

const attackerAt = process.argv.indexOf('--attacker');
if (attackerAt >= 0) {
  const [port, sockets, seconds] = process.argv.slice(attackerAt + 1).map(Number);
  void attack(port!, sockets!, seconds!);
} else {
  main().catch((error: unknown) => {
    process.stderr.write(`conn-flood: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}
