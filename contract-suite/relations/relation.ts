// A metamorphic relation: a sentence of openapi.yaml read as "these requests select the same clients" (or one
// the intersection, or the partition, of others), checked against the deployment's own answers. It needs no
// particular data: on an empty deployment it compares empty sets, and still runs. Each declares the rule it is
// catalogued under (contract/judge/rules.ts RELATION_RULES) and the sentences it stands on, by their ids in the
// sentence table (contract/judge/sentence-map.ts maps each of them to that rule; tests/contract/relations.test.ts
// holds the two to each other).
import type { RelationRule } from '../../contract/judge';
import type { CheckContext, OperationName } from '../kit/context';

export interface Relation {
  /** The check's name: the requests and what they must have in common. */
  name: string;
  operation: OperationName;
  rule: RelationRule;
  /** Ids of the sentences of openapi.yaml it stands on. */
  sentences: readonly string[];
  run(context: CheckContext): Promise<void>;
}

/** The sentences the relations stand on, by their ids in the sentence table (the bundled openapi.yaml). */
export const SENTENCES = {
  folding: 'getClientsExtended.param.filter:folding-is-exactly-unicode-44cb00',
  matches: 'getClientsExtended.param.filter:a-client-matches-when-41d347',
  caseForms: 'getClientsExtended.param.filter:so-asa-finds-asa-919efd',
  trimmed: 'getClientsExtended.param.filter:trimmed-empty-means-no-24b44a',
  whiteSpace: 'getClientsExtended.param.filter:white-space-is-exactly-f2a05c',
  plainText: 'getClientsExtended.param.filter:every-character-is-plain-396e7d',
  digits: 'getClientsExtended.param.filter:a-term-made-only-e3368f',
  staffCase: 'getClientsExtended.param.idStaff:uuids-are-compared-case-7b4d6b',
  locationCase: 'getClientsExtended.param.idLocation:uuids-are-compared-case-7b4d6b',
  detailCase: 'getClientDetail.param.idClient:uuids-are-compared-case-6d82f4',
  filtersAnd: 'getClientsExtended:all-given-filters-combine-8c590c',
  active: 'getClientsExtended.param.active:true-keeps-active-clients-8706c8',
  status: 'schema.ClientStatus:the-client-s-status-321518',
  paging: 'info#lists-paging-order:page-is-an-integer-1fcdfe',
  order: 'info#lists-paging-order:clients-are-ordered-by-eaf1e8',
  total: 'header.X-Total-Count:number-of-clients-matching-a53e78',
} as const;
