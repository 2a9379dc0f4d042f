// contract/json-text.ts holds a JSON body to RFC 8259 (the judge scans every JSON body it meets, so its scan is
// written for speed: pointers are written only for a duplicate). What it says: a table of the faults it names,
// and for any JSON value (fast-check) no fault, while the same text with one member name repeated is the
// duplicate, at its place (a JSON Pointer, RFC 6901: `~` and `/` in a name escaped).
import fc from 'fast-check';
import { checkJsonText } from '../../contract/json-text';

const bytes = (text: string) => new TextEncoder().encode(text);

describe('checkJsonText', () => {
  test.each([
    ['a page', '{"Page":1,"Results":[{"a":"x:y","b":"\\":"}]}', []],
    ['a member name with an escaped quote and a colon', '{"a\\":b":1,"a":2}', []],
    ['a repeated member name, nested', '{"Results":[{"a":1},{"a":1,"b":2,"a":3}]}', ['duplicate: /Results/1 repeats the member name "a"']],
    ['a trailing comma', '{"a":1,}', ['syntax']],
    ['NaN', '[NaN]', ['syntax']],
    ['text after the value', '{"a":1} x', ['syntax']],
    ['a lone scalar', '"Pong"', []],
    [
      'a repeated name under names with ~ and /',
      '{"a/b":{"c~d":[0,{"e":1,"e":2}]}}',
      ['duplicate: /a~1b/c~0d/1 repeats the member name "e"'],
    ],
    ['a repeated name at the top', '{"e":1,"e":2}', ['duplicate: / repeats the member name "e"']],
    ['escapes in a string', '{"a":"\\u00e9\\n\\/"}', []],
    ['a bad escape', '{"a":"\\x"}', ['syntax']],
  ])('%s → %j', (_what, text, expected) => {
    const result = checkJsonText(bytes(text), 'application/json; charset=utf-8');

    const problems = result.problems.map((p) => (p.kind === 'duplicate' ? `${p.kind}: ${p.message.split(' (RFC')[0]}` : p.kind));
    expect(problems).toEqual(expected);
    expect(result.parsed).toBe(!expected.includes('syntax'));
  });

  test('any JSON value → parsed, no problem, the same value', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const result = checkJsonText(bytes(JSON.stringify(value)));
        expect(result.problems).toEqual([]);
        expect(result.value).toEqual(JSON.parse(JSON.stringify(value)));
      }),
      { numRuns: 300 },
    );
  });

  test('any object with one member repeated in its text → the duplicate, at the object', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue(), { minKeys: 1 }), fc.nat(), (object, pick) => {
        const names = Object.keys(object);
        const name = names[pick % names.length]!;
        const text = `{"x":${JSON.stringify(object).slice(0, -1)},${JSON.stringify(name)}:null}}`;
        const result = checkJsonText(bytes(text));
        expect(result.problems.map((p) => p.kind)).toEqual(['duplicate']);
        expect(result.problems[0]!.message).toContain(`/x repeats the member name ${JSON.stringify(name)}`);
      }),
      { numRuns: 300 },
    );
  });
});
