// The relations the `filter` parameter's description implies: two terms the stated folding makes one (a row of
// the folding table, a case form, combining marks, White_Space for a space, White_Space around a term, nothing at
// all) find the same clients; `+` and `%20` are one space; a digit term finds the same phones with or without its
// brackets and dashes. The terms are cut from the deployment's first and last page where it has them (terms.ts),
// the folding table and the White_Space characters read from the document (document.ts).
import type { SpecContract } from '../../contract/spec-contract';
import { operationPaths, type CheckContext } from '../kit/context';
import { expectSamePhones, expectSameSet } from './compare';
import { foldingOf, foldingRows, whiteSpaceCharacters, type FoldingRow } from './document';
import { SENTENCES, type Relation } from './relation';
import { encodeQuery, resultSet, type ResultSet } from './result-set';
import { nameOf, phoneDigitsOf, termAround } from './terms';

type Fold = (text: string) => string;

/** A term as a failure shows it: quoted, every white space but U+0020 and every invisible character as \uXXXX. */
const show = (text: string) =>
  `"${text.replace(/(?! )[\p{White_Space}\p{Cc}\p{Cf}\p{M}]/gu, (c) => `\\u${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`)}"`;

/** The Extended list filtered by `filter`. */
function filtered(context: CheckContext, filter: string): Promise<ResultSet> {
  return resultSet(context, operationPaths(context.contract).getClientsExtended, encodeQuery({ filter }));
}

/** Each of `forms` finds exactly the clients `term` finds. */
async function expectFormsAlike(context: CheckContext, term: string, forms: Iterable<string>, rule: Relation['rule']): Promise<void> {
  const plain = await filtered(context, term);
  for (const form of forms)
    expectSameSet(context, plain, await filtered(context, form), rule, `filter=${show(form)} against filter=${show(term)}`);
}

function foldRow(row: FoldingRow, fold: Fold): Relation {
  const upper = row.letter.toUpperCase();
  const letters = upper === row.letter ? row.letter : `${row.letter} or ${upper}`;
  return {
    name: `relation: GET /Client/Extended?filter=<a term with ${letters} for ${row.replacement}> finds exactly the clients of the term with ${row.replacement} (folding table: ${row.letter}→${row.replacement})`,
    operation: 'getClientsExtended',
    rule: 'relation.fold-row',
    sentences: [SENTENCES.folding, SENTENCES.matches],
    async run(context) {
      const term = termAround((await context.sample()).clients, fold, row.replacement);
      // Only a form the stated folding makes the term: a row whose letter NFD would decompose first is no such form.
      const forms = new Set([row.letter, upper].map((letter) => term.replace(row.replacement, letter)));
      await expectFormsAlike(
        context,
        term,
        [...forms].filter((form) => fold(form) === fold(term)),
        'relation.fold-row',
      );
    },
  };
}

/** Upper case for lower and lower for upper, letter by letter. */
const swapped = (text: string) => [...text].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join('');

function caseForms(fold: Fold): Relation {
  return {
    name: 'relation: GET /Client/Extended?filter=<a listed name in lower, upper and swapped case> finds exactly the clients of the name as written (case forms fold alike)',
    operation: 'getClientsExtended',
    rule: 'relation.case',
    sentences: [SENTENCES.folding, SENTENCES.caseForms, SENTENCES.matches],
    async run(context) {
      const name = nameOf((await context.sample()).clients, 'Ann Lee');
      // Only the forms that fold to the name's folding (the long s upper-cases to S, which folds to s, not to ſ).
      const forms = new Set([name.toLowerCase(), name.toUpperCase(), swapped(name)]);
      await expectFormsAlike(
        context,
        name,
        [...forms].filter((form) => form !== name && fold(form) === fold(name)),
        'relation.case',
      );
    },
  };
}

function accents(fold: Fold): Relation {
  return {
    name: 'relation: GET /Client/Extended?filter=<a listed name folded, with a combining mark on every letter, composed and decomposed> finds exactly the clients of the bare folded name (marks are removed)',
    operation: 'getClientsExtended',
    rule: 'relation.accents',
    sentences: [SENTENCES.folding, SENTENCES.caseForms, SENTENCES.matches],
    async run(context) {
      // A name with no mark of its own where the sample has one: its folded form is then in the data as written.
      const { clients } = await context.sample();
      const unmarked = clients.filter((client) => fold(client.FullName) === client.FullName.toLowerCase());
      const bare = fold(nameOf(unmarked.length > 0 ? unmarked : clients, 'ann lee'));
      const marked = [...bare].map((c) => (/\p{L}/u.test(c) ? `${c}\u0301` : c)).join('');
      const forms = new Set([marked.normalize('NFC'), marked.normalize('NFD')]);
      await expectFormsAlike(
        context,
        bare,
        [...forms].filter((form) => fold(form) === bare),
        'relation.accents',
      );
    },
  };
}

function whiteSpaceInside(spaces: readonly string[]): Relation {
  return {
    name: `relation: GET /Client/Extended?filter=<a listed name with each of the ${spaces.length} White_Space characters, and a run of them all, for its spaces> finds exactly the clients of the name with its spaces`,
    operation: 'getClientsExtended',
    rule: 'relation.white-space',
    sentences: [SENTENCES.whiteSpace, SENTENCES.trimmed, SENTENCES.matches],
    async run(context) {
      const name = nameOf((await context.sample()).clients, 'Ann Lee');
      const spaced = [...spaces.filter((c) => c !== ' '), spaces.join('')].map((space) => name.replaceAll(' ', space));
      await expectFormsAlike(context, name, spaced, 'relation.white-space');
    },
  };
}

function trimming(spaces: readonly string[]): Relation {
  return {
    name: `relation: GET /Client/Extended?filter=<a listed name between two of each of the ${spaces.length} White_Space characters> finds exactly the clients of the name (trimmed)`,
    operation: 'getClientsExtended',
    rule: 'relation.trim',
    sentences: [SENTENCES.trimmed, SENTENCES.whiteSpace],
    async run(context) {
      const name = nameOf((await context.sample()).clients, 'Ann Lee');
      await expectFormsAlike(
        context,
        name,
        spaces.map((space) => `${space}${name}${space}`),
        'relation.trim',
      );
    },
  };
}

function blank(spaces: readonly string[]): Relation {
  return {
    name: 'relation: GET /Client/Extended?filter= (empty, three spaces, every White_Space character) finds exactly the clients of no filter',
    operation: 'getClientsExtended',
    rule: 'relation.blank',
    sentences: [SENTENCES.trimmed],
    async run(context) {
      const all = await resultSet(context, operationPaths(context.contract).getClientsExtended);
      for (const filter of ['', '   ', spaces.join('')])
        expectSameSet(context, all, await filtered(context, filter), 'relation.blank', `filter=${show(filter)} against no filter`);
    },
  };
}

function plusSpace(): Relation {
  return {
    name: 'relation: GET /Client/Extended?filter=<a listed name with + for its spaces> finds exactly the clients of the name with %20 for them',
    operation: 'getClientsExtended',
    rule: 'relation.plus-space',
    sentences: [SENTENCES.plainText],
    async run(context) {
      const words = nameOf((await context.sample()).clients, 'Ann Lee')
        .split(' ')
        .map(encodeURIComponent);
      const extended = operationPaths(context.contract).getClientsExtended;
      const encoded = await resultSet(context, extended, `filter=${words.join('%20')}`);
      const plus = await resultSet(context, extended, `filter=${words.join('+')}`);
      expectSameSet(context, encoded, plus, 'relation.plus-space', `filter=${words.join('+')} against filter=${words.join('%20')}`);
    },
  };
}

function digits(): Relation {
  return {
    name: 'relation: GET /Client/Extended?filter=<the last seven digits of a phone with brackets, spaces, dashes or a +> finds exactly the phones the bare digits find',
    operation: 'getClientsExtended',
    rule: 'relation.digits',
    sentences: [SENTENCES.digits],
    async run(context) {
      const bare = phoneDigitsOf((await context.sample()).clients, '0701234');
      const [a, b, c] = [bare.slice(0, 3), bare.slice(3, 5), bare.slice(5)];
      const plain = await filtered(context, bare);
      for (const decorated of [`(${a}) ${b}-${c}`, `${a}-${b}${c}`, `+${a} ${b} ${c}`])
        expectSamePhones(
          context,
          plain,
          await filtered(context, decorated),
          bare,
          'relation.digits',
          `filter=${show(decorated)} against filter=${bare}`,
        );
    },
  };
}

/** Every relation the `filter` parameter's description implies, one per row of its folding table. */
export function filterRelations(contract: SpecContract): Relation[] {
  const rows = foldingRows(contract);
  const fold = foldingOf(rows);
  const spaces = whiteSpaceCharacters(contract);
  return [
    ...rows.map((row) => foldRow(row, fold)),
    caseForms(fold),
    accents(fold),
    ...(spaces.length > 0 ? [whiteSpaceInside(spaces), trimming(spaces)] : []),
    blank(spaces.length > 0 ? spaces : [' ']),
    plusSpace(),
    digits(),
  ];
}
