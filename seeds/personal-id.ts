// PersonalId: a Swedish-style personal identity number, `YYYYMMDD-NNNC`
// (date of birth, three-digit serial, Luhn check digit over YYMMDDNNN).
//
// Uniqueness without coordination: client i gets the slot permute(i) in the
// space (day of birth × serial). A keyed bijection never maps two indexes to the
// same slot, so ids are unique for any count, and client i still depends only
// on (seed, i).
import { luhnCheckDigit } from '../contract/record-rules';
import { mixSeed } from './random';
import { flat } from './text';

/** The fixed reference date of the data set: ages are computed against it, never against the clock. */
export const REFERENCE_DATE_UTC = Date.UTC(2026, 0, 1);
const DAY_MS = 86_400_000;
/** Oldest birth date: age 100 on the reference date. */
const EARLIEST_BIRTH_UTC = Date.UTC(1925, 0, 2);
export const BIRTH_DAYS = Math.round((REFERENCE_DATE_UTC - EARLIEST_BIRTH_UTC) / DAY_MS) + 1;
const SERIALS_PER_DAY = 1000;
const SLOT_COUNT = BIRTH_DAYS * SERIALS_PER_DAY;
const HALF_BITS = 13; // 2^26 > SLOT_COUNT, split into two 13-bit halves
const HALF_MASK = (1 << HALF_BITS) - 1;
const ROUNDS = 4;

/** A keyed Feistel permutation of [0, SLOT_COUNT), made by cycle-walking over [0, 2^26). */
export function permuteSlot(seed: number, index: number): number {
  if (index < 0 || index >= SLOT_COUNT) throw new RangeError(`index ${index} outside the PersonalId space`);
  let value = index;
  do {
    let left = value >>> HALF_BITS;
    let right = value & HALF_MASK;
    for (let round = 0; round < ROUNDS; round++) {
      const next = left ^ (mixSeed(seed, round, right) & HALF_MASK);
      left = right;
      right = next;
    }
    value = (left << HALF_BITS) | right;
  } while (value >= SLOT_COUNT);
  return value;
}

/** The Luhn check digit of YYMMDDNNN, as openapi.yaml states it (weights 2, 1, 2, … from the left): the contract's own rule. */
export { luhnCheckDigit };

export interface BirthAndId {
  /** ISO date, YYYY-MM-DD */
  dateOfBirth: string;
  personalId: string;
}

/** What a birth day gives every id of that day: its date, the id's first nine characters and their Luhn sum. */
interface BirthDay {
  dateOfBirth: string;
  /** `YYYYMMDD-` */
  prefix: string;
  /** The Luhn sum of YYMMDD, at weights 2,1,2,1,2,1. */
  luhnSum: number;
}

// Days are made on first use and kept (at most BIRTH_DAYS, ~37,000): a day
// holds ~27 of 1,000,000 clients, so the date is formatted once per day
// rather than once per client, and those clients share one date string.
const birthDays: (BirthDay | undefined)[] = [];

function birthDay(day: number): BirthDay {
  const known = birthDays[day];
  if (known) return known;
  const dateOfBirth = new Date(EARLIEST_BIRTH_UTC + day * DAY_MS).toISOString().slice(0, 10);
  const yyyymmdd = dateOfBirth.replace(/-/g, '');
  // The check digit over YYMMDD only: a serial of 000 adds nothing (its digits are 0, doubled or not).
  const luhnSum = (10 - luhnCheckDigit(`${yyyymmdd.slice(2)}000`)) % 10;
  const made = { dateOfBirth, prefix: `${yyyymmdd}-`, luhnSum };
  birthDays[day] = made;
  return made;
}

/** The serials' three digits, and their Luhn sums at weights 2,1,2 (positions 7-9 of YYMMDDNNN). */
const SERIAL_TEXTS = Array.from({ length: SERIALS_PER_DAY }, (_, serial) => String(serial).padStart(3, '0'));
const SERIAL_SUMS = SERIAL_TEXTS.map((text) => (10 - luhnCheckDigit(`000000${text}`)) % 10);

export function personalIdForSlot(slot: number): BirthAndId {
  const day = Math.floor(slot / SERIALS_PER_DAY);
  const serial = slot % SERIALS_PER_DAY;
  const { dateOfBirth, prefix, luhnSum } = birthDay(day);
  // A sum's last digit is all the check digit needs: (10 - sum % 10) % 10, with the two parts' sums mod 10 added.
  const check = (10 - ((luhnSum + SERIAL_SUMS[serial]!) % 10)) % 10;
  return { dateOfBirth, personalId: flat`${prefix}${SERIAL_TEXTS[serial]!}${check}` };
}

/** True when the id is well formed, names a real calendar date and carries the right check digit. */
export function isValidPersonalId(personalId: string): boolean {
  const match = /^(\d{4})(\d{2})(\d{2})-(\d{3})(\d)$/.exec(personalId);
  if (!match) return false;
  const [, year, month, day, serial, check] = match as unknown as [string, string, string, string, string, string];
  const date = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
  if (date.toISOString().slice(0, 10) !== `${year}-${month}-${day}`) return false;
  return luhnCheckDigit(`${year.slice(2)}${month}${day}${serial}`) === Number(check);
}
