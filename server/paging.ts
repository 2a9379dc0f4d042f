// Reading the list parameters (already validated) and writing the paging
// headers: X-Total-Count and an RFC 8288 Link header of relative references.
import type { Request, Response } from 'express';
import type { ListQuery } from './store';

const DEFAULT_PAGE = 1;
const DEFAULT_PAGE_SIZE = 25;

function single(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  return String(value);
}

export function readListQuery(query: Request['query']): ListQuery {
  const list: ListQuery = {
    page: Number(single(query.page) ?? DEFAULT_PAGE),
    pageSize: Number(single(query.pageSize) ?? DEFAULT_PAGE_SIZE),
  };
  const active = single(query.active);
  if (active !== undefined) list.active = active === 'true';
  const filter = single(query.filter);
  if (filter !== undefined) list.filter = filter;
  // uuids compare case-insensitively, as the uuid format allows either case.
  const idStaff = single(query.idStaff);
  if (idStaff !== undefined) list.idStaff = idStaff.toLowerCase();
  const idLocation = single(query.idLocation);
  if (idLocation !== undefined) list.idLocation = idLocation.toLowerCase();
  return list;
}

function pageUrl(path: string, query: ListQuery, page: number): string {
  const params = [`page=${page}`, `pageSize=${query.pageSize}`];
  if (query.active !== undefined) params.push(`active=${query.active}`);
  if (query.filter !== undefined) params.push(`filter=${encodeURIComponent(query.filter)}`);
  if (query.idStaff !== undefined) params.push(`idStaff=${query.idStaff}`);
  if (query.idLocation !== undefined) params.push(`idLocation=${query.idLocation}`);
  return `${path}?${params.join('&')}`;
}

export function pageLinks(path: string, query: ListQuery, total: number): string {
  const last = Math.max(1, Math.ceil(total / query.pageSize));
  const links = [`<${pageUrl(path, query, 1)}>; rel="first"`];
  if (query.page > 1) links.push(`<${pageUrl(path, query, Math.min(query.page - 1, last))}>; rel="prev"`);
  if (query.page < last) links.push(`<${pageUrl(path, query, query.page + 1)}>; rel="next"`);
  links.push(`<${pageUrl(path, query, last)}>; rel="last"`);
  return links.join(', ');
}

export function setPagingHeaders(res: Response, path: string, query: ListQuery, total: number): void {
  res.setHeader('X-Total-Count', String(total));
  res.setHeader('Link', pageLinks(path, query, total));
}
