// Exact postings of the data set's frequent substrings longer than a trigram:
// `@example`, `ample.co`, `+46 70`, `sson`, … — what a term matching tens of
// thousands of clients is made of. The n-gram index answers such a term by
// intersecting its trigrams and then checking each survivor's text, and at
// 1,000,000 clients a survivor costs ~100-300 ns (its text lies somewhere
// else in memory for each one): tens of ms for a term matching a third of the
// data set. With these postings a frequent term is read as it is, and a rarer
// one intersects its longest frequent pieces, which leaves few survivors
// beyond its matches, and it matches at most 1/FREQUENT_SHARE of the texts.
//
// Structure: a trie over the symbols, rooted at the frequent trigrams, one
// node per frequent substring. Which substrings are frequent is decided on a
// sample of the texts, level by level (a substring can be frequent only if the
// one a symbol shorter on either side is: apriori); the postings of the
// chosen ones are then exact, from one pass over every text, as sorted
// positions or, when dense, bitsets. A sample that chose badly
// costs speed, never an answer: a term that is no node is checked text by text.
import { BitPositions, bitPositions, EMPTY_SET, popcount, SortedPositions, wordsFor, type PositionSet } from './position-set';

/** A substring in more than 1/FREQUENT_SHARE of the (sampled) texts gets its postings. */
const FREQUENT_SHARE = 64;
/** Texts sampled to choose the substrings: enough that a 1/64 share is ~128 of them. */
const SAMPLE_TEXTS = 8192;
/** Longest substring kept: past an e-mail domain (`@example.com`), nothing is that frequent. */
const MAX_LENGTH = 32;

/** The texts as NgramIndex keeps them: symbols end to end, text p at symbols[starts[p] .. starts[p+1]). */
export interface SymbolTexts {
  symbols: Uint8Array;
  starts: Int32Array;
  /** Bits per symbol in a gram; a symbol is < 2^bits. */
  bits: number;
  /** Symbol of the field separator: no term holds it, so no substring across it is kept. */
  separator: number;
  /** Texts holding each trigram (indexed by the gram: three symbols of `bits` bits each). */
  trigramSizes: Int32Array;
}

export class FrequentSubstrings {
  private constructor(
    /** Node of each frequent trigram (the trie's roots), or -1. */
    private readonly rootOf: Int32Array,
    /** child[node * alphabet + symbol]: the node one symbol longer, or -1. */
    private readonly child: Int32Array,
    private readonly alphabet: number,
    /** Postings of each node; roots have none here (the trigram table has them). */
    private readonly sets: readonly PositionSet[],
    private readonly bits: number,
  ) {}

  /** The exact postings of `term` (symbols, none 0) when it is one of the frequent substrings. */
  exact(term: Uint8Array): PositionSet | undefined {
    if (term.length < 4) return undefined;
    const node = this.walk(term, 0, term.length);
    return node.length === term.length ? this.sets[node.node] : undefined;
  }

  /** The longest frequent substring (4 symbols or more) of `term` that starts at `at`: its postings and length. */
  longestFrom(term: Uint8Array, at: number): { set: PositionSet; length: number } | undefined {
    const { node, length } = this.walk(term, at, term.length);
    return length >= 4 ? { set: this.sets[node]!, length } : undefined;
  }

  /** Follows `term` from `at` as far as the trie goes (at most to `end`): the node reached and how many symbols it spells. */
  private walk(term: Uint8Array, at: number, end: number): { node: number; length: number } {
    if (end - at < 3) return { node: -1, length: 0 };
    let node = this.rootOf[(((term[at]! << this.bits) | term[at + 1]!) << this.bits) | term[at + 2]!]!;
    if (node < 0) return { node: -1, length: 0 };
    let length = 3;
    for (let j = at + 3; j < end; j++) {
      const next = this.child[node * this.alphabet + term[j]!]!;
      if (next < 0) break;
      node = next;
      length++;
    }
    return { node, length };
  }

  /**
   * Builds them in steps (a `yield` every few hundred texts): a listening
   * server runs it in the background (background.ts), since at 1,000,000
   * clients it takes seconds. Until it is done, terms are answered without it.
   */
  static *build(texts: SymbolTexts): Generator<void, FrequentSubstrings> {
    const { symbols, starts, bits, separator, trigramSizes } = texts;
    const count = starts.length - 1;
    const alphabet = 1 << bits;
    // Roots: trigrams frequent in the whole data set (their sizes are exact), across no separator.
    const rootOf = new Int32Array(trigramSizes.length).fill(-1);
    let nodes = 0;
    const mask = alphabet - 1;
    for (let gram = 0; gram < trigramSizes.length; gram++) {
      if (trigramSizes[gram]! * FREQUENT_SHARE <= count) continue;
      const a = gram >>> (2 * bits);
      const b = (gram >>> bits) & mask;
      const c = gram & mask;
      if (a === 0 || b === 0 || c === 0 || a === separator || b === separator || c === separator) continue;
      rootOf[gram] = nodes++;
    }
    const roots = nodes;
    yield;
    const children = yield* chooseChildren(texts, rootOf, roots);
    nodes += children.size;
    const child = new Int32Array(nodes * alphabet).fill(-1);
    for (const [key, node] of children) child[key] = node;
    const sets = yield* collectPostings(symbols, starts, bits, rootOf, child, alphabet, nodes, roots);
    return new FrequentSubstrings(rootOf, child, alphabet, sets, bits);
  }
}

/**
 * The trie's nodes below the roots, decided on a sample of the texts: level
 * by level, a substring one symbol longer than a frequent one (and whose
 * suffix a symbol shorter is frequent too) is counted once per sampled text.
 * Returns node (ids from `roots` on) by key `parent * alphabet + symbol`.
 * Counts are flat arrays indexed by that key (nodes stay in the hundreds),
 * not maps: this runs at every start-up, even at 1,000 clients.
 */
function* chooseChildren(texts: SymbolTexts, rootOf: Int32Array, roots: number): Generator<void, Map<number, number>> {
  const { symbols, starts, bits, separator } = texts;
  const count = starts.length - 1;
  const alphabet = 1 << bits;
  const step = Math.max(1, Math.floor(count / SAMPLE_TEXTS));
  const sampled: number[] = [];
  for (let p = 0; p < count; p += step) sampled.push(p);
  // The sample's symbols end to end, each offset's text and that text's end.
  let length = 0;
  for (const p of sampled) length += starts[p + 1]! - starts[p]!;
  const sample = new Uint8Array(length);
  const textOf = new Int32Array(length);
  const ends = new Int32Array(length);
  let at = 0;
  sampled.forEach((p, t) => {
    const text = symbols.subarray(starts[p]!, starts[p + 1]!);
    sample.set(text, at);
    textOf.fill(t, at, at + text.length);
    ends.fill(at + text.length, at, at + text.length);
    at += text.length;
  });
  // ids[k]: the node spelled by the substring of the current level's length starting at offset k, or -1.
  let ids = new Int32Array(length).fill(-1);
  for (let k = 0; k + 2 < length; k++) {
    if (k + 2 < ends[k]!) ids[k] = rootOf[(((sample[k]! << bits) | sample[k + 1]!) << bits) | sample[k + 2]!]!;
  }
  const children = new Map<number, number>();
  let nodes = roots;
  let counts = new Int32Array(0);
  let lastText = new Int32Array(0);
  for (let level = 4; level <= MAX_LENGTH; level++) {
    yield;
    const keys = nodes * alphabet;
    if (counts.length < keys) {
      counts = new Int32Array(keys);
      lastText = new Int32Array(keys);
    }
    counts.fill(0, 0, keys);
    lastText.fill(-1, 0, keys);
    const met: number[] = [];
    for (let k = 0; k < length; k++) {
      const parent = ids[k]!;
      const last = k + level - 1;
      if (parent < 0 || last >= ends[k]! || ids[k + 1]! < 0) continue;
      const symbol = sample[last]!;
      if (symbol === 0 || symbol === separator) continue;
      const key = parent * alphabet + symbol;
      if (lastText[key] === textOf[k]) continue;
      lastText[key] = textOf[k]!;
      if (counts[key]!++ === 0) met.push(key);
    }
    const chosen = new Map<number, number>();
    for (const key of met) if (counts[key]! * FREQUENT_SHARE > sampled.length) chosen.set(key, nodes++);
    if (chosen.size === 0) break;
    for (const [key, node] of chosen) children.set(key, node);
    const longer = new Int32Array(length).fill(-1);
    for (let k = 0; k < length; k++) {
      const parent = ids[k]!;
      if (parent < 0 || k + level - 1 >= ends[k]!) continue;
      longer[k] = chosen.get(parent * alphabet + sample[k + level - 1]!) ?? -1;
    }
    ids = longer;
  }
  return children;
}

/**
 * Every node's exact postings (roots excepted), in one pass over all texts:
 * the trie is followed from each offset whose trigram is a root, and a node
 * reached sets its text's bit. Then dense nodes keep a bitset and the others a
 * sorted run of positions, each kind in one shared array; the pass's bitsets
 * (a word per 32 texts per node) are dropped.
 */
function* collectPostings(
  symbols: Uint8Array,
  starts: Int32Array,
  bits: number,
  rootOf: Int32Array,
  child: Int32Array,
  alphabet: number,
  nodes: number,
  roots: number,
): Generator<void, PositionSet[]> {
  const count = starts.length - 1;
  const words = wordsFor(count);
  const below = nodes - roots;
  const all = new Int32Array(below * words);
  const mask3 = (1 << (3 * bits)) - 1;
  for (let position = 0; position < count; position++) {
    // ~256 texts take some 50-100 µs.
    if ((position & 255) === 255) yield;
    const start = starts[position]!;
    const end = starts[position + 1]!;
    const word = position >>> 5;
    const bit = 1 << (position & 31);
    let gram = 0;
    for (let i = start; i < end; i++) {
      gram = ((gram << bits) | symbols[i]!) & mask3;
      // gram is the trigram ending at i; follow the trie from it while the text goes on.
      if (i < start + 2) continue;
      let node = rootOf[gram]!;
      for (let j = i + 1; node >= 0 && j < end; j++) {
        node = child[node * alphabet + symbols[j]!]!;
        // Setting a bit twice is harmless: no per-text "seen" check needed.
        if (node >= 0) all[(node - roots) * words + word]! |= bit;
      }
    }
  }

  const sizes = new Int32Array(below);
  let dense = 0;
  let sparse = 0;
  for (let k = 0; k < below; k++) {
    yield;
    let size = 0;
    for (let w = k * words; w < (k + 1) * words; w++) size += popcount(all[w]!);
    sizes[k] = size;
    if (size * 32 > count) dense++;
    else sparse += size;
  }
  const bitsets = new Int32Array(dense * words);
  const postings = new Int32Array(sparse);
  const sets: PositionSet[] = new Array<PositionSet>(roots).fill(EMPTY_SET);
  dense = 0;
  sparse = 0;
  for (let k = 0; k < below; k++) {
    yield;
    const size = sizes[k]!;
    const from = all.subarray(k * words, (k + 1) * words);
    if (size * 32 > count) {
      const own = bitsets.subarray(dense * words, (dense + 1) * words);
      own.set(from);
      sets.push(new BitPositions(own, size));
      dense++;
    } else {
      const own = bitPositions(from, size, postings.subarray(sparse, sparse + size));
      sets.push(size === 0 ? EMPTY_SET : new SortedPositions(own));
      sparse += size;
    }
  }
  return sets;
}
