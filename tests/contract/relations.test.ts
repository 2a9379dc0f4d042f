// The metamorphic relations (contract-suite/relations/, issue 35.2): each stands on sentences of openapi.yaml
// that the sentence table maps to its rule; the table of them in docs/contract.md is current; the folding table
// and the White_Space characters are the document's; on a data set with none of the folding table's letters and
// on zero clients every relation runs and passes; and a backend that breaks one (a second implementation with
// one fault each) fails it.
import fs from 'node:fs';
import path from 'node:path';
import { RELATION_RULES } from '../../contract/judge';
import { SENTENCE_MAP } from '../../contract/judge/sentence-map';
import { specSentences } from '../../contract/judge/sentences';
import { specContract } from '../../contract/spec-contract';
import { foldText } from '../../contract/text-folding';
import { runChecks, type CheckResult } from '../../contract-suite/registry';
import { relationChecks, relations } from '../../contract-suite/relations';
import { foldingRows, whiteSpaceCharacters } from '../../contract-suite/relations/document';
import { relationTable, withRelationTable } from '../../scripts/relations-table';
import { generateClients } from '../../seeds/client';
import { API_KEY, ROOT, startTestServer } from '../support/servers';
import { startSecondImplementation, type Fault } from './second-implementation';

const contract = specContract();
const all = relations(contract);

/** The relation checks alone against a target. */
async function runRelations(baseUrl: string, apiKey: string): Promise<CheckResult[]> {
  const { results } = await runChecks({ baseUrl, apiKey }, () => true, { groups: [relationChecks] });
  return results;
}

const outcomes = (results: readonly CheckResult[]) => results.map((r) => `${r.outcome} ${r.check.name}${r.reason ? `: ${r.reason}` : ''}`);

describe('the relations and their sentences', () => {
  test('each relation stands on sentences of openapi.yaml that the sentence table maps to its rule, and each rule is catalogued', () => {
    const ids = new Set(specSentences(contract.spec).map((s) => s.id));

    const wrong = all.flatMap((relation) => [
      ...(Object.hasOwn(RELATION_RULES, relation.rule) ? [] : [`${relation.name}: ${relation.rule} is not in RELATION_RULES`]),
      ...(relation.sentences.length === 0 ? [`${relation.name}: no sentence`] : []),
      ...relation.sentences
        .filter((id) => !ids.has(id) || !(SENTENCE_MAP[id]?.rules ?? []).includes(relation.rule))
        .map((id) => `${relation.name}: ${id} is not a sentence mapped to ${relation.rule}`),
    ]);

    expect(wrong).toEqual([]);
  });

  test('every sentence the table maps to a relation rule is declared by a relation under that rule, and every relation rule is used', () => {
    const declared = new Set(all.flatMap((relation) => relation.sentences.map((id) => `${id} ${relation.rule}`)));

    const undeclared = Object.entries(SENTENCE_MAP).flatMap(([id, entry]) =>
      (entry.rules ?? []).filter((rule) => rule.startsWith('relation.') && !declared.has(`${id} ${rule}`)).map((rule) => `${id} ${rule}`),
    );

    expect(undeclared).toEqual([]);
    expect(Object.keys(RELATION_RULES).filter((rule) => !all.some((relation) => relation.rule === rule))).toEqual([]);
  });

  test('docs/contract.md holds the current table of relations (npm run gen:relations writes it)', () => {
    const page = fs.readFileSync(path.join(ROOT, 'docs/contract.md'), 'utf8');

    expect(withRelationTable(page, relationTable())).toBe(page);
    expect(page).toContain(relationTable());
  });

  test("the folding table is the document's, one relation a row, and the suite's folding (contract/text-folding.ts) applies it", () => {
    const rows = foldingRows(contract);

    expect(rows.map((row) => `${row.letter}→${row.replacement}`)).toEqual([
      'ø→o',
      'æ→ae',
      'ß→ss',
      'ł→l',
      'đ→d',
      'œ→oe',
      'ð→d',
      'þ→th',
      'ı→i',
    ]);
    for (const row of rows) expect(foldText(row.letter)).toBe(row.replacement);
    expect(all.filter((relation) => relation.rule === 'relation.fold-row')).toHaveLength(rows.length);
  });

  test('the White_Space characters are those the document lists, exactly the Unicode White_Space property', () => {
    const property = Array.from({ length: 0x110000 }, (_, code) => code)
      .filter((code) => (code < 0xd800 || code > 0xdfff) && /\p{White_Space}/u.test(String.fromCodePoint(code)))
      .map((code) => String.fromCodePoint(code));

    expect(whiteSpaceCharacters(contract)).toEqual(property);
  });
});

describe('the relations run and pass on any data', () => {
  test("our mock on data with none of the folding table's letters (SEED=1, CLIENTS=1000): every relation runs and passes, the nine folding rows included", async () => {
    const data = generateClients(1, 1000);
    // The table's letters and every letter that lower-cases to one (Ø, ẞ; not I, which is i's upper case too).
    const table = new Set(foldingRows(contract).map((row) => row.letter));
    const isTableLetter = (c: string) => table.has(c.toLowerCase()) && !/[A-Za-z]/.test(c);
    expect(data.filter((client) => [...JSON.stringify(client)].some(isTableLetter)).map((client) => client.PersonalInfo.FullName)).toEqual(
      [],
    );
    const server = await startTestServer({}, data);
    try {
      const results = await runRelations(server.baseUrl, API_KEY);

      console.log(['relations on 1,000 clients without a letter of the folding table:', ...outcomes(results)].join('\n  '));
      expect(
        results.filter((r) => r.outcome !== 'pass').map((r) => `${r.outcome} ${r.check.name}: ${r.error?.message ?? r.reason}`),
      ).toEqual([]);
      expect(results.filter((r) => /folding table: /.test(r.check.name))).toHaveLength(9);
      expect(results).toHaveLength(all.length);
    } finally {
      await server.stop();
    }
  }, 120_000);

  test('our mock with zero clients: every relation runs and passes (empty sets compared, none skipped)', async () => {
    const server = await startTestServer({ clients: 0 });
    try {
      const results = await runRelations(server.baseUrl, API_KEY);

      console.log(['relations on zero clients:', ...outcomes(results)].join('\n  '));
      expect(
        results.filter((r) => r.outcome !== 'pass').map((r) => `${r.outcome} ${r.check.name}: ${r.error?.message ?? r.reason}`),
      ).toEqual([]);
      expect(results).toHaveLength(all.length);
    } finally {
      await server.stop();
    }
  }, 60_000);
});

/** Each fault of the second implementation, and the relation (by rule) that must fail it. */
const FAULTS: [Fault, string, string][] = [
  ['eszett-unfolded', 'relation.fold-row', 'ß matches only itself'],
  ['case-sensitive', 'relation.case', 'no lower-casing'],
  ['marks-kept', 'relation.accents', 'combining marks kept'],
  ['ecmascript-white-space', 'relation.white-space', "JavaScript's white space (U+0085 no space)"],
  ['untrimmed', 'relation.trim', 'the term not trimmed'],
  ['plus-literal', 'relation.plus-space', '+ read as a plus'],
  ['digits-bare-only', 'relation.digits', 'the phone-digit rule only for bare digits'],
  ['uuid-case-sensitive', 'relation.uuid-case', 'uuids compared as written'],
  ['pages-overlap', 'relation.tiling', 'page n > 1 starting one client early'],
  ['and-drops-last', 'relation.intersection', 'filters together losing their last match'],
  ['active-drops-one', 'relation.active-partition', 'the first client neither active nor inactive'],
];

describe('the relations fail a backend that breaks one (second implementation, no letter of the folding table in its data)', () => {
  test('the correct one passes every relation', async () => {
    const second = await startSecondImplementation({ noTableLetters: true });
    try {
      const results = await runRelations(second.baseUrl, second.apiKey);

      expect(
        results.filter((r) => r.outcome !== 'pass').map((r) => `${r.outcome} ${r.check.name}: ${r.error?.message ?? r.reason}`),
      ).toEqual([]);
    } finally {
      await second.stop();
    }
  }, 60_000);

  test.each(FAULTS)(
    '%s → %s fails (%s)',
    async (fault, rule) => {
      const second = await startSecondImplementation({ noTableLetters: true, faults: [fault] });
      try {
        const results = await runRelations(second.baseUrl, second.apiKey);

        const failed = results.filter((r) => r.outcome === 'fail');
        console.log(
          [
            `${fault}: ${failed.length} relation(s) failed`,
            ...failed.map((r) => `${r.check.name}\n      ${(r.error?.message ?? '').split('\n').join('\n      ')}`),
          ].join('\n  '),
        );
        expect(results.filter((r) => r.outcome === 'error').map((r) => r.error?.message)).toEqual([]);
        expect(failed.filter((r) => r.check.rules?.includes(rule as never)).length).toBeGreaterThan(0);
      } finally {
        await second.stop();
      }
    },
    60_000,
  );
});
