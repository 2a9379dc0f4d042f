// npm run contract:prism — an independent second opinion from Stoplight Prism.
// Starts our built server (port 0), puts `prism proxy openapi.yaml <server>
// --errors` in front of it, replays the contract suite's requests (every
// request the named checks send, plus a seeded sample of property-based
// requests) through the proxy, and fails on any violation Prism reports.
//
// With --errors Prism answers a response that breaks the spec with a 500
// `application/problem+json` body of type …#VIOLATIONS and an `sl-violations`
// header; both count as violations. Prism also validates requests itself and
// answers an invalid one without forwarding it (422 UNPROCESSABLE_ENTITY, 401
// for a missing key, 405/404 for an unknown method or path): those are counted
// as request-side rejections, expected for the deliberately invalid requests;
// one that our server answered with 2xx is a disagreement and fails the run.
// Prism 5.14.2 runs on Node 20 (5.16 needs Node 24).
//
// `--mutant "<name>"` puts one of the mutation check's faults (tools/mutants.ts)
// between Prism and the server, to see Prism catch it (the run then fails).
import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { runChecks } from '../contract-suite/registry';
import { requestArbitrary } from '../contract-suite/property/generators';
import { send, toCurl } from '../contract-suite/kit/http';
import type { ApiRequest, Exchange } from '../contract/exchange';
import { MUTANTS, startMutantProxy } from '../tools/mutants';
import { DEFAULT_API_KEY, type Target } from '../contract-suite/kit/target';
import { freePort, MAIN_JS, ROOT, startNodeProcess } from '../tools/processes';

const OVERALL_LIMIT_MS = 240_000;
const GENERATED_REQUESTS = Number(process.env.CONTRACT_PRISM_GENERATED ?? 300);
const SEED = Number(process.env.CONTRACT_FC_SEED ?? 20260101);

interface ProblemBody {
  type?: string;
  title?: string;
  validation?: unknown[];
}

type Verdict = 'forwarded' | 'violation' | 'rejected' | 'disagreement';

function classify(viaPrism: Exchange, direct: Exchange): { verdict: Verdict; detail: string } {
  const violations = viaPrism.headers.get('sl-violations');
  const problem = /application\/problem\+json/.test(viaPrism.headers.get('content-type') ?? '')
    ? (viaPrism.json as ProblemBody | undefined)
    : undefined;
  if (violations !== null || problem?.type?.endsWith('#VIOLATIONS')) {
    return { verdict: 'violation', detail: violations ?? JSON.stringify(problem?.validation ?? problem) };
  }
  if (problem?.type?.startsWith('https://stoplight.io/prism/errors#')) {
    const kind = `${viaPrism.status} ${problem.type.split('#')[1]}`;
    if (direct.status >= 200 && direct.status < 300)
      return {
        verdict: 'disagreement',
        detail: `Prism rejected (${kind}) a request our server answered ${direct.status}: ${JSON.stringify(problem.validation ?? problem.title)}`,
      };
    return { verdict: 'rejected', detail: kind };
  }
  return {
    verdict: 'forwarded',
    detail: viaPrism.status === direct.status ? '' : `status ${viaPrism.status} through Prism, ${direct.status} direct`,
  };
}

/** True when a path differs from its RFC 3986 normal form (§6.2.2.2 unreserved characters decoded, §5.2.4 dot segments removed). */
function isEquivalentSpelling(pathAndQuery: string): boolean {
  const path = pathAndQuery.split('?', 1)[0]!;
  const decoded = path.replace(/%([0-9A-Fa-f]{2})/g, (match, hex: string) => {
    const character = String.fromCharCode(parseInt(hex, 16));
    return /[A-Za-z0-9\-._~]/.test(character) ? character : match;
  });
  return decoded !== path || path.split('/').some((segment) => segment === '.' || segment === '..');
}

/** True when the path or query holds a percent-escape that is not UTF-8 (`%E0%A4%A`): Prism 5.14 closes the connection on it. */
function isUndecodable(pathAndQuery: string): boolean {
  try {
    for (const part of pathAndQuery.split(/[/?&=]/)) decodeURIComponent(part);
    return false;
  } catch {
    return true;
  }
}

function mutantFromArgs(argv: readonly string[]) {
  const at = argv.indexOf('--mutant');
  if (at < 0) return undefined;
  const name = argv[at + 1] ?? '';
  const mutant = MUTANTS.find((candidate) => candidate.name === name);
  if (!mutant) throw new Error(`no mutant named ${JSON.stringify(name)}; the mutants are:\n  ${MUTANTS.map((m) => m.name).join('\n  ')}`);
  return mutant;
}

async function main(): Promise<number> {
  const root = ROOT;
  const mutant = mutantFromArgs(process.argv.slice(2));
  const started: { stop(): Promise<void> }[] = [];
  const deadline = setTimeout(() => {
    console.error(`contract:prism: over ${OVERALL_LIMIT_MS / 1000} s, stopping`);
    void Promise.all(started.map((process) => process.stop())).then(() => process.exit(1));
  }, OVERALL_LIMIT_MS);
  deadline.unref();
  const stopAll = () => Promise.all(started.map((child) => child.stop()));
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void stopAll().then(() => process.exit(130)));
  // A reader that goes away (e.g. `| head`) must not crash the run before it stops its children.
  for (const stream of [process.stdout, process.stderr]) stream.on('error', () => undefined);

  try {
    const server = await startNodeProcess(
      'the server',
      MAIN_JS,
      ['--port', '0', '--host', '127.0.0.1', '--log-level', 'silent'],
      /on (http:\/\/127\.0\.0\.1:\d+)/,
      20_000,
      root,
    );
    started.push(server);
    let upstream = server.ready;
    if (mutant) {
      const proxy = await startMutantProxy(server.ready, mutant);
      started.push(proxy);
      upstream = proxy.baseUrl;
      console.log(`mutant between Prism and the server: ${mutant.name}`);
    }
    const prismPort = await freePort();
    const prismBin = path.join(root, 'node_modules/.bin/prism');
    const prism = await startNodeProcess(
      'Prism',
      prismBin,
      ['proxy', path.join(root, 'openapi.yaml'), upstream, '--errors', '-p', String(prismPort), '-h', '127.0.0.1'],
      /Prism is listening on (http:\/\/127\.0\.0\.1:\d+)/,
      60_000,
      root,
    );
    started.push(prism);
    const prismVersion = JSON.parse(fs.readFileSync(path.join(root, 'node_modules/@stoplight/prism-cli/package.json'), 'utf8')) as {
      version: string;
    };
    console.log(`server ${server.ready}; Prism ${prismVersion.version} proxy ${prism.ready} --errors (Node ${process.versions.node})`);

    // 1. The contract suite's requests, recorded while the checks run against the server directly.
    const recorded: ApiRequest[] = [];
    const direct: Target = { baseUrl: server.ready, apiKey: DEFAULT_API_KEY, onExchange: (exchange) => recorded.push(exchange.request) };
    const { results, context } = await runChecks(direct);
    const failedChecks = results.filter((result) => result.error);
    for (const failed of failedChecks)
      console.error(`check failed against the server itself: ${failed.check.name}\n${failed.error!.message}`);

    // 2. A seeded sample of property-based requests.
    const sample = await context.sample();
    const generated = fc
      .sample(requestArbitrary(context.contract, sample), { seed: SEED, numRuns: GENERATED_REQUESTS })
      .map((g) => g.request);
    // Near misses that are the same URI as an operation's path by RFC 3986 §6.2.2 (`%50ing`, `/./`): Prism matches
    // them by their normal form but forwards them as sent, so it would hold the server's 404 (allowed: RFC 9110
    // §4.2.3 lets a server normalise or not) to the operation's statuses. The suite's derived checks judge them.
    const equivalent = recorded.filter((request) => isEquivalentSpelling(request.path));
    // Values that are not percent-encoded UTF-8 (the derived checks' undecodable ids and query values): Prism's URI
    // decoding throws on them and it closes the connection unanswered, a limit of Prism, not an answer to judge.
    const undecodable = [...recorded, ...generated].filter((request) => !equivalent.includes(request) && isUndecodable(request.path));
    // Framing faults (derived/framing.ts) are answered by the HTTP server Prism listens with, before Prism sees a request.
    const framing = recorded.filter((request) => request.framing);
    const requests = [...recorded, ...generated].filter(
      (request) => !equivalent.includes(request) && !undecodable.includes(request) && !framing.includes(request),
    );

    // 3. Replay through Prism, next to the direct answer.
    const viaPrism: Target = { baseUrl: prism.ready, apiKey: DEFAULT_API_KEY };
    const plain: Target = { baseUrl: server.ready, apiKey: DEFAULT_API_KEY };
    const tally: Record<Verdict, number> = { forwarded: 0, violation: 0, rejected: 0, disagreement: 0 };
    const rejectedKinds = new Map<string, number>();
    const statusNotes: string[] = [];
    for (const request of requests) {
      const [proxied, straight] = [await send(viaPrism, request), await send(plain, request)];
      const { verdict, detail } = classify(proxied, straight);
      tally[verdict] += 1;
      if (verdict === 'rejected') rejectedKinds.set(detail, (rejectedKinds.get(detail) ?? 0) + 1);
      if (verdict === 'violation' || verdict === 'disagreement')
        console.error(`${verdict.toUpperCase()}: ${detail}\n  reproduce: ${toCurl(viaPrism, request)}`);
      if (verdict === 'forwarded' && detail) statusNotes.push(`${detail}: ${toCurl(viaPrism, request)}`);
    }

    const kinds = [...rejectedKinds].map(([kind, count]) => `${kind}×${count}`).join(', ') || 'none';
    console.log(
      `Prism ${prismVersion.version} replay: ${requests.length} requests (from ${recorded.length} requests of ${results.length} contract checks and ${generated.length} generated with seed ${SEED}, ${equivalent.length} spelled otherwise than their RFC 3986 normal form, ${undecodable.length} not percent-decodable and ${framing.length} with their HTTP/1.1 framing broken left out); ` +
        `${tally.forwarded} forwarded and validated, ${tally.rejected} rejected by Prism on the request side (${kinds}), ` +
        `${tally.violation} violations, ${tally.disagreement} disagreements`,
    );
    for (const note of statusNotes.slice(0, 10)) console.log(`note: ${note}`);
    const failed = tally.violation + tally.disagreement + failedChecks.length;
    console.log(
      failed === 0
        ? 'contract:prism: 0 violations'
        : `contract:prism: FAILED (${tally.violation} violations, ${tally.disagreement} disagreements, ${failedChecks.length} failed checks)`,
    );
    return failed === 0 ? 0 : 1;
  } finally {
    await stopAll();
    clearTimeout(deadline);
  }
}

main().then(
  (code) => (process.exitCode = code),
  (error: unknown) => {
    console.error(`contract:prism: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  },
);
