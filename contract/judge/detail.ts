// A Detail answer: the client its path names, the in-record rules, and (with a memory) agreement with the list
// rows seen for that client; a 404 for a client a list returned is a disagreement too.
import { agreeWithMemory } from './agreement';
import type { Judging } from './judging';
import type { ExchangeMemory } from './memory';
import { recordRules } from './records';

type Json = Record<string, unknown>;

export function detailRules(j: Judging, body: unknown, invalid: readonly string[], memory?: ExchangeMemory): void {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return;
  const record = body as Json;
  if (invalid.length === 0) recordRules(j, record, '');
  for (const [name, value] of Object.entries(j.judged.pathParams)) {
    const field = Object.keys(record).find((key) => key.toLowerCase() === name.toLowerCase());
    if (!field || typeof record[field] !== 'string') continue;
    j.apply('detail.id');
    if ((record[field] as string).toLowerCase() !== value.toLowerCase())
      j.add('detail.id', field, `${field} ${value} (the path's ${name}, compared case-insensitively)`, `${field} ${String(record[field])}`);
    if (memory && invalid.length === 0 && j.judged.violations.length === 0) {
      agreeWithMemory(j, memory, record[field] as string, 'detail', record, '');
    }
  }
}

/** A 404 for a client the memory has seen listed: the lists and Detail disagree. */
export function listedButMissing(j: Judging, memory: ExchangeMemory): void {
  if (!j.operation || j.judged.violations.length > 0) return;
  for (const value of Object.values(j.judged.pathParams)) {
    const seen = memory.recall(value);
    if (!seen?.extended && !seen?.simple) continue;
    j.apply('detail.agrees-with-list');
    j.add('detail.agrees-with-list', 'status', `200 with the client ${value}, which a list returned`, `${j.exchange.status}`);
  }
}

/** The fields a Detail and a list row share, as the description of getClientDetail pairs them; undefined where the record lacks the section. */
