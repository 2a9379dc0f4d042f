// Two JSON values (what JSON.parse makes: null, booleans, numbers, strings, arrays and plain objects) compared as
// RFC 8259 reads them: objects unordered, arrays in order. The same answer node:util's isDeepStrictEqual gives for
// such values (numbers by Object.is, so -0 is not 0), without its walk of prototypes, symbols and property
// descriptors: the judge compares every client it meets with what it saw of that client before, and that
// comparison was a tenth of the proxy's judging.

export function sameJsonValue(a: unknown, b: unknown): boolean {
  if (typeof a !== 'object' || a === null || typeof b !== 'object' || b === null) return Object.is(a, b);
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i += 1) if (!sameJsonValue(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  const keys = Object.keys(x);
  if (keys.length !== Object.keys(y).length) return false;
  for (const key of keys) if (!Object.prototype.hasOwnProperty.call(y, key) || !sameJsonValue(x[key], y[key])) return false;
  return true;
}
