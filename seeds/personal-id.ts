// PersonalId: a Swedish-style personal identity number, `YYYYMMDD-NNNC`
// (date of birth, three-digit serial, Luhn check digit over YYMMDDNNN).
//
// Uniqueness without coordination: client i gets the slot permute(i) in the
// space (day of birth × serial). A keyed bijection never maps two indexes to the
// same slot, so ids are unique for any count, and client i still depends only
// on (seed, i).
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

/** The Luhn check digit of a string of digits. */
export function luhnCheckDigit(digits: string): number {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(i) - 48;
    // Weights 2,1,2,1… from the left, as for the 10-digit Swedish number.
    if (i % 2 === 0) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return (10 - (sum % 10)) % 10;
}

export interface BirthAndId {
  /** ISO date, YYYY-MM-DD */
  dateOfBirth: string;
  personalId: string;
}

export function personalIdForSlot(slot: number): BirthAndId {
  const day = Math.floor(slot / SERIALS_PER_DAY);
  const serial = slot % SERIALS_PER_DAY;
  const dateOfBirth = new Date(EARLIEST_BIRTH_UTC + day * DAY_MS).toISOString().slice(0, 10);
  const yyyymmdd = dateOfBirth.replace(/-/g, '');
  const serialText = String(serial).padStart(3, '0');
  const check = luhnCheckDigit(yyyymmdd.slice(2) + serialText);
  return { dateOfBirth, personalId: flat`${yyyymmdd}-${serialText}${check}` };
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
