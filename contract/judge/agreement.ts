// The same client in two answers (a Simple row, an Extended row, a Detail) has the same shared fields, compared
// as JSON values (RFC 8259: objects are unordered).
import { sameJsonValue } from '../json-equal';
import type { Judging } from './judging';
import { SHARED_FIELDS, type ExchangeMemory, type RecordKind, type SharedField, type SharedView } from './memory';
import type { JudgeRule } from './rules';

type Json = Record<string, unknown>;

/** The fields a record shares with the other kinds (memory.ts's SharedView), read once as the record is met. */
function sharedView(kind: RecordKind, record: Json): SharedView {
  const info = record.PersonalInfo as Json | undefined;
  const contact = record.ContactInfo as Json | undefined;
  let fields: Record<SharedField, unknown>;
  if (kind === 'detail') {
    const staff = record.Staff as Json | null | undefined;
    const location = record.Location as Json | null | undefined;
    fields = {
      FullName: info?.FullName,
      PersonalId: info?.PersonalId,
      Email: contact?.Email,
      Phone: contact?.Phone,
      PersonalInfo: info,
      ContactInfo: contact,
      Status: record.Status,
      IdStaff: staff === undefined ? undefined : (staff?.IdStaff ?? null),
      StaffName: staff === undefined ? undefined : (staff?.FullName ?? null),
      IdLocation: location === undefined ? undefined : (location?.IdLocation ?? null),
      LocationName: location === undefined ? undefined : (location?.Name ?? null),
    };
  } else {
    const extended = kind === 'extended';
    fields = {
      FullName: record.FullName,
      PersonalId: record.PersonalId,
      Email: record.Email,
      Phone: record.Phone,
      PersonalInfo: extended ? info : undefined,
      ContactInfo: extended ? contact : undefined,
      Status: extended ? record.Status : undefined,
      IdStaff: extended ? record.IdStaff : undefined,
      StaffName: extended ? record.StaffName : undefined,
      IdLocation: extended ? record.IdLocation : undefined,
      LocationName: extended ? record.LocationName : undefined,
    };
  }
  return { kind, fields };
}

const SHOWN: Record<RecordKind, string> = { simple: 'Simple row', extended: 'Extended row', detail: 'Detail' };

/** Holds `record` to what the memory saw of the same client (each kind seen), then remembers it. */
export function agreeWithMemory(j: Judging, memory: ExchangeMemory, idClient: string, kind: RecordKind, record: Json, at: string): void {
  const mine = sharedView(kind, record);
  const seen = memory.meet(idClient);
  for (const earlier of [seen.simple, seen.extended, seen.detail]) {
    if (earlier === undefined) continue;
    const rule: JudgeRule = kind === 'detail' || earlier.kind === 'detail' ? 'detail.agrees-with-list' : 'list.rows-agree';
    j.apply(rule);
    // JSON objects are unordered (RFC 8259): values are compared, not serializations.
    let differing: SharedField[] | undefined;
    for (const field of SHARED_FIELDS) {
      const a = mine.fields[field];
      const b = earlier.fields[field];
      if (a !== undefined && b !== undefined && !sameJsonValue(a, b)) (differing ??= []).push(field);
    }
    if (differing === undefined) continue;
    const field = differing[0]!;
    j.add(
      rule,
      differing.join(','),
      `${field} ${JSON.stringify(earlier.fields[field]).slice(0, 120)} (as the ${SHOWN[earlier.kind]} seen earlier for ${idClient})`,
      `${at ? `${at.replace(/^\/Results\/(\d+)/, 'Results[$1]')} ` : ''}${field} ${JSON.stringify(mine.fields[field]).slice(0, 120)}${differing.length > 1 ? ` (also ${differing.slice(1).join(', ')})` : ''}`,
    );
  }
  seen[kind] = mine;
}
