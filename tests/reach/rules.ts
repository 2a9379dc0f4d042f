// Why: the third implementation (impl.ts) must serve only records that keep every rule openapi.yaml states
// inside a record, and it must not borrow the project's own code to know those rules (it would then share the
// project's misreadings). So the folding of `filter`, the Luhn rule, the formats and every schema keyword of
// the record schemas are written here again, from the text of openapi.yaml alone, and the data shapes are
// checked with them before they are served.
import type { ClientDetail, ClientExtended, ClientSimple } from '../../contract/wire-types';

/** openapi.yaml, `filter`: "these letters replaced: ø→o, æ→ae, ß→ss, ł→l, đ→d, œ→oe, ð→d, þ→th, ı→i". */
const REPLACED: Readonly<Record<string, string>> = { ø: 'o', æ: 'ae', ß: 'ss', ł: 'l', đ: 'd', œ: 'oe', ð: 'd', þ: 'th', ı: 'i' };

/**
 * "Folding is exactly: Unicode canonical decomposition (NFD), every combining mark (category M) removed,
 * lower case (Unicode default case mapping), then these letters replaced".
 */
export function fold(text: string): string {
  const lowered = text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
  let out = '';
  for (const ch of lowered) out += REPLACED[ch] ?? ch;
  return out;
}

/** Code points, as JSON Schema counts `maxLength` / `minLength`. */
export function codePoints(text: string): number {
  return Array.from(text).length;
}

/** The Luhn digit of `YYMMDDNNN`: "digits weighted 2, 1, 2, … from the left, products above 9 reduced by 9, C brings the sum to a multiple of 10". */
export function luhnDigit(nineDigits: string): number {
  let sum = 0;
  for (let i = 0; i < nineDigits.length; i++) {
    let p = Number(nineDigits[i]) * (i % 2 === 0 ? 2 : 1);
    if (p > 9) p -= 9;
    sum += p;
  }
  return (10 - (sum % 10)) % 10;
}

/** RFC 9562 §4 string form (either case; any version or variant: the JSON Schema `uuid` format). */
export const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

/** RFC 3339 full-date, with a real calendar day. */
export function isDate(text: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const t = new Date(Date.UTC(y, mo - 1, d));
  return t.getUTCFullYear() === y && t.getUTCMonth() === mo - 1 && t.getUTCDate() === d;
}

/** A conservative RFC 5321 mailbox (dot-atom local part, LDH domain labels), which every `email` validator accepts. */
export function isEmail(text: string): boolean {
  const at = text.lastIndexOf('@');
  if (at < 1) return false;
  const local = text.slice(0, at);
  const domain = text.slice(at + 1);
  if (local.length > 64 || !/^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/.test(local)) return false;
  const labels = domain.split('.');
  return labels.length >= 2 && labels.every((l) => /^[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/.test(l));
}

type Problems = string[];

function str(p: Problems, where: string, v: unknown, rule: { min?: number; max: number; pattern?: RegExp }): void {
  if (typeof v !== 'string') {
    p.push(`${where}: not a string`);
    return;
  }
  const n = codePoints(v);
  if (rule.min !== undefined && n < rule.min) p.push(`${where}: shorter than ${rule.min}`);
  if (n > rule.max) p.push(`${where}: longer than ${rule.max}`);
  if (rule.pattern && !rule.pattern.test(v)) p.push(`${where}: does not match ${rule.pattern.source}`);
}

function keys(p: Problems, where: string, v: unknown, required: readonly string[]): v is Record<string, unknown> {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) {
    p.push(`${where}: not an object`);
    return false;
  }
  const have = Object.keys(v);
  for (const k of required) if (!have.includes(k)) p.push(`${where}: missing ${k}`);
  for (const k of have) if (!required.includes(k)) p.push(`${where}: extra member ${k} (additionalProperties: false)`);
  return true;
}

const PHONE = /^\+[0-9 ()-]{6,24}$/;
const PID = /^\d{8}-\d{4}$/;

function uuid(p: Problems, where: string, v: unknown): void {
  str(p, where, v, { max: 36, pattern: UUID });
}
function email(p: Problems, where: string, v: unknown): void {
  str(p, where, v, { max: 254 });
  if (typeof v === 'string' && !isEmail(v)) p.push(`${where}: not an email`);
}
function address(p: Problems, where: string, v: unknown): void {
  if (!keys(p, where, v, ['Street', 'City', 'PostalCode', 'Country'])) return;
  str(p, `${where}.Street`, v.Street, { min: 1, max: 120 });
  str(p, `${where}.City`, v.City, { min: 1, max: 80 });
  str(p, `${where}.PostalCode`, v.PostalCode, { max: 6, pattern: /^\d{3} \d{2}$/ });
  str(p, `${where}.Country`, v.Country, { min: 1, max: 60 });
}

/** Every schema keyword and every in-record sentence of openapi.yaml for one ClientDetail. */
export function checkDetail(c: ClientDetail): Problems {
  const p: Problems = [];
  const w = `client ${String(c.IdClient)}`;
  if (!keys(p, w, c, ['IdClient', 'PersonalInfo', 'ContactInfo', 'Staff', 'Location', 'Insurance', 'Medical', 'Status'])) return p;
  uuid(p, `${w}.IdClient`, c.IdClient);
  const pi: unknown = c.PersonalInfo;
  if (keys(p, `${w}.PersonalInfo`, pi, ['FirstName', 'LastName', 'FullName', 'PersonalId', 'DateOfBirth', 'Gender'])) {
    str(p, `${w}.FirstName`, pi.FirstName, { min: 1, max: 60 });
    str(p, `${w}.LastName`, pi.LastName, { min: 1, max: 60 });
    str(p, `${w}.FullName`, pi.FullName, { min: 1, max: 120 });
    // "exactly FirstName, one space, LastName of that PersonalInfo"
    if (pi.FullName !== `${String(pi.FirstName)} ${String(pi.LastName)}`) p.push(`${w}: FullName is not FirstName + " " + LastName`);
    str(p, `${w}.PersonalId`, pi.PersonalId, { max: 13, pattern: PID });
    str(p, `${w}.DateOfBirth`, pi.DateOfBirth, { max: 10 });
    if (typeof pi.DateOfBirth !== 'string' || !isDate(pi.DateOfBirth)) p.push(`${w}: DateOfBirth is not a date`);
    if (!['Male', 'Female', 'Other', 'Unknown'].includes(pi.Gender as string)) p.push(`${w}: Gender not in the enum`);
    if (typeof pi.PersonalId === 'string' && typeof pi.DateOfBirth === 'string') {
      // "YYYYMMDD is PersonalInfo.DateOfBirth without its dashes … C the Luhn check digit of YYMMDDNNN"
      if (pi.PersonalId.slice(0, 8) !== pi.DateOfBirth.replace(/-/g, '')) p.push(`${w}: PersonalId date is not DateOfBirth`);
      const digits = pi.PersonalId.slice(2, 8) + pi.PersonalId.slice(9, 12);
      if (Number(pi.PersonalId[12]) !== luhnDigit(digits)) p.push(`${w}: PersonalId fails Luhn`);
    }
  }
  const ci: unknown = c.ContactInfo;
  if (keys(p, `${w}.ContactInfo`, ci, ['Email', 'Phone', 'Address'])) {
    email(p, `${w}.ContactInfo.Email`, ci.Email);
    str(p, `${w}.ContactInfo.Phone`, ci.Phone, { max: 25, pattern: PHONE });
    address(p, `${w}.ContactInfo.Address`, ci.Address);
  }
  if (c.Staff !== null && keys(p, `${w}.Staff`, c.Staff, ['IdStaff', 'FullName', 'Specialization', 'Email', 'Phone'])) {
    uuid(p, `${w}.Staff.IdStaff`, c.Staff.IdStaff);
    str(p, `${w}.Staff.FullName`, c.Staff.FullName, { min: 1, max: 120 });
    str(p, `${w}.Staff.Specialization`, c.Staff.Specialization, { min: 1, max: 60 });
    email(p, `${w}.Staff.Email`, c.Staff.Email);
    str(p, `${w}.Staff.Phone`, c.Staff.Phone, { max: 25, pattern: PHONE });
  }
  if (c.Location !== null && keys(p, `${w}.Location`, c.Location, ['IdLocation', 'Name', 'Address'])) {
    uuid(p, `${w}.Location.IdLocation`, c.Location.IdLocation);
    str(p, `${w}.Location.Name`, c.Location.Name, { min: 1, max: 120 });
    address(p, `${w}.Location.Address`, c.Location.Address);
  }
  if (c.Insurance !== null && keys(p, `${w}.Insurance`, c.Insurance, ['IdInsurance', 'Name', 'Code', 'PolicyNumber'])) {
    uuid(p, `${w}.Insurance.IdInsurance`, c.Insurance.IdInsurance);
    str(p, `${w}.Insurance.Name`, c.Insurance.Name, { min: 1, max: 120 });
    str(p, `${w}.Insurance.Code`, c.Insurance.Code, { max: 5, pattern: /^[A-Z]{2,5}$/ });
    str(p, `${w}.Insurance.PolicyNumber`, c.Insurance.PolicyNumber, { max: 16, pattern: /^[A-Z]{2,5}-\d{4}-\d{4}$/ });
  }
  const med: unknown = c.Medical;
  if (keys(p, `${w}.Medical`, med, ['Allergies', 'Medications'])) {
    const { Allergies: al, Medications: me } = med;
    if (!Array.isArray(al) || al.length > 50) p.push(`${w}: Allergies not an array of at most 50`);
    else
      al.forEach((a: unknown, i) => {
        if (!keys(p, `${w}.Allergies[${i}]`, a, ['Name', 'Severity'])) return;
        str(p, `${w}.Allergies[${i}].Name`, a.Name, { min: 1, max: 60 });
        if (!['Mild', 'Moderate', 'Severe'].includes(a.Severity as string)) p.push(`${w}.Allergies[${i}]: Severity not in the enum`);
      });
    if (!Array.isArray(me) || me.length > 50) p.push(`${w}: Medications not an array of at most 50`);
    else
      me.forEach((m: unknown, i) => {
        if (!keys(p, `${w}.Medications[${i}]`, m, ['Name', 'Dosage', 'Frequency'])) return;
        str(p, `${w}.Medications[${i}].Name`, m.Name, { min: 1, max: 60 });
        str(p, `${w}.Medications[${i}].Dosage`, m.Dosage, { min: 1, max: 30 });
        str(p, `${w}.Medications[${i}].Frequency`, m.Frequency, { min: 1, max: 40 });
      });
  }
  if (c.Status !== 'Active' && c.Status !== 'Inactive') p.push(`${w}: Status not in the enum`);
  return p;
}

/** The list views openapi.yaml derives from a Detail: "The basic fields repeat the sections …". */
export function simpleOf(c: ClientDetail): ClientSimple {
  return {
    IdClient: c.IdClient,
    FullName: c.PersonalInfo.FullName,
    PersonalId: c.PersonalInfo.PersonalId,
    Phone: c.ContactInfo.Phone,
    Email: c.ContactInfo.Email,
  };
}

export function extendedOf(c: ClientDetail): ClientExtended {
  return {
    ...simpleOf(c),
    PersonalInfo: c.PersonalInfo,
    ContactInfo: c.ContactInfo,
    IdStaff: c.Staff?.IdStaff ?? null,
    StaffName: c.Staff?.FullName ?? null,
    IdLocation: c.Location?.IdLocation ?? null,
    LocationName: c.Location?.Name ?? null,
    Status: c.Status,
  };
}

/** The rules across records: unique `IdClient` (case-insensitively), "Unique per client" `PersonalId`, one staff member one name. */
export function checkDataSet(clients: readonly ClientDetail[]): Problems {
  const p: Problems = [];
  const ids = new Set<string>();
  const pids = new Set<string>();
  const staff = new Map<string, string>();
  for (const c of clients) {
    p.push(...checkDetail(c));
    const id = String(c.IdClient).toLowerCase();
    if (ids.has(id)) p.push(`duplicate IdClient ${id}`);
    ids.add(id);
    if (pids.has(c.PersonalInfo.PersonalId)) p.push(`duplicate PersonalId ${c.PersonalInfo.PersonalId}`);
    pids.add(c.PersonalInfo.PersonalId);
    if (c.Staff) {
      const known = staff.get(c.Staff.IdStaff.toLowerCase());
      if (known !== undefined && known !== JSON.stringify(c.Staff)) p.push(`staff ${c.Staff.IdStaff} differs between clients`);
      staff.set(c.Staff.IdStaff.toLowerCase(), JSON.stringify(c.Staff));
    }
    const e = extendedOf(c);
    if ((e.IdStaff === null) !== (e.StaffName === null)) p.push(`client ${id}: StaffName null-ness differs from IdStaff`);
    if ((e.IdLocation === null) !== (e.LocationName === null)) p.push(`client ${id}: LocationName null-ness differs from IdLocation`);
    if (e.StaffName !== null && codePoints(e.StaffName) > 120) p.push(`client ${id}: StaffName too long`);
    if (e.LocationName !== null && codePoints(e.LocationName) > 120) p.push(`client ${id}: LocationName too long`);
  }
  return p;
}

/**
 * The documented order: "ordered by FullName (… as Intl.Collator('en', {sensitivity: 'base'}) compares), ties …
 * broken by IdClient in lower case, compared character by character".
 */
export const COLLATOR = new Intl.Collator('en', { sensitivity: 'base' });
export function compareClients(a: ClientDetail, b: ClientDetail): number {
  const byName = COLLATOR.compare(a.PersonalInfo.FullName, b.PersonalInfo.FullName);
  if (byName !== 0) return byName;
  const ia = String(a.IdClient).toLowerCase();
  const ib = String(b.IdClient).toLowerCase();
  return ia < ib ? -1 : ia > ib ? 1 : 0;
}
