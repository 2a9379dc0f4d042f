// The shared state's settings (server/process/config.ts: --state,
// --state-prefix, --state-ttl) and the start-up refusals they bring: a value
// that is no Redis URL, a Redis that does not answer, --workers without
// --state. Each is one line and exit 2 within seconds (docs/decisions.md),
// from the built CLI and from startServer().
import { spawnSync } from 'node:child_process';
import { startServer } from '../../server';
import { loadConfig } from '../../server/process/config';
import { MAIN_JS } from '../support/servers';
import { freePort } from '../../tools/processes';

jest.setTimeout(60_000);

const run = (args: string[], env: Record<string, string> = {}) =>
  spawnSync(process.execPath, [MAIN_JS, '--port', '0', ...args], {
    encoding: 'utf8',
    timeout: 20_000,
    env: { ...process.env, LOG_LEVEL: 'silent', ...env },
  });

describe('--state', () => {
  test('unset → undefined (this process keeps its state); the prefix crm: and a day of session TTL by default', () => {
    expect(loadConfig([], {})).toMatchObject({ state: undefined, statePrefix: 'crm:', stateTtl: 86_400 });
  });

  test.each(['redis://127.0.0.1:6379', 'rediss://user:secret@redis.example:6380/2', 'redis://redis'])('%s → taken as given', (url) => {
    expect(loadConfig(['--state', url], {}).state).toBe(url);
  });

  test.each(['http://127.0.0.1:6379', 'redis:///', 'redis://h:1/x', '127.0.0.1:6379', 'redis://h?db=1'])(
    '%s → one line naming --state, exit 2',
    (url) => {
      const result = run(['--state', url]);

      expect(result.status).toBe(2);
      expect(result.stderr).toMatch(
        /^client-records-mock: invalid --state="[^"]*": must be a Redis URL such as redis:\/\/127\.0\.0\.1:6379[^\n]*\n$/,
      );
    },
  );

  test('a Redis that does not answer → exit 2 (within 5 s), one line naming the setting, the address and why', async () => {
    const port = await freePort();

    const result = run([], { STATE: `redis://127.0.0.1:${port}` });

    expect(result.status).toBe(2);
    expect(result.stderr).toBe(
      `client-records-mock: invalid --state (STATE): no Redis answered at redis://127.0.0.1:${port} within 5 s (ECONNREFUSED)\n`,
    );
  });

  test('startServer({ state }) with a Redis that does not answer → rejects with the same line', async () => {
    const port = await freePort();

    await expect(startServer({ state: `redis://127.0.0.1:${port}` })).rejects.toThrow(
      `invalid --state (STATE): no Redis answered at redis://127.0.0.1:${port} within 5 s (ECONNREFUSED)`,
    );
  });

  test.each([
    [['--state-prefix', 'has space'], /^client-records-mock: invalid --state-prefix="has space": must be 1 to 64 characters/],
    [['--state-ttl', '5'], /^client-records-mock: invalid --state-ttl="5": must be a whole number from 60 to 2592000\n$/],
  ])('%j → one line naming it, exit 2', (args, line) => {
    const result = run(args);

    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(line);
  });
});

describe('--workers without --state', () => {
  test('--workers 2 with the control API on → exit 2: give --state, or turn the control API off', () => {
    const result = run(['--workers', '2']);

    expect(result.status).toBe(2);
    expect(result.stderr).toBe(
      'client-records-mock: --workers 2 shares the control state between workers only through Redis: add --state redis://HOST:PORT, or set --control off\n',
    );
  });

  test('--workers 2, control off, a coverage report asked for → exit 2: the counts too are shared only through --state', () => {
    const result = run(['--workers', '2', '--control', 'off', '--coverage-out', '/tmp/never.json']);

    expect(result.status).toBe(2);
    expect(result.stderr).toContain('add --state redis://HOST:PORT, or set no --coverage-out or --coverage-min');
  });
});
