// The one settings machinery (settings/) on its own: rows of every kind a
// command declares (a value, a switch, a bare-able flag, a repeated flag, a
// secret), read from real argv and environment values, and the help printed
// from them. The commands' own tests hold each command's rows and wording.
import { loadSettings } from '../../settings/argv';
import { describeRows, helpTable, resolveOptions, SettingError, type Rows } from '../../settings/table';

interface Demo {
  port: number;
  mode: 'off' | 'soft' | 'hard';
  quiet: boolean;
  out: readonly string[];
  key: string;
}

function whole(raw: string): number {
  if (!/^\d+$/.test(raw.trim())) throw new Error('must be a whole number');
  return Number(raw);
}

const ROWS: Rows<Demo> = [
  { key: 'port', flag: '--port', env: 'DEMO_PORT', fallback: '4000', help: 'port to listen on', parse: whole },
  {
    key: 'mode',
    flag: '--mode',
    env: 'DEMO_MODE',
    fallback: 'off',
    bare: 'soft',
    bareValues: ['off', 'soft', 'hard'],
    help: 'how strict',
    parse: (raw) => {
      if (raw !== 'off' && raw !== 'soft' && raw !== 'hard') throw new Error('must be off, soft or hard');
      return raw;
    },
  },
  { key: 'quiet', flag: '--quiet', switch: true, fallback: 'off', help: 'say less', parse: (raw) => raw === 'on' },
  { key: 'out', flag: '--out', value: 'FILE', repeat: true, fallback: '', help: 'a report file; repeat', parseAll: (raws) => [...raws] },
  {
    key: 'key',
    flag: '--key',
    env: 'DEMO_KEY',
    fallback: 'dev',
    secret: true,
    help: 'a secret',
    parse: (raw) => {
      if (raw.includes(' ')) throw new Error('must have no spaces');
      return raw;
    },
  },
];

const load = (argv: string[], env: Record<string, string> = {}) => loadSettings(ROWS, argv, env).values;

describe('the parser: argv and the environment → a typed frozen object', () => {
  test('nothing given → every fallback through its parser, frozen', () => {
    const values = load([]);

    expect(values).toEqual({ port: 4000, mode: 'off', quiet: false, out: [], key: 'dev' });
    expect(Object.isFrozen(values)).toBe(true);
  });

  test('`--port 0` and `--port=0` both work; the flag wins over its variable, the variable over the fallback', () => {
    expect(load(['--port', '0'], { DEMO_PORT: '5000' }).port).toBe(0);
    expect(load(['--port=0']).port).toBe(0);
    expect(load([], { DEMO_PORT: '5000' }).port).toBe(5000);
  });

  test('a switch takes no value: present is on; given a value it is one line naming it', () => {
    expect(load(['--quiet']).quiet).toBe(true);
    expect(() => load(['--quiet=yes'])).toThrow(new SettingError('option --quiet takes no value'));
  });

  test('a bare-able flag alone means its bare value, and still takes one of its values after it', () => {
    expect(load(['--mode']).mode).toBe('soft');
    expect(load(['--mode', '--quiet'])).toMatchObject({ mode: 'soft', quiet: true });
    expect(load(['--mode', 'hard']).mode).toBe('hard');
    expect(load(['--mode=off']).mode).toBe('off');
  });

  test('a repeated flag keeps every value in order', () => {
    expect(load(['--out', 'a.json', '--out=b.xml']).out).toEqual(['a.json', 'b.xml']);
  });

  test.each([
    [['--port', 'x'], {}, 'invalid --port="x": must be a whole number'],
    [[], { DEMO_PORT: '0x10' }, 'invalid DEMO_PORT="0x10": must be a whole number'],
    [['--mode=sometimes'], {}, 'invalid --mode="sometimes": must be off, soft or hard'],
    [['--key', 'a b'], {}, 'invalid --key: must have no spaces'],
    [['--bogus', '1'], {}, 'unknown option --bogus (see --help)'],
    [['stray'], {}, 'unexpected argument "stray" (see --help)'],
    [['--port'], {}, 'option --port needs a value'],
  ])('%j with env %j → one SettingError line: %s', (argv, env, message) => {
    let thrown: unknown;
    try {
      load(argv, env);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(SettingError);
    expect((thrown as Error).message).toBe(message);
  });

  test("a command's wording, positionals and --help", () => {
    const rules = { help: true, positionals: true, wording: { unknown: (raw: string) => `Unknown option '${raw}'` } };

    expect(loadSettings(ROWS, ['old.yaml', '--quiet', 'new.yaml'], {}, rules).positionals).toEqual(['old.yaml', 'new.yaml']);
    expect(loadSettings(ROWS, ['-h'], {}, rules).help).toBe(true);
    expect(loadSettings(ROWS, ['--help', '--port', 'x'], {}, rules).help).toBe(true);
    expect(() => loadSettings(ROWS, ['--nope'], {}, rules)).toThrow("Unknown option '--nope'");
    expect(() => load(['--help'])).toThrow('unknown option --help (see --help)');
  });
});

describe("a program's options go through the same rows", () => {
  test('typed values become the text their row parses; an unknown option or a bad value is named', () => {
    expect(resolveOptions(ROWS, { port: 0, quiet: true, out: ['x.json'] })).toMatchObject({ port: 0, quiet: true, out: ['x.json'] });
    expect(resolveOptions(ROWS, {}).out).toEqual([]);
    expect(resolveOptions(ROWS, { mode: 'hard' }).mode).toBe('hard');
    expect(() => resolveOptions(ROWS, { nope: 1 })).toThrow(new SettingError('unknown option nope'));
    expect(() => resolveOptions(ROWS, { port: -1 })).toThrow(new SettingError('invalid option port="-1": must be a whole number'));
  });
});

describe('the help printer', () => {
  test('one line per row in its order, the value placeholder, [<value>] for a bare-able flag, continuation lines lined up', () => {
    const rows: Rows<{ a: string; b: boolean }> = [
      { key: 'a', flag: '--a', env: 'A', fallback: '', bare: 'x', help: 'first line\nsecond line', parse: (raw) => raw },
      { key: 'b', flag: '--b', env: 'B', fallback: 'off', switch: true, help: 'a switch', parse: (raw) => raw === 'on' },
    ];

    expect(helpTable(rows, { flagWidth: 14, envWidth: 3, defaults: true, heading: true }).join('\n').split('\n')).toEqual([
      '  flag           environment meaning',
      '  --a [<value>]  A   first line',
      '                     second line (default: none)',
      '  --b            B   a switch (default: off)',
    ]);
    expect(describeRows(rows)).toEqual([
      { flag: '--a', env: 'A', fallback: '' },
      { flag: '--b', env: 'B', fallback: 'off' },
    ]);
  });
});
