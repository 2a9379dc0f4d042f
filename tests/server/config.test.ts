import { spawnSync } from 'node:child_process';
import { ConfigError, loadConfig } from '../../server/config';
import { MAIN_JS } from '../support/servers';

describe('loadConfig(argv, env)', () => {
  test('no flags, no env → the documented defaults', () => {
    const config = loadConfig([], {});

    expect(config).toMatchObject({
      port: 4000,
      host: '127.0.0.1',
      seed: 1,
      clients: 1000,
      dataFile: undefined,
      apiKeys: ['dev-key'],
      apiKeysGiven: false,
      auth: true,
      latencyMs: { min: 0, max: 0 },
      errorRate: 0,
      validateResponses: true,
      corsOrigins: '*',
      logLevel: 'info',
      workers: 1,
      cache: true,
    });
    expect(Object.isFrozen(config)).toBe(true);
  });

  test('a flag wins over its environment variable; --flag=value and --flag value both work', () => {
    const config = loadConfig(['--port', '5000', '--seed=9'], { PORT: '6000', SEED: '3', CLIENTS: '50' });

    expect([config.port, config.seed, config.clients]).toEqual([5000, 9, 50]);
  });

  test.each([
    [{ LATENCY_MS: '200' }, 'latencyMs', { min: 200, max: 200 }],
    [{ LATENCY_MS: '100-400' }, 'latencyMs', { min: 100, max: 400 }],
    [{ ERROR_RATE: '0.25' }, 'errorRate', 0.25],
    [{ AUTH: 'off' }, 'auth', false],
    [{ VALIDATE_RESPONSES: 'off' }, 'validateResponses', false],
    [
      { CORS_ORIGINS: 'http://localhost:5173, https://app.example.com' },
      'corsOrigins',
      ['http://localhost:5173', 'https://app.example.com'],
    ],
    [{ API_KEYS: 'a-key,b-key' }, 'apiKeys', ['a-key', 'b-key']],
    [{ DATA_FILE: 'clients.json' }, 'dataFile', 'clients.json'],
    [{ PORT: '0' }, 'port', 0],
    [{ CLIENTS: '1000000' }, 'clients', 1_000_000],
  ])('env %j → %s', (env, key, value) => {
    expect(loadConfig([], env)[key as keyof ReturnType<typeof loadConfig>]).toEqual(value);
  });

  test.each([
    [[], { PORT: 'abc' }, 'invalid PORT="abc": must be a whole number from 0 to 65535'],
    [['--port', '70000'], {}, 'invalid --port="70000"'],
    [[], { CLIENTS: '0' }, 'invalid CLIENTS="0": must be a whole number from 1 to 1000000'],
    [[], { CLIENTS: '1000001' }, 'invalid CLIENTS'],
    [[], { SEED: '-1' }, 'invalid SEED'],
    [[], { LATENCY_MS: '400-100' }, 'invalid LATENCY_MS="400-100"'],
    [[], { LATENCY_MS: 'slow' }, 'invalid LATENCY_MS'],
    [[], { ERROR_RATE: '1.5' }, 'invalid ERROR_RATE="1.5": must be a number from 0 to 1'],
    [[], { ERROR_RATE: '' }, 'invalid ERROR_RATE'],
    [[], { AUTH: 'maybe' }, 'invalid AUTH="maybe": must be on or off'],
    [[], { CORS_ORIGINS: 'localhost' }, 'invalid CORS_ORIGINS'],
    [[], { LOG_LEVEL: 'verbose' }, 'invalid LOG_LEVEL="verbose"'],
    [[], { WORKERS: '0' }, 'invalid WORKERS'],
    [['--bogus', '1'], {}, 'unknown option --bogus'],
    [['--port'], {}, 'option --port needs a value'],
  ])('argv %j, env %j → ConfigError naming the setting', (argv, env, message) => {
    expect(() => loadConfig(argv, env)).toThrow(ConfigError);
    expect(() => loadConfig(argv, env)).toThrow(message);
  });

  test('a bad API_KEYS value → named, never echoed', () => {
    expect(() => loadConfig([], { API_KEYS: 'secret\u0001key' })).toThrow(/^invalid API_KEYS: keys must be/);
    expect(() => loadConfig([], { API_KEYS: 'secret\u0001key' })).not.toThrow(/secret/);
  });
});

describe('the CLI', () => {
  const run = (args: string[], env: Record<string, string> = {}) =>
    spawnSync(process.execPath, [MAIN_JS, ...args], { encoding: 'utf8', timeout: 20_000, env: { ...process.env, ...env } });

  test.each([
    [['--port', 'x'], {}, /^client-records-mock: invalid --port="x": must be a whole number from 0 to 65535\n$/],
    [[], { CLIENTS: 'many' }, /^client-records-mock: invalid CLIENTS="many"/],
    [[], { ERROR_RATE: '2' }, /^client-records-mock: invalid ERROR_RATE="2"/],
    [['--nope'], {}, /^client-records-mock: unknown option --nope/],
  ])('client-records-mock %j with env %j → exit 2 and one line on stderr', (args, env, message) => {
    const result = run(args, env);

    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stdout).toBe('');
  });

  test('client-records-mock --help → the settings table, exit 0', () => {
    const result = run(['--help']);

    expect(result.status).toBe(0);
    for (const flag of [
      '--port',
      '--seed',
      '--clients',
      '--data',
      '--api-keys',
      '--auth',
      '--latency',
      '--error-rate',
      '--cors-origins',
      '--log-level',
      '--workers',
    ]) {
      expect(result.stdout).toContain(flag);
    }
  });

  test('a port already in use → exit 2 naming host and port', async () => {
    const net = await import('node:net');
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;

    try {
      const result = run(['--port', String(port)], { LOG_LEVEL: 'silent' });

      expect(result.status).toBe(2);
      expect(result.stderr).toContain(`cannot listen on 127.0.0.1:${port} (EADDRINUSE)`);
    } finally {
      blocker.close();
    }
  });

  test('--workers 2 on a port already in use → exit 2, workers are not restarted forever', async () => {
    const net = await import('node:net');
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;

    try {
      const result = run(['--port', String(port), '--workers', '2'], { LOG_LEVEL: 'silent' });

      expect(result.status).toBe(2);
      expect(result.stderr).toContain('(EADDRINUSE)');
      expect(result.stderr).not.toContain('starting another');
    } finally {
      blocker.close();
    }
  });
});
