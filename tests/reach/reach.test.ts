// Why: the reach harness is how the team measures the contract suite, so it must itself be right and stay
// working: the data it serves keeps every in-record rule (and the checker would notice if it did not), every
// fault and variant is really injected (its probe shows it on the faulty target and not on the clean one), exit
// codes are judged as documented (a fake suite makes each verdict happen), and a bounded real run (the typical
// shape and five faults) still goes end to end through the built suite.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ClientDetail } from '../../contract/wire-types';
import { SHAPES, shapeClients } from './data';
import { FAULTS, VARIANTS, probeContext } from './faults';
import { IMPL_FAULTS, IMPL_VARIANTS, PROXY_FAULTS, PROXY_VARIANTS } from './ids';
import { IMPL_API_KEY, startImpl, type RunningImpl } from './impl';
import { startProxy, type RunningProxy } from './proxy';
import {
  allTargets,
  markdown,
  measureTarget,
  parseJunit,
  realServer,
  selectTargets,
  suiteCommand,
  summarise,
  type RealServer,
  type Target,
} from './measure';
import { checkDataSet, codePoints, fold } from './rules';

jest.setTimeout(600_000);

describe('data shapes', () => {
  it('keep every in-record rule and are the shapes they say', () => {
    const by = Object.fromEntries(SHAPES.map((s) => [s, shapeClients(s)])) as Record<(typeof SHAPES)[number], readonly ClientDetail[]>;
    for (const s of SHAPES) expect(checkDataSet(by[s])).toEqual([]);
    expect(by.typical.length).toBe(300);
    expect(by.empty.length).toBe(0);
    expect(by.tiny1.length).toBe(1);
    expect(by.tiny2.length).toBe(2);
    expect(by.large.length).toBe(20_000);
    expect(by.noStaff.every((c) => c.Staff === null)).toBe(true);
    expect(by.noLocation.every((c) => c.Location === null)).toBe(true);
    expect(by.noInactive.every((c) => c.Status === 'Active')).toBe(true);
    expect(by.allInactive.every((c) => c.Status === 'Inactive')).toBe(true);
    const names = by.unicode.map((c) => c.PersonalInfo.FullName);
    expect(names.some((n) => /\p{Script=Greek}/u.test(n))).toBe(true);
    expect(names.some((n) => /\p{Script=Han}/u.test(n))).toBe(true);
    expect(names.some((n) => codePoints(n) === 120 && n.length > 120)).toBe(true); // astral: 120 code points, more UTF-16 units
    expect(names.some((n) => /[øæßłđœðþı]/u.test(n.toLowerCase()))).toBe(true);
    expect(names.some((n) => /[ŋħə]/u.test(n.toLowerCase()))).toBe(true);
    // Ties at the collator's primary strength exist, so the tie-break is exercised.
    const folded = by.typical.map((c) => fold(c.PersonalInfo.FullName));
    expect(new Set(folded).size).toBeLessThan(folded.length);
  });

  it('the checker rejects a record that breaks a rule', () => {
    const good = structuredClone(shapeClients('tiny1')[0]!);
    const pid = good.PersonalInfo.PersonalId;
    const badLuhn = { ...good, PersonalInfo: { ...good.PersonalInfo, PersonalId: pid.slice(0, 12) + String((Number(pid[12]) + 1) % 10) } };
    expect(checkDataSet([badLuhn]).join()).toMatch(/Luhn/);
    const badName = {
      ...good,
      PersonalInfo: { ...good.PersonalInfo, FullName: `${good.PersonalInfo.FirstName}  ${good.PersonalInfo.LastName}` },
    };
    expect(checkDataSet([badName]).join()).toMatch(/FullName/);
    expect(checkDataSet([good, { ...good, IdClient: good.IdClient.toUpperCase() }]).join()).toMatch(/duplicate IdClient/);
  });
});

describe('faults and variants', () => {
  let real: RealServer;
  let cleanImpl: RunningImpl;
  let cleanProxy: RunningProxy;

  beforeAll(async () => {
    real = realServer();
    cleanImpl = await startImpl({ shape: 'typical' });
    cleanProxy = await startProxy({ upstream: await real.url() });
  });
  afterAll(async () => {
    await cleanImpl.close();
    await cleanProxy.close();
    await real.close();
  });

  it('the catalogue lists every injectable fault and variant once, with a quoted sentence; at least 40 faults and 10 variants', () => {
    expect(FAULTS.map((f) => f.id).sort()).toEqual([...IMPL_FAULTS, ...PROXY_FAULTS].sort());
    expect(VARIANTS.map((v) => v.id).sort()).toEqual([...IMPL_VARIANTS, ...PROXY_VARIANTS].sort());
    expect(FAULTS.length).toBeGreaterThanOrEqual(40);
    expect(VARIANTS.length).toBeGreaterThanOrEqual(10);
    for (const f of FAULTS) expect(f.breaks.length).toBeGreaterThan(5);
  });

  it('each one shows on its own target and not on the clean one', async () => {
    const wrong: string[] = [];
    for (const f of [...FAULTS, ...VARIANTS]) {
      const proxy = f.injection === 'proxy';
      const key = proxy ? 'dev-key' : IMPL_API_KEY;
      const isFault = FAULTS.includes(f as (typeof FAULTS)[number]);
      const target = proxy
        ? await startProxy({ upstream: await real.url(), ...(isFault ? { fault: f.id as never } : { variant: f.id as never }) })
        : await startImpl({ shape: 'typical', ...(isFault ? { fault: f.id as never } : { variant: f.id as never }) });
      try {
        const onTarget = await f.shows(probeContext(target.url, key));
        const onClean = await f.shows(probeContext((proxy ? cleanProxy : cleanImpl).url, key));
        if (onTarget !== true || onClean !== false)
          wrong.push(`${f.id}: on its target ${String(onTarget)}, on the clean one ${String(onClean)}`);
      } finally {
        await target.close();
      }
    }
    expect(wrong).toEqual([]);
  });
});

describe('the harness', () => {
  let dir: string;
  let real: RealServer;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'reach-test-'));
    real = realServer();
  });
  afterAll(async () => {
    await real.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** A stand-in suite: writes a JUnit report with one failed and one skipped case, exits with `code`. */
  function fakeSuite(code: number) {
    const script = path.join(dir, `suite-${code}.js`);
    fs.writeFileSync(
      script,
      `const i = process.argv.indexOf('--junit'); require('fs').writeFileSync(process.argv[i + 1], ` +
        `'<testsuites><testsuite name="s"><testcase classname="c" name="ok"/>' + ` +
        `'<testcase classname="c" name="bad &amp; wrong"><failure message="expected 1, got 2&#10;more">x</failure></testcase>' + ` +
        `'<testcase classname="c" name="later"><skipped message="no client has a Staff"/></testcase></testsuite></testsuites>'); ` +
        `console.log('ran against', process.argv[process.argv.indexOf('--base-url') + 1]); process.exit(${code});`,
    );
    return { command: process.execPath, args: [script] };
  }
  const opts = (code: number) => ({ runs: 1, timeoutMs: 60_000, suite: fakeSuite(code), workDir: dir });
  const target = (kind: string, id: string) => allTargets().find((t) => t.kind === kind && t.id === id)!;

  it('parses JUnit: failed and skipped cases with the first line of their message', () => {
    const r = parseJunit(
      '<testcase classname="a" name="x &quot;y&quot; when page > 1"><failure message="m1&#10;m2"/></testcase>' +
        '<testcase name=\'z\'><skipped>why&#10;not</skipped></testcase><testcase name="ok" time="0.1"/>',
    );
    expect(r).toEqual({ tests: 3, failed: [{ name: 'a › x "y" when page > 1', message: 'm1' }], skipped: [{ name: 'z', message: 'why' }] });
  });

  it('judges exit codes: 1 catches a fault and is a false alarm on a shape, 0 misses, 2 and 3 are problems', async () => {
    const fault = target('fault', 'err.exception-code');
    const shape = target('shape', 'tiny2');
    const caught = await measureTarget(fault, real, opts(1));
    expect(caught).toMatchObject({ verdict: 'caught', exitCode: 1, tests: 3 });
    expect(caught.failed).toEqual([{ name: 'c › bad & wrong', message: 'expected 1, got 2' }]);
    expect(caught.skipped).toEqual([{ name: 'c › later', message: 'no client has a Staff' }]);
    expect((await measureTarget(fault, real, opts(0))).verdict).toBe('missed');
    expect((await measureTarget(shape, real, opts(1))).verdict).toBe('false alarm');
    expect((await measureTarget(shape, real, opts(0))).verdict).toBe('passed');
    for (const code of [2, 3]) {
      const r = await measureTarget(fault, real, opts(code));
      expect(r.verdict).toBe('problem');
      expect(r.problem).toMatch(new RegExp(`^exit ${code}`));
    }
    const proxied = await measureTarget(target('fault', 'px.no-date'), real, opts(1));
    expect(proxied.verdict).toBe('caught');
  });

  it('a fault that is not live is a problem, never a miss', async () => {
    const fault = target('fault', 'err.exception-code');
    const dead: Target = { ...fault, start: async () => ({ ...(await startImpl({ shape: 'typical' })), apiKey: IMPL_API_KEY }) };
    const r = await measureTarget(dead, real, opts(0));
    expect(r.verdict).toBe('problem');
    expect(r.problem).toMatch(/not live/);
  });

  it('selects by id and prefix, and writes the report with the kill ratio', async () => {
    expect(selectTargets(['link.*'], ['fault']).map((t) => t.id)).toEqual(FAULTS.filter((f) => f.id.startsWith('link.')).map((f) => f.id));
    const results = [
      await measureTarget(target('fault', 'err.exception-code'), real, opts(1)),
      await measureTarget(target('fault', 'schema.pong-object'), real, opts(0)),
      await measureTarget(target('shape', 'tiny1'), real, opts(1)),
    ];
    expect(summarise(results)).toMatchObject({ faults: 2, caught: 1, killRatio: 0.5, passTargets: 1, falseAlarms: 1 });
    const md = markdown(results, { suite: 'fake', runs: 1, date: 'now' });
    expect(md).toContain('Faults caught: 1 / 2 (kill ratio 50.0%)');
    expect(md).toContain('| shape | tiny1 | false alarm | 1 |');
    expect(md).toContain('c › bad & wrong: expected 1, got 2');
  });
});

describe('the built contract suite, bounded: the typical shape and five faults', () => {
  // Five faults any contract suite must catch, from the error table, the security scheme, a parameter's bound,
  // a response schema and (through the proxy) the real server; the typical shape must pass.
  const ids = ['err.405-no-allow', 'err.exception-code', 'page.zero-clamped', 'auth.detail-public', 'px.pong-lowercase'];

  it('passes the typical shape and fails each fault, with its JUnit report read', async () => {
    const real = realServer();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'reach-suite-'));
    try {
      const o = { runs: 50, timeoutMs: 300_000, suite: suiteCommand(), workDir: dir };
      const targets = [...selectTargets(['typical'], ['shape']), ...selectTargets(ids, ['fault'])];
      expect(targets.map((t) => t.id)).toEqual(['typical', ...ids]);
      const results = [];
      for (const t of targets) results.push(await measureTarget(t, real, o));
      const shown = results.map(
        (r) => `${r.id}: ${r.verdict} ${r.problem ?? ''} ${r.failed.map((f) => `${f.name}: ${f.message}`).join('; ')}`,
      );
      expect({ shown, verdicts: results.map((r) => r.verdict) }).toEqual({
        shown,
        verdicts: ['passed', 'caught', 'caught', 'caught', 'caught', 'caught'],
      });
      for (const r of results) expect(r.tests).toBeGreaterThan(0);
      for (const r of results.slice(1)) expect(r.failed.length).toBeGreaterThan(0);
    } finally {
      await real.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
