// The metamorphic relations (issue 35.2): checks that need no particular data, each a sentence of openapi.yaml
// read as a relation between the deployment's own answers (filter-relations.ts, list-relations.ts), registered as
// one group of checks (registry.ts), and listed beside the sentences they stand on (`contract --list-relations`,
// and the table in docs/contract.md that tests/contract/relations.test.ts keeps current).
import { specSentences } from '../../contract/judge';
import type { SpecContract } from '../../contract/spec-contract';
import type { Define } from '../kit/context';
import { filterRelations } from './filter-relations';
import { listRelations } from './list-relations';
import type { Relation } from './relation';

export { RESULT_SET_BOUND } from './result-set';
export type { Relation } from './relation';

/** Every relation of the document in use, in run order. */
export function relations(contract: SpecContract): Relation[] {
  return [...filterRelations(contract), ...listRelations(contract)];
}

/** The relations as checks, each under its own rule. */
export function relationChecks(check: Define, contract: SpecContract): void {
  for (const relation of relations(contract)) check(relation.operation, relation.name, relation.run, [relation.rule]);
}

export interface RelationListing {
  name: string;
  rule: string;
  sentences: { id: string; text: string }[];
}

/** Each relation with the text of every sentence it stands on (`(not in this document)` for an id the document lacks). */
export function relationListing(contract: SpecContract): RelationListing[] {
  const texts = new Map(specSentences(contract.spec).map((sentence) => [sentence.id, sentence.text]));
  return relations(contract).map((relation) => ({
    name: relation.name.replace(/^relation: /, ''),
    rule: relation.rule,
    sentences: relation.sentences.map((id) => ({ id, text: texts.get(id) ?? '(not in this document)' })),
  }));
}

/** The listing as plain text (`client-records-mock contract --list-relations`). */
export function relationsText(contract: SpecContract): string {
  return relationListing(contract)
    .map((relation, i) =>
      [
        `${i + 1}. ${relation.name}`,
        `   rule: ${relation.rule}`,
        ...relation.sentences.map((s) => `   stands on ${s.id}: "${s.text}"`),
      ].join('\n'),
    )
    .join('\n');
}

/** The listing as a Markdown table (docs/contract.md, between its relation-table markers). */
export function relationsMarkdown(contract: SpecContract): string {
  const cell = (text: string) => text.replace(/\|/g, '\\|');
  return [
    '| # | relation | rule | the sentences of openapi.yaml it stands on |',
    '|---|---|---|---|',
    ...relationListing(contract).map(
      (relation, i) =>
        `| ${i + 1} | ${cell(relation.name)} | \`${relation.rule}\` | ${relation.sentences.map((s) => `${cell(s.text)} (\`${s.id}\`)`).join('<br>')} |`,
    ),
  ].join('\n');
}
