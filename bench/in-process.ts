// In-process set-up cost (issue 26): what a test file pays, from a fresh process, to get its first
// answer through MSW from this package (`import` of client-records-mock/msw and msw/node,
// createHandlers({ clients }), the first GET of a list page) against the same steps with a
// hand-written MSW handler answering a fixed 25-item page; and each later answer through our
// handlers against startServer over HTTP. Every figure comes from its own fresh process (node
// FILE.mjs), the variants in a rotating order each round, medians of the rounds; targets: first
// answer within 1.5x the hand-written handler, later answers within 2x of HTTP.
// Run alone: npm run bench:in-process [-- --rounds N]; npm run bench runs it as a section.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
/** dist/bench/in-process.js → the repository root (the child scripts import the package by its name from there). */
const ROOT = path.resolve(__dirname, '..', '..');
const CHILD_DIR = path.join(ROOT, 'dist', 'bench', 'in-process');
const LATER_ANSWERS = 200;

/** Each variant is a small ES module, written next to the package so `client-records-mock/msw` resolves to it. */
const CHILDREN: Record<string, string> = {
  ours: `
const { setupServer } = await import('msw/node');
const { createHandlers } = await import('client-records-mock/msw');
const server = setupServer(...createHandlers({ baseUrl: 'http://api.test', clients: Number(process.env.CLIENTS) }));
server.listen({ onUnhandledRequest: 'error' });
const first = await fetch('http://api.test/api/v1/Client/Simple', { headers: { 'X-Api-Key': 'dev-key' } });
if ((await first.json()).Results.length !== 25) throw new Error('not a 25-item page');
const firstMs = performance.now();
const later = [];
for (let i = 0; i < ${LATER_ANSWERS}; i++) {
  const started = performance.now();
  const response = await fetch('http://api.test/api/v1/Client/Simple?page=' + (2 + (i % 30)) + '&pageSize=' + (10 + (i % 15)), { headers: { 'X-Api-Key': 'dev-key' } });
  await response.arrayBuffer();
  later.push(performance.now() - started);
}
server.close();
console.log(JSON.stringify({ firstMs, later }));
`,
  handWritten: `
const { http, HttpResponse } = await import('msw');
const { setupServer } = await import('msw/node');
const page = { Page: 1, PageSize: 25, Results: Array.from({ length: 25 }, (_, i) => ({
  IdClient: '00000000-0000-4000-8000-' + String(i).padStart(12, '0'),
  FullName: 'Client Number ' + i, PersonalId: '19800101-' + String(1000 + i), Email: 'client' + i + '@example.org', Phone: '+46 70 123 45 ' + String(10 + i),
})) };
const server = setupServer(http.get('http://api.test/api/v1/Client/Simple', () => HttpResponse.json(page, { headers: { 'X-Total-Count': '25' } })));
server.listen({ onUnhandledRequest: 'error' });
const first = await fetch('http://api.test/api/v1/Client/Simple', { headers: { 'X-Api-Key': 'dev-key' } });
if ((await first.json()).Results.length !== 25) throw new Error('not a 25-item page');
const firstMs = performance.now();
server.close();
console.log(JSON.stringify({ firstMs, later: [] }));
`,
  http: `
const { startServer } = await import('client-records-mock');
const mock = await startServer({ port: 0, clients: Number(process.env.CLIENTS), logLevel: 'silent' });
const first = await fetch(mock.url + '/api/v1/Client/Simple', { headers: { 'X-Api-Key': 'dev-key' } });
await first.arrayBuffer();
const firstMs = performance.now();
const later = [];
for (let i = 0; i < ${LATER_ANSWERS}; i++) {
  const started = performance.now();
  const response = await fetch(mock.url + '/api/v1/Client/Simple?page=' + (2 + (i % 30)) + '&pageSize=' + (10 + (i % 15)), { headers: { 'X-Api-Key': 'dev-key' } });
  await response.arrayBuffer();
  later.push(performance.now() - started);
}
await mock.close();
console.log(JSON.stringify({ firstMs, later }));
`,
};
type Variant = 'ours' | 'handWritten' | 'http';

interface ChildResult {
  /** performance.now() at the first answer: milliseconds since the process started, Node's own start-up included. */
  firstMs: number;
  later: number[];
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

async function child(variant: Variant, clients: number, node: string): Promise<ChildResult> {
  const { stdout } = await run(node, [path.join(CHILD_DIR, `${variant}.mjs`)], {
    cwd: ROOT,
    env: { ...process.env, CLIENTS: String(clients) },
    maxBuffer: 16 * 1024 * 1024,
  });
  return JSON.parse(stdout.trim().split('\n').pop()!) as ChildResult;
}

export interface InProcessFigure {
  clients: number;
  rounds: number;
  node: string;
  msw: string;
  /** Medians over the rounds, milliseconds from process start to the first answer. */
  oursFirstMs: number;
  handWrittenFirstMs: number;
  /** Median of the per-round ratios ours / hand-written (target ≤ 1.5). */
  firstRatio: number;
  /** Median of each later answer's time, over all rounds: ours through MSW, startServer over HTTP. */
  oursLaterMs: number;
  httpLaterMs: number;
  /** Median of the per-round ratios of the later answers' medians (target ≤ 2). */
  laterRatio: number;
}

/** The in-process figures at each client count; each round runs the three variants in a rotated order. */
export async function inProcess(
  clientCounts: readonly number[],
  rounds: number,
  log: (line: string) => void,
  node = process.execPath,
): Promise<InProcessFigure[]> {
  fs.mkdirSync(CHILD_DIR, { recursive: true });
  for (const [name, source] of Object.entries(CHILDREN)) fs.writeFileSync(path.join(CHILD_DIR, `${name}.mjs`), source);
  const { version: msw } = JSON.parse(fs.readFileSync(path.join(ROOT, 'node_modules', 'msw', 'package.json'), 'utf8')) as {
    version: string;
  };
  const nodeVersion = (await run(node, ['--version'])).stdout.trim();
  const figures: InProcessFigure[] = [];
  const variants: Variant[] = ['ours', 'handWritten', 'http'];
  for (const clients of clientCounts) {
    const results: Record<Variant, ChildResult[]> = { ours: [], handWritten: [], http: [] };
    for (let round = 0; round < rounds; round++) {
      const order = variants.map((_, i) => variants[(i + round) % variants.length]!);
      for (const variant of order) results[variant].push(await child(variant, clients, node));
      const [ours, hand, http] = [results.ours[round]!, results.handWritten[round]!, results.http[round]!];
      log(
        `  ${clients.toLocaleString('en-US')} clients, round ${round + 1} (${order.join(' → ')}): first answer ours ${ours.firstMs.toFixed(0)} ms, hand-written ${hand.firstMs.toFixed(0)} ms; later answers ours ${median(ours.later).toFixed(2)} ms, HTTP ${median(http.later).toFixed(2)} ms`,
      );
    }
    const figure: InProcessFigure = {
      clients,
      rounds,
      node: nodeVersion,
      msw,
      oursFirstMs: median(results.ours.map((r) => r.firstMs)),
      handWrittenFirstMs: median(results.handWritten.map((r) => r.firstMs)),
      firstRatio: median(results.ours.map((r, i) => r.firstMs / results.handWritten[i]!.firstMs)),
      oursLaterMs: median(results.ours.flatMap((r) => r.later)),
      httpLaterMs: median(results.http.flatMap((r) => r.later)),
      laterRatio: median(results.ours.map((r, i) => median(r.later) / median(results.http[i]!.later))),
    };
    figures.push(figure);
  }
  return figures;
}

export function renderInProcess(figures: readonly InProcessFigure[]): string {
  const head = `| in-process, fresh processes (${figures[0]?.node ?? ''}, msw ${figures[0]?.msw ?? ''}), medians of ${figures[0]?.rounds ?? 0} rounds | first answer: ours | hand-written handler | ours / hand-written (≤ 1.5) | later answer: ours (MSW) | startServer (HTTP) | ours / HTTP (≤ 2) |`;
  const rows = figures.map(
    (f) =>
      `| ${f.clients.toLocaleString('en-US')} clients | ${f.oursFirstMs.toFixed(0)} ms | ${f.handWrittenFirstMs.toFixed(0)} ms | ${f.firstRatio.toFixed(2)}× | ${f.oursLaterMs.toFixed(2)} ms | ${f.httpLaterMs.toFixed(2)} ms | ${f.laterRatio.toFixed(2)}× |`,
  );
  return [head, '|---|---:|---:|---:|---:|---:|---:|', ...rows].join('\n');
}

if (require.main === module) {
  const roundsAt = process.argv.indexOf('--rounds');
  const rounds = roundsAt > 0 ? Number(process.argv[roundsAt + 1]) : 5;
  if (!Number.isInteger(rounds) || rounds < 1) {
    process.stderr.write('bench:in-process: --rounds takes a whole number of at least 1\n');
    process.exit(2);
  }
  const log = (line: string) => process.stdout.write(`${line}\n`);
  log(`In-process set-up (fresh processes, ${rounds} rounds, rotated order):`);
  inProcess([1_000, 10_000], rounds, log)
    .then((figures) => log(`\n${renderInProcess(figures)}`))
    .catch((error: unknown) => {
      process.stderr.write(`bench:in-process failed: ${(error as Error).message}\n`);
      process.exitCode = 1;
    });
}
