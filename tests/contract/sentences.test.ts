// A rule for every sentence (issue 23, item 2): the sentence table is built
// from openapi.yaml (contract/judge/sentences.ts splits every description and
// summary mechanically) and compared with its data (sentence-map.ts) both
// ways. A sentence of the document with no entry fails, so a sentence added
// to the spec cannot go unchecked silently; an entry for a sentence the
// document no longer has fails; a rule id that neither the judge nor any
// check declares fails. Prints the figures and the unenforceable sentences.
import { loadSpec, type OpenApiDocument } from '../../contract/spec';
import { contractChecks } from '../../contract-suite/registry';
import { JUDGE_RULES } from '../../contract/judge';
import { SENTENCE_MAP } from '../../contract/judge/sentence-map';
import { sentenceCoverage, specSentences, splitSentences } from '../../contract/judge/sentences';

const document = loadSpec();
const sentences = specSentences(document);
const declared = new Set<string>([...Object.keys(JUDGE_RULES), ...contractChecks().flatMap((check) => check.rules ?? [])]);

describe('the sentence table (contract/judge/sentences.ts, sentence-map.ts)', () => {
  test('every sentence of openapi.yaml has rules that enforce it or a reason none can', () => {
    const missing = sentences.filter((sentence) => {
      const entry = SENTENCE_MAP[sentence.id];
      return !entry || ((entry.rules ?? []).length === 0) === (entry.reason === undefined);
    });

    expect(missing.map((s) => `${s.id}: ${s.text}`)).toEqual([]);
  });

  test('the table names no sentence the document no longer has', () => {
    const ids = new Set(sentences.map((s) => s.id));

    expect(Object.keys(SENTENCE_MAP).filter((id) => !ids.has(id))).toEqual([]);
  });

  test("every rule the table names is the judge's or declared by a check", () => {
    const unknown = Object.entries(SENTENCE_MAP).flatMap(([id, entry]) =>
      (entry.rules ?? []).filter((rule) => !declared.has(rule)).map((rule) => `${id}: ${rule}`),
    );

    expect(unknown).toEqual([]);
  });

  test('a sentence added to the spec is reported as not enforced until the table maps it', () => {
    const edited = structuredClone(document) as OpenApiDocument;
    const ping = edited.paths['/api/v1/Diagnostics/Ping']!.get as { description: string };
    ping.description += ' Answers within 10 ms.';

    const added = specSentences(edited).filter((s) => !SENTENCE_MAP[s.id]);

    expect(added.map((s) => s.text)).toEqual(['Answers within 10 ms.']);
    expect(sentenceCoverage(edited, declared).unenforced.find((s) => s.text === 'Answers within 10 ms.')?.reason).toMatch(
      /not in this suite's sentence table/,
    );
  });

  test('ids are stable: the same sentence at the same place keeps its id; another wording gets another', () => {
    expect(specSentences(document).map((s) => s.id)).toEqual(sentences.map((s) => s.id));
    const [a] = specSentences({
      ...document,
      info: { ...(document.info as object), description: 'Exactly one sentence.' },
    } as OpenApiDocument);
    const [b] = specSentences({
      ...document,
      info: { ...(document.info as object), description: 'Exactly one other sentence.' },
    } as OpenApiDocument);
    expect(a!.id).not.toBe(b!.id);
  });

  test.each([
    ['two sentences', 'First one. Second one.', ['First one.', 'Second one.']],
    ['a period inside a code span', 'Send `a. B` here. Then this.', ['Send `a. B` here.', 'Then this.']],
    ['an abbreviation', 'A format, e.g. `+46 70`. Next.', ['A format, e.g. `+46 70`.', 'Next.']],
    ['a decimal number', 'It takes 1.5 s. Then more.', ['It takes 1.5 s.', 'Then more.']],
  ])('splitSentences: %s', (_what, text, expected) => {
    expect(splitSentences(text)).toEqual(expected);
  });

  test('the figures: N of M sentences mapped to rules, the rest with reasons (printed for the report)', () => {
    const withRules = sentences.filter((s) => (SENTENCE_MAP[s.id]?.rules ?? []).length > 0);
    const withReasons = sentences.filter((s) => SENTENCE_MAP[s.id]?.reason !== undefined);
    const partial = withRules.filter((s) => SENTENCE_MAP[s.id]?.note !== undefined);

    console.log(
      [
        `sentence table: ${withRules.length} of ${sentences.length} sentences enforced by rules (${partial.length} of them in part), ${withReasons.length} with a reason none can:`,
        ...withReasons.map((s) => `  - ${s.id}: "${s.text}" — ${SENTENCE_MAP[s.id]!.reason}`),
        'in part:',
        ...partial.map((s) => `  - ${s.id}: ${SENTENCE_MAP[s.id]!.note}`),
      ].join('\n'),
    );
    expect(withRules.length + withReasons.length).toBe(sentences.length);
  });
});
