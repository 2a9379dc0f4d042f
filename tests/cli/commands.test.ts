// The package's bin (cli/main.ts) as a user meets it: the built CLI in a
// child process. Its table of commands dispatches serve (the default), seed
// and contract; each fails in one line with exit 2, never a stack trace.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MAIN_JS } from '../support/servers';

describe('client-records-mock seed', () => {
  const seed = (...args: string[]) => spawnSync(process.execPath, [MAIN_JS, 'seed', ...args], { encoding: 'utf8', timeout: 20_000 });

  test('--out - → the data file on standard output', () => {
    const result = seed('--clients', '3', '--seed', '4', '--out', '-');

    expect(result.status).toBe(0);
    expect(JSON.parse(result.stdout)).toHaveLength(3);
  });

  test('--out in a missing folder → one line, exit 2, no stack trace', () => {
    const missing = path.join(os.tmpdir(), `crm-missing-${process.pid}`, 'clients.json');

    const result = seed('--clients', '3', '--out', missing);

    expect(result.status).toBe(2);
    expect(result.stderr).toBe(`seed: cannot write ${missing} (ENOENT)\n`);
    expect(fs.existsSync(missing)).toBe(false);
  });
});

describe('the command line', () => {
  const cli = (...args: string[]) => spawnSync(process.execPath, [MAIN_JS, ...args], { encoding: 'utf8', timeout: 20_000 });

  test('--version → the package version, exit 0', () => {
    const { version } = JSON.parse(fs.readFileSync(path.join(MAIN_JS, '../../../package.json'), 'utf8')) as { version: string };

    const result = cli('--version');

    expect(result.status).toBe(0);
    expect(result.stdout).toBe(`${version}\n`);
  });

  test('--help → lists every command of the table (serve, contract, seed, diff) and --watch', () => {
    const result = cli('--help');

    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/^Usage: client-records-mock \[serve\] \[options\] +start the mock server$/m);
    expect(result.stdout).toMatch(/^ {7}client-records-mock contract \[options\] +run the contract suite/m);
    expect(result.stdout).toMatch(/^ {7}client-records-mock seed \[options\] +write a data file/m);
    expect(result.stdout).toMatch(/^ {7}client-records-mock diff OLD NEW \[--json\] +say whether a spec edit breaks clients/m);
    // One column of summaries.
    const columns = result.stdout
      .split('\n')
      .filter((line) => /client-records-mock \S/.test(line))
      .map((line) => line.search(/ {3}\S+[^\]]*$/));
    expect(new Set(columns).size).toBe(1);
    expect(result.stdout).toMatch(/--watch/);
  });

  test.each([
    [['serve', '--help'], /^Usage: client-records-mock \[serve\]/],
    [['contract', '--help'], /^Usage: client-records-mock contract \[--base-url URL\]/],
    [['seed', '--help'], /^usage: client-records-mock seed --clients N/],
    [['diff', '--help'], /^Usage: client-records-mock diff OLD NEW \[--json\]/],
  ])("%j → that command's usage, exit 0", (args, usage) => {
    const result = cli(...args);

    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(usage);
  });

  test.each([
    [['--watch', '--workers', '2'], 'client-records-mock: --watch needs WORKERS=1\n'],
    [['stray'], 'client-records-mock: unexpected argument "stray" (see --help)\n'],
    [['--log-format', 'fancy'], 'client-records-mock: invalid --log-format="fancy": must be one of auto, pretty, json\n'],
  ])('%j → one line, exit 2', (args, line) => {
    const result = cli(...args);

    expect(result.status).toBe(2);
    expect(result.stderr).toBe(line);
  });
});
