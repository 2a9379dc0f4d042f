// Real services the shared-state tests (tests/state/) and the state bench
// (bench/state.ts) run against, started by them: Debian's redis-server and
// nginx, each on a port the system gave (redis-server refuses --port 0, nginx
// cannot report one: a free port is asked of the system, then handed over),
// each waited for with a deadline and killed by whoever started it. When a
// binary is missing, `missing()` says which, and the tests skip with that line
// (`.ci/run` installs both from Debian when missing; CONTRIBUTING.md says so).
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './processes';

export const REDIS_SERVER = '/usr/bin/redis-server';
export const NGINX = '/usr/sbin/nginx';

/** The line a test prints when it skips: which binaries are missing, and how to get them. */
export function missing(...binaries: string[]): string | undefined {
  const absent = binaries.filter((binary) => !fs.existsSync(binary));
  if (absent.length === 0) return undefined;
  return `skipped: ${absent.join(' and ')} not installed (apt-get install redis-server nginx; .ci/run installs them)`;
}

/** Waits until `ready()` holds, checking every 50 ms; rejects with `what` after `timeoutMs`. */
export async function until(ready: () => boolean | Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await ready()) return;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

interface Service {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

/** Spawns `command` and resolves once its output matches `ready`; kills it and rejects after `timeoutMs`. */
function startService(command: string, args: string[], ready: RegExp, timeoutMs: number): Promise<Service> {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${path.basename(command)} did not start in ${timeoutMs} ms: ${output}`));
    }, timeoutMs);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (!ready.test(output)) return;
      clearTimeout(timer);
      resolve({ child, output: () => output, exited });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`${path.basename(command)} exited with ${code} before it was ready: ${output}`));
    });
  });
}

export interface RedisServer {
  url: string;
  port: number;
  /** The running redis-server's pid (0 while it is down). */
  pid(): number;
  /** Kills it at once (SIGKILL), as a crash would: what it had written to its append-only file survives. */
  kill(): Promise<void>;
  /** Starts it again on the same port and directory (its state read back from the append-only file). */
  restart(): Promise<void>;
  /** Stops it for good and removes its directory. */
  stop(): Promise<void>;
}

/**
 * redis-server on 127.0.0.1 and a port the system gave, its data in a temporary
 * directory with an append-only file synced on every write, so a kill and a
 * restart lose nothing it acknowledged.
 */
export async function startRedis(timeoutMs = 10_000): Promise<RedisServer> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crm-redis-'));
  const port = await freePort();
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'yes'];
  args.push('--appendfsync', 'always', '--daemonize', 'no', '--loglevel', 'notice');
  const launch = () => startService(REDIS_SERVER, args, /Ready to accept connections/, timeoutMs);
  let service: Service | undefined = await launch();
  const kill = async () => {
    const current = service;
    service = undefined;
    if (!current || current.child.exitCode !== null || current.child.signalCode !== null) return;
    current.child.kill('SIGKILL');
    await current.exited;
  };
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    pid: () => service?.child.pid ?? 0,
    kill,
    restart: async () => {
      await kill();
      service = await launch();
    },
    stop: async () => {
      await kill();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface Nginx {
  url: string;
  stop(): Promise<void>;
}

/**
 * nginx (daemon off, one worker) on 127.0.0.1 and a port the system gave, in
 * front of `upstreams` (host:port) round-robin, as a load balancer in front of
 * replicas. A GET an upstream refuses is passed to the next (nginx's default),
 * a PUT or DELETE is not.
 */
export async function startNginx(upstreams: readonly string[], timeoutMs = 10_000): Promise<Nginx> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crm-nginx-'));
  // Run as root (CI), nginx's worker is nobody: it must be able to read and write here.
  fs.chmodSync(dir, 0o777);
  const port = await freePort();
  const conf = path.join(dir, 'nginx.conf');
  fs.writeFileSync(
    conf,
    `daemon off;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log notice;
events { worker_connections 512; }
http {
  access_log off;
  client_body_temp_path ${dir}/client_body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  proxy_max_temp_file_size 0;
  upstream mocks {
${upstreams.map((upstream) => `    server ${upstream};`).join('\n')}
  }
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://mocks;
      proxy_set_header Host $http_host;
      proxy_connect_timeout 2s;
      proxy_read_timeout 30s;
    }
  }
}
`,
  );
  const child = spawn(NGINX, ['-c', conf, '-p', dir, '-e', path.join(dir, 'error.log')], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      // QUIT is nginx's graceful stop; KILL after a second should it linger.
      child.kill('SIGQUIT');
      const timer = setTimeout(() => child.kill('SIGKILL'), 1_000);
      await exited;
      clearTimeout(timer);
    }
    fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    await until(
      () => {
        if (child.exitCode !== null) throw new Error(`nginx exited with ${child.exitCode}`);
        return new Promise<boolean>((resolve) => {
          const socket = net.connect(port, '127.0.0.1', () => {
            socket.destroy();
            resolve(true);
          });
          socket.once('error', () => resolve(false));
        });
      },
      `nginx on port ${port}`,
      timeoutMs,
    );
  } catch (error) {
    const log = fs.existsSync(path.join(dir, 'error.log')) ? fs.readFileSync(path.join(dir, 'error.log'), 'utf8') : '';
    await stop();
    throw new Error(`${(error as Error).message} ${output} ${log}`, { cause: error });
  }
  return { url: `http://127.0.0.1:${port}`, stop };
}
