// A strict JSON (RFC 8259) scanner for data files, over bytes rather than one
// string: a file for a million clients (about 1.1 GB) is longer than the
// longest string V8 can hold, so it is checked here and each top-level record
// is parsed on its own. The scan also catches what JSON.parse lets through or
// reports badly: a member name given twice in one object (JSON.parse keeps the
// last one silently), and syntax errors, which it reports as line:column
// without quoting the file (V8's message quotes the text around the error).

export class JsonSyntaxError extends Error {
  constructor(
    readonly line: number,
    readonly column: number,
    readonly problem: string,
  ) {
    super(`${line}:${column}: ${problem}`);
  }
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const MINUS = 0x2d;
const ZERO = 0x30;
const NINE = 0x39;
const DOT = 0x2e;
const HEX = new Uint8Array(256);
for (const c of '0123456789abcdefABCDEF') HEX[c.charCodeAt(0)] = 1;
const ESCAPES = new Uint8Array(256);
for (const c of '"\\/bfnrtu') ESCAPES[c.charCodeAt(0)] = 1;

const isSpace = (b: number) => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;
const isDigit = (b: number) => b >= ZERO && b <= NINE;

/** The 1-based line and column (in characters, not bytes) of a byte offset. */
function position(bytes: Uint8Array, offset: number): { line: number; column: number } {
  let line = 1;
  let column = 1;
  for (let i = 0; i < offset && i < bytes.length; i++) {
    if (bytes[i] === 0x0a) {
      line++;
      column = 1;
    } else if ((bytes[i]! & 0xc0) !== 0x80) {
      // A UTF-8 continuation byte is part of the character before it.
      column++;
    }
  }
  return { line, column };
}

/** A member name as a message may show it: printable ASCII only, cut short. */
function shown(name: string): string {
  const cut = name.length > 40 ? `${name.slice(0, 40)}…` : name;
  return `'${cut.replace(/[^\x20-\x26\x28-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)}'`;
}

class Scanner {
  pos: number;
  /** Where the scan is, as member names and indexes: joined into a path only for a message. */
  readonly path: (string | number)[] = [];

  constructor(
    readonly bytes: Buffer,
    start: number,
  ) {
    this.pos = start;
  }

  fail(problem: string, at = this.pos): never {
    const { line, column } = position(this.bytes, at);
    throw new JsonSyntaxError(line, column, problem);
  }

  unexpected(): never {
    if (this.pos >= this.bytes.length) this.fail('unexpected end of file');
    const b = this.bytes[this.pos]!;
    // The character itself is named only when it is printable ASCII: nothing from the file reaches a terminal raw.
    this.fail(b > 0x20 && b < 0x7f ? `unexpected character '${String.fromCharCode(b)}'` : `unexpected byte 0x${b.toString(16)}`);
  }

  skipSpace(): void {
    const bytes = this.bytes;
    while (this.pos < bytes.length && isSpace(bytes[this.pos]!)) this.pos++;
  }

  expect(byte: number): void {
    if (this.bytes[this.pos] !== byte) this.unexpected();
    this.pos++;
  }

  /** Scans a string at pos (on its opening quote); returns whether it holds an escape. */
  string(): boolean {
    const bytes = this.bytes;
    let escaped = false;
    this.pos++;
    for (;;) {
      if (this.pos >= bytes.length) this.fail('unterminated string');
      const b = bytes[this.pos]!;
      if (b === QUOTE) {
        this.pos++;
        return escaped;
      }
      if (b < 0x20) this.fail('control character in a string');
      if (b === BACKSLASH) {
        escaped = true;
        const e = bytes[this.pos + 1] ?? 0;
        if (!ESCAPES[e]) this.fail('bad escape in a string', this.pos);
        if (e === 0x75) {
          for (let i = 2; i < 6; i++) if (!HEX[bytes[this.pos + i] ?? 0]) this.fail('bad \\u escape in a string', this.pos);
          this.pos += 6;
        } else this.pos += 2;
      } else this.pos++;
    }
  }

  number(): void {
    const bytes = this.bytes;
    if (bytes[this.pos] === MINUS) this.pos++;
    if (bytes[this.pos] === ZERO) this.pos++;
    else if (isDigit(bytes[this.pos] ?? 0)) while (isDigit(bytes[this.pos] ?? 0)) this.pos++;
    else this.unexpected();
    if (bytes[this.pos] === DOT) {
      this.pos++;
      if (!isDigit(bytes[this.pos] ?? 0)) this.unexpected();
      while (isDigit(bytes[this.pos] ?? 0)) this.pos++;
    }
    if (bytes[this.pos] === 0x65 || bytes[this.pos] === 0x45) {
      this.pos++;
      if (bytes[this.pos] === 0x2b || bytes[this.pos] === MINUS) this.pos++;
      if (!isDigit(bytes[this.pos] ?? 0)) this.unexpected();
      while (isDigit(bytes[this.pos] ?? 0)) this.pos++;
    }
  }

  literal(word: string): void {
    for (let i = 0; i < word.length; i++) {
      if (this.bytes[this.pos] !== word.charCodeAt(i)) this.unexpected();
      this.pos++;
    }
  }

  where(): string {
    const path = this.path.map((part) => (typeof part === 'number' ? `[${part}]` : /^\w{1,40}$/.test(part) ? `.${part}` : '.?')).join('');
    return path || 'the top level';
  }

  value(): void {
    if (this.path.length > 64) this.fail('nested more than 64 levels deep');
    this.skipSpace();
    const b = this.bytes[this.pos];
    if (b === OPEN_OBJECT) this.object();
    else if (b === OPEN_ARRAY) this.array();
    else if (b === QUOTE) this.string();
    else if (b === MINUS || isDigit(b ?? 0)) this.number();
    else if (b === 0x74) this.literal('true');
    else if (b === 0x66) this.literal('false');
    else if (b === 0x6e) this.literal('null');
    else this.unexpected();
  }

  object(): void {
    const names: string[] = [];
    this.pos++;
    this.skipSpace();
    if (this.bytes[this.pos] === CLOSE_OBJECT) {
      this.pos++;
      return;
    }
    for (;;) {
      this.skipSpace();
      if (this.bytes[this.pos] !== QUOTE) this.unexpected();
      const start = this.pos;
      const escaped = this.string();
      // Names are compared as JSON.parse would read them ("a" and "\u0061" are one name), as byte strings:
      // latin1 maps each byte to one character, the cheapest decoding there is.
      const name = escaped
        ? Buffer.from(JSON.parse(this.bytes.toString('utf8', start, this.pos)) as string, 'utf8').toString('latin1')
        : this.bytes.toString('latin1', start + 1, this.pos - 1);
      // Records have tens of members: a linear search beats building a Set for each object.
      if (names.includes(name)) {
        this.fail(`member ${shown(Buffer.from(name, 'latin1').toString('utf8'))} appears twice in ${this.where()}`, start);
      }
      names.push(name);
      this.skipSpace();
      this.expect(COLON);
      this.path.push(name);
      this.value();
      this.path.pop();
      this.skipSpace();
      if (this.bytes[this.pos] === COMMA) this.pos++;
      else if (this.bytes[this.pos] === CLOSE_OBJECT) {
        this.pos++;
        return;
      } else this.unexpected();
    }
  }

  array(): void {
    this.pos++;
    this.skipSpace();
    if (this.bytes[this.pos] === CLOSE_ARRAY) {
      this.pos++;
      return;
    }
    for (let index = 0; ; index++) {
      this.path.push(index);
      this.value();
      this.path.pop();
      this.skipSpace();
      if (this.bytes[this.pos] === COMMA) this.pos++;
      else if (this.bytes[this.pos] === CLOSE_ARRAY) {
        this.pos++;
        return;
      } else this.unexpected();
    }
  }
}

export class NotAnArrayError extends Error {}

/**
 * The top-level array's elements of a JSON text, each parsed on its own, in
 * order. A leading UTF-8 byte order mark is skipped (editors on Windows write
 * one). Throws JsonSyntaxError for anything RFC 8259 does not allow, or a
 * member name twice in one object; NotAnArrayError when the text is valid
 * but not an array.
 */
export function parseJsonArray(bytes: Buffer): unknown[] {
  const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  const scanner = new Scanner(bytes, bom);
  scanner.skipSpace();
  const isArray = bytes[scanner.pos] === OPEN_ARRAY;
  const records: unknown[] = [];
  if (isArray) {
    scanner.pos++;
    scanner.skipSpace();
    if (bytes[scanner.pos] === CLOSE_ARRAY) scanner.pos++;
    else {
      for (let index = 0; ; index++) {
        scanner.skipSpace();
        const start = scanner.pos;
        scanner.path.push(index);
        scanner.value();
        scanner.path.pop();
        records.push(JSON.parse(bytes.toString('utf8', start, scanner.pos)));
        scanner.skipSpace();
        if (bytes[scanner.pos] === COMMA) scanner.pos++;
        else if (bytes[scanner.pos] === CLOSE_ARRAY) {
          scanner.pos++;
          break;
        } else scanner.unexpected();
      }
    }
  } else {
    scanner.value();
  }
  scanner.skipSpace();
  if (scanner.pos < bytes.length) scanner.unexpected();
  if (!isArray) throw new NotAnArrayError('not an array');
  return records;
}
