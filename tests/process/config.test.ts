import { spawnSync } from 'node:child_process';
import { ConfigError, configFromOptions, loadConfig } from '../../server/process/config';
import { defaultMaxConnections, fdLimit } from '../../server/listener/connections';
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
    [{ CLIENTS: '0' }, 'clients', 0],
    [{ DATA_FILE: '' }, 'dataFile', undefined],
    [{ DATA_FILE_MAX_MB: '10' }, 'dataFileMaxMb', 10],
    [{ MAX_CONNECTIONS: '300' }, 'maxConnections', 300],
    [{ ERROR_RATE: '1' }, 'errorRate', 1],
    [{ ERROR_RATE: '0.5' }, 'errorRate', 0.5],
  ])('env %j → %s', (env, key, value) => {
    expect(loadConfig([], env)[key as keyof ReturnType<typeof loadConfig>]).toEqual(value);
  });

  test.each([
    [[], { PORT: 'abc' }, 'invalid PORT="abc": must be a whole number from 0 to 65535'],
    [['--port', '70000'], {}, 'invalid --port="70000"'],
    [[], { CLIENTS: '-1' }, 'invalid CLIENTS="-1": must be a whole number from 0 to 1000000'],
    [[], { ERROR_RATE: '0x1' }, 'invalid ERROR_RATE="0x1": must be a decimal number from 0 to 1'],
    [[], { ERROR_RATE: '1e0' }, 'invalid ERROR_RATE="1e0"'],
    [[], { ERROR_RATE: '.5' }, 'invalid ERROR_RATE=".5"'],
    [[], { PORT: '0x10' }, 'invalid PORT="0x10"'],
    [[], { CLIENTS: '1e3' }, 'invalid CLIENTS="1e3"'],
    [[], { CACHE_MB: '0b1' }, 'invalid CACHE_MB="0b1"'],
    [[], { SEED: '1.0' }, 'invalid SEED="1.0"'],
    [[], { DATA_FILE: '  ' }, 'invalid DATA_FILE="  ": must be a file path'],
    [[], { DATA_FILE_MAX_MB: '0' }, 'invalid DATA_FILE_MAX_MB'],
    [[], { MAX_CONNECTIONS: '0' }, 'invalid MAX_CONNECTIONS'],
    [[], { MAX_CONNECTIONS: 'lots' }, 'invalid MAX_CONNECTIONS'],
    [[], { CLIENTS: '1000001' }, 'invalid CLIENTS'],
    [[], { SEED: '-1' }, 'invalid SEED'],
    [[], { LATENCY_MS: '400-100' }, 'invalid LATENCY_MS="400-100"'],
    [[], { LATENCY_MS: 'slow' }, 'invalid LATENCY_MS'],
    [[], { ERROR_RATE: '1.5' }, 'invalid ERROR_RATE="1.5": must be a decimal number from 0 to 1'],
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

  test('MAX_CONNECTIONS unset → derived from the file-descriptor limit, below it', () => {
    const limit = fdLimit();

    const { maxConnections } = loadConfig([], {});

    expect(maxConnections).toBe(defaultMaxConnections());
    expect(maxConnections).toBeGreaterThan(0);
    expect(maxConnections).toBeLessThan(limit);
  });

  test('a bad API_KEYS value → named, never echoed', () => {
    expect(() => loadConfig([], { API_KEYS: 'secret\u0001key' })).toThrow(/^invalid API_KEYS: keys must be/);
    expect(() => loadConfig([], { API_KEYS: 'secret\u0001key' })).not.toThrow(/secret/);
  });
});

describe('configFromOptions(options): the programmatic API', () => {
  test('typed values → the same Config the command line gives for their text', () => {
    const config = configFromOptions({ clients: 0, auth: false, latencyMs: { min: 100, max: 400 }, apiKeys: ['a', 'b'] });

    expect(config).toEqual(loadConfig(['--clients', '0', '--auth', 'off', '--latency', '100-400', '--api-keys', 'a,b'], {}));
  });

  test('a small fraction such as 1e-7 → accepted as the number it is, not refused as exponent notation', () => {
    expect(configFromOptions({ errorRate: 1e-7 }).errorRate).toBe(1e-7);
  });

  test.each([
    [{ clients: -1 }, /invalid option clients="-1"/],
    [{ nope: 1 } as object, /unknown option nope/],
  ])('%j → a ConfigError naming the option', (options, message) => {
    expect(() => configFromOptions(options)).toThrow(ConfigError);
    expect(() => configFromOptions(options)).toThrow(message);
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
    [['--spec', '/nonexistent/openapi.yaml'], {}, /^client-records-mock: .*\/nonexistent\/openapi\.yaml/],
    [['--spec', __filename], {}, /^client-records-mock: .*config\.test\.ts/],
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
      '--data-max-mb',
      '--max-connections',
    ]) {
      expect(result.stdout).toContain(flag);
    }
  });

  test('--workers 3 with a bad data file → exit 2, the error printed once (by the primary)', () => {
    const result = run(['--port', '0', '--workers', '3', '--control', 'off', '--data', '/nowhere/clients.json'], { LOG_LEVEL: 'silent' });

    expect(result.status).toBe(2);
    expect(result.stderr).toBe('client-records-mock: DATA_FILE /nowhere/clients.json: cannot be read (ENOENT)\n');
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
      const result = run(['--port', String(port), '--workers', '2', '--control', 'off'], { LOG_LEVEL: 'silent' });

      expect(result.status).toBe(2);
      expect(result.stderr).toMatch(/^client-records-mock: cannot listen on .*\(EADDRINUSE\)\n$/);
      expect(result.stderr).not.toContain('starting another');
    } finally {
      blocker.close();
    }
  });
});
