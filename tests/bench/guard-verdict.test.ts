// The regression guard's rule (bench/guard-verdict.ts, issue 37 item 3): a ratio more than 25 % below its
// committed value fails, with a line saying measured, committed and floor; the committed file is read
// strictly, so a typo in it stops CI with one line instead of guarding nothing.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { judge, readBaseline } from '../../bench/guard-verdict';

const COMMITTED = path.join(__dirname, '../../bench/guard-baseline.json');

function baselineFile(content: unknown): string {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'guard-baseline-')), 'baseline.json');
  fs.writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
  return file;
}

describe('readBaseline', () => {
  test('the committed file → a positive value for every guarded ratio', () => {
    const baseline = readBaseline(COMMITTED);

    expect(baseline.ping).toBeGreaterThan(0);
    expect(baseline.varied).toBeGreaterThan(0);
  });

  test.each([
    ['not JSON', '{ratios', /baseline\.json: .*JSON/],
    ['no ratios', { about: 'x' }, /no "ratios" object/],
    ['a missing ratio', { ratios: { ping: 1 } }, /ratios\.varied must be a positive number .*got undefined/],
    ['a zero', { ratios: { ping: 0, varied: 3 } }, /ratios\.ping must be a positive number/],
    ['a string', { ratios: { ping: '1.5', varied: 3 } }, /ratios\.ping must be a positive number .*got "1\.5"/],
    ['a name the guard does not measure', { ratios: { ping: 1, varied: 3, pong: 2 } }, /does not measure: pong/],
  ])('%s → one line naming the file and the problem', (_name, content, message) => {
    const file = baselineFile(content);

    expect(() => readBaseline(file)).toThrow(message);
    expect(() => readBaseline(file)).toThrow(new RegExp(file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
  });
});

describe('judge', () => {
  const baseline = { ping: 0.8, varied: 3 };

  test('every ratio within 25 % of its committed value or above it → passes, a line per ratio', () => {
    const verdict = judge({ ping: 0.61, varied: 3.1 }, baseline);

    expect(verdict.failed).toBe(false);
    expect(verdict.lines).toEqual([
      'ok   Ping (cached path), ours / Express hello: measured 0.61×, committed 0.80×, floor 0.60×',
      'ok   varied mix, ours / Prism static: measured 3.10×, committed 3.00×, floor 2.25×',
    ]);
  });

  test('a ratio more than 25 % below → fails, its line saying measured, committed, floor and the drop', () => {
    const verdict = judge({ ping: 0.2, varied: 2.2 }, baseline);

    expect(verdict.failed).toBe(true);
    expect(verdict.lines).toEqual([
      'FAIL Ping (cached path), ours / Express hello: measured 0.20×, committed 0.80×, floor 0.60× (75 % below the committed value)',
      'FAIL varied mix, ours / Prism static: measured 2.20×, committed 3.00×, floor 2.25× (27 % below the committed value)',
    ]);
  });

  test('a ratio that could not be computed (NaN) → fails rather than passing unseen', () => {
    expect(judge({ ping: Number.NaN, varied: 3 }, baseline).failed).toBe(true);
  });

  test('a ratio far above its committed value → passes, and says the baseline may be raised', () => {
    const verdict = judge({ ping: 1.5, varied: 3 }, baseline);

    expect(verdict.failed).toBe(false);
    expect(verdict.lines[0]).toMatch(
      /more than 75 % above the committed value: if a change made it so, raise it in a commit that says why/,
    );
  });
});
