// The same client in two answers (a Simple row, an Extended row, a Detail) has the same shared fields, compared
// as JSON values (RFC 8259: objects are unordered).
import { sameJsonValue } from '../json-equal';
import type { Judging } from './judging';
import type { ExchangeMemory } from './memory';
import type { JudgeRule } from './rules';

type Json = Record<string, unknown>;

function sharedFields(kind: 'simple' | 'extended' | 'detail', record: Json): Record<string, unknown> {
  const info = record.PersonalInfo as Json | undefined;
  const contact = record.ContactInfo as Json | undefined;
  if (kind === 'detail') {
    const staff = record.Staff as Json | null | undefined;
    const location = record.Location as Json | null | undefined;
    return {
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
  }
  const shared: Record<string, unknown> = {
    FullName: record.FullName,
    PersonalId: record.PersonalId,
    Email: record.Email,
    Phone: record.Phone,
  };
  if (kind === 'extended')
    Object.assign(shared, {
      PersonalInfo: info,
      ContactInfo: contact,
      Status: record.Status,
      IdStaff: record.IdStaff,
      StaffName: record.StaffName,
      IdLocation: record.IdLocation,
      LocationName: record.LocationName,
    });
  return shared;
}

export function agreeWithMemory(
  j: Judging,
  memory: ExchangeMemory,
  idClient: string,
  kind: 'simple' | 'extended' | 'detail',
  record: Json,
  at: string,
): void {
  const seen = memory.recall(idClient);
  if (!seen) return;
  const mine = sharedFields(kind, record);
  for (const other of ['simple', 'extended', 'detail'] as const) {
    const earlier = seen[other];
    if (!earlier) continue;
    const theirs = sharedFields(other, earlier);
    const rule: JudgeRule = kind === 'detail' || other === 'detail' ? 'detail.agrees-with-list' : 'list.rows-agree';
    j.apply(rule);
    // JSON objects are unordered (RFC 8259): values are compared, not serializations.
    const differing = Object.keys(mine).filter(
      (field) => mine[field] !== undefined && theirs[field] !== undefined && !sameJsonValue(mine[field], theirs[field]),
    );
    if (differing.length > 0) {
      const field = differing[0]!;
      j.add(
        rule,
        differing.join(','),
        `${field} ${JSON.stringify(theirs[field]).slice(0, 120)} (as the ${other === 'detail' ? 'Detail' : `${other === 'simple' ? 'Simple' : 'Extended'} row`} seen earlier for ${idClient})`,
        `${at ? `${at.replace(/^\/Results\/(\d+)/, 'Results[$1]')} ` : ''}${field} ${JSON.stringify(mine[field]).slice(0, 120)}${differing.length > 1 ? ` (also ${differing.slice(1).join(', ')})` : ''}`,
      );
    }
  }
}
