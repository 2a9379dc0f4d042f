// The client store: an immutable data set, sorted once, with its indexes made
// once at start. It answers page(query) and positionOf(id) and knows nothing of HTTP.
// A lazy store (in-process set-ups, issue 26 item 6) is sorted and id-indexed
// from each client's id and name alone, and leaves the records, the
// staff/location/status groups and the search index for the first request that
// needs each: a test file that never filters never pays for them.
import type { ClientDetail } from '../../contract/wire-types';
import { ClientRecords } from './client-records';
import { sourceOf, type ClientSource } from './client-source';
import { ListOrder } from './list-order';
import type { ListQuery } from './list-query';
import { normalizeTerm, SearchIndex } from './search/search-index';
import { BitPositions, EMPTY_SET, pageOfAnd, positionSetOf, SortedPositions, type PositionSet } from './search/position-set';

export interface ListResult {
  total: number;
  /** The page's clients as positions in list order (client(position) is the record). */
  positions: readonly number[];
}

interface Groups {
  byStaff: Map<string, PositionSet>;
  byLocation: Map<string, PositionSet>;
  byStatus: Map<string, PositionSet>;
}

/** The positions of each staff member's, location's and status's clients, in one pass over the records. */
function groupPositions(records: ClientRecords): Groups {
  const staff = new Map<string, number[]>();
  const locations = new Map<string, number[]>();
  const statuses = new Map<string, number[]>();
  const add = (groups: Map<string, number[]>, key: string | undefined, position: number) => {
    if (key === undefined) return;
    const group = groups.get(key);
    if (group) group.push(position);
    else groups.set(key, [position]);
  };
  for (let position = 0; position < records.size; position++) {
    const client = records.at(position);
    add(staff, client.Staff?.IdStaff.toLowerCase(), position);
    add(locations, client.Location?.IdLocation.toLowerCase(), position);
    add(statuses, client.Status, position);
  }
  const sets = (groups: Map<string, number[]>) =>
    new Map(Array.from(groups, ([key, positions]) => [key, positionSetOf(positions, records.size)]));
  return { byStaff: sets(staff), byLocation: sets(locations), byStatus: sets(statuses) };
}

export class ClientStore {
  /** All clients in list order. */
  readonly records: ClientRecords;
  private readonly order: ListOrder;
  private groupsMade: Groups | undefined;
  private searchIndex: SearchIndex | undefined;

  /**
   * `lazy`: the order past the first page, the id index, the records, the
   * groups and the search index are made by the first request that needs
   * each, not here (the same answers either way).
   */
  constructor(clients: readonly ClientDetail[] | ClientSource, { lazy = false }: { lazy?: boolean } = {}) {
    const source = isSource(clients) ? clients : sourceOf(clients);
    const order = new ListOrder(source, { lazy });
    this.order = order;
    this.records = new ClientRecords(source.count, (position) => source.record(order.indexAt(position)));
    if (!lazy) {
      this.groupsMade = groupPositions(this.records);
      this.searchIndex = this.makeSearch();
    }
  }

  private get groups(): Groups {
    return (this.groupsMade ??= groupPositions(this.records));
  }

  private get search(): SearchIndex {
    return (this.searchIndex ??= this.makeSearch());
  }

  private makeSearch(): SearchIndex {
    const foldedNames = this.order.takeFoldedNames();
    return new SearchIndex(this.clients(), foldedNames);
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
    // The groups are made from the objects: before they are let go (a lazy store's, else made already).
    void this.groups;
    return this.records.compact(signal);
  }

  /** The search index's background part (search-index.ts, prebuild): answers stay the same, frequent terms get cheaper. */
  prebuildSearch(signal?: AbortSignal): Promise<void> {
    return this.search.prebuild(signal);
  }

  /** The client's position in list order. */
  positionOf(id: string): number | undefined {
    return this.order.positionOf(id);
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
    if (query.idStaff !== undefined) sets.push(this.groups.byStaff.get(query.idStaff) ?? EMPTY_SET);
    if (query.idLocation !== undefined) sets.push(this.groups.byLocation.get(query.idLocation) ?? EMPTY_SET);
    const term = query.filter === undefined ? '' : normalizeTerm(query.filter);
    if (term !== '') sets.push(this.search.search(term));
    if (query.active !== undefined) sets.push(this.groups.byStatus.get(query.active ? 'Active' : 'Inactive') ?? EMPTY_SET);

    const start = (query.page - 1) * query.pageSize;
    const end = start + query.pageSize;
    let total: number;
    let positions: number[];
    if (sets.length === 0) {
      this.order.reach(end);
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

function isSource(clients: readonly ClientDetail[] | ClientSource): clients is ClientSource {
  return !Array.isArray(clients);
}
