// The proxy as a CI job runs it: the built CLI (dist/cli/main.js proxy …) in a
// child process on port 0, read up to its start-up line, stopped by a signal.
import { spawn, type ChildProcess } from 'node:child_process';
import { MAIN_JS } from '../support/servers';

export interface ProxyProcess {
  url: string;
  child: ChildProcess;
  stdout(): string;
  /** Sends the signal; resolves with the exit code once the process ended. */
  stop(signal: NodeJS.Signals): Promise<number | null>;
  exited: Promise<number | null>;
}

/** The proxy in its own process on port 0; resolves at its start-up line. */
export function startProxyProcess(args: string[], env: Record<string, string> = {}): Promise<ProxyProcess> {
  const child = spawn(process.execPath, [MAIN_JS, 'proxy', '--port', '0', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`proxy did not start: ${err}`)), 30_000);
    const onData = () => {
      const match = /^Client Records proxy on (http:\/\/127\.0\.0\.1:\d+) → upstream /m.exec(out);
      if (!match) return;
      clearTimeout(timer);
      resolve({
        url: match[1]!,
        child,
        stdout: () => out,
        exited,
        stop: (signal) => {
          child.kill(signal);
          return exited;
        },
      });
    };
    child.stdout!.on('data', onData);
    void exited.then((code) => reject(new Error(`proxy exited with ${code}: ${err}`)));
  });
}
