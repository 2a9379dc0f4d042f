// Why this file exists: one process of the differential decider (decide.ts). Given the instrumented bundle
// (instrument.ts) and the corpus, it either answers the corpus with no mutant active and writes each answer's
// fingerprint and which mutants each instance reached (`original`), or, with one mutant active (set in the
// environment before anything loads, as Stryker sets a static mutant), replays the instances that mutant can
// change and stops at the first answer that differs from the original's (`mutant`). Each instance loads the
// bundle afresh, so what one instance leaves in module state cannot reach another: an instance the mutant was
// never run in is the original's, and is not replayed. Its one line of JSON on stdout is its verdict.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { instanceName, sequenceOf, type Fingerprints, type InstanceCoverage, type WorkerJob, type WorkerVerdict } from './corpus-plan';
import type { Answer, Corpus, CorpusRequest, Instance, InstanceSpec, Road } from './roads';

interface RoadsModule {
  captureCorpus(generatedCount: number, seed: number): Promise<Corpus>;
  openInstance(spec: InstanceSpec): Promise<Instance>;
  carries(road: Road, request: CorpusRequest): boolean;
}

interface StrykerNamespace {
  activeMutant?: string;
  currentTestId?: string;
  mutantCoverage?: { static: Record<string, number>; perTest: Record<string, Record<string, number>> };
}

const namespace = ((globalThis as { __stryker__?: StrykerNamespace }).__stryker__ ??= {});

/** A fresh copy of the bundle: every module of ours evaluated anew (libraries under node_modules stay loaded). */
function freshRoads(bundle: string): RoadsModule {
  for (const key of Object.keys(require.cache)) if (key === bundle) delete require.cache[key];
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the bundle is built at run time, by path.
  return require(bundle) as RoadsModule;
}

export function fingerprint(answer: Answer): string {
  const part = (text: string | Buffer) => createHash('sha1').update(text).digest('hex').slice(0, 12);
  return `${answer.status}:${part(answer.headers)}:${part(answer.body)}`;
}

/** Lets what an instance started (timers, immediates) run out before the next instance's window opens. */
async function drain(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
  await new Promise((resolve) => setTimeout(resolve, 20));
}

function withDeadline<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<T>((_resolve, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${ms / 1000} s: ${what}`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

function describe(request: CorpusRequest): string {
  const headers = Object.entries(request.headers)
    .filter(([name]) => !/^(accept|x-api-key)$/i.test(name))
    .map(([name, value]) => ` ${name}: ${value}`)
    .join(';');
  const key = request.headers['X-Api-Key'] === undefined ? ' (no key)' : request.headers['X-Api-Key'] === 'dev-key' ? '' : ' (another key)';
  return `${request.method} ${request.path}${key}${headers ? ` [${headers.trim()}]` : ''}`;
}

async function runInstance(
  roads: RoadsModule,
  spec: InstanceSpec,
  requests: readonly CorpusRequest[],
  onAnswer: (index: number, print: string, request: CorpusRequest) => boolean,
  requestMs: number,
): Promise<void> {
  const started = performance.now();
  // Opening builds the data set and, settled, does the background work: minutes for 6,000 clients on a loaded machine.
  const instance = await withDeadline(roads.openInstance(spec), requestMs * 20, `opening ${instanceName(spec)}`);
  const opened = performance.now();
  let i = 0;
  try {
    for (; i < requests.length; i++) {
      const request = requests[i]!;
      const answer = await withDeadline(instance.answer(request), requestMs, describe(request));
      if (!onAnswer(i, fingerprint(answer), request)) return;
    }
  } finally {
    await instance.close();
    // Progress, for the decider's log: where the time goes.
    const seconds = (ms: number) => (ms / 1000).toFixed(2);
    process.stderr.write(
      `${instanceName(spec)}: opened in ${seconds(opened - started)} s, ${i} answers in ${seconds(performance.now() - opened)} s\n`,
    );
  }
}

async function original(job: WorkerJob, corpus: Corpus): Promise<WorkerVerdict> {
  const prints: Fingerprints = {};
  const coverage: InstanceCoverage = {};
  for (const spec of job.instances) {
    const name = instanceName(spec);
    namespace.currentTestId = name;
    const roads = freshRoads(job.bundle);
    const list: string[] = (prints[name] = []);
    await runInstance(roads, spec, sequenceOf(corpus, spec, roads.carries), (_i, print) => (list.push(print), true), job.requestMs);
    await drain();
    coverage[name] = Object.keys(namespace.mutantCoverage?.perTest[name] ?? {});
  }
  namespace.currentTestId = undefined;
  fs.writeFileSync(job.fingerprints, JSON.stringify(prints));
  fs.writeFileSync(job.coverage!, JSON.stringify(coverage));
  return { equivalent: true, instances: job.instances.length, requests: Object.values(prints).reduce((n, list) => n + list.length, 0) };
}

async function mutant(job: WorkerJob, corpus: Corpus): Promise<WorkerVerdict> {
  const prints = JSON.parse(fs.readFileSync(job.fingerprints, 'utf8')) as Fingerprints;
  let requests = 0;
  for (const spec of job.instances) {
    const name = instanceName(spec);
    const expected = prints[name]!;
    const roads = freshRoads(job.bundle);
    let difference: WorkerVerdict | undefined;
    try {
      await runInstance(
        roads,
        spec,
        sequenceOf(corpus, spec, roads.carries),
        (i, print, request) => {
          requests++;
          if (print === expected[i]) return true;
          difference = {
            equivalent: false,
            instance: name,
            index: i,
            request: describe(request),
            original: expected[i],
            mutant: print,
            requests,
          };
          return false;
        },
        job.requestMs,
      );
    } catch (error) {
      return { equivalent: false, instance: name, error: (error as Error).message.split('\n')[0], requests };
    }
    if (difference) return difference;
    await drain();
  }
  return { equivalent: true, instances: job.instances.length, requests };
}

async function main(): Promise<void> {
  const job = JSON.parse(fs.readFileSync(process.argv[2]!, 'utf8')) as WorkerJob;
  if (job.capture) {
    const corpus = await freshRoads(job.bundle).captureCorpus(job.capture.generated, job.capture.seed);
    fs.writeFileSync(job.corpus, JSON.stringify(corpus));
    process.stdout.write(`${JSON.stringify({ suite: corpus.suite.length, generated: corpus.generated.length })}\n`);
    process.exit(0);
  }
  const corpus = JSON.parse(fs.readFileSync(job.corpus, 'utf8')) as Corpus;
  // A mutant may throw where nothing waits for it: that is an answer the original never gives.
  const escaped = new Promise<WorkerVerdict>((resolve) => {
    const report = (error: unknown) =>
      resolve({ equivalent: false, error: `escaped: ${String((error as Error)?.message ?? error).split('\n')[0]}` });
    process.on('uncaughtException', report);
    process.on('unhandledRejection', report);
  });
  const verdict = await Promise.race([job.mutant === undefined ? original(job, corpus) : mutant(job, corpus), escaped]);
  process.stdout.write(`${JSON.stringify(verdict)}\n`);
  process.exit(0);
}

// A failure outside the instances' own handling (the original's run refused a request, a corpus that will not load) is
// a verdict too: never an exit 0 with nothing said.
main().catch((error: unknown) => {
  process.stdout.write(
    `${JSON.stringify({ equivalent: false, error: `the worker failed: ${String((error as Error)?.message ?? error).split('\n')[0]}` })}\n`,
  );
  process.exit(1);
});
