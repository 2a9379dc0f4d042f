// The folding rule of the `filter` parameter (openapi.yaml, getClientsExtended):
// case- and accent-insensitive matching, and what "white space" means in a
// term (the Unicode White_Space property, nothing else: U+0085 and U+3000 are
// white space, U+FEFF and U+200B are not, whatever JavaScript's `\s` and
// `trim()` say). The server's search index and the contract suite both take
// the term from filterTerm(), so they cannot disagree. The generator uses the
// same folding for e-mail local parts, so a name and its address fold alike.

const SPECIAL_LETTERS: Record<string, string> = { ø: 'o', æ: 'ae', ß: 'ss', ł: 'l', đ: 'd', œ: 'oe', ð: 'd', þ: 'th', ı: 'i' };
const COMBINING_MARKS = /\p{M}/gu;
const SPECIALS = /[øæßłđœðþı]/g;

// eslint-disable-next-line no-control-regex -- the whole ASCII range, control characters included, is meant.
const ASCII = /^[\x00-\x7f]*$/;

/** Lower case without accents: `Åsa Čapková` → `asa capkova`. Used for search and e-mail addresses. */
export function foldText(text: string): string {
  // Plain ASCII (ids, e-mails, phones, most names): NFD changes nothing and there is no mark and no special letter.
  if (ASCII.test(text)) return text.toLowerCase();
  return text
    .normalize('NFD')
    .replace(COMBINING_MARKS, '')
    .toLowerCase()
    .replace(SPECIALS, (letter) => SPECIAL_LETTERS[letter] ?? letter);
}

/** One character of the Unicode White_Space property (openapi.yaml, filter: "white space"). */
export const WHITE_SPACE = /\p{White_Space}/u;
const WHITE_SPACE_RUNS = /\p{White_Space}+/gu;
const LEADING_OR_TRAILING = /^\p{White_Space}+|\p{White_Space}+$/gu;

/** The term trimmed of White_Space only (String.prototype.trim also strips U+FEFF and keeps U+0085). */
export function trimWhiteSpace(text: string): string {
  return text.replace(LEADING_OR_TRAILING, '');
}

/**
 * The search term as the filter rule reads it: trimmed, folded, every run of
 * White_Space one space (U+0020). `''` means no filter.
 */
export function filterTerm(filter: string): string {
  return foldText(trimWhiteSpace(filter)).replace(WHITE_SPACE_RUNS, ' ');
}

const DIGIT_TERM = /^[\d ()+-]*\d[\d ()+-]*$/;

/**
 * For a term (as filterTerm gives it) made only of digits, spaces, `+`, `-`
 * and brackets, with at least one digit: its digits, which also match a
 * substring of a phone number's digits. Undefined for any other term.
 */
export function digitTerm(term: string): string | undefined {
  return DIGIT_TERM.test(term) ? term.replace(/\D/g, '') : undefined;
}

/** The digits of a phone number, so that `701234567` finds `+46 70 123 45 67`. */
export function phoneDigits(phone: string): string {
  return phone.replace(/\D/g, '');
}

/** The fields `filter` searches, each on its own. */
export interface SearchedFields {
  FullName: string;
  PersonalId: string;
  Email: string;
  Phone: string;
}

const foldedFieldsOf = new WeakMap<SearchedFields, readonly string[]>();

/**
 * FullName, PersonalId, Email and Phone folded, each on its own: once per client object, as a check holds one
 * walk's clients to many terms (the object is read as it was the first time; a parsed answer is never changed).
 */
export function foldedFields(client: SearchedFields): readonly string[] {
  let fields = foldedFieldsOf.get(client);
  if (!fields) {
    fields = [foldText(client.FullName), foldText(client.PersonalId), foldText(client.Email), foldText(client.Phone)];
    foldedFieldsOf.set(client, fields);
  }
  return fields;
}

/** True when the client matches `filter` as openapi.yaml states it (a reference implementation: the server uses an index). */
export function matchesFilter(client: SearchedFields, filter: string): boolean {
  const term = filterTerm(filter);
  if (term === '') return true;
  if (foldedFields(client).some((field) => field.includes(term))) return true;
  const digits = digitTerm(term);
  return digits !== undefined && phoneDigits(client.Phone).includes(digits);
}
