// Full-text search over FullName, PersonalId, Email and Phone (openapi.yaml,
// getClientsExtended `filter`), built once at start, answering in time that
// follows the matches rather than the data set.
//
// Structure: postings of every 1-, 2- and 3-gram of each client's folded text
// (reports/performance/figures.md has why this and not a suffix array). Characters are
// mapped to a small alphabet (the 63 most frequent; every other character
// shares one "other" symbol), so a gram is an integer and the three tables are
// flat arrays, built in two passes over all three lengths at once with no
// per-gram objects: sparse grams as sorted positions (CSR: one offsets array,
// one postings array), dense ones (in more than 1/32 of the texts) as bitsets.
// The texts are kept as that symbol string (one byte per character, outside
// the JS heap): the substring check runs on it. Texts holding an "other"
// character are kept as UTF-8 too (also outside the heap), for the terms
// holding one, which only such a text can match.
// - A term of 1-3 characters all inside the alphabet IS a gram: its postings
//   are the answer, exact, with no per-client check.
// - A longer term that is one of the data set's frequent substrings
//   (frequent-substrings.ts: `@example`, `+46 70`) has exact postings too,
//   once they are built: in the background after ready, as they take seconds
//   at 1,000,000 clients.
// - Other longer terms (or ones holding an "other" character) intersect the
//   postings of their trigrams and of their longest frequent substrings (dense
//   ones a word at a time) and confirm each survivor with a substring check on
//   that client's symbols (or, for a term with an "other" character, on the
//   text itself), so counts stay exact.
// Postings are in list order, so results come out in the spec's order.
import type { ClientDetail } from '../../../contract/wire-types';
import { digitTerm, filterTerm, foldText, phoneDigits } from '../../../contract/text-folding';
import { generatorInSlices } from '../background';
import { SlotArena } from '../slot-arena';
import { FrequentSubstrings } from './frequent-substrings';
import {
  BitPositions,
  bitPositions,
  bytesOf,
  EMPTY_SET,
  popcount,
  positionSetOf,
  SortedPositions,
  wordsFor,
  type PositionSet,
} from './position-set';

// Fields are joined by a tab: no field holds one and normalizeTerm turns every
// tab into a space, so a term can never match across two fields.
const FIELD_SEPARATOR = '\t';

/** The search term as the index sees it: the contract's filterTerm (trimmed, folded, each run of Unicode White_Space one space). */
export function normalizeTerm(filter: string): string {
  return filterTerm(filter);
}

/** Alphabet size: symbol 0 is "any character outside the alphabet". 64³ trigram slots = 1 MB of offsets. */
const SYMBOLS = 64;
// Bits of a symbol in a gram: 6 for the full alphabet, 4 when the texts hold
// at most 15 distinct characters (the phones' digits): 4,096 trigram slots
// instead of 262,144, whose tables cost time and memory even at 1,000 clients.
const FULL_BITS = 6;
const SMALL_BITS = 4;
// The alphabet is chosen from the character counts of at most this many texts
// (spread over the data set): any alphabet gives exact answers, a good one
// only keeps the "other" symbol rare, and counting every text would cost a
// third pass over all of them.
const ALPHABET_SAMPLE = 20_000;
// Sorted lists are intersected (rarest first) until this few candidates are
// left: a galloping step costs far less than the substring check it spares,
// which reads a text lying anywhere in memory (~200 ns at 1,000,000 clients).
const FEW_CANDIDATES = 16;

/** One gram length: sparse grams' positions in CSR form, dense grams' bitsets (`words` each) one after another. */
interface GramTable {
  sizes: Int32Array;
  /** Where a sparse gram's run of positions starts in `postings` (its length is its size). */
  offsets: Int32Array;
  postings: Int32Array;
  /** Index of the gram's bitset in `bits`, or -1 for a sparse gram. */
  denseSlot: Int32Array;
  bits: Int32Array;
}

/** A set of positions, and whether it was worked out for this term (rather than read from a table as it is). */
export interface Found {
  set: PositionSet;
  computed: boolean;
}

/**
 * One field of an index's texts: `of(p)` is its string for text p. A
 * digits-only field is that string's ASCII digits alone (phoneDigits), read
 * out of it as its symbols are written, with no string made of them.
 */
export interface TextField {
  of: (position: number) => string;
  digitsOnly?: boolean;
}

/** Text p as a string: its fields joined by FIELD_SEPARATOR. */
function textOf(fields: readonly TextField[], position: number): string {
  return fields.map((field) => (field.digitsOnly ? phoneDigits(field.of(position)) : field.of(position))).join(FIELD_SEPARATOR);
}

/** An n-gram index over one text per client (positions are 0..count-1): the client's fields joined by FIELD_SEPARATOR. */
export class NgramIndex {
  /** Symbol of each UTF-16 code unit (0 = outside the alphabet). */
  private readonly symbolOf = new Uint8Array(65536);
  /** Every text's symbols, end to end: text p is symbols[starts[p] .. starts[p+1]). */
  private readonly symbols: Uint8Array;
  private readonly starts: Int32Array;
  private readonly words: number;
  private readonly tables: [GramTable, GramTable, GramTable];
  /** Built after ready (frequentPieces); until then, terms are answered without it. */
  private frequent: FrequentSubstrings | undefined;
  private readonly separator: number;
  /**
   * The texts holding a character outside the alphabet (symbol 0), by
   * position: the only texts a term holding such a character can match. Few
   * with the alphabet chosen from Latin-script data, but possibly most with
   * another script, so they are kept outside the heap (slot-arena.ts). The
   * index keeps no other copy of the texts (nor the records they come from):
   * the symbols stand for the rest. Made with the first such text.
   */
  private otherTexts: SlotArena | undefined;
  /** Bits per symbol in a gram (FULL_BITS or SMALL_BITS). */
  private bits = FULL_BITS;

  /**
   * Each field's string is read once per text here, its symbols written
   * straight into the symbol array: joining the fields into one string per
   * text first (a tree of five parts, flattened by the first charCodeAt) cost
   * a copy and its garbage per client. The text as a string (`textOf`) is made
   * again only for the texts holding a character outside the alphabet
   * (otherTexts); `fields` is not kept, nor the records it reads.
   * `lengthHint`: about the characters of all texts, so that the symbol array
   * is allocated once: at 1,000,000 clients every 64 MB allocated outside the
   * heap costs a full GC of a heap near 1 GB, so growing it by copies costs
   * seconds.
   */
  constructor(
    readonly count: number,
    fields: readonly TextField[],
    lengthHint = count * 32,
  ) {
    this.chooseAlphabet(fields);
    this.starts = new Int32Array(count + 1);
    const symbolOf = this.symbolOf;
    const separator = symbolOf[FIELD_SEPARATOR.charCodeAt(0)]!;
    let symbols = new Uint8Array(Math.max(64, lengthHint));
    let length = 0;
    for (let p = 0; p < count; p++) {
      const from = length;
      for (let f = 0; f < fields.length; f++) {
        const field = fields[f]!;
        const text = field.of(p);
        // Room for the whole string and a separator, whatever a digits-only field keeps of it.
        if (length + text.length + 1 > symbols.length) {
          const grown = new Uint8Array(Math.max(length + text.length + 1, Math.ceil(symbols.length * 1.5)));
          grown.set(symbols.subarray(0, length));
          symbols = grown;
        }
        if (f > 0) symbols[length++] = separator;
        if (field.digitsOnly) {
          for (let k = 0; k < text.length; k++) {
            const code = text.charCodeAt(k);
            if (code >= 48 && code <= 57) symbols[length++] = symbolOf[code]!;
          }
        } else {
          for (let k = 0; k < text.length; k++) symbols[length + k] = symbolOf[text.charCodeAt(k)]!;
          length += text.length;
        }
      }
      this.starts[p + 1] = length;
      for (let k = from; k < length; k++) {
        if (symbols[k] === 0) {
          (this.otherTexts ??= new SlotArena(count)).put(p, textOf(fields, p));
          break;
        }
      }
    }
    // A view, not a copy: the slack is small (the hint is close) and a copy would be one more large allocation.
    this.symbols = symbols.subarray(0, length);
    this.words = wordsFor(count);
    this.tables = buildTables(this.symbols, this.starts, this.words, this.bits);
    this.separator = separator;
  }

  /** Builds the frequent substrings' postings, a step per `yield`; the index answers the same, faster, once done. */
  *frequentPieces(): Generator<void, void> {
    if (this.frequent) return;
    this.frequent = yield* FrequentSubstrings.build({
      symbols: this.symbols,
      starts: this.starts,
      bits: this.bits,
      separator: this.separator,
      trigramSizes: this.tables[2].sizes,
    });
  }

  /** Positions of the texts containing `term` (non-empty). Exact. */
  find(term: string): Found {
    const m = term.length;
    const termSymbols = new Uint8Array(m);
    let other = false;
    for (let i = 0; i < m; i++) {
      termSymbols[i] = this.symbolOf[term.charCodeAt(i)]!;
      if (termSymbols[i] === 0) other = true;
    }
    if (m <= 3 && !other) return { set: this.gramSet(m, gramOf(termSymbols, 0, m, this.bits)), computed: false };
    const frequent = other ? undefined : this.frequent?.exact(termSymbols);
    if (frequent) return { set: frequent, computed: false };

    const n = Math.min(3, m);
    const sets: PositionSet[] = [];
    for (let i = 0; i + n <= m; i++) sets.push(this.gramSet(n, gramOf(termSymbols, i, n, this.bits)));
    // The longest frequent piece from each offset (one inside the previous
    // one adds nothing): far fewer survivors than trigrams alone leave.
    if (!other && this.frequent) {
      let covered = 0;
      for (let i = 0; i + 4 < m; i++) {
        const piece = this.frequent.longestFrom(termSymbols, i);
        if (piece && i + piece.length > covered) {
          sets.push(piece.set);
          covered = i + piece.length;
        }
      }
    }
    sets.sort((a, b) => a.size - b.size);
    if (sets[0]!.size === 0) return { set: EMPTY_SET, computed: true };
    // A term with a character outside the alphabet can only be in a text holding that character, so in one of otherTexts.
    const confirm = (position: number): boolean =>
      other
        ? this.otherTexts?.has(position) === true && this.otherTexts.bytes(position).toString('utf8').includes(term)
        : this.holds(position, termSymbols);
    const lists = sets.filter((set): set is SortedPositions => set instanceof SortedPositions);
    const bitsets = sets.filter((set): set is BitPositions => set instanceof BitPositions);
    if (lists.length === 0) return { set: this.confirmBits(bitsets, confirm), computed: true };

    let candidates: ArrayLike<number> = lists[0]!.list;
    for (let k = 1; k < lists.length && candidates.length > FEW_CANDIDATES; k++) candidates = intersect(candidates, lists[k]!.list);
    const found = new Int32Array(candidates.length);
    let size = 0;
    for (let i = 0; i < candidates.length; i++) {
      const position = candidates[i]!;
      // A bit test per dense trigram first: cheaper than the substring check it may spare.
      if (bitsets.every((set) => set.has(position)) && confirm(position)) found[size++] = position;
    }
    return { set: positionSetOf(found.subarray(0, size), this.count), computed: true };
  }

  /** AND of the dense trigrams' bitsets, then the substring check on each bit left. */
  private confirmBits(bitsets: readonly BitPositions[], confirm: (position: number) => boolean): PositionSet {
    const words = Int32Array.from(bitsets[0]!.words);
    let size = 0;
    for (let i = 0; i < words.length; i++) {
      let word = words[i]!;
      for (let k = 1; k < bitsets.length && word !== 0; k++) word &= bitsets[k]!.words[i]!;
      let left = word;
      while (left !== 0) {
        const low = left & -left;
        left ^= low;
        if (!confirm((i << 5) + 31 - Math.clz32(low))) word ^= low;
      }
      words[i] = word;
      size += popcount(word);
    }
    return size * 32 > this.count ? new BitPositions(words, size) : positionSetOf(bitPositions(words, size), this.count);
  }

  /** True when text `position` holds the symbol string `term` (no symbol of it 0). */
  private holds(position: number, term: Uint8Array): boolean {
    const symbols = this.symbols;
    const first = term[0]!;
    const m = term.length;
    const last = this.starts[position + 1]! - m;
    outer: for (let k = this.starts[position]!; k <= last; k++) {
      if (symbols[k] !== first) continue;
      for (let j = 1; j < m; j++) if (symbols[k + j] !== term[j]) continue outer;
      return true;
    }
    return false;
  }

  private gramSet(n: number, gram: number): PositionSet {
    const table = this.tables[n - 1]!;
    const size = table.sizes[gram]!;
    if (size === 0) return EMPTY_SET;
    const slot = table.denseSlot[gram]!;
    if (slot >= 0) return new BitPositions(table.bits.subarray(slot * this.words, (slot + 1) * this.words), size);
    return new SortedPositions(table.postings.subarray(table.offsets[gram]!, table.offsets[gram]! + size));
  }

  /** The SYMBOLS-1 most frequent code units of a sample of the texts get their own symbol (1..63); sets the bits per symbol. */
  private chooseAlphabet(fields: readonly TextField[]): void {
    // Only the codes met are listed and sorted: a loop over all 65,536 codes
    // runs in the interpreter at start-up, a cost even at 1,000 clients.
    const counts = new Float64Array(65536);
    const codes: number[] = [];
    const step = Math.max(1, Math.floor(this.count / ALPHABET_SAMPLE));
    for (let p = 0; p < this.count; p += step) {
      const text = textOf(fields, p);
      for (let i = 0; i < text.length; i++) {
        const code = text.charCodeAt(i);
        if (counts[code]!++ === 0) codes.push(code);
      }
    }
    const chosen = codes.sort((a, b) => counts[b]! - counts[a]! || a - b).slice(0, SYMBOLS - 1);
    chosen.forEach((code, i) => (this.symbolOf[code] = i + 1));
    // Symbols 1..15 (and 0, "other") fit SMALL_BITS: a small alphabet gives small tables.
    this.bits = chosen.length < 1 << SMALL_BITS ? SMALL_BITS : FULL_BITS;
  }
}

/**
 * The three tables in two passes over the symbols, every gram length in the
 * same pass: count each gram once per text, then fill. A gram in more than
 * 1/32 of the texts gets a bitset (smaller than its positions), the others a
 * run of positions.
 */
function buildTables(symbols: Uint8Array, starts: Int32Array, words: number, bits: number): [GramTable, GramTable, GramTable] {
  const texts = starts.length - 1;
  const GRAM_SLOTS = [1 << bits, 1 << (2 * bits), 1 << (3 * bits)] as const;
  const [size1, size2, size3] = GRAM_SLOTS.map((slots) => new Int32Array(slots)) as [Int32Array, Int32Array, Int32Array];
  const [seen1, seen2, seen3] = GRAM_SLOTS.map((slots) => new Int32Array(slots).fill(-1)) as [Int32Array, Int32Array, Int32Array];
  // The grams met, in the order met: the tables are laid out by walking these
  // rather than all 262,144 trigram slots, which (run once, cold, in the
  // interpreter) cost tens of milliseconds of every start-up, even at 1,000 clients.
  const used1: number[] = [];
  const used2: number[] = [];
  const used3: number[] = [];
  const mask2 = GRAM_SLOTS[1] - 1;
  const mask3 = GRAM_SLOTS[2] - 1;
  // Written out for the three lengths rather than through a callback: this
  // loop runs once per character of the data set, twice.
  for (let position = 0; position < texts; position++) {
    const start = starts[position]!;
    const end = starts[position + 1]!;
    let gram2 = 0;
    let gram3 = 0;
    for (let i = start; i < end; i++) {
      const symbol = symbols[i]!;
      gram2 = ((gram2 << bits) | symbol) & mask2;
      gram3 = ((gram3 << bits) | symbol) & mask3;
      if (seen1[symbol] !== position) {
        seen1[symbol] = position;
        if (size1[symbol]!++ === 0) used1.push(symbol);
      }
      if (i > start && seen2[gram2] !== position) {
        seen2[gram2] = position;
        if (size2[gram2]!++ === 0) used2.push(gram2);
      }
      if (i > start + 1 && seen3[gram3] !== position) {
        seen3[gram3] = position;
        if (size3[gram3]!++ === 0) used3.push(gram3);
      }
    }
  }

  const table1 = layOut(size1, used1, texts, words);
  const table2 = layOut(size2, used2, texts, words);
  const table3 = layOut(size3, used3, texts, words);

  const fill1 = table1.offsets.slice();
  const fill2 = table2.offsets.slice();
  const fill3 = table3.offsets.slice();
  seen1.fill(-1);
  seen2.fill(-1);
  seen3.fill(-1);
  for (let position = 0; position < texts; position++) {
    const start = starts[position]!;
    const end = starts[position + 1]!;
    const word = position >>> 5;
    const bit = 1 << (position & 31);
    let gram2 = 0;
    let gram3 = 0;
    for (let i = start; i < end; i++) {
      const symbol = symbols[i]!;
      gram2 = ((gram2 << bits) | symbol) & mask2;
      gram3 = ((gram3 << bits) | symbol) & mask3;
      if (seen1[symbol] !== position) {
        seen1[symbol] = position;
        const slot = table1.denseSlot[symbol]!;
        if (slot >= 0) table1.bits[slot * words + word]! |= bit;
        else table1.postings[fill1[symbol]!++] = position;
      }
      if (i > start && seen2[gram2] !== position) {
        seen2[gram2] = position;
        const slot = table2.denseSlot[gram2]!;
        if (slot >= 0) table2.bits[slot * words + word]! |= bit;
        else table2.postings[fill2[gram2]!++] = position;
      }
      if (i > start + 1 && seen3[gram3] !== position) {
        seen3[gram3] = position;
        const slot = table3.denseSlot[gram3]!;
        if (slot >= 0) table3.bits[slot * words + word]! |= bit;
        else table3.postings[fill3[gram3]!++] = position;
      }
    }
  }
  return [table1, table2, table3];
}

/**
 * One gram length's table, its grams given by `used`: a gram in more than 1/32
 * of the texts gets a bitset (smaller than its positions), the others a run of
 * positions in `postings`, runs in the order the grams were met.
 */
function layOut(sizes: Int32Array, used: readonly number[], texts: number, words: number): GramTable {
  const offsets = new Int32Array(sizes.length);
  const denseSlot = new Int32Array(sizes.length).fill(-1);
  let dense = 0;
  let sparse = 0;
  for (let k = 0; k < used.length; k++) {
    const gram = used[k]!;
    if (sizes[gram]! * 32 > texts) {
      denseSlot[gram] = dense++;
    } else {
      offsets[gram] = sparse;
      sparse += sizes[gram]!;
    }
  }
  return { sizes, offsets, postings: new Int32Array(sparse), denseSlot, bits: new Int32Array(dense * words) };
}

function gramOf(symbols: Uint8Array, at: number, n: number, bits: number): number {
  let gram = 0;
  for (let i = at; i < at + n; i++) gram = (gram << bits) | symbols[i]!;
  return gram;
}

// The helpers below (and bitPositions) return typed arrays, never arrays of numbers: at
// 1,000,000 clients a list of 20,000 matches as a JS array is a large object
// in the old generation, and enough of them start a full GC of a 0.9 GB heap,
// whose marking steps (10-20 ms) are what a search's p99 then measures.

/** Ascending a ∩ ascending b; walks the shorter one and gallops through the longer. */
function intersect(a: ArrayLike<number>, b: ArrayLike<number>): Int32Array {
  const [small, large] = a.length <= b.length ? [a, b] : [b, a];
  const out = new Int32Array(small.length);
  let size = 0;
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
    if (large[low] === value) out[size++] = value;
  }
  return out.subarray(0, size);
}

/** a ∪ b, as bits when that is smaller. */
function union(a: PositionSet, b: PositionSet, count: number): PositionSet {
  if (a instanceof SortedPositions && b instanceof SortedPositions) return positionSetOf(mergeSorted(a.list, b.list), count);
  const words = new Int32Array(wordsFor(count));
  for (const set of [a, b]) {
    if (set instanceof BitPositions) for (let i = 0; i < words.length; i++) words[i]! |= set.words[i]!;
    else if (set instanceof SortedPositions) for (const position of set.list) words[position >>> 5]! |= 1 << (position & 31);
  }
  let size = 0;
  for (let i = 0; i < words.length; i++) size += popcount(words[i]!);
  return size * 32 > count ? new BitPositions(words, size) : positionSetOf(bitPositions(words, size), count);
}

function mergeSorted(a: ArrayLike<number>, b: ArrayLike<number>): Int32Array {
  const merged = new Int32Array(a.length + b.length);
  let size = 0;
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    const next = j >= b.length || (i < a.length && a[i]! <= b[j]!) ? a[i++]! : b[j++]!;
    if (size === 0 || merged[size - 1] !== next) merged[size++] = next;
  }
  return merged.subarray(0, size);
}

// A term matching thousands of clients that is no frequent substring (or comes
// before they are built) costs a substring check per match, so milliseconds
// at 100,000 clients and tens of them at 1,000,000. Such terms are few (they are the data
// set's common substrings) and come back often, so their results are kept,
// bounded by the bytes held (a dense result is a bitset: 125 KB at 1,000,000
// clients, so the bound holds over a hundred of them); the data set never
// changes, so a kept result never goes stale. Rare terms are cheap and are
// never kept.
const KEEP_FROM_MATCHES = 1024;
const KEPT_BYTES_MAX = 16 * 2 ** 20;

export class SearchIndex {
  private readonly fields: NgramIndex;
  private readonly phones: NgramIndex;
  private readonly kept = new Map<string, PositionSet>();
  private keptBytes = 0;
  private prebuilding: Promise<void> | undefined;

  /** `clients` in list order: positions returned are indexes into it. `foldedNames[i]` may carry foldText(FullName) of client i, already computed. */
  constructor(clients: readonly ClientDetail[], foldedNames?: readonly string[]) {
    // The phone's digits ride along as a fifth field: a term of digits alone
    // then finds the spec's union (the four fields, or the phone ignoring its
    // separators) with one lookup and no merge. No other term can match that
    // field: it holds digits only, and a term of digits only is such a term.
    // Folding keeps a text's length but for a few letters (ß → ss): the raw lengths, plus a little, are the hint.
    let rawLength = 0;
    for (const c of clients) {
      rawLength +=
        c.PersonalInfo.FullName.length + c.PersonalInfo.PersonalId.length + c.ContactInfo.Email.length + 2 * c.ContactInfo.Phone.length + 4;
    }
    const hint = Math.ceil(rawLength * 1.02) + 64;
    const phone: TextField = { of: (i) => clients[i]!.ContactInfo.Phone, digitsOnly: true };
    this.fields = new NgramIndex(
      clients.length,
      [
        { of: foldedNames ? (i) => foldedNames[i]! : (i) => foldText(clients[i]!.PersonalInfo.FullName) },
        { of: (i) => foldText(clients[i]!.PersonalInfo.PersonalId) },
        { of: (i) => foldText(clients[i]!.ContactInfo.Email) },
        { of: (i) => foldText(clients[i]!.ContactInfo.Phone) },
        phone,
      ],
      hint,
    );
    this.phones = new NgramIndex(clients.length, [phone], clients.length * 12);
  }

  /**
   * Builds both indexes' frequent substrings in the background (background.ts)
   * until done or `signal` aborts; one build at a time, and a later call
   * starts again after an aborted one.
   */
  prebuild(signal?: AbortSignal): Promise<void> {
    const fields = this.fields;
    const phones = this.phones;
    let done = false;
    this.prebuilding ??= generatorInSlices(
      (function* () {
        yield* fields.frequentPieces();
        yield* phones.frequentPieces();
        done = true;
      })(),
      signal,
    ).then(() => {
      if (!done) this.prebuilding = undefined;
    });
    return this.prebuilding;
  }

  /** Positions matching a normalized, non-empty term. */
  search(term: string): PositionSet {
    const known = this.kept.get(term);
    if (known) {
      // Most recently used last: the oldest is dropped first.
      this.kept.delete(term);
      this.kept.set(term, known);
      return known;
    }
    const { set, computed } = this.compute(term);
    // A gram's set came straight from the index: nothing to keep.
    if (computed && set.size >= KEEP_FROM_MATCHES) this.keep(term, set);
    return set;
  }

  private keep(term: string, set: PositionSet): void {
    const bytes = bytesOf(set);
    if (bytes > KEPT_BYTES_MAX) return;
    this.kept.set(term, set);
    this.keptBytes += bytes;
    for (const [oldest, positions] of this.kept) {
      if (this.keptBytes <= KEPT_BYTES_MAX) break;
      this.kept.delete(oldest);
      this.keptBytes -= bytesOf(positions);
    }
  }

  private compute(term: string): Found {
    const byText = this.fields.find(term);
    const digits = digitTerm(term);
    if (digits === undefined) return byText;
    // Digits alone: the fifth field has already given the phone-digit matches.
    if (digits === term) return byText;
    // Digits with separators (`70-12`): the text as written, or the phone's digits.
    return { set: union(byText.set, this.phones.find(digits).set, this.fields.count), computed: true };
  }
}
