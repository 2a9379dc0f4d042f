// npm run bench:cached [-- --against DIR] [--rounds N] [--seconds S]: the response cache's hit path (every
// default on) against Express hello, side by side in one run, on 127.0.0.1 only, every load bounded. Ping and
// a Simple page of 25 clients, each answered from the cache after the first request; Express hello answers a
// tiny JSON body and a fixed 25-client page (bench/express-hello.ts). Each round runs every target once per
// endpoint in a rotating order; the figure is the median over rounds of ours/Express within each round (two
// noisy cores: only ratios mean anything). `--against DIR` adds another build of this project (DIR/dist/cli/main.js,
// e.g. a worktree of main) as a third target, so a change to the pipeline is measured before and after in
// the same run (issue 37 item 1's target: the cached path at least 1.5× Express hello).
import path from 'node:path';
import autocannon from 'autocannon';
import {
  API_KEY,
  cleanEnv,
  freePort,
  HOST,
  MAIN_JS,
  median,
  PING,
  ROOT,
  spawnAndWait,
  stopAll,
  stopAllOnExit,
  type Started,
} from '../tools/processes';

function option(name: string, fallback: string): string {
  const at = process.argv.indexOf(name);
  return at >= 0 && process.argv[at + 1] !== undefined ? process.argv[at + 1]! : fallback;
}

const ROUNDS = Number(option('--rounds', '5'));
const SECONDS = Number(option('--seconds', '3'));
const AGAINST = option('--against', '');
const CONNECTIONS = 50;
const HELLO_JS = path.join(ROOT, 'dist/bench/express-hello.js');

interface Endpoint {
  name: string;
  ours: string;
  hello: string;
}

const ENDPOINTS: Endpoint[] = [
  { name: 'Ping', ours: PING, hello: '/ping' },
  { name: 'Simple 25', ours: '/api/v1/Client/Simple?page=1&pageSize=25', hello: '/page25' },
];

async function rps(port: number, requestPath: string, seconds: number): Promise<number> {
  const result = await autocannon({
    url: `http://${HOST}:${port}`,
    connections: CONNECTIONS,
    duration: seconds,
    requests: [{ method: 'GET', path: requestPath, headers: { 'x-api-key': API_KEY } }],
    timeout: 10,
  });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${requestPath}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return result.requests.average;
}

async function startBuild(name: string, mainJs: string): Promise<Started> {
  const port = await freePort();
  return spawnAndWait({ name, args: [mainJs, '--port', String(port)], env: cleanEnv(), port, probePath: PING, timeoutMs: 60_000 });
}

async function main(): Promise<void> {
  stopAllOnExit();
  const helloPort = await freePort();
  const targets: Record<string, Started> = {
    express: await spawnAndWait({
      name: 'express hello',
      args: [HELLO_JS, String(helloPort)],
      port: helloPort,
      probePath: '/',
      timeoutMs: 20_000,
    }),
    ours: await startBuild('ours', MAIN_JS),
  };
  if (AGAINST) targets.against = await startBuild('against', path.join(path.resolve(AGAINST), 'dist/cli/main.js'));
  const names = Object.keys(targets);
  const ratios: Record<string, Record<string, number[]>> = {};
  for (const endpoint of ENDPOINTS) {
    // Warm-up: fills each cache and lets the JIT settle; not counted.
    for (const name of names) await rps(targets[name]!.port, name === 'express' ? endpoint.hello : endpoint.ours, 1);
    for (let round = 0; round < ROUNDS; round++) {
      const order = names.map((_, i) => names[(i + round) % names.length]!);
      const measured: Record<string, number> = {};
      for (const name of order)
        measured[name] = await rps(targets[name]!.port, name === 'express' ? endpoint.hello : endpoint.ours, SECONDS);
      for (const name of names.filter((n) => n !== 'express')) {
        ((ratios[endpoint.name] ??= {})[name] ??= []).push(measured[name]! / measured.express!);
      }
      process.stdout.write(
        `${endpoint.name} round ${round + 1}: ${order.map((name) => `${name} ${Math.round(measured[name]!)}/s`).join(', ')}\n`,
      );
    }
  }
  process.stdout.write(`\nmedian of per-round ratios to Express hello (${ROUNDS} rounds × ${SECONDS} s, ${CONNECTIONS} connections):\n`);
  for (const endpoint of ENDPOINTS) {
    const row = names
      .filter((n) => n !== 'express')
      .map((name) => `${name} ${median(ratios[endpoint.name]![name]!).toFixed(2)}×`)
      .join(', ');
    process.stdout.write(`  ${endpoint.name}: ${row}\n`);
  }
  await stopAll();
}

main().catch(async (error: unknown) => {
  process.stderr.write(`${(error as Error).message}\n`);
  await stopAll();
  process.exit(1);
});
