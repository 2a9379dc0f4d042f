// The mutation score's machinery (tools/mutation/, docs/mutation.md) on mutants whose answer is known: Stryker's own
// instrumentation of two server files (the built tools/mutation/instrument.js), bundled with the roads, a small corpus answered in-process by the original
// and then by one mutant at a time, each in a worker process of its own. A mutant of what only the log line reads
// (the logger is silent) answers byte for byte as the original: equivalent. A mutant of the error catalogue's
// message (a static mutant: module-level code) changes the 401 body: not equivalent, with the request named. A
// mutant the corpus never runs is reported as such. And the score is computed from statuses and verdicts.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { INSTANCES, instancesReaching, type InstanceCoverage, type WorkerJob } from '../../tools/mutation/corpus-plan';
import type { DeciderMutant } from '../../tools/mutation/instrument';
import type { Corpus, CorpusRequest } from '../../tools/mutation/roads';
import { runWorker } from '../../tools/mutation/run-worker';
import { scoreOf, verdictOf, wilson } from '../../tools/mutation/score';
import { ROOT } from '../support/servers';

const WORK = path.join(ROOT, 'test-artifacts/mutation-decider');

/** The line (from 1) of the first line of a file that matches. */
function lineOf(file: string, text: RegExp): number {
  return (
    fs
      .readFileSync(path.join(ROOT, file), 'utf8')
      .split('\n')
      .findIndex((line) => text.test(line)) + 1
  );
}
const KEYED = { Accept: 'application/json', 'X-Api-Key': 'dev-key' };
const request = (pathAndQuery: string, headers: Record<string, string> = KEYED): CorpusRequest => ({
  method: 'GET',
  path: pathAndQuery,
  headers,
  raw: false,
});
const corpus: Corpus = {
  suite: [
    request('/api/v1/Client/Simple?pageSize=2'),
    request('/api/v1/Ping'),
    request('/api/v1/Client/Simple', { Accept: 'application/json' }),
    // Methods Node's parser does not read (the suite sends both): answered through the listener, not refused by the injector.
    { ...request('/api/v1/Client/Simple'), method: 'BREW', raw: true },
    { ...request('/api/v1/Client/Simple'), method: 'get', raw: true },
  ],
  generated: [request('/api/v1/Client/Extended?filter=a')],
  seed: 1,
};
/**
 * list-order.ts's select(), the first page of a lazy store: a range, as the whole file holds a `!++` (its counting
 * sort) that Stryker's instrumenter cannot take (stryker.config.mjs steps over such lines).
 */
const SELECT = `server/engine/list-order.ts:${lineOf('server/engine/list-order.ts', /^function select\(/)}-${lineOf('server/engine/list-order.ts', /^function sortClients\(/) - 1}`;

/** Two instances: the server's app over one client, and the MSW handlers over one. */
const instances = INSTANCES.filter((spec) => spec.clients === 1 && spec.state === 'cold');

let mutants: DeciderMutant[];
let job: WorkerJob;
let coverage: InstanceCoverage;

beforeAll(async () => {
  fs.rmSync(WORK, { recursive: true, force: true });
  fs.mkdirSync(WORK, { recursive: true });
  // The instrumenter is an ES module, which jest's module system cannot load: the built command runs it.
  execFileSync(
    process.execPath,
    [path.join(ROOT, 'dist/tools/mutation/instrument.js'), WORK, 'server/pipeline/request.ts', 'server/errors.ts', SELECT],
    {
      timeout: 120_000,
    },
  );
  const scope = JSON.parse(fs.readFileSync(path.join(WORK, 'mutants.json'), 'utf8')) as { bundle: string; mutants: DeciderMutant[] };
  mutants = scope.mutants;
  const bundle = scope.bundle;
  fs.writeFileSync(path.join(WORK, 'corpus.json'), JSON.stringify(corpus));
  job = {
    bundle,
    corpus: path.join(WORK, 'corpus.json'),
    fingerprints: path.join(WORK, 'fingerprints.json'),
    coverage: path.join(WORK, 'coverage.json'),
    instances,
    requestMs: 10_000,
  };
  const original = await runWorker(WORK, job, 120_000);
  expect(original).toMatchObject({ equivalent: true, requests: 18 });
  coverage = JSON.parse(fs.readFileSync(job.coverage!, 'utf8')) as InstanceCoverage;
}, 180_000);

function mutantAt(file: string, text: RegExp, mutatorName: string, replacement: string): DeciderMutant {
  const line = lineOf(file, text);
  const found = mutants.find((m) => m.file === file && m.line === line && m.mutatorName === mutatorName && m.replacement === replacement);
  if (!found) throw new Error(`no ${mutatorName} mutant ${replacement} at ${file}:${line}`);
  return found;
}

const decide = (mutant: DeciderMutant) => runWorker(WORK, { ...job, mutant: mutant.id }, 120_000, { __STRYKER_ACTIVE_MUTANT__: mutant.id });

test('a mutant of what only the (silent) log line reads answers the corpus as the original does: equivalent', async () => {
  const mutant = mutantAt('server/pipeline/request.ts', /^\s*servedFromCache: false,/, 'BooleanLiteral', 'true');
  expect(instancesReaching(coverage, mutant.id, instances)).toEqual(instances);
  expect(await decide(mutant)).toMatchObject({ equivalent: true, requests: 18 });
}, 120_000);

test("a mutant of the log line's text, which a silent logger never runs, is in no instance's coverage: equivalent unasked", () => {
  const mutant = mutantAt('server/pipeline/request.ts', /lines\.info\(line, 'request'\)/, 'StringLiteral', '""');
  expect(instancesReaching(coverage, mutant.id, instances)).toEqual([]);
});

test("a static mutant of the error catalogue's message is not equivalent, and the first differing request is named", async () => {
  const mutant = mutantAt('server/errors.ts', /MISSING_KEY_MESSAGE = /, 'StringLiteral', '""');
  const verdict = await decide(mutant);
  expect(verdict).toMatchObject({ equivalent: false, index: 2, request: 'GET /api/v1/Client/Simple (no key)' });
  // The status is the same (401); the body is not.
  expect(verdict.equivalent || verdict.original?.split(':')[0]).toBe('401');
}, 120_000);

test("a mutant of the first page's selection that only names tied under the collator bring out: equivalent on the generated data, told apart on the killer's (the lean road, a lazy store of records)", async () => {
  // select() breaks a tie of names by IdClient; the generator's 120 clients hold no such tie, the killer's order cases do.
  const tie = mutantAt(
    'server/engine/list-order.ts',
    /return source\.idOf\(a\)\.toLowerCase\(\) < source\.idOf\(b\)/,
    'EqualityOperator',
    'source.idOf(a).toLowerCase() >= source.idOf(b).toLowerCase()',
  );
  const onKillerData = INSTANCES.find((spec) => spec.road === 'lean' && spec.data === 'cases' && spec.askedFirst === undefined)!;
  const onGenerated = { ...onKillerData, data: 'generated' as const };
  const firstPage: Corpus = { suite: [request('/api/v1/Client/Simple?pageSize=100')], generated: [], seed: 1 };
  const files = (name: string) => ({
    corpus: path.join(WORK, `${name}-corpus.json`),
    fingerprints: path.join(WORK, `${name}-fingerprints.json`),
  });
  const verdicts = [];
  for (const [name, instance] of [
    ['generated', onGenerated],
    ['killer', onKillerData],
  ] as const) {
    fs.writeFileSync(files(name).corpus, JSON.stringify(firstPage));
    const lean: WorkerJob = { ...job, ...files(name), coverage: path.join(WORK, `${name}-coverage.json`), instances: [instance] };
    expect(await runWorker(WORK, lean, 120_000)).toMatchObject({ equivalent: true });
    verdicts.push(await runWorker(WORK, { ...lean, mutant: tie.id }, 120_000, { __STRYKER_ACTIVE_MUTANT__: tie.id }));
  }
  expect(verdicts[0]).toMatchObject({ equivalent: true });
  expect(verdicts[1]).toMatchObject({
    equivalent: false,
    instance: 'lean/120/cold/cases',
    request: expect.stringContaining('pageSize=100'),
  });
}, 180_000);

test('the original answers its own corpus the same in a second process (no nondeterminism to mistake for a mutant)', async () => {
  expect(await runWorker(WORK, { ...job, mutant: 'none' }, 120_000, { __STRYKER_ACTIVE_MUTANT__: 'none' })).toMatchObject({
    equivalent: true,
  });
}, 120_000);

test("a run that fails outside an instance's own handling is a verdict naming the failure, never an exit with nothing said", async () => {
  const broken = { ...job, fingerprints: path.join(WORK, 'broken-fingerprints.json'), instances: [{ ...instances[0]!, clients: -1 }] };
  expect(await runWorker(WORK, broken, 120_000)).toMatchObject({
    equivalent: false,
    error: expect.stringMatching(/^the worker failed: .*clients/),
  });
}, 120_000);

test('the score: killed and timed out are detected, a survivor is undetected unless found equivalent, and one not yet asked is left out', () => {
  const rows = [
    { status: 'Killed' as const },
    { status: 'Timeout' as const },
    { status: 'Survived' as const, equivalence: { equivalent: true as const, how: 'same answers' as const, requests: 8 } },
    { status: 'NoCoverage' as const, equivalence: { equivalent: false as const, firstDifference: 'x' } },
    { status: 'RuntimeError' as const },
    { status: 'Survived' as const },
  ];
  expect(rows.map(verdictOf)).toEqual(['detected', 'detected', 'equivalent', 'undetected', 'not scored', 'not decided']);
  const score = scoreOf(rows);
  expect(score).toMatchObject({ detected: 2, undetected: 1, equivalent: 1, notScored: 1, notDecided: 1 });
  expect(score.score).toBeCloseTo(2 / 3);
  // Wilson's 90 % interval for 9 of 10 (z = 1.645): 0.6523 to 0.9774.
  const { low, high } = wilson(9, 10);
  expect(low).toBeCloseTo(0.6523, 3);
  expect(high).toBeCloseTo(0.9774, 3);
});
