// A list page against openapi.yaml's paging, order and filter sentences: Page and PageSize echo the request,
// Results hold the page's share of X-Total-Count, the Link header names the right pages, rows are in the
// documented order and unique, every row meets every filter and keeps the in-record rules, and (with a memory)
// agrees with what was seen of the same client before.
import { compareClients } from '../list-order';
import { agreeWithMemory } from './agreement';
import { filterBroken, FILTER_RULES } from './filters';
import { pagingValue, validAt, type Judging } from './judging';
import { linkRules } from './links';
import type { ExchangeMemory } from './memory';
import { recordRules } from './records';
import { show } from './words';

type Json = Record<string, unknown>;

export function listRules(
  j: Judging,
  body: unknown,
  invalid: readonly string[],
  badHeaders: ReadonlySet<string>,
  memory?: ExchangeMemory,
): void {
  if (typeof body !== 'object' || body === null || !Array.isArray((body as Json).Results)) return;
  // A request the judge found invalid got a 200 anyway: response.status says so; its query cannot drive the list rules.
  if (j.judged.violations.length > 0) return;
  const page = body as { Page?: unknown; PageSize?: unknown; Results: Json[] };
  const requested = { page: pagingValue(j, 'page'), pageSize: pagingValue(j, 'pageSize') };
  j.apply('list.echo');
  if (requested.page !== undefined && validAt(invalid, '/Page') && page.Page !== requested.page)
    j.add(
      'list.echo',
      'Page',
      `Page ${requested.page} (the request's${j.judged.query.has('page') ? '' : ' default'})`,
      `Page ${String(page.Page)}`,
    );
  if (requested.pageSize !== undefined && validAt(invalid, '/PageSize') && page.PageSize !== requested.pageSize)
    j.add(
      'list.echo',
      'PageSize',
      `PageSize ${requested.pageSize} (the request's${j.judged.query.has('pageSize') ? '' : ' default'})`,
      `PageSize ${String(page.PageSize)}`,
    );

  const totalText = j.header('x-total-count');
  const total =
    totalText !== undefined && !badHeaders.has('X-Total-Count') && /^\d+$/.test(totalText.trim()) ? Number(totalText) : undefined;
  const { page: p, pageSize: size } = requested;
  if (total !== undefined && p !== undefined && size !== undefined) {
    j.apply('list.total');
    const expected = Math.max(0, Math.min(size, total - (p - 1) * size));
    if (page.Results.length !== expected)
      j.add(
        'list.total',
        'Results',
        `${expected} items (page ${p} of size ${size} over X-Total-Count ${total})`,
        `${page.Results.length} items`,
      );
    const link = j.header('link');
    if (link !== undefined && !badHeaders.has('Link')) linkRules(j, link, total, p, size);
  }

  const rows = page.Results.map((row, i) => ({ row, i })).filter(({ i }) => validAt(invalid, `/Results/${i}`));
  j.apply('list.order');
  j.apply('list.unique');
  const ids = new Map<string, number>();
  const personalIds = new Map<string, number>();
  for (let k = 0; k < rows.length; k += 1) {
    const { row, i } = rows[k]!;
    const id = String(row.IdClient).toLowerCase();
    if (ids.has(id)) {
      j.add(
        'list.unique',
        '/Results/*/IdClient',
        'each client once on a page',
        `${String(row.IdClient)} at Results[${ids.get(id)}] and Results[${i}]`,
      );
      continue;
    }
    ids.set(id, i);
    if (typeof row.PersonalId === 'string') {
      j.apply('record.unique-personal-id');
      if (personalIds.has(row.PersonalId))
        j.add(
          'record.unique-personal-id',
          '/Results/*/PersonalId',
          'a PersonalId no other client has',
          `${row.PersonalId} at Results[${personalIds.get(row.PersonalId)}] and Results[${i}]`,
        );
      personalIds.set(row.PersonalId, i);
    }
    const before = rows[k - 1];
    if (before && before.i === i - 1 && compareClients(before.row as never, row as never) >= 0)
      j.add(
        'list.order',
        '/Results',
        `Results[${i - 1}] before Results[${i}] in the documented order`,
        `${show(String(before.row.FullName), 40)} (${String(before.row.IdClient)}) before ${show(String(row.FullName), 40)} (${String(row.IdClient)})`,
      );
    recordRules(j, row, `/Results/${i}`);
  }

  for (const [name, value] of j.judged.query) {
    const rule = FILTER_RULES[name];
    if (!rule || !j.operation?.parameters.some((p) => p.in === 'query' && p.name === name)) continue;
    j.apply(rule);
    for (const { row, i } of rows) {
      const broken = filterBroken(name, value, row);
      if (broken !== undefined) j.add(rule, `/Results/*`, `every client matching ${name}=${show(value, 40)}`, `Results[${i}] ${broken}`);
    }
  }

  if (memory) {
    const kind = 'PersonalInfo' in (rows[0]?.row ?? {}) ? 'extended' : 'simple';
    for (const { row, i } of rows) {
      if (typeof row.IdClient !== 'string') continue;
      agreeWithMemory(j, memory, row.IdClient, kind, row, `/Results/${i}`);
    }
  }
}

/** True when a list row meets every filter of `query` as openapi.yaml states them (the rules the judge holds each row to). */
