// Full-text search over FullName, PersonalId, Email and Phone, built once at
// start. Each client's folded text is laid end to end in one string, in list
// order, so one search is a run of native indexOf calls whose hits come out
// already sorted, and a hit's client is found by binary search over offsets.
import type { ClientDetail } from '../contract/wire-types';
import { foldText, phoneDigits } from '../contract/text-folding';

// Fields are joined by a tab and clients by a newline: no field holds either,
// so a term can never match across two fields or two clients.
const FIELD_SEPARATOR = '\t';
const CLIENT_SEPARATOR = '\n';

class Haystack {
  private readonly text: string;
  private readonly starts: Int32Array;

  constructor(parts: readonly string[]) {
    this.starts = new Int32Array(parts.length);
    let offset = 0;
    parts.forEach((part, i) => {
      this.starts[i] = offset;
      offset += part.length + 1;
    });
    this.text = parts.join(CLIENT_SEPARATOR);
  }

  /** Positions of the clients whose text contains the term, ascending. */
  find(term: string): number[] {
    const found: number[] = [];
    let from = 0;
    for (;;) {
      const at = this.text.indexOf(term, from);
      if (at < 0) return found;
      const position = this.positionAt(at);
      found.push(position);
      // One hit per client is enough: continue at the next client's text.
      from = position + 1 < this.starts.length ? this.starts[position + 1]! : this.text.length;
    }
  }

  private positionAt(offset: number): number {
    let low = 0;
    let high = this.starts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >>> 1;
      if (this.starts[mid]! <= offset) low = mid;
      else high = mid - 1;
    }
    return low;
  }
}

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

export class SearchIndex {
  private readonly fields: Haystack;
  private readonly phones: Haystack;

  /** `clients` in list order: positions returned are indexes into it. `foldedNames[i]` may carry foldField(FullName) of client i, already computed. */
  constructor(clients: readonly ClientDetail[], foldedNames?: readonly string[]) {
    this.fields = new Haystack(
      clients.map(
        (c, i) =>
          (foldedNames?.[i] ?? foldField(c.PersonalInfo.FullName)) +
          FIELD_SEPARATOR +
          foldField(c.PersonalInfo.PersonalId) +
          FIELD_SEPARATOR +
          foldField(c.ContactInfo.Email) +
          FIELD_SEPARATOR +
          foldField(c.ContactInfo.Phone),
      ),
    );
    this.phones = new Haystack(clients.map((c) => phoneDigits(c.ContactInfo.Phone)));
  }

  /** Positions matching a normalized, non-empty term, ascending. */
  search(term: string): number[] {
    // normalizeTerm has made every tab and newline a space, so a term cannot span two fields or clients.
    const byText = this.fields.find(term);
    if (!DIGIT_TERM.test(term)) return byText;
    return mergeSorted(byText, this.phones.find(phoneDigits(term)));
  }
}

function mergeSorted(a: readonly number[], b: readonly number[]): number[] {
  const merged: number[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    const next = j >= b.length || (i < a.length && a[i]! <= b[j]!) ? a[i++]! : b[j++]!;
    if (merged[merged.length - 1] !== next) merged.push(next);
  }
  return merged;
}
