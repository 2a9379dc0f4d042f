// The paging headers of a list answer: X-Total-Count and an RFC 8288 Link
// header, of relative references unless PUBLIC_URL names the address browsers
// use (docs/frontend.md). Link targets name the parameters as the served spec
// does (request.ts, ListParameters), so a spec that renames them is followed.
import type { ListQuery } from '../engine/list-query';
import type { ListParameters, PagingHeaders } from './request';

function pageUrl(path: string, query: ListQuery, page: number, names: ListParameters): string {
  const params = [`${names.page.name}=${page}`, `${names.pageSize.name}=${query.pageSize}`];
  if (query.active !== undefined) params.push(`active=${query.active}`);
  if (query.filter !== undefined) params.push(`filter=${encodeURIComponent(query.filter)}`);
  if (query.idStaff !== undefined) params.push(`idStaff=${query.idStaff}`);
  if (query.idLocation !== undefined) params.push(`idLocation=${query.idLocation}`);
  return `${path}?${params.join('&')}`;
}

export function pageLinks(path: string, query: ListQuery, total: number, names: ListParameters): string {
  const last = Math.max(1, Math.ceil(total / query.pageSize));
  const links = [`<${pageUrl(path, query, 1, names)}>; rel="first"`];
  if (query.page > 1) links.push(`<${pageUrl(path, query, Math.min(query.page - 1, last), names)}>; rel="prev"`);
  if (query.page < last) links.push(`<${pageUrl(path, query, query.page + 1, names)}>; rel="next"`);
  links.push(`<${pageUrl(path, query, last, names)}>; rel="last"`);
  return links.join(', ');
}

/** The header writer for the served spec's names; `publicUrl` (PUBLIC_URL, no trailing slash) makes the links absolute. */
export function pagingHeaders(names: ListParameters, publicUrl = ''): PagingHeaders {
  return (res, path, query, total) => {
    res.setHeader('X-Total-Count', String(total));
    res.setHeader('Link', pageLinks(`${publicUrl}${path}`, query, total, names));
  };
}
