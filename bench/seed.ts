// npm run bench:seed: how fast seeds/ generates clients, and the memory they
// take, at 100,000 and 1,000,000 clients. Each size runs in a fresh child
// process, so that its RSS is its own and not what an earlier size left.
// Targets (issue 3, this 2-core machine): 100k ≤ 2 s, 1M ≤ 20 s, RSS ≤ 1.5 GB at 1M.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');
const SIZES = [100_000, 1_000_000];
const TARGETS: Record<number, { seconds: number; rssMb?: number }> = {
  100_000: { seconds: 2 },
  1_000_000: { seconds: 20, rssMb: 1536 },
};

interface SeedFigure {
  clients: number;
  /** Loading seeds/ (Faker and its locales). */
  loadMs: number;
  generateMs: number;
  clientsPerSecond: number;
  /** Resident set right after generation, and its peak (VmHWM) during the run. */
  rssMb: number;
  peakRssMb: number;
  /** After a full GC: what the data set itself keeps. */
  heapUsedAfterGcMb: number;
}

function procStatusMb(field: 'VmRSS' | 'VmHWM'): number {
  const status = fs.readFileSync('/proc/self/status', 'utf8');
  return Math.round(Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) / 1024);
}

/** In the child: generate `count` clients once and report. */
function measureHere(count: number): void {
  const began = performance.now();
  // Loaded here, not at the top: the parent never needs seeds/ and its load time is part of the figure.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { generateClients } = require('../seeds/client') as typeof import('../seeds/client');
  const loaded = performance.now();
  const clients = generateClients(1, count);
  const generated = performance.now();
  const rssMb = procStatusMb('VmRSS');
  const peakRssMb = procStatusMb('VmHWM');
  (globalThis as { gc?: () => void }).gc?.();
  const heapUsedAfterGcMb = Math.round(process.memoryUsage().heapUsed / 2 ** 20);
  const generateMs = generated - loaded;
  const figure: SeedFigure = {
    clients: clients.length,
    loadMs: Math.round(loaded - began),
    generateMs: Math.round(generateMs),
    clientsPerSecond: Math.round(count / (generateMs / 1000)),
    rssMb,
    peakRssMb,
    heapUsedAfterGcMb,
  };
  process.stdout.write(JSON.stringify(figure) + '\n');
}

function runChild(count: number): Promise<SeedFigure> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--expose-gc', __filename, '--child', String(count)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 180_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      if (code !== 0) reject(new Error(`generating ${count} clients failed (exit ${code})`));
      else resolve(JSON.parse(out) as SeedFigure);
    });
  });
}

function verdict(figure: SeedFigure): string {
  const target = TARGETS[figure.clients];
  if (!target) return '';
  const seconds = figure.generateMs / 1000;
  const time =
    seconds <= target.seconds
      ? `met (≤ ${target.seconds} s)`
      : `missed by ${(seconds - target.seconds).toFixed(1)} s (target ${target.seconds} s)`;
  const memory =
    target.rssMb === undefined
      ? ''
      : figure.peakRssMb <= target.rssMb
        ? `; RSS met (≤ ${target.rssMb} MB)`
        : `; RSS over by ${figure.peakRssMb - target.rssMb} MB`;
  return `time ${time}${memory}`;
}

async function main(): Promise<void> {
  const childAt = process.argv.indexOf('--child');
  if (childAt >= 0) {
    measureHere(Number(process.argv[childAt + 1]));
    return;
  }
  const cpus = os.cpus();
  process.stdout.write(
    `npm run bench:seed: ${cpus.length} × ${cpus[0]?.model ?? 'cpu'}, Node ${process.version}; one fresh process per size\n\n`,
  );
  process.stdout.write(
    '| clients | generate | clients/s | load seeds/ | RSS after | peak RSS | heap after GC | target |\n|---:|---:|---:|---:|---:|---:|---:|---|\n',
  );
  const figures: SeedFigure[] = [];
  for (const size of SIZES) {
    const figure = await runChild(size);
    figures.push(figure);
    process.stdout.write(
      `| ${figure.clients.toLocaleString('en-US')} | ${(figure.generateMs / 1000).toFixed(2)} s | ${figure.clientsPerSecond.toLocaleString('en-US')} | ${figure.loadMs} ms | ${figure.rssMb} MB | ${figure.peakRssMb} MB | ${figure.heapUsedAfterGcMb} MB | ${verdict(figure)} |\n`,
    );
  }
  const outDir = path.join(ROOT, 'bench-results');
  fs.mkdirSync(outDir, { recursive: true });
  const file = path.join(outDir, `seed-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  fs.writeFileSync(
    file,
    JSON.stringify({ when: new Date().toISOString(), node: process.version, cpus: cpus.length, figures }, null, 2) + '\n',
  );
  process.stdout.write(`\nWrote ${path.relative(ROOT, file)}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`bench:seed failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
