// The rules openapi.yaml states inside one client record, beyond what its
// schemas can say: PersonalId ends in the Luhn digit of YYMMDDNNN and begins
// with DateOfBirth, FullName is `FirstName LastName`, the basic fields of a
// list row repeat its sections, StaffName/LocationName are null exactly with
// their ids, and PersonalId and IdClient are unique. Pure functions of the
// record, so the contract suite (every record it sees), the data-file loader
// (every record before it is served) and the examples test hold data to the
// same rules. Each problem names its rule id, the field and what was expected.
import type { ClientDetail, ClientExtended } from './wire-types';

export type RecordRuleId =
  | 'record.luhn'
  | 'record.birth-date'
  | 'record.full-name'
  | 'record.basic-fields'
  | 'record.staff-name'
  | 'record.location-name'
  | 'record.unique-personal-id'
  | 'record.unique-id';

/** Each rule in words, without any value of the record (a data file's error line must not echo personal data). */
export const RECORD_RULE_TEXT: Readonly<Record<RecordRuleId, string>> = {
  'record.luhn': 'its last digit is not the Luhn check digit of YYMMDDNNN',
  'record.birth-date': 'its first eight digits are not DateOfBirth without its dashes',
  'record.full-name': 'FullName is not FirstName, one space, LastName',
  'record.basic-fields': 'the basic field does not repeat its section',
  'record.staff-name': 'StaffName is not null exactly when IdStaff is',
  'record.location-name': 'LocationName is not null exactly when IdLocation is',
  'record.unique-personal-id': 'another client has the same PersonalId',
  'record.unique-id': 'another client has the same IdClient',
};

export interface RecordProblem {
  rule: RecordRuleId;
  /** The field inside the record, e.g. `PersonalInfo.PersonalId`. */
  field: string;
  expected: string;
  actual: string;
}

/** The Luhn check digit of a string of digits, weights 2, 1, 2, … from the left, products above 9 reduced by 9 (openapi.yaml, PersonalId). */
export function luhnCheckDigit(digits: string): number {
  let sum = 0;
  for (let i = 0; i < digits.length; i += 1) {
    let d = (digits.charCodeAt(i) - 48) * (i % 2 === 0 ? 2 : 1);
    if (d > 9) d -= 9;
    sum += d;
  }
  return (10 - (sum % 10)) % 10;
}

const PERSONAL_ID = /^(\d{8})-(\d{3})(\d)$/;

/** What a PersonalId breaks: its Luhn digit, and (given the record's DateOfBirth) its first eight digits. Ill-formed ids are the schema's concern. */
export function personalIdProblems(personalId: string, field: string, dateOfBirth?: string): RecordProblem[] {
  const id = PERSONAL_ID.exec(personalId);
  if (!id) return [];
  const problems: RecordProblem[] = [];
  const [, birth, serial, check] = id as unknown as [string, string, string, string];
  const expected = luhnCheckDigit(birth.slice(2) + serial);
  if (expected !== Number(check))
    problems.push({
      rule: 'record.luhn',
      field,
      expected: `check digit ${expected} (the Luhn digit of ${birth.slice(2)}${serial})`,
      actual: `${personalId} ends in ${check}`,
    });
  if (dateOfBirth !== undefined && birth !== dateOfBirth.replace(/-/g, ''))
    problems.push({
      rule: 'record.birth-date',
      field,
      expected: `begins with ${dateOfBirth.replace(/-/g, '')} (DateOfBirth ${dateOfBirth} without its dashes)`,
      actual: personalId,
    });
  return problems;
}

type AnyRecord = Partial<ClientExtended> & Partial<Pick<ClientDetail, 'Staff' | 'Location'>>;

const show = (value: unknown) => JSON.stringify(value) ?? 'undefined';

/**
 * Every in-record rule one record breaks: a Detail, an Extended row or a
 * Simple row (only the rules whose fields it has apply). The record is
 * expected to match its schema; fields that are missing are left alone.
 */
export function recordProblems(record: AnyRecord): RecordProblem[] {
  const problems: RecordProblem[] = [];
  const info = record.PersonalInfo;
  if (info) {
    const full = `${info.FirstName} ${info.LastName}`;
    if (typeof info.FirstName === 'string' && typeof info.LastName === 'string' && info.FullName !== full)
      problems.push({ rule: 'record.full-name', field: 'PersonalInfo.FullName', expected: show(full), actual: show(info.FullName) });
    if (typeof info.PersonalId === 'string')
      problems.push(...personalIdProblems(info.PersonalId, 'PersonalInfo.PersonalId', info.DateOfBirth));
  }
  if (typeof record.PersonalId === 'string' && (!info || record.PersonalId !== info.PersonalId))
    problems.push(...personalIdProblems(record.PersonalId, 'PersonalId'));
  const repeats: [keyof ClientExtended, unknown, string][] = [];
  if (info) repeats.push(['FullName', info.FullName, 'PersonalInfo.FullName'], ['PersonalId', info.PersonalId, 'PersonalInfo.PersonalId']);
  if (record.ContactInfo)
    repeats.push(['Email', record.ContactInfo.Email, 'ContactInfo.Email'], ['Phone', record.ContactInfo.Phone, 'ContactInfo.Phone']);
  for (const [field, section, where] of repeats) {
    if (field in record && record[field] !== section)
      problems.push({ rule: 'record.basic-fields', field, expected: `${show(section)} (${where})`, actual: show(record[field]) });
  }
  if ('IdStaff' in record && 'StaffName' in record && (record.IdStaff === null) !== (record.StaffName === null))
    problems.push({
      rule: 'record.staff-name',
      field: 'StaffName',
      expected: `null exactly when IdStaff is (IdStaff ${show(record.IdStaff)})`,
      actual: show(record.StaffName),
    });
  if ('IdLocation' in record && 'LocationName' in record && (record.IdLocation === null) !== (record.LocationName === null))
    problems.push({
      rule: 'record.location-name',
      field: 'LocationName',
      expected: `null exactly when IdLocation is (IdLocation ${show(record.IdLocation)})`,
      actual: show(record.LocationName),
    });
  return problems;
}

/** One line: `record.luhn at PersonalInfo.PersonalId: expected …, got …`. */
export function describeRecordProblem(problem: RecordProblem): string {
  return `${problem.rule} at ${problem.field}: expected ${problem.expected}, got ${problem.actual}`;
}

/**
 * Uniqueness over a set of records ("Unique per client"; every IdClient names
 * one client): remembers what it saw and names the earlier record a new one
 * repeats. uuids compare case-insensitively (RFC 9562 §4), PersonalIds exactly.
 */
export class UniqueRecords<Where = number> {
  private readonly ids = new Map<string, Where>();
  private readonly personalIds = new Map<string, Where>();

  /** The problem of this record, if it repeats an earlier one, and the earlier record's place. */
  add(
    record: { IdClient?: unknown; PersonalInfo?: { PersonalId?: unknown }; PersonalId?: unknown },
    where: Where,
  ): (RecordProblem & { earlier: Where }) | undefined {
    const id = typeof record.IdClient === 'string' ? record.IdClient.toLowerCase() : undefined;
    const personalId = record.PersonalInfo?.PersonalId ?? record.PersonalId;
    const earlierId = id === undefined ? undefined : this.ids.get(id);
    if (earlierId !== undefined)
      return {
        rule: 'record.unique-id',
        field: 'IdClient',
        expected: 'an IdClient no other client has',
        actual: String(record.IdClient),
        earlier: earlierId,
      };
    const earlierPerson = typeof personalId === 'string' ? this.personalIds.get(personalId) : undefined;
    if (earlierPerson !== undefined)
      return {
        rule: 'record.unique-personal-id',
        field: record.PersonalInfo ? 'PersonalInfo.PersonalId' : 'PersonalId',
        expected: 'a PersonalId no other client has',
        actual: String(personalId),
        earlier: earlierPerson,
      };
    if (id !== undefined) this.ids.set(id, where);
    if (typeof personalId === 'string') this.personalIds.set(personalId, where);
    return undefined;
  }
}
