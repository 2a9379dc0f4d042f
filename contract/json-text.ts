// The media type's own rules for an `application/json` body (RFC 8259), which
// no JSON Schema can see because a schema validates the value after parsing:
// the bytes are UTF-8 (§8.1), carry no byte order mark (§8.1), parse under the
// strict grammar (§2-§7: no trailing comma, no NaN, no single quotes, no
// comments), and no object repeats a member name (§4: names SHOULD be unique;
// JSON.parse keeps the last one silently, so a client would see another value
// than a streaming parser). A charset parameter, if present, must say utf-8.
import { pointerSegment } from './spec';

export interface JsonTextResult {
  /** The parsed value when the text is well-formed JSON (even if a rule above is broken). */
  value?: unknown;
  parsed: boolean;
  /** Each broken rule: its kind and one line, e.g. `a byte order mark (EF BB BF) precedes the JSON text, which RFC 8259 §8.1 forbids`. */
  problems: JsonTextProblem[];
}

export interface JsonTextProblem {
  kind: 'charset' | 'bom' | 'utf-8' | 'syntax' | 'duplicate';
  message: string;
}

const BOM = [0xef, 0xbb, 0xbf];
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const LITERALS = ['true', 'false', 'null'] as const;
/** The one-character escapes of a JSON string (RFC 8259 §7) and what each stands for. */
const ESCAPED: Readonly<Record<string, string>> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

/** The `charset` parameter of a Content-Type, lower case, or undefined. */
export function charsetOf(contentType: string | null | undefined): string | undefined {
  const match = /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(contentType ?? '');
  return match?.[1]?.toLowerCase();
}

/**
 * Scans a JSON text under RFC 8259's grammar and reports the first object
 * that repeats a member name (as a JSON Pointer and the name), or a syntax
 * error's offset. Linear in the text; no value is built (JSON.parse does that).
 */
function scan(text: string): { error?: string; duplicate?: string } {
  let i = 0;
  let duplicate: string | undefined;
  // The member names and indexes down to the value being read: a pointer is written only for a duplicate (the judge
  // scans every JSON body it meets, and writing one per value cost more than the scan).
  const path: (string | number)[] = [];
  const pointerHere = () => path.map((step) => `/${typeof step === 'number' ? step : pointerSegment(step)}`).join('');
  const ws = () => {
    while (i < text.length) {
      const c = text.charCodeAt(i);
      if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) i += 1;
      else break;
    }
  };
  const fail = (what: string): never => {
    throw new SyntaxError(`${what} at offset ${i}`);
  };
  const string = (): string => {
    // text[i] is '"'
    i += 1;
    let out = '';
    let start = i;
    for (;;) {
      if (i >= text.length) fail('unterminated string');
      const c = text.charCodeAt(i);
      if (c === 0x22) {
        out += text.slice(start, i);
        i += 1;
        return out;
      }
      if (c < 0x20) fail('unescaped control character in a string');
      if (c === 0x5c) {
        out += text.slice(start, i);
        const e = text[i + 1];
        if (e === 'u') {
          const hex = text.slice(i + 2, i + 6);
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) fail('bad \\u escape');
          out += String.fromCharCode(parseInt(hex, 16));
          i += 6;
        } else {
          if (e === undefined || ESCAPED[e] === undefined) fail('bad escape');
          out += ESCAPED[e!]!;
          i += 2;
        }
        start = i;
        continue;
      }
      i += 1;
    }
  };
  const value = (): void => {
    ws();
    const c = text.charCodeAt(i);
    if (c === 0x7b /* { */) {
      i += 1;
      ws();
      const names = new Set<string>();
      if (text.charCodeAt(i) === 0x7d /* } */) {
        i += 1;
        return;
      }
      for (;;) {
        ws();
        if (text.charCodeAt(i) !== 0x22) fail('expected a member name');
        const name = string();
        if (names.has(name) && duplicate === undefined)
          duplicate = `${pointerHere() || '/'} repeats the member name ${JSON.stringify(name)}`;
        names.add(name);
        ws();
        if (text.charCodeAt(i) !== 0x3a /* : */) fail("expected ':'");
        i += 1;
        path.push(name);
        value();
        path.pop();
        ws();
        const next = text.charCodeAt(i);
        if (next === 0x2c /* , */) {
          i += 1;
          continue;
        }
        if (next === 0x7d) {
          i += 1;
          return;
        }
        fail("expected ',' or '}'");
      }
    }
    if (c === 0x5b /* [ */) {
      i += 1;
      ws();
      if (text.charCodeAt(i) === 0x5d /* ] */) {
        i += 1;
        return;
      }
      for (let index = 0; ; index += 1) {
        path.push(index);
        value();
        path.pop();
        ws();
        const next = text.charCodeAt(i);
        if (next === 0x2c) {
          i += 1;
          continue;
        }
        if (next === 0x5d) {
          i += 1;
          return;
        }
        fail("expected ',' or ']'");
      }
    }
    if (c === 0x22) {
      string();
      return;
    }
    for (const literal of LITERALS) {
      if (text.startsWith(literal, i)) {
        i += literal.length;
        return;
      }
    }
    NUMBER.lastIndex = i;
    const number = NUMBER.exec(text);
    if (!number) fail('expected a JSON value');
    i += number![0].length;
  };
  try {
    value();
    ws();
    if (i !== text.length) fail('text after the JSON value');
  } catch (error) {
    return { error: (error as Error).message, duplicate };
  }
  return { duplicate };
}

/** One decoder for every body: fatal (bad UTF-8 throws), the BOM left in (it is reported, not skipped). */
const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const BROKEN = Symbol('not a JSON text');
/**
 * How many member names a valid JSON text writes (strings followed by a colon). Between strings a JSON text has no
 * quote, so indexOf (native, far faster than a loop over characters) finds each string's ends; a quote is a string's
 * end unless an odd number of backslashes precedes it.
 */
function memberNames(text: string): number {
  let count = 0;
  for (let open = text.indexOf('"'); open !== -1;) {
    let close = text.indexOf('"', open + 1);
    while (close !== -1 && escaped(text, close)) close = text.indexOf('"', close + 1);
    if (close === -1) break;
    let next = close + 1;
    for (let c = text.charCodeAt(next); c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d; c = text.charCodeAt(next)) next += 1;
    if (text.charCodeAt(next) === 0x3a) count += 1;
    open = text.indexOf('"', next);
  }
  return count;
}

/** True when the character at `at` follows an odd number of backslashes. */
function escaped(text: string, at: number): boolean {
  let slashes = 0;
  for (let k = at - 1; k >= 0 && text.charCodeAt(k) === 0x5c; k -= 1) slashes += 1;
  return slashes % 2 === 1;
}

/** How many members the objects of a parsed value hold, all of them. */
function members(value: unknown): number {
  if (value === null || typeof value !== 'object') return 0;
  let count = 0;
  if (Array.isArray(value)) for (const item of value) count += members(item);
  else
    for (const key in value) {
      count += 1 + members((value as Record<string, unknown>)[key]);
    }
  return count;
}

/** Holds a body's bytes and Content-Type to RFC 8259; `problems` is empty when the body is a conforming JSON text. */
export function checkJsonText(bytes: Uint8Array, contentType?: string | null): JsonTextResult {
  const problems: JsonTextProblem[] = [];
  const charset = charsetOf(contentType);
  if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8')
    problems.push({
      kind: 'charset',
      message: `Content-Type says charset=${charset}; a JSON text exchanged between systems is UTF-8 (RFC 8259 §8.1)`,
    });
  let start = 0;
  if (bytes.length >= 3 && BOM.every((b, k) => bytes[k] === b)) {
    problems.push({ kind: 'bom', message: 'a byte order mark (EF BB BF) precedes the JSON text, which RFC 8259 §8.1 forbids' });
    start = 3;
  }
  let text: string;
  try {
    text = UTF8.decode(bytes.subarray(start));
  } catch {
    problems.push({ kind: 'utf-8', message: 'the body is not valid UTF-8 (RFC 8259 §8.1)' });
    return { parsed: false, problems };
  }
  // The fast road: JSON.parse's grammar is RFC 8259's, and a text whose member names are as many as the parsed
  // value's members repeats none. Only a text that breaks a rule is scanned, for the place to name.
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch {
    value = BROKEN;
  }
  if (value !== BROKEN && memberNames(text) === members(value)) return { parsed: true, value, problems };
  const scanned = scan(text);
  if (scanned.error !== undefined) {
    problems.push({ kind: 'syntax', message: `the body is not a JSON text (RFC 8259): ${scanned.error}` });
    return { parsed: false, problems };
  }
  if (scanned.duplicate !== undefined)
    problems.push({ kind: 'duplicate', message: `${scanned.duplicate} (RFC 8259 §4: names within an object should be unique)` });
  return { parsed: true, value: value === BROKEN ? (JSON.parse(text) as unknown) : value, problems };
}
