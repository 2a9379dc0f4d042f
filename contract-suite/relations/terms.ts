// The values the relations send, cut from the deployment's own first and last page where it has them, so the
// sets they compare are small and hold a client, and fixed ones where it has none: a relation holds on any data,
// so a fallback makes it weaker on an empty deployment, never wrong. Nothing here knows our seed.
import type { ClientExtended } from '../../contract/wire-types';
import { termStretch } from '../kit/semantics';

/** Code points. */
const chars = (text: string) => [...text];

/**
 * The stretches of the clients' names, then of their e-mail addresses, a term can be cut from (single spaces
 * only, trimmed): names first, since addresses share their domains, and a term cut there matches most clients.
 */
function stretches(clients: readonly ClientExtended[]): string[] {
  return [...clients.map((client) => termStretch(client.FullName)), ...clients.map((client) => termStretch(client.Email))].filter(
    (text) => text !== '',
  );
}

/**
 * A term of the clients' folded names and addresses holding `needle` (three characters either side of it, at its
 * first occurrence), or `needle` alone when none holds it.
 */
export function termAround(clients: readonly ClientExtended[], fold: (text: string) => string, needle: string): string {
  const want = chars(needle);
  for (const text of stretches(clients).map(fold)) {
    const have = chars(text);
    const at = have.findIndex((_, i) => want.every((c, k) => have[i + k] === c));
    if (at < 0) continue;
    const term = have.slice(Math.max(0, at - 3), at + want.length + 3).join('');
    if (term.trim() === term) return term;
  }
  return needle;
}

/**
 * A client's name as written, as far as a term can be cut from it (termStretch: its words joined by single spaces),
 * the first of at least two words where the clients have one: a term few clients match, so its set is read in a
 * page or two whatever the deployment's size; `fallback` when they have none.
 */
export function nameOf(clients: readonly ClientExtended[], fallback: string): string {
  const names = clients.map((client) => termStretch(client.FullName)).filter((name) => name !== '');
  return names.find((name) => name.includes(' ')) ?? names[0] ?? fallback;
}

/** Two letters that occur in the most of the clients' folded names (a term with many matches), or `fallback`. */
export function commonPair(clients: readonly ClientExtended[], fold: (text: string) => string, fallback: string): string {
  const counts = new Map<string, number>();
  for (const client of clients) {
    const name = chars(fold(client.FullName));
    const pairs = new Set(
      name
        .slice(1)
        .map((c, i) => `${name[i]}${c}`)
        .filter((pair) => /^\p{L}{2}$/u.test(pair)),
    );
    for (const pair of pairs) counts.set(pair, (counts.get(pair) ?? 0) + 1);
  }
  return [...counts].sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1))[0]?.[0] ?? fallback;
}

/** The last seven digits of a client's phone, or `fallback`. */
export function phoneDigitsOf(clients: readonly ClientExtended[], fallback: string): string {
  const digits = clients.map((client) => client.Phone.replace(/\D/g, '')).find((text) => text.length >= 7);
  return digits?.slice(-7) ?? fallback;
}

/** A listed client with a staff member and a location, inactive where the sample has one: the filters combined around it. */
export function anchorClient(clients: readonly ClientExtended[]): ClientExtended | undefined {
  const placed = clients.filter((client) => client.IdStaff !== null && client.IdLocation !== null);
  return placed.find((client) => client.Status === 'Inactive') ?? placed[0];
}

/** A uuid with every other hexadecimal letter in upper case (`aB3c…`). */
export function mixedCase(id: string): string {
  let upper = false;
  return chars(id)
    .map((c) => {
      if (!/[a-f]/i.test(c)) return c;
      upper = !upper;
      return upper ? c.toUpperCase() : c.toLowerCase();
    })
    .join('');
}
