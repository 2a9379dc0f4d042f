// Full-text search over FullName, PersonalId, Email and Phone (openapi.yaml,
// getClientsExtended `filter`), built once at start, answering in time that
// follows the matches rather than the data set.
//
// Structure: postings of every 1-, 2- and 3-gram of each client's folded text
// (docs/performance.md says why this and not a suffix array). Characters are
// mapped to a small alphabet (the 63 most frequent; every other character
// shares one "other" symbol), so a gram is an integer and the three tables are
// flat arrays (CSR: one offsets array, one postings array), built in two
// passes with no per-gram objects.
// - A term of 1-3 characters all inside the alphabet IS a gram: its postings
//   are the answer, exact, with no per-client check.
// - Longer terms (or ones holding an "other" character) intersect the postings
//   of their rarest trigrams and confirm each survivor with a substring check
//   on that client's folded text, so counts stay exact.
// Postings are in list order, so results come out in the spec's order.
import type { ClientDetail } from '../contract/wire-types';
import { foldText, phoneDigits } from '../contract/text-folding';

// Fields are joined by a tab: no field holds one and normalizeTerm turns every
// tab into a space, so a term can never match across two fields.
const FIELD_SEPARATOR = '\t';

// eslint-disable-next-line no-control-regex -- the whole ASCII range, control characters included, is meant.
const ASCII = /^[\x00-\x7f]*$/;

/** foldText, with a shortcut for plain ASCII (ids, e-mails, phones, most names), where folding is only lower-casing. */
export function foldField(text: string): string {
  return ASCII.test(text) ? text.toLowerCase() : foldText(text);
}

/** The search term as the index sees it: trimmed, folded, runs of white space made one space. */
export function normalizeTerm(filter: string): string {
  return foldText(filter.trim()).replace(/\s+/g, ' ');
}

const DIGIT_TERM = /^[\d\s()+-]*\d[\d\s()+-]*$/;

/** Alphabet size: symbol 0 is "any character outside the alphabet". 64³ trigram slots = 1 MB of offsets. */
const SYMBOLS = 64;
// At most this many posting lists are intersected before the substring check:
// the rarest ones already leave few candidates, more lists cost more than they save.
const MAX_LISTS = 3;

/** Postings of one gram length, compressed-sparse-row: postings[offsets[g] .. offsets[g+1]) for gram g. */
interface GramTable {
  offsets: Int32Array;
  postings: Int32Array;
}

/** A read-only view of a run of ascending client positions. */
export type Positions = ArrayLike<number>;

const EMPTY: Positions = new Int32Array(0);

/** An n-gram index over one string per client (positions are indexes into `texts`). */
export class NgramIndex {
  /** Symbol of each UTF-16 code unit (0 = outside the alphabet). */
  private readonly symbolOf = new Uint8Array(65536);
  private readonly tables: [GramTable, GramTable, GramTable];

  constructor(private readonly texts: readonly string[]) {
    this.chooseAlphabet();
    // Every text's symbols laid end to end, so the three builds read a byte array and no strings.
    const starts = new Int32Array(texts.length + 1);
    texts.forEach((text, i) => (starts[i + 1] = starts[i]! + text.length));
    const symbols = new Uint8Array(starts[texts.length]!);
    texts.forEach((text, i) => {
      const base = starts[i]!;
      for (let k = 0; k < text.length; k++) symbols[base + k] = this.symbolOf[text.charCodeAt(k)]!;
    });
    this.tables = [build(1, symbols, starts), build(2, symbols, starts), build(3, symbols, starts)];
  }

  /** Positions of the texts containing `term` (non-empty), ascending. Exact. */
  find(term: string): Positions {
    const symbols = Array.from({ length: term.length }, (_, i) => this.symbolOf[term.charCodeAt(i)]!);
    if (term.length <= 3 && !symbols.includes(0)) return this.postings(term.length, gramOf(symbols, 0, term.length));

    const n = Math.min(3, term.length);
    const lists: Positions[] = [];
    for (let i = 0; i + n <= term.length; i++) lists.push(this.postings(n, gramOf(symbols, i, n)));
    lists.sort((a, b) => a.length - b.length);
    let candidates = lists[0]!;
    for (let k = 1; k < Math.min(MAX_LISTS, lists.length) && candidates.length > 0; k++) candidates = intersect(candidates, lists[k]!);
    const found: number[] = [];
    for (let i = 0; i < candidates.length; i++) {
      const position = candidates[i]!;
      if (this.texts[position]!.includes(term)) found.push(position);
    }
    return found;
  }

  private postings(n: number, gram: number): Positions {
    const table = this.tables[n - 1]!;
    const from = table.offsets[gram]!;
    const to = table.offsets[gram + 1]!;
    return from === to ? EMPTY : table.postings.subarray(from, to);
  }

  /** The SYMBOLS-1 most frequent code units get their own symbol (1..63). */
  private chooseAlphabet(): void {
    const counts = new Float64Array(65536);
    for (const text of this.texts) for (let i = 0; i < text.length; i++) counts[text.charCodeAt(i)]!++;
    const codes = Array.from(counts.keys()).filter((code) => counts[code]! > 0);
    codes
      .sort((a, b) => counts[b]! - counts[a]! || a - b)
      .slice(0, SYMBOLS - 1)
      .forEach((code, i) => (this.symbolOf[code] = i + 1));
  }
}

/** Postings of the n-grams: two passes over the symbols, counting each gram once per text, then filling. */
function build(n: number, symbols: Uint8Array, starts: Int32Array): GramTable {
  const slots = SYMBOLS ** n;
  const texts = starts.length - 1;
  const offsets = new Int32Array(slots + 1);
  const lastSeen = new Int32Array(slots).fill(-1);
  for (let position = 0; position < texts; position++) {
    const end = starts[position + 1]!;
    for (let i = starts[position]!; i + n <= end; i++) {
      const gram = gramAt(symbols, i, n);
      if (lastSeen[gram] === position) continue;
      lastSeen[gram] = position;
      offsets[gram + 1]!++;
    }
  }
  for (let g = 0; g < slots; g++) offsets[g + 1]! += offsets[g]!;
  const postings = new Int32Array(offsets[slots]!);
  const fill = offsets.slice(0, slots);
  lastSeen.fill(-1);
  for (let position = 0; position < texts; position++) {
    const end = starts[position + 1]!;
    for (let i = starts[position]!; i + n <= end; i++) {
      const gram = gramAt(symbols, i, n);
      if (lastSeen[gram] === position) continue;
      lastSeen[gram] = position;
      postings[fill[gram]!++] = position;
    }
  }
  return { offsets, postings };
}

function gramAt(symbols: Uint8Array, at: number, n: number): number {
  return n === 1
    ? symbols[at]!
    : n === 2
      ? symbols[at]! * SYMBOLS + symbols[at + 1]!
      : (symbols[at]! * SYMBOLS + symbols[at + 1]!) * SYMBOLS + symbols[at + 2]!;
}

function gramOf(symbols: readonly number[], at: number, n: number): number {
  let gram = 0;
  for (let i = at; i < at + n; i++) gram = gram * SYMBOLS + symbols[i]!;
  return gram;
}

/** Ascending a ∩ ascending b; walks the shorter one and gallops through the longer. */
function intersect(a: Positions, b: Positions): Positions {
  const [small, large] = a.length <= b.length ? [a, b] : [b, a];
  const out: number[] = [];
  let low = 0;
  for (let i = 0; i < small.length && low < large.length; i++) {
    const value = small[i]!;
    let step = 1;
    let high = low;
    while (high < large.length && large[high]! < value) {
      low = high + 1;
      high += step;
      step *= 2;
    }
    high = Math.min(high, large.length - 1);
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (large[mid]! < value) low = mid + 1;
      else high = mid;
    }
    if (large[low] === value) out.push(value);
  }
  return out;
}

// A term matching thousands of clients (`@exa`, `+46 7`: pieces every e-mail or
// phone shares) costs a substring check per match, about 0.1-0.2 µs each, so
// 10-20 ms at 100,000 clients. Such terms are few (they are the data set's
// common substrings) and come back often, so their results are kept, bounded
// by the positions held; the data set never changes, so a kept result never
// goes stale. Rare terms are cheap and are never kept.
const KEEP_FROM_MATCHES = 1024;
const KEPT_POSITIONS_MAX = 4_000_000; // 16 MB of Int32

export class SearchIndex {
  private readonly fields: NgramIndex;
  private readonly phones: NgramIndex;
  private readonly kept = new Map<string, Positions>();
  private keptPositions = 0;

  /** `clients` in list order: positions returned are indexes into it. `foldedNames[i]` may carry foldField(FullName) of client i, already computed. */
  constructor(clients: readonly ClientDetail[], foldedNames?: readonly string[]) {
    // The phone's digits ride along as a fifth field: a term of digits alone
    // then finds the spec's union (the four fields, or the phone ignoring its
    // separators) with one lookup and no merge. No other term can match that
    // field: it holds digits only, and a term of digits only is such a term.
    this.fields = new NgramIndex(
      clients.map(
        (c, i) =>
          (foldedNames?.[i] ?? foldField(c.PersonalInfo.FullName)) +
          FIELD_SEPARATOR +
          foldField(c.PersonalInfo.PersonalId) +
          FIELD_SEPARATOR +
          foldField(c.ContactInfo.Email) +
          FIELD_SEPARATOR +
          foldField(c.ContactInfo.Phone) +
          FIELD_SEPARATOR +
          phoneDigits(c.ContactInfo.Phone),
      ),
    );
    this.phones = new NgramIndex(clients.map((c) => phoneDigits(c.ContactInfo.Phone)));
  }

  /** Positions matching a normalized, non-empty term, ascending. */
  search(term: string): Positions {
    const known = this.kept.get(term);
    if (known) {
      // Most recently used last: the oldest is dropped first.
      this.kept.delete(term);
      this.kept.set(term, known);
      return known;
    }
    const found = this.compute(term);
    // A posting list (Int32Array) came straight from the index: nothing to keep.
    if (found.length >= KEEP_FROM_MATCHES && Array.isArray(found)) this.keep(term, found);
    return found;
  }

  private keep(term: string, found: Positions): void {
    if (found.length > KEPT_POSITIONS_MAX) return;
    this.kept.set(term, Int32Array.from(found));
    this.keptPositions += found.length;
    for (const [oldest, positions] of this.kept) {
      if (this.keptPositions <= KEPT_POSITIONS_MAX) break;
      this.kept.delete(oldest);
      this.keptPositions -= positions.length;
    }
  }

  private compute(term: string): Positions {
    const byText = this.fields.find(term);
    if (!DIGIT_TERM.test(term)) return byText;
    const digits = phoneDigits(term);
    // Digits alone: the fifth field has already given the phone-digit matches.
    if (digits === term) return byText;
    // Digits with separators (`70-12`): the text as written, or the phone's digits.
    return mergeSorted(byText, this.phones.find(digits));
  }
}

function mergeSorted(a: Positions, b: Positions): number[] {
  const merged: number[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    const next = j >= b.length || (i < a.length && a[i]! <= b[j]!) ? a[i++]! : b[j++]!;
    if (merged[merged.length - 1] !== next) merged.push(next);
  }
  return merged;
}
