// How two or more result sets must stand to each other: the same clients, the same sequence, an intersection, a
// partition. Each comparison is one assertion under the relation's rule, made whether it holds or not (so the
// runner counts it), and a failure names every request it compared as a curl line, since the fault may be in
// either answer.
import { compareClients } from '../../contract/list-order';
import type { RelationRule } from '../../contract/judge';
import { phoneDigits } from '../../contract/text-folding';
import type { CheckContext } from '../kit/context';
import { toCurl } from '../kit/http';
import { RESULT_SET_BOUND, type ResultSet, type Row } from './result-set';

/** At most this many ids of a difference are shown. */
const SHOWN = 3;

const some = (ids: readonly string[]) => (ids.length === 0 ? '' : `: ${ids.slice(0, SHOWN).join(', ')}${ids.length > SHOWN ? ', …' : ''}`);

/** The requests as numbered curl lines, for a failure's message. */
function requests(context: CheckContext, sets: readonly ResultSet[]): string {
  return sets.map((set, i) => `\n  (${i + 1}) ${toCurl(context.target, set.first.request)}`).join('');
}

/** Ids in `a` and not in `b`. */
function minus(a: Iterable<string>, b: ReadonlySet<string>): string[] {
  return [...a].filter((id) => !b.has(id));
}

/** The ids both sets can be compared on: all of them when both are complete, else the first of each as far as both go. */
function comparable(a: ResultSet, b: ResultSet): { left: Set<string>; right: Set<string>; bounded: string } {
  if (a.complete && b.complete) return { left: new Set(a.ids), right: new Set(b.ids), bounded: '' };
  const n = Math.min(a.ids.length, b.ids.length);
  return {
    left: new Set(a.ids.slice(0, n)),
    right: new Set(b.ids.slice(0, n)),
    bounded: ` (compared: the first ${n} clients of each, the bound ${RESULT_SET_BOUND}, and X-Total-Count)`,
  };
}

/** `b` selects exactly the clients `a` selects: the same X-Total-Count and the same set of IdClient. */
export function expectSameSet(context: CheckContext, a: ResultSet, b: ResultSet, rule: RelationRule, why: string): void {
  const { left, right, bounded } = comparable(a, b);
  const onlyA = minus(left, right);
  const onlyB = minus(right, left);
  context.expect(
    a.total === b.total && onlyA.length === 0 && onlyB.length === 0,
    b.first,
    `${why}: (2) selects other clients than (1): X-Total-Count ${a.total} and ${b.total}; ${onlyA.length} only in (1)${some(onlyA)}; ` +
      `${onlyB.length} only in (2)${some(onlyB)}${bounded}${requests(context, [a, b])}`,
    rule,
  );
}

/** `b` lists exactly the clients `a` lists in the same order: the first RESULT_SET_BOUND of them, and the same X-Total-Count. */
export function expectSameSequence(context: CheckContext, a: ResultSet, b: ResultSet, rule: RelationRule, why: string): void {
  const n = Math.min(a.total, b.total, RESULT_SET_BOUND);
  const at = Array.from({ length: n }, (_, i) => i).find((i) => a.ids[i] !== b.ids[i]);
  context.expect(
    a.total === b.total && at === undefined,
    b.first,
    `${why}: X-Total-Count ${a.total} and ${b.total}` +
      (at === undefined ? '' : `; position ${at + 1} holds ${a.ids[at] ?? '(nothing)'} in (1) and ${b.ids[at] ?? '(nothing)'} in (2)`) +
      requests(context, [a, b]),
    rule,
  );
}

/**
 * `combined` (the filters given together) selects exactly the clients every one of `singles` (each filter alone)
 * selects. When a single set is past the bound, what can still be told: X-Total-Count at most each single's, and
 * every combined client in each single set read whole.
 */
export function expectIntersection(
  context: CheckContext,
  combined: ResultSet,
  singles: readonly ResultSet[],
  rule: RelationRule,
  why: string,
): void {
  const whole = singles.filter((set) => set.complete);
  const inAll = whole.length === 0 ? [] : whole[0]!.ids.filter((id) => whole.every((set) => set.ids.includes(id)));
  const found = new Set(combined.ids);
  const extra = minus(found, new Set(inAll));
  const missing = whole.length === singles.length && combined.complete ? minus(inAll, found) : [];
  const over = singles.filter((set) => combined.total > set.total);
  context.expect(
    over.length === 0 && (whole.length === 0 || extra.length === 0) && missing.length === 0,
    combined.first,
    `${why}: (1) is not the intersection of (2)…(${singles.length + 1}): X-Total-Count ${combined.total} against ${singles.map((s) => s.total).join(', ')}; ` +
      `${extra.length} in (1) but not in every other${some(extra)}; ${missing.length} in every other but not in (1)${some(missing)}` +
      (whole.length < singles.length ? ` (compared: the sets read whole, the bound ${RESULT_SET_BOUND})` : '') +
      requests(context, [combined, ...singles]),
    rule,
  );
}

/**
 * The `parts` together select every client of `whole` exactly once: their X-Total-Counts add up to its, no client
 * is in two of them, and, when every set was read whole, their union is its set.
 */
export function expectPartition(
  context: CheckContext,
  whole: ResultSet,
  parts: readonly ResultSet[],
  rule: RelationRule,
  why: string,
): void {
  const sum = parts.reduce((total, part) => total + part.total, 0);
  const seen = new Set<string>();
  const twice: string[] = [];
  for (const part of parts)
    for (const id of part.ids) {
      if (seen.has(id)) twice.push(id);
      seen.add(id);
    }
  const complete = whole.complete && parts.every((part) => part.complete);
  const missing = complete ? minus(whole.ids, seen) : [];
  const extra = complete ? minus(seen, new Set(whole.ids)) : [];
  context.expect(
    sum === whole.total && twice.length === 0 && missing.length === 0 && extra.length === 0,
    parts[0]?.first ?? whole.first,
    `${why}: X-Total-Count ${parts.map((part) => part.total).join(' + ')} = ${sum} against ${whole.total} of (1); ` +
      `${twice.length} in two of (2)…(${parts.length + 1})${some(twice)}; ${missing.length} in (1) and in none of the others${some(missing)}; ` +
      `${extra.length} in another but not in (1)${some(extra)}${complete ? '' : ` (compared: totals and overlaps, past the bound ${RESULT_SET_BOUND})`}` +
      requests(context, [whole, ...parts]),
    rule,
  );
}

/**
 * The clients of `a` and of `b` whose Phone's digits hold `digits` are the same: both terms are digit terms with
 * those digits, so the phone-digit rule selects the same phones for both, whatever else each matches as text.
 * When a set was not read whole, only the clients before the earlier of the two last rows read (in the list
 * order) are compared.
 */
export function expectSamePhones(context: CheckContext, a: ResultSet, b: ResultSet, digits: string, rule: RelationRule, why: string): void {
  const lastA = a.rows.at(-1);
  const lastB = b.rows.at(-1);
  const cutoff =
    a.complete && b.complete ? undefined : [lastA, lastB].filter((row): row is Row => row !== undefined).sort(compareClients)[0];
  const phones = (set: ResultSet) =>
    new Set(
      set.rows
        .filter((row) => phoneDigits(row.Phone).includes(digits) && (cutoff === undefined || compareClients(row, cutoff) <= 0))
        .map((row) => row.IdClient.toLowerCase()),
    );
  const [left, right] = [phones(a), phones(b)];
  const onlyA = minus(left, right);
  const onlyB = minus(right, left);
  context.expect(
    onlyA.length === 0 && onlyB.length === 0,
    b.first,
    `${why}: the phones holding the digits ${digits} differ: ${onlyA.length} only in (1)${some(onlyA)}; ${onlyB.length} only in (2)${some(onlyB)}` +
      requests(context, [a, b]),
    rule,
  );
}
