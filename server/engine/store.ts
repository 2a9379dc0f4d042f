// The client store: an immutable data set, sorted once, with its indexes made
// once at start. It answers page(query) and positionOf(id) and knows nothing of HTTP.
// The search index may be left for the first filter to build (lazySearch): an
// in-process set-up whose tests never filter does not pay for it (issue 26 item 6).
import type { ClientDetail } from '../../contract/wire-types';
import { ClientRecords } from './client-records';
import type { ListQuery } from './list-query';
import { foldField, normalizeTerm, SearchIndex } from './search/search-index';
import { BitPositions, EMPTY_SET, pageOfAnd, positionSetOf, SortedPositions, type PositionSet } from './search/position-set';

export interface ListResult {
  total: number;
  /** The page's clients as positions in list order (client(position) is the record). */
  positions: readonly number[];
}

const collator = new Intl.Collator('en', { sensitivity: 'base' });

/** The documented order: FullName (English collation, case- and accent-insensitive), then IdClient in lower case. */
export function compareClients(a: ClientDetail, b: ClientDetail): number {
  const byName = collator.compare(a.PersonalInfo.FullName, b.PersonalInfo.FullName);
  if (byName !== 0) return byName;
  // A data file may hold upper-case uuids: the tie-break is on the lower-case form, as openapi.yaml says.
  const idA = a.IdClient.toLowerCase();
  const idB = b.IdClient.toLowerCase();
  return idA < idB ? -1 : idA > idB ? 1 : 0;
}

/**
 * `[...clients].sort(compareClients)`, without a collator call per comparison.
 * Names repeat (a million clients share a few hundred thousand names), so the
 * collator orders the distinct names only, and equal-under-the-collator names
 * ("Asa Berg", "Åsa Berg") share one rank. Clients are then placed by rank
 * (a counting sort) and each group of one rank is ordered by lower-case
 * IdClient: exactly compareClients' order, since compareClients is the
 * collator's order of names with the id as tie-break (ids are unique, in any
 * case, so the order is total).
 */
function sortClients(clients: readonly ClientDetail[]): { sorted: ClientDetail[]; foldedNames: string[] } {
  const count = clients.length;
  const nameIndex = new Map<string, number>();
  const names: string[] = [];
  const nameOf = new Int32Array(count);
  for (let i = 0; i < count; i++) {
    const name = clients[i]!.PersonalInfo.FullName;
    let index = nameIndex.get(name);
    if (index === undefined) {
      index = names.length;
      names.push(name);
      nameIndex.set(name, index);
    }
    nameOf[i] = index;
  }
  // The folded names go on to the search index too: one string per distinct name, shared by the clients bearing it.
  const folded = names.map(foldField);
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
  const idOf = (i: number) => clients[i]!.IdClient.toLowerCase();
  for (let r = 0; r < ranks; r++) {
    if (starts[r + 1]! - starts[r]! < 2) continue;
    order.subarray(starts[r]!, starts[r + 1]!).sort((a, b) => {
      const idA = idOf(a);
      const idB = idOf(b);
      return idA < idB ? -1 : idA > idB ? 1 : 0;
    });
  }
  const sorted = new Array<ClientDetail>(count);
  const foldedNames = new Array<string>(count);
  for (let i = 0; i < count; i++) {
    sorted[i] = clients[order[i]!]!;
    foldedNames[i] = folded[nameOf[order[i]!]!]!;
  }
  return { sorted, foldedNames };
}

function groupPositions(clients: readonly ClientDetail[], keyOf: (client: ClientDetail) => string | undefined): Map<string, PositionSet> {
  const groups = new Map<string, number[]>();
  clients.forEach((client, position) => {
    const key = keyOf(client);
    if (key === undefined) return;
    const group = groups.get(key);
    if (group) group.push(position);
    else groups.set(key, [position]);
  });
  return new Map(Array.from(groups, ([key, positions]) => [key, positionSetOf(positions, clients.length)]));
}

export class ClientStore {
  /** All clients in list order. */
  readonly records: ClientRecords;
  private readonly byIdIndex: Map<string, number>;
  private readonly byStaff: Map<string, PositionSet>;
  private readonly byLocation: Map<string, PositionSet>;
  private readonly byStatus: Map<string, PositionSet>;
  private searchIndex: SearchIndex | undefined;
  private makeSearch: (() => SearchIndex) | undefined;

  /** `lazySearch`: the search index is built by the first request that needs it, not here (the same index either way). */
  constructor(clients: readonly ClientDetail[], { lazySearch = false }: { lazySearch?: boolean } = {}) {
    const { sorted, foldedNames } = sortClients(clients);
    this.records = new ClientRecords(sorted);
    // uuids compare case-insensitively (a data file may hold upper-case ones); callers pass lower case.
    this.byIdIndex = new Map();
    for (let position = 0; position < sorted.length; position++) this.byIdIndex.set(sorted[position]!.IdClient.toLowerCase(), position);
    this.byStaff = groupPositions(sorted, (c) => c.Staff?.IdStaff.toLowerCase());
    this.byLocation = groupPositions(sorted, (c) => c.Location?.IdLocation.toLowerCase());
    this.byStatus = groupPositions(sorted, (c) => c.Status);
    if (lazySearch) this.makeSearch = () => new SearchIndex(sorted, foldedNames);
    else this.searchIndex = new SearchIndex(sorted, foldedNames);
  }

  private get search(): SearchIndex {
    if (!this.searchIndex) {
      this.searchIndex = this.makeSearch!();
      this.makeSearch = undefined;
    }
    return this.searchIndex;
  }

  get size(): number {
    return this.records.size;
  }

  /** The client at `position` in list order (see ClientRecords.at: equal in every field, not always the same object). */
  client(position: number): ClientDetail {
    return this.records.at(position);
  }

  /** Every client in list order, as objects (for tests and small data sets: at a million clients this is 0.9 GB of heap). */
  clients(): ClientDetail[] {
    return Array.from({ length: this.size }, (_, position) => this.records.at(position));
  }

  /** Keeps the records as JSON outside the heap from now on (client-records.ts); run after ready, in the background. */
  compact(signal?: AbortSignal): Promise<void> {
    return this.records.compact(signal);
  }

  /** The search index's background part (search-index.ts, prebuild): answers stay the same, frequent terms get cheaper. */
  prebuildSearch(signal?: AbortSignal): Promise<void> {
    return this.search.prebuild(signal);
  }

  /** The client's position in list order. */
  positionOf(id: string): number | undefined {
    return this.byIdIndex.get(id);
  }

  /**
   * Filters combine with AND. One set alone is cut to the page as it is. When
   * every set is a bitset, they are ANDed and counted a word at a time;
   * otherwise the smallest sorted list drives and the others are membership
   * checks (a bit test or a binary search). Either way only the page's
   * positions are collected, never an array as long as the matches.
   */
  page(query: ListQuery): ListResult {
    const sets: PositionSet[] = [];
    if (query.idStaff !== undefined) sets.push(this.byStaff.get(query.idStaff) ?? EMPTY_SET);
    if (query.idLocation !== undefined) sets.push(this.byLocation.get(query.idLocation) ?? EMPTY_SET);
    const term = query.filter === undefined ? '' : normalizeTerm(query.filter);
    if (term !== '') sets.push(this.search.search(term));
    if (query.active !== undefined) sets.push(this.byStatus.get(query.active ? 'Active' : 'Inactive') ?? EMPTY_SET);

    const start = (query.page - 1) * query.pageSize;
    const end = start + query.pageSize;
    let total: number;
    let positions: number[];
    if (sets.length === 0) {
      total = this.size;
      positions = [];
      for (let i = start; i < Math.min(total, end); i++) positions.push(i);
    } else if (sets.length === 1) {
      total = sets[0]!.size;
      positions = sets[0]!.slice(start, end);
    } else {
      sets.sort((a, b) => a.size - b.size);
      const driver = sets.find((set): set is SortedPositions => set instanceof SortedPositions);
      if (driver === undefined) {
        ({ total, positions } = pageOfAnd(
          sets.map((set) => (set as BitPositions).words),
          start,
          end,
        ));
      } else {
        const others = sets.filter((set) => set !== driver);
        const list = driver.list;
        positions = [];
        total = 0;
        for (let i = 0; i < list.length; i++) {
          const position = list[i]!;
          if (!others.every((set) => set.has(position))) continue;
          if (total >= start && total < end) positions.push(position);
          total++;
        }
      }
    }
    return { total, positions };
  }
}
