// The Link header of a list page against the paging arithmetic and RFC 8288 / RFC 3986.
import { linkRelations, parseLinkHeader } from '../link-header';
import { parameterDefault, type Judging } from './judging';
import { parseQuery } from './query';
import { show } from './words';

const PAGING = ['page', 'pageSize'];

export function linkRules(j: Judging, header: string, total: number, page: number, pageSize: number): void {
  j.apply('list.link');
  const problems: string[] = [];
  parseLinkHeader(header, problems);
  if (problems.length > 0)
    j.add('list.link', 'syntax', 'link-values separated by commas (RFC 8288 #link-value)', `${problems[0]}; Link: ${show(header, 200)}`);
  const links = linkRelations(header);
  const last = Math.max(1, Math.ceil(total / pageSize));
  for (const rel of ['first', 'last'])
    if (!links.has(rel)) j.add('list.link', `rel=${rel}`, `a rel="${rel}" link`, `Link: ${show(header, 200)}`);
  if (links.has('next') !== page < last)
    j.add('list.link', 'rel=next', `${page < last ? 'a' : 'no'} rel="next" on page ${page} of ${last}`, `Link: ${show(header, 200)}`);
  if (links.has('prev') !== page > 1)
    j.add('list.link', 'rel=prev', `${page > 1 ? 'a' : 'no'} rel="prev" on page ${page}`, `Link: ${show(header, 200)}`);
  const wanted: Record<string, number> = { first: 1, last, prev: Math.min(page - 1, last), next: page + 1 };
  const requestUrl = j.judged.request.url ?? `http://localhost${j.judged.request.path}`;
  const request = new URL(requestUrl);
  const requestPath = request.pathname;
  const authorities = [request.host, j.requestHeader('host')].map((host) => host?.toLowerCase());
  const defaults = { page: parameterDefault(j, 'page') ?? 1, pageSize: parameterDefault(j, 'pageSize') };
  for (const [rel, target] of links) {
    const named = wanted[rel];
    if (named === undefined) continue;
    let url: URL;
    try {
      url = new URL(target, requestUrl);
    } catch {
      j.add('list.link', `rel=${rel}`, 'a URI reference', show(target));
      continue;
    }
    const problems: string[] = [];
    // openapi.yaml: "page links as relative references". RFC 3986 §4.2: a relative reference has no scheme; a
    // network-path reference (`//host/path?…`) is one too. What counts is what it resolves to (§5.2): this
    // deployment (the authority the request was sent to, or the Host it named), this operation's path.
    if (/^[A-Za-z][A-Za-z0-9+.-]*:/.test(target)) problems.push('is not a relative reference (it has a scheme)');
    if (target.startsWith('//') && !authorities.includes(url.host.toLowerCase()))
      problems.push(`names another authority (${url.host}) than the request's (${authorities[0]})`);
    if (url.pathname !== requestPath) problems.push(`leaves the path ${requestPath}`);
    const pairs = parseQuery(url.search);
    const got = new Map<string, string[]>();
    for (const pair of pairs) got.set(pair.name, [...(got.get(pair.name) ?? []), pair.value]);
    for (const [name, values] of got) if (values.length > 1) problems.push(`gives ${name} twice`);
    const value = (name: string) => got.get(name)?.[0];
    if (Number(value('page') ?? defaults.page) !== named) problems.push(`names page ${value('page') ?? '(none)'}, not ${named}`);
    if (Number(value('pageSize') ?? defaults.pageSize) !== pageSize)
      problems.push(`names pageSize ${value('pageSize') ?? '(none)'}, not ${pageSize}`);
    const others = new Set([...j.judged.query.keys(), ...got.keys()].filter((name) => !PAGING.includes(name)));
    for (const name of others) {
      const sent = j.judged.query.get(name);
      const linked = value(name);
      const parameter = j.operation?.parameters.find((p) => p.name === name);
      const same = parameter?.schema.format === 'uuid' ? sent?.toLowerCase() === linked?.toLowerCase() : sent === linked;
      if (!same)
        problems.push(
          `has ${name}=${linked === undefined ? '(none)' : show(linked, 40)}, the request ${sent === undefined ? '(none)' : show(sent, 40)}`,
        );
    }
    if (problems.length > 0)
      j.add(
        'list.link',
        `rel=${rel}`,
        `rel="${rel}" naming page ${named} of the same query`,
        `<${target.length > 120 ? `${target.slice(0, 120)}…` : target}> ${problems.join('; ')}`,
      );
  }
}
