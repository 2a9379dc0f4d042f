// The folding rule of the `filter` parameter (openapi.yaml, getClientsExtended):
// case- and accent-insensitive matching. The generator uses the same rule for
// e-mail local parts, so a name and its address fold alike.

const SPECIAL_LETTERS: Record<string, string> = { ø: 'o', æ: 'ae', ß: 'ss', ł: 'l', đ: 'd', œ: 'oe', ð: 'd', þ: 'th', ı: 'i' };
const COMBINING_MARKS = /\p{M}/gu;
const SPECIALS = /[øæßłđœðþı]/g;

/** Lower case without accents: `Åsa Čapková` → `asa capkova`. Used for search and e-mail addresses. */
export function foldText(text: string): string {
  return text
    .normalize('NFD')
    .replace(COMBINING_MARKS, '')
    .toLowerCase()
    .replace(SPECIALS, (letter) => SPECIAL_LETTERS[letter] ?? letter);
}

/** The digits of a phone number, so that `701234567` finds `+46 70 123 45 67`. */
export function phoneDigits(phone: string): string {
  return phone.replace(/\D/g, '');
}
