// The search terms the walk's completeness checks send, cut from the full walk's own clients: terms of every
// length and commonness from the start, the middle and the end of each searched field and at each sign in it, the
// rarest character, and the count probe's characters, pieces and substrings. Only the data decides them: what a
// check expects of each is the filter rule applied to the walk (completeness.ts), never a count taken here.
import { digitTerm, filterTerm, foldedFields } from '../../contract/text-folding';
import type { ClientExtended } from '../../contract/wire-types';
import { fold, termStretch } from '../kit/semantics';
import type { FullWalk } from '../kit/context';
/** Every walked client, in list order. */
export function walkedClients(walk: FullWalk): ClientExtended[] {
  return walk.pages.flatMap((page) => page.items);
}

/** The walked clients of pages 1, 2, … up to the first page a bounded walk left out: the list's first clients, all of them when it is complete. */
export function walkedFromStart(walk: FullWalk): ClientExtended[] {
  const pages = [...walk.pages].sort((a, b) => a.page - b.page);
  const gap = pages.findIndex((page, i) => page.page !== i + 1);
  return pages.slice(0, gap < 0 ? pages.length : gap).flatMap((page) => page.items);
}

/** Evenly spread picks from a list, first and last included. */
export function spread<T>(items: readonly T[], count: number): T[] {
  if (items.length <= count) return [...items];
  return Array.from({ length: count }, (_, i) => items[Math.round((i * (items.length - 1)) / (count - 1))]!);
}

/** The fields `filter` searches (openapi.yaml), each on its own. */
export const SEARCHED = ['FullName', 'PersonalId', 'Email', 'Phone'] as const;

/** Clients a cut term's matches are counted on: all of them up to this many. */
const COUNTED = 2000;

/** A term cut from a client's searched field, and how many walked clients hold it in some field as written. */
export interface CutTerm {
  term: string;
  matches: number;
  source: ClientExtended;
}

/**
 * Terms cut from the searched fields of clients spread over the walked list (4 to 12 characters from the start,
 * the middle and the end of each and at each sign in it, folded, so the source holds each; or of the given sources),
 * every term with the count of walked clients (COUNTED of them at most) holding it in a folded field. The count only
 * ranks the terms (it leaves out the phone-digit rule): what a check expects of a term is the filter rule applied to
 * the full walk, never this count.
 */
export function cutTerms(clients: readonly ClientExtended[], sources = spread(clients, 12), lengths = [4, 6, 8, 12]): CutTerm[] {
  // Counted on at most COUNTED clients: on a long list counting them all kept the connection idle for seconds (a
  // server may close an idle keep-alive connection then), and a rank needs no exact count.
  // Each client's folded fields in one text, joined by a character no cut term holds (NUL): one search a client.
  const folded = spread(clients, COUNTED).map((c) => foldedFields(c).join('\u0000'));
  const terms = new Map<string, CutTerm>();
  for (const source of sources)
    for (const field of SEARCHED) {
      const chars = [...fold(termStretch(source[field]))];
      // Characters that are no letter or digit (`@`, `.`, `+`, a space): terms that begin or end at one are often common.
      const signs = chars.flatMap((c, i) => (/[\p{L}\p{N}]/u.test(c) ? [] : [i]));
      for (const length of lengths)
        for (const at of [
          0,
          Math.floor((chars.length - length) / 2),
          chars.length - length,
          ...signs.flatMap((i) => [i, i - length + 1]),
        ]) {
          const term = chars
            .slice(Math.max(0, at), Math.max(0, at) + length)
            .join('')
            .trim();
          if ([...term].length < Math.min(...lengths) || terms.has(term)) continue;
          terms.set(term, { term, source, matches: folded.filter((text) => text.includes(term)).length });
        }
    }
  return [...terms.values()];
}

/**
 * Terms at the rarest character of the walked clients' folded searched fields (a search may well keep rare
 * characters apart from the rest): that character alone, and with the three characters after and before it.
 */
function rarestCharacterTerms(clients: readonly ClientExtended[]): CutTerm[] {
  const counts = new Map<string, number>();
  const first = new Map<string, [ClientExtended, string[]]>();
  for (const source of clients)
    for (const field of SEARCHED) {
      const chars = [...fold(termStretch(source[field]))];
      for (const c of chars) {
        counts.set(c, (counts.get(c) ?? 0) + 1);
        if (!first.has(c)) first.set(c, [source, chars]);
      }
    }
  // Among equally rare ones the last in code-point order: scripts far from Latin come last, and are likelier kept apart.
  const rarest = [...counts].filter(([c]) => c !== ' ').sort(([a, x], [b, y]) => x - y || (a < b ? 1 : -1))[0]?.[0];
  if (rarest === undefined) return [];
  const [source, chars] = first.get(rarest)!;
  const at = chars.indexOf(rarest);
  const terms = [rarest, chars.slice(at, at + 4).join(''), chars.slice(Math.max(0, at - 3), at + 1).join('')];
  return terms.map((term) => ({ term: term.trim(), source, matches: counts.get(rarest)! }));
}

/**
 * The cut terms of each kind a search can answer differently (a filter index may well: a term of 1-3 characters,
 * one in most texts, one between), by their count: `words` are terms of letters and signs, `digits` those the
 * phone-digit rule also applies to (only digits, spaces, `+`, `-` and brackets), most matches first; `rare` the
 * terms at the rarest character.
 */
export function termKinds(walk: FullWalk): TermKinds {
  const known = kindsOf.get(walk);
  if (known) return known;
  const byMatches = (a: CutTerm, b: CutTerm) => b.matches - a.matches || (a.term < b.term ? -1 : 1);
  const terms = cutTerms(walkedClients(walk)).sort(byMatches);
  const isDigits = (t: CutTerm) => digitTerm(filterTerm(t.term)) !== undefined;
  const kinds = {
    words: terms.filter((t) => !isDigits(t)),
    digits: terms.filter(isDigits),
    rare: rarestCharacterTerms(walkedClients(walk)),
  };
  kindsOf.set(walk, kinds);
  return kinds;
}
/** Each full walk's terms, cut once: a run's checks share one full walk, and cutting is the costly part. */
const kindsOf = new WeakMap<FullWalk, TermKinds>();
export interface TermKinds {
  words: CutTerm[];
  digits: CutTerm[];
  /** Terms at the rarest character of the searched fields. */
  rare: CutTerm[];
}

/** At most this many terms of each kind the count probe sends (one request each): characters, 2-3 character pieces, cut terms by rank. */
export const PROBED_CHARACTERS = 96;
export const PROBED_PIECES = 48;
export const PROBED_RANKS = 16;
/** The page size the count probe asks for: its first page is compared with the rule's first matches. */
export const PROBE_PAGE_SIZE = 10;
/** Substrings of each length from 4 to 8 the probe sends, spread over those held by two clients or more, by how many hold each. */
export const PROBED_PER_LENGTH = 6;
/** Clients (spread over the walk) whose substrings are counted: every substring of 4-8 characters costs more than a cut term. */
const SUBSTRINGS_COUNTED = 500;

/**
 * Terms whose count and first page a search index may answer wrong while its rare and commonest terms come out right
 * (an index may well answer terms of 1-3 characters from a table as they are, and intersect the pieces of longer ones):
 * every character of the walked clients' folded searched fields (spread over their ranks by how often each occurs when
 * there are more than PROBED_CHARACTERS), 2- and 3-character pieces cut from the fields of clients spread over the list
 * as the longer cut terms are (the start, the middle, the end, at each sign: digits with a dash, a space or a bracket
 * among them), substrings of 4 to 8 characters spread over their ranks by how many clients hold each, and the cut
 * terms of 4-12 characters spread over their ranks by matches (every commonness, not only the ends). Only the data
 * decides them: what is expected of each is the filter rule applied to the walk.
 */
export function countProbeTerms(clients: readonly ClientExtended[]): string[] {
  const counts = new Map<string, number>();
  for (const client of clients)
    for (const field of SEARCHED) for (const c of fold(termStretch(client[field]))) counts.set(c, (counts.get(c) ?? 0) + 1);
  const characters = [...counts]
    .filter(([c]) => !/\p{White_Space}/u.test(c))
    .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1))
    .map(([c]) => c);
  const pieces = cutTerms(clients, spread(clients, 4), [2, 3]).map((t) => t.term);
  const ranked = cutTerms(clients).sort((a, b) => b.matches - a.matches || (a.term < b.term ? -1 : 1));
  // Substrings of each length from 4 to 8 of every commonness (an index may well keep common ones' matches apart).
  const folded = spread(clients, SUBSTRINGS_COUNTED).map((c) => SEARCHED.map((field) => fold(termStretch(c[field]))));
  const substrings: string[] = [];
  for (let length = 4; length <= 8; length++) {
    const held = new Map<string, number>();
    for (const fields of folded) {
      const own = new Set<string>();
      for (const text of fields) {
        const chars = [...text];
        for (let i = 0; i + length <= chars.length; i++) own.add(chars.slice(i, i + length).join(''));
      }
      for (const piece of own) if (piece.trim() === piece) held.set(piece, (held.get(piece) ?? 0) + 1);
    }
    const shared = [...held].filter(([, count]) => count > 1).sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1));
    substrings.push(...spread(shared, PROBED_PER_LENGTH).map(([piece]) => piece));
  }
  const terms = [
    ...substrings,
    ...spread(characters, PROBED_CHARACTERS),
    ...spread(pieces, PROBED_PIECES),
    ...spread(ranked, PROBED_RANKS).map((t) => t.term),
  ];
  return [...new Set(terms)];
}
