// What the relations read from the document in use rather than from the suite's own code: the folding table
// and the White_Space characters the `filter` parameter's description lists, and the folding they define. A
// relation over a row of that table runs because openapi.yaml has the row; another version of the document
// (--spec) gets its own rows, and a table copied by hand could not fall behind the sentence it checks.
import type { SpecContract } from '../../contract/spec-contract';

/** One row of the folding table: `ß`→`ss`. */
export interface FoldingRow {
  letter: string;
  replacement: string;
}

/** The description of the `filter` query parameter of the list that has one ('' when no operation has it). */
export function filterDescription(contract: SpecContract): string {
  for (const operation of contract.operations)
    for (const parameter of operation.parameters) if (parameter.in === 'query' && parameter.name === 'filter') return parameter.description;
  return '';
}

/** The folding table as the description writes it: every `X`→`Y` pair, in its order. */
export function foldingRows(contract: SpecContract): FoldingRow[] {
  return [...filterDescription(contract).matchAll(/`([^`]+)`\s*→\s*`([^`]+)`/g)].map(([, letter, replacement]) => ({
    letter: letter!,
    replacement: replacement!,
  }));
}

/**
 * The White_Space characters the description lists in the brackets after "`White_Space` property" (single code
 * points and `U+XXXX to U+YYYY` ranges), in code-point order; [] when it lists none.
 */
export function whiteSpaceCharacters(contract: SpecContract): string[] {
  const list = /White_Space`?\s+property\s*\(([^)]*)\)/.exec(filterDescription(contract))?.[1] ?? '';
  const characters: string[] = [];
  for (const [, from, to] of list.matchAll(/U\+([0-9A-Fa-f]{4,6})(?:\s+to\s+U\+([0-9A-Fa-f]{4,6}))?/g))
    for (let code = parseInt(from!, 16); code <= parseInt(to ?? from!, 16); code += 1) characters.push(String.fromCodePoint(code));
  return characters;
}

/**
 * The folding the description states: canonical decomposition (NFD), every combining mark removed, lower case,
 * then the table's letters replaced. The relations use it only to keep a form of a term whose folded form is the
 * term's own (an upper-case form that folds otherwise, as `ſ`'s `S`, is no case form of it).
 */
export function foldingOf(rows: readonly FoldingRow[]): (text: string) => string {
  const table = new Map(rows.map((row) => [row.letter, row.replacement]));
  return (text) => [...text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase()].map((c) => table.get(c) ?? c).join('');
}
