// contract/json-equal.ts answers as node:util's isDeepStrictEqual does for any two JSON values (the judge swapped
// one for the other for speed): equal values written in another member order, and values a small edit apart.
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { sameJsonValue } from '../../contract/json-equal';

/** The value with its objects' members in reverse order: the same JSON value. */
const reordered = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.map(reordered)
    : value !== null && typeof value === 'object'
      ? Object.fromEntries(
          Object.entries(value)
            .reverse()
            .map(([k, v]) => [k, reordered(v)]),
        )
      : value;

describe('sameJsonValue', () => {
  test('any two JSON values → what isDeepStrictEqual says', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.jsonValue(), (a, b) => {
        expect(sameJsonValue(a, b)).toBe(isDeepStrictEqual(a, b));
      }),
      { numRuns: 2000 },
    );
  });

  test('a value and its members reordered → equal; and a member changed, added or dropped → not', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue(), { minKeys: 1 }), fc.nat(), (object, pick) => {
        const copy = reordered(object) as Record<string, unknown>;
        expect(sameJsonValue(object, copy)).toBe(true);
        const name = Object.keys(object)[pick % Object.keys(object).length]!;
        for (const edited of [
          { ...copy, [name]: [copy[name]] },
          { ...copy, [`${name}x`]: 1 },
          Object.fromEntries(Object.entries(copy).filter(([k]) => k !== name)),
        ])
          expect([sameJsonValue(object, edited), isDeepStrictEqual(object, edited)]).toEqual([false, false]);
      }),
      { numRuns: 1000 },
    );
  });

  test.each([
    [0, -0, false],
    [[1, 2], [2, 1], false],
    [{ a: [] }, { a: {} }, false],
    [null, {}, false],
    [{ a: 1, b: [true, null] }, { b: [true, null], a: 1 }, true],
  ])('%j and %j → %s, as isDeepStrictEqual', (a, b, same) => {
    expect([sameJsonValue(a, b), isDeepStrictEqual(a, b)]).toEqual([same, same]);
  });
});
