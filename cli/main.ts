#!/usr/bin/env node
// The package's bin, `client-records-mock`: the one place that knows every
// command, and nothing imports it. Each command is one line of COMMANDS below,
// loaded only when asked for (a plain start loads neither the contract suite
// nor the seed writer). No command, or an option first, means serve. The
// contract suite never imports the server: when no --base-url is given, it is
// handed our own mock, started here in-process on port 0.
import fs from 'node:fs';
import path from 'node:path';
import type { StartedTarget } from '../contract-suite/cli/main';

interface Command {
  /** How it is called, after the program name, and what it does: its line in `--help`. */
  args: string;
  summary: string;
  /** Runs the command with its own arguments; resolves to the exit code, or to nothing when it keeps running (serve). */
  run(argv: readonly string[]): Promise<number | void>;
}

const PROGRAM = 'client-records-mock';

/** Our mock on 127.0.0.1 and a free port, for `contract` without --base-url; serving the run's --spec file when it names one. */
async function startOurMock(spec?: string): Promise<StartedTarget> {
  const { startServer } = await import('../server/index');
  const running = await startServer({ host: '127.0.0.1', port: 0, ...(spec ? { specFile: spec } : {}) });
  return { baseUrl: running.url, description: `our mock in-process at ${running.url}`, close: running.close };
}

// The order of this table is the order of --help. A new command is a new line.
const COMMANDS: Readonly<Record<string, Command>> = {
  serve: {
    args: '[serve] [options]',
    summary: 'start the mock server',
    run: async (argv) =>
      (await import('../server/process/serve')).runServe(argv, {
        usage: usageLines(),
        version: packageVersion(),
        specVerdict: async () => (await import('../spec-diff/format')).watchVerdict,
      }),
  },
  contract: {
    args: 'contract [options]',
    summary: 'run the contract suite (contract --help)',
    run: async (argv) => (await import('../contract-suite/cli/main')).runContractCli(argv, startOurMock),
  },
  seed: {
    args: 'seed [options]',
    summary: 'write a data file (seed --help)',
    run: async (argv) => (await import('../seeds/cli')).runSeedCli(argv),
  },
  proxy: {
    args: 'proxy --upstream URL [options]',
    summary: 'forward to a deployment, checking every exchange against the contract (proxy --help)',
    // The fallback mock reads the server's settings from the environment, as serve does (quiet: the proxy's lines are its output).
    run: async (argv) =>
      (await import('../proxy/cli')).runProxyCli(argv, process.env, {
        mockSettingsFromEnv: async (env) => {
          const { apiKeysGiven, ...config } = (await import('../server/process/config')).loadConfig([], env);
          return { ...config, ...(apiKeysGiven ? {} : { apiKeys: undefined }), logLevel: 'silent' };
        },
      }),
  },
  diff: {
    args: 'diff OLD NEW [--json]',
    summary: 'say whether a spec edit breaks clients, exit 1 if so (diff --help)',
    run: async (argv) => (await import('../spec-diff/cli')).runDiffCli(argv),
  },
  mcp: {
    args: 'mcp [--mock-url URL]',
    summary: "the mock's controls as MCP tools over stdio, for coding agents (mcp --help)",
    run: async (argv) => (await import('../mcp/server')).runMcp(argv, packageVersion()),
  },
};

/** `Usage:` and one line per command, their summaries in one column. */
function usageLines(): string[] {
  const commands = Object.values(COMMANDS);
  const width = Math.max(...commands.map((command) => command.args.length)) + 3;
  return commands.map((command, i) => `${i === 0 ? 'Usage:' : '      '} ${PROGRAM} ${command.args.padEnd(width)}${command.summary}`);
}

/** The package's version, from the package.json above this module (src and dist alike). */
function packageVersion(): string {
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    const file = path.join(dir, 'package.json');
    if (fs.existsSync(file)) {
      const pkg = JSON.parse(fs.readFileSync(file, 'utf8')) as { name?: string; version?: string };
      if (pkg.name === PROGRAM) return pkg.version ?? 'unknown';
    }
    if (path.dirname(dir) === dir) return 'unknown';
  }
}

async function main(argv: readonly string[]): Promise<void> {
  const [first, ...rest] = argv;
  const named = first !== undefined && Object.hasOwn(COMMANDS, first) ? COMMANDS[first]! : undefined;
  const code = named ? await named.run(rest) : await COMMANDS.serve!.run(argv);
  if (typeof code === 'number') process.exitCode = code;
}

void main(process.argv.slice(2));
