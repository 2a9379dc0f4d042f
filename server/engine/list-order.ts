// Where each client stands in the documented list order (contract/list-order.ts:
// FullName by the collator, then the lower-case IdClient), and where each id
// stands, made from the source's ids and names alone: no record is read.
//
// An eager store sorts at once. A lazy one (in-process set-ups, issue 26
// item 6) first finds only the places its first request reads — page 1 is the
// first 25 clients, one pass over the names instead of a sort — and sorts
// everything when a request reaches past them (a later page, an id, a
// filter). Both give the same places: the order is total (ids are unique).
import type { ClientSource } from './client-source';
import { foldText } from '../../contract/text-folding';

const collator = new Intl.Collator('en', { sensitivity: 'base' });

// A first request reading at most this many places is answered by selection; one reading more sorts at once.
const SELECT_AT_MOST = 1000;

export class ListOrder {
  /** The source's clients, until the whole order and the id index are made. */
  private source: ClientSource | undefined;
  /** The first places found by selection: source indexes, in order. */
  private first: number[] = [];
  private order: Int32Array | undefined;
  /** Each position's folded FullName, from the sort, until the search index takes them. */
  private folded: string[] | undefined;
  private idIndex: Map<string, number> | undefined;
  readonly size: number;

  constructor(source: ClientSource, { lazy }: { lazy: boolean }) {
    this.source = source;
    this.size = source.count;
    if (!lazy) this.ids();
  }

  /** The source index of the client at `position` (0 ≤ position < size); a position past the known ones sorts. */
  indexAt(position: number): number {
    if (!this.order && position < this.first.length) return this.first[position]!;
    return this.sort()[position]!;
  }

  /** Makes positions [0, end) known: by selection when this is the first request and it reads few, else by the sort. */
  reach(end: number): void {
    const wanted = Math.min(end, this.size);
    if (this.order || wanted <= this.first.length) return;
    if (this.first.length === 0 && wanted <= SELECT_AT_MOST) this.first = select(this.source!, wanted);
    else this.sort();
  }

  /** Every position known, and each position's folded FullName handed over (once: to the search index). */
  takeFoldedNames(): string[] | undefined {
    this.sort();
    const folded = this.folded;
    this.folded = undefined;
    return folded;
  }

  /** The position of the client whose lower-case IdClient is `id`. */
  positionOf(id: string): number | undefined {
    return this.ids().get(id);
  }

  private sort(): Int32Array {
    if (!this.order) {
      ({ order: this.order, foldedNames: this.folded } = sortClients(this.source!));
      this.first = [];
    }
    return this.order;
  }

  private ids(): Map<string, number> {
    if (!this.idIndex) {
      const order = this.sort();
      const source = this.source!;
      // uuids compare case-insensitively (a data file may hold upper-case ones); callers pass lower case.
      const index = new Map<string, number>();
      for (let position = 0; position < order.length; position++) index.set(source.idOf(order[position]!).toLowerCase(), position);
      this.idIndex = index;
      // Sorted and indexed: nothing here reads the source again (the records have their own way to it).
      this.source = undefined;
    }
    return this.idIndex;
  }
}

/**
 * The first `k` clients of the order (source indexes): one pass, each client's name compared with the k-th's so
 * far, its id read only when the names are equal under the collator (a generated source makes an id's text when
 * first read). The same order as sortClients and contract/list-order.ts's compareClients.
 */
function select(source: ClientSource, k: number): number[] {
  const before = (a: number, b: number): boolean => {
    const byName = collator.compare(source.nameOf(a), source.nameOf(b));
    if (byName !== 0) return byName < 0;
    return source.idOf(a).toLowerCase() < source.idOf(b).toLowerCase();
  };
  const best: number[] = [];
  for (let index = 0; index < source.count; index++) {
    if (best.length === k && !before(index, best[k - 1]!)) continue;
    // Binary search for its place among the best, then in; the (k+1)-th falls off.
    let low = 0;
    let high = best.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (before(index, best[middle]!)) high = middle;
      else low = middle + 1;
    }
    best.splice(low, 0, index);
    if (best.length > k) best.pop();
  }
  return best;
}

/**
 * The list order of the source's clients — `[...clients].sort(compareClients)`
 * as indexes into the source, from ids and names alone — without a collator
 * call per comparison. Names repeat (a million clients share a few hundred
 * thousand names), so the collator orders the distinct names only, and
 * equal-under-the-collator names ("Asa Berg", "Åsa Berg") share one rank.
 * Clients are then placed by rank (a counting sort) and each group of one
 * rank is ordered by lower-case IdClient: exactly compareClients' order, since
 * compareClients is the collator's order of names with the id as tie-break
 * (ids are unique, in any case, so the order is total).
 */
function sortClients(source: ClientSource): { order: Int32Array; foldedNames: string[] } {
  const count = source.count;
  const nameIndex = new Map<string, number>();
  const names: string[] = [];
  const nameOf = new Int32Array(count);
  for (let i = 0; i < count; i++) {
    const name = source.nameOf(i);
    let index = nameIndex.get(name);
    if (index === undefined) {
      index = names.length;
      names.push(name);
      nameIndex.set(name, index);
    }
    nameOf[i] = index;
  }
  // The folded names go on to the search index too: one string per distinct name, shared by the clients bearing it.
  const folded = names.map(foldText);
  // A first sort by the folded name (plain string comparison, cheap) leaves the
  // names in collation order or very near it; the collator's sort then runs over
  // that, and TimSort needs about one comparison per name on sorted runs.
  const byName = Array.from(names.keys());
  byName.sort((a, b) => (folded[a]! < folded[b]! ? -1 : folded[a]! > folded[b]! ? 1 : 0));
  byName.sort((a, b) => collator.compare(names[a]!, names[b]!));
  const rankOf = new Int32Array(names.length);
  let rank = 0;
  for (let k = 1; k < byName.length; k++) {
    if (collator.compare(names[byName[k - 1]!]!, names[byName[k]!]!) !== 0) rank++;
    rankOf[byName[k]!] = rank;
  }
  const ranks = names.length === 0 ? 0 : rank + 1;

  // Counting sort by rank, then each group of equal rank by lower-case id.
  const starts = new Int32Array(ranks + 1);
  for (let i = 0; i < count; i++) starts[rankOf[nameOf[i]!]! + 1]!++;
  for (let r = 0; r < ranks; r++) starts[r + 1]! += starts[r]!;
  const order = new Int32Array(count);
  const fill = starts.slice(0, ranks);
  for (let i = 0; i < count; i++) order[fill[rankOf[nameOf[i]!]!]!++] = i;
  const idOf = (i: number) => source.idOf(i).toLowerCase();
  for (let r = 0; r < ranks; r++) {
    if (starts[r + 1]! - starts[r]! < 2) continue;
    order.subarray(starts[r]!, starts[r + 1]!).sort((a, b) => {
      const idA = idOf(a);
      const idB = idOf(b);
      return idA < idB ? -1 : idA > idB ? 1 : 0;
    });
  }
  const foldedNames = new Array<string>(count);
  for (let i = 0; i < count; i++) foldedNames[i] = folded[nameOf[order[i]!]!]!;
  return { order, foldedNames };
}
