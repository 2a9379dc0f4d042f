// History independence: every operation of the document is a read, so the same request must get the same answer
// whatever was asked before it. The room asks again, at the end of the run, the requests the run itself sent (the
// journal, kit/journal.ts), at most REPLAYS of them (a quarter at most among its conditional requests, whose first
// answers a cache most often mixes up), chosen and ordered at random with the run's seed (printed in the check's
// title, so a failing order replays), with other requests between them and, before every
// CONDITIONAL_EVERY-th, one of the precondition forms on the same request (a framework's freshness check or a
// response cache that mixes conditional and plain answers shows there). Each answer is held to the first one:
// the status, the body (a JSON body as a JSON value: the document makes member order free, so a server may write
// members in another order each time; any other body byte for byte), and the fields the document names or HTTP gives a
// meaning, but Date and X-Request-Id (kit/answers.ts: a front's own fields may vary). Requests not replayed: the control checks' (scenarios and sessions are state on
// purpose) and the framing checks' (connection-level).
// Bound: REPLAYS + REPLAYS / CONDITIONAL_EVERY requests at most (267).
import fc from 'fast-check';
import type { Define, DefineOptions } from '../kit/context';
import type { SpecContract } from '../../contract/spec-contract';
import { comparedFields, summarise, summaryDifferences } from '../kit/answers';
import type { JournalEntry } from '../kit/journal';
import { preconditionForms } from '../kit/preconditions';

/** The most requests replayed. */
export const REPLAYS = 200;
/** One replay in this many comes after a conditional form of its own request. */
export const CONDITIONAL_EVERY = 3;
/** The failing replays a failure lists. */
const SHOWN = 5;

/** The seed a run without --seed uses (the property run's default). */
const DEFAULT_SEED = 20260101;

/** A request with a precondition (RFC 9110 §13.1) or a Range: the requests whose answers a cache or a freshness check most often mixes up. */
const isConditional = (entry: JournalEntry) => Object.keys(entry.request.headers ?? {}).some((name) => /^(if-|range$)/i.test(name));

/**
 * The replays, chosen and ordered with the seed (the same seed, the same order): up to a quarter of them among the
 * run's conditional requests, the rest among the others.
 */
export function replayOrder(entries: readonly JournalEntry[], seed: number, limit = REPLAYS): JournalEntry[] {
  const conditional = entries.filter(isConditional);
  const plain = entries.filter((entry) => !isConditional(entry));
  const c = Math.min(conditional.length, Math.ceil(limit / 4));
  const p = Math.min(plain.length, limit - c);
  if (c + p === 0) return [];
  const drawn = fc
    .tuple(fc.shuffledSubarray(conditional, { minLength: c, maxLength: c }), fc.shuffledSubarray(plain, { minLength: p, maxLength: p }))
    .chain(([a, b]) => fc.shuffledSubarray([...a, ...b], { minLength: c + p, maxLength: c + p }));
  return fc.sample(drawn, { seed, numRuns: 1 })[0]!;
}

export function historyChecks(check: Define, contract: SpecContract, options: DefineOptions = {}): void {
  void contract;
  const seed = options.seed ?? DEFAULT_SEED;
  check(
    'cross-cutting',
    `the run's own requests asked again (at most ${REPLAYS}, in an order drawn with seed ${seed}, one in ${CONDITIONAL_EVERY} after a conditional form of itself) → each the answer it got first (status, body as JSON value, the fields the document names or HTTP gives a meaning, but Date and X-Request-Id)`,
    async (context) => {
      // The replays are no requests of the run's own: they are not journaled, so a replay is held to the first answer only.
      context.journal.open = false;
      const order = replayOrder(context.journal.all(), seed);
      if (order.length === 0) context.skip('the run sent no request that can be asked again');
      const changed: string[] = [];
      let firstChange: Awaited<ReturnType<typeof context.send>> | undefined;

      for (const [i, entry] of order.entries()) {
        if (i % CONDITIONAL_EVERY === 0) {
          const forms = preconditionForms({ headers: new Headers(entry.first.fields) });
          const form = forms[Math.floor(i / CONDITIONAL_EVERY) % forms.length]!;
          // On the raw socket: fetch would add Cache-Control: no-cache to it.
          await context.send({ ...entry.request, raw: true, headers: { ...entry.request.headers, ...form.headers } });
        }
        const again = await context.send(entry.request);

        const differences = summaryDifferences(entry.first, summarise(again), comparedFields(context.contract));
        if (differences.length > 0) {
          firstChange ??= again;
          const headers = Object.entries(entry.request.headers ?? {}).map(([name, value]) => `${name}: ${value}`);
          changed.push(
            `${entry.request.method} ${entry.request.path}${headers.length > 0 ? ` with ${headers.join(', ')}` : ''} (replay ${i + 1}): ${differences.slice(0, 3).join('; ')}`,
          );
        }
      }
      // Every replay compared is an assertion, passed or failed: the check asserted something whenever one ran.
      context.held('check.history');
      if (firstChange)
        context.fail(
          firstChange,
          `${changed.length} of ${order.length} requests got another answer than the first time (seed ${seed}):\n    ${changed.slice(0, SHOWN).join('\n    ')}${changed.length > SHOWN ? `\n    … and ${changed.length - SHOWN} more` : ''}`,
          'check.history',
        );
    },
    ['check.history'],
  );
}
