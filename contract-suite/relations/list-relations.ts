// The relations the list and Detail descriptions imply: a uuid in any case selects what it selects in lower case
// (idStaff, idLocation, Detail's idClient); pages of two sizes tile into one list; filters given together find
// the intersection of what each finds alone; active=true and active=false part every query's clients in two.
// The values come from the deployment's first and last page where it has them, an unknown uuid and a common
// pair of letters where it has none.
import type { ClientExtended } from '../../contract/wire-types';
import type { SpecContract } from '../../contract/spec-contract';
import { operationPaths, UNKNOWN_ID, type CheckContext } from '../kit/context';
import { expectIntersection, expectPartition, expectSameSequence, expectSameSet } from './compare';
import { foldingOf, foldingRows } from './document';
import { SENTENCES, type Relation } from './relation';
import { detailSet, encodeQuery, resultSet, RESULT_SET_BOUND, type ResultSet } from './result-set';
import { anchorClient, commonPair, mixedCase } from './terms';

type Filters = Partial<Record<'filter' | 'active' | 'idStaff' | 'idLocation', string>>;

/** The Extended list under `filters`. */
function extendedWith(context: CheckContext, filters: Filters): Promise<ResultSet> {
  return resultSet(context, operationPaths(context.contract).getClientsExtended, encodeQuery(filters));
}

const described = (filters: Filters) => (encodeQuery(filters) === '' ? 'the unfiltered list' : `?${encodeQuery(filters)}`);

function idFilterCase(parameter: 'idStaff' | 'idLocation'): Relation {
  const field = parameter === 'idStaff' ? 'IdStaff' : 'IdLocation';
  return {
    name: `relation: GET /Client/Extended?${parameter}=<a listed uuid in upper and in mixed case> finds exactly the clients of the uuid in lower case`,
    operation: 'getClientsExtended',
    rule: 'relation.uuid-case',
    sentences: [parameter === 'idStaff' ? SENTENCES.staffCase : SENTENCES.locationCase],
    async run(context) {
      const listed = (await context.sample()).clients.find((client) => client[field] !== null)?.[field];
      const id = (listed ?? UNKNOWN_ID).toLowerCase();
      const lower = await extendedWith(context, { [parameter]: id });
      for (const form of [id.toUpperCase(), mixedCase(id)])
        expectSameSet(
          context,
          lower,
          await extendedWith(context, { [parameter]: form }),
          'relation.uuid-case',
          `${parameter}=${form} against ${id}`,
        );
    },
  };
}

function detailCase(): Relation {
  return {
    name: 'relation: GET /Client/Detail/{idClient} with a listed id in upper and in mixed case answers exactly the client of the id in lower case',
    operation: 'getClientDetail',
    rule: 'relation.uuid-case',
    sentences: [SENTENCES.detailCase],
    async run(context) {
      const id = ((await context.sample()).clients[0]?.IdClient ?? UNKNOWN_ID).toLowerCase();
      const path = operationPaths(context.contract).getClientDetail;
      const lower = await detailSet(context, path, id);
      for (const form of [id.toUpperCase(), mixedCase(id)])
        expectSameSet(context, lower, await detailSet(context, path, form), 'relation.uuid-case', `Detail of ${form} against ${id}`);
    },
  };
}

/** The largest pageSize the document in use allows for the lists. */
function largestPageSize(contract: SpecContract): number {
  const maximum = contract.operation('getClientsExtended').parameters.find((p) => p.name === 'pageSize')?.schema.maximum;
  return typeof maximum === 'number' ? maximum : 100;
}

function tiling(operation: 'getClientsSimple' | 'getClientsExtended', large: number): Relation {
  // A size that divides neither the largest nor most list lengths, so its pages end where the larger ones do not.
  const small = Math.max(1, Math.round(large * 0.37));
  return {
    name: `relation: GET /Client/${operation === 'getClientsSimple' ? 'Simple' : 'Extended'}, its pages of ${small} read one after another, lists exactly the clients its pages of ${large} list, in the same order (the first ${RESULT_SET_BOUND.toLocaleString('en')})`,
    operation,
    rule: 'relation.tiling',
    sentences: [SENTENCES.paging, SENTENCES.order, SENTENCES.total],
    async run(context) {
      const path = operationPaths(context.contract)[operation];
      const whole = await resultSet(context, path, '', large);
      const tiled = await resultSet(context, path, '', small);
      expectSameSequence(context, whole, tiled, 'relation.tiling', `pages of ${small} against pages of ${large}`);
    },
  };
}

/** The filters combined around one listed client (its staff member, location, status, and two letters of its name). */
async function anchoredFilters(context: CheckContext): Promise<Required<Filters>> {
  const { clients } = await context.sample();
  const fold = foldingOf(foldingRows(context.contract));
  const anchor: ClientExtended | undefined = anchorClient(clients);
  return {
    filter: commonPair(anchor ? [anchor] : clients, fold, 'an'),
    active: anchor?.Status === 'Active' ? 'true' : 'false',
    idStaff: anchor?.IdStaff ?? UNKNOWN_ID,
    idLocation: anchor?.IdLocation ?? UNKNOWN_ID,
  };
}

function intersection(names: readonly (keyof Filters)[]): Relation {
  return {
    name: `relation: GET /Client/Extended?${names.join('&')} finds exactly the clients that each of ${names.join(', ')} finds alone (AND is the intersection)`,
    operation: 'getClientsExtended',
    rule: 'relation.intersection',
    sentences: [SENTENCES.filtersAnd],
    async run(context) {
      const values = await anchoredFilters(context);
      const chosen = Object.fromEntries(names.map((name) => [name, values[name]])) as Filters;
      const combined = await extendedWith(context, chosen);
      const singles: ResultSet[] = [];
      for (const name of names) singles.push(await extendedWith(context, { [name]: values[name] }));
      expectIntersection(context, combined, singles, 'relation.intersection', `${described(chosen)} against each filter alone`);
    },
  };
}

function partition(withFilter: boolean): Relation {
  return {
    name: `relation: GET /Client/Extended${withFilter ? '?filter=<two letters>' : ''} with active=true and with active=false gives every client of ${withFilter ? 'that filter' : 'the unfiltered list'} exactly once`,
    operation: 'getClientsExtended',
    rule: 'relation.active-partition',
    sentences: [SENTENCES.active, SENTENCES.status],
    async run(context) {
      const base: Filters = withFilter ? { filter: (await anchoredFilters(context)).filter } : {};
      const whole = await extendedWith(context, base);
      const parts = [await extendedWith(context, { ...base, active: 'true' }), await extendedWith(context, { ...base, active: 'false' })];
      expectPartition(context, whole, parts, 'relation.active-partition', `active=true and active=false against ${described(base)}`);
    },
  };
}

/** Every relation of the lists and Detail. */
export function listRelations(contract: SpecContract): Relation[] {
  const large = largestPageSize(contract);
  return [
    idFilterCase('idStaff'),
    idFilterCase('idLocation'),
    detailCase(),
    tiling('getClientsSimple', large),
    tiling('getClientsExtended', large),
    intersection(['idStaff', 'active']),
    intersection(['filter', 'idLocation']),
    intersection(['filter', 'active', 'idStaff', 'idLocation']),
    partition(false),
    partition(true),
  ];
}
