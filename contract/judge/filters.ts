// Whether a list row meets a filter of the query as openapi.yaml states each (active, idStaff, idLocation,
// and the folded text match of filter).
import { filterTerm, matchesFilter } from '../text-folding';
import type { JudgeRule } from './rules';
import { show } from './words';

type Json = Record<string, unknown>;

export const FILTER_RULES: Record<string, JudgeRule> = {
  active: 'filter.active',
  idStaff: 'filter.staff',
  idLocation: 'filter.location',
  filter: 'filter.text',
};

export function meetsFilters(row: Json, query: Readonly<Record<string, string | undefined>>): boolean {
  return Object.entries(query).every(([name, value]) => value === undefined || filterBroken(name, value, row) === undefined);
}

export function filterBroken(name: string, value: string, row: Json): string | undefined {
  if (name === 'active' && (value === 'true' || value === 'false')) {
    const wanted = value === 'true' ? 'Active' : 'Inactive';
    return row.Status === wanted ? undefined : `has Status ${String(row.Status)}`;
  }
  if (name === 'idStaff' || name === 'idLocation') {
    const field = name === 'idStaff' ? 'IdStaff' : 'IdLocation';
    const got = row[field];
    return typeof got === 'string' && got.toLowerCase() === value.toLowerCase() ? undefined : `has ${field} ${JSON.stringify(got)}`;
  }
  if (name === 'filter') {
    if (filterTerm(value) === '') return undefined;
    const fields = { FullName: row.FullName, PersonalId: row.PersonalId, Email: row.Email, Phone: row.Phone };
    if (Object.values(fields).some((field) => typeof field !== 'string')) return undefined;
    return matchesFilter(fields as { FullName: string; PersonalId: string; Email: string; Phone: string }, value)
      ? undefined
      : `(${show(String(row.FullName), 40)}, ${String(row.Email)}, ${String(row.Phone)}) does not match the folded term ${show(filterTerm(value), 40)}`;
  }
  return undefined;
}

/**
 * The Link header against the paging arithmetic: with last = max(1,
 * ceil(total / pageSize)), first and last always, prev when page > 1 naming
 * min(page - 1, last), next when page < last naming page + 1; every target
 * the same path with that page, the same pageSize and every other query
 * parameter of the request with the same value.
 */
