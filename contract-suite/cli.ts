// npm run contract [-- --base-url URL --api-key KEY] — the contract suite
// (tests/contract) against our server in-process, or against any deployment.
// The options become CONTRACT_* environment variables for jest; the mutation
// check (which always tests our own server) is left out when a URL is given.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { SPEC_PATH } from '../contract/spec';

const USAGE = `Usage: npm run contract -- [--base-url URL] [--api-key KEY] [--seed N] [--runs N]

  --base-url URL  check the deployment at URL (else our server, in-process on port 0)
  --api-key KEY   a key that deployment accepts in X-Api-Key (default dev-key)
  --seed N        fast-check seed of the property-based run (default 20260101)
  --runs N        number of generated requests (default 1200, at least 1000)`;

function parse(argv: readonly string[]): { env: Record<string, string>; remote: boolean } {
  const env: Record<string, string> = {};
  const names: Record<string, string> = {
    '--base-url': 'CONTRACT_BASE_URL',
    '--api-key': 'CONTRACT_API_KEY',
    '--seed': 'CONTRACT_FC_SEED',
    '--runs': 'CONTRACT_FC_RUNS',
  };
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i]!;
    const [flag, inline] = arg.split(/=(.*)/s, 2) as [string, string?];
    if (flag === '--help' || flag === '-h') {
      console.log(USAGE);
      process.exit(0);
    }
    const name = names[flag];
    const value = inline ?? argv[++i];
    if (!name || value === undefined || value === '') {
      console.error(`contract: bad option ${arg}\n${USAGE}`);
      process.exit(2);
    }
    env[name] = value;
  }
  if (env.CONTRACT_FC_RUNS !== undefined && !(Number(env.CONTRACT_FC_RUNS) >= 1000)) {
    console.error('contract: --runs must be at least 1000');
    process.exit(2);
  }
  return { env, remote: env.CONTRACT_BASE_URL !== undefined };
}

const { env, remote } = parse(process.argv.slice(2));
// The project root is where openapi.yaml is.
const root = path.dirname(SPEC_PATH);
const jest = require.resolve('jest/bin/jest', { paths: [root] });
const args = [jest, '--verbose', path.join('tests', 'contract'), ...(remote ? ['--testPathIgnorePatterns', 'mutation\\.test\\.ts$'] : [])];
if (remote) console.log(`contract suite against ${env.CONTRACT_BASE_URL}${env.CONTRACT_API_KEY ? '' : ' (key: dev-key)'}`);
const child = spawn(process.execPath, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => child.kill(signal));
child.on('exit', (code, signal) => {
  process.exitCode = code ?? (signal ? 1 : 0);
});
