// Reading the list parameters (already validated) and writing the paging
// headers: X-Total-Count and an RFC 8288 Link header, of relative references
// unless PUBLIC_URL names the address browsers use (docs/frontend.md).
import type { Request, Response } from 'express';
import { loadSpec } from '../../contract/spec';
import type { ListQuery } from '../engine/store';

/** `components.parameters.<name>.schema.default` of openapi.yaml: the defaults are the spec's, not a copy. */
function specDefault(parameter: 'Page' | 'PageSize'): number {
  const parameters = loadSpec().components.parameters as Record<string, { schema?: { default?: unknown } }> | undefined;
  const value = parameters?.[parameter]?.schema?.default;
  if (typeof value !== 'number') throw new Error(`openapi.yaml: components.parameters.${parameter} has no numeric default`);
  return value;
}

const DEFAULT_PAGE = specDefault('Page');
const DEFAULT_PAGE_SIZE = specDefault('PageSize');

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

/** `publicUrl` (PUBLIC_URL, no trailing slash) makes the links absolute, for pages on another origin. */
export function setPagingHeaders(res: Response, path: string, query: ListQuery, total: number, publicUrl = ''): void {
  res.setHeader('X-Total-Count', String(total));
  res.setHeader('Link', pageLinks(`${publicUrl}${path}`, query, total));
}
