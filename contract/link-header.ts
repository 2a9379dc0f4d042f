// RFC 8288 Link headers as a reader must take them: several link-values per
// line or one per line (joined by ", "), parameters in any order, values
// quoted or not, several relation types in one `rel`, commas and semicolons
// inside quotes and inside <…> left alone. The judge reads the list's page
// links with it; the checks follow them.

/** One link of an RFC 8288 header: its target (as written) and its parameters (names lower case). */
export interface LinkValue {
  target: string;
  params: Map<string, string>;
}

/** Parses an RFC 8288 Link field value into its link-values; what breaks the list syntax goes to `problems`. */
export function parseLinkHeader(header: string | null | undefined, problems?: string[]): LinkValue[] {
  const links: LinkValue[] = [];
  const text = header ?? '';
  let i = 0;
  const skipSpace = () => {
    while (i < text.length && /[\s,]/.test(text[i]!)) i += 1;
  };
  while (i < text.length) {
    skipSpace();
    if (text[i] !== '<') {
      // Not a link-value: skip to the next comma outside quotes.
      while (i < text.length && text[i] !== ',') i += 1;
      continue;
    }
    const end = text.indexOf('>', i);
    if (end < 0) break;
    const link: LinkValue = { target: text.slice(i + 1, end), params: new Map() };
    i = end + 1;
    for (;;) {
      while (i < text.length && /\s/.test(text[i]!)) i += 1;
      if (text[i] !== ';') break;
      i += 1;
      const name = /^\s*([^\s=;,]+)\s*/.exec(text.slice(i));
      if (!name) break;
      i += name[0].length;
      let value = '';
      if (text[i] === '=') {
        i += 1;
        while (text[i] === ' ' || text[i] === '\t') i += 1;
        if (text[i] === '"') {
          i += 1;
          while (i < text.length && text[i] !== '"') {
            if (text[i] === '\\') i += 1;
            value += text[i] ?? '';
            i += 1;
          }
          i += 1;
        } else {
          const token = /^[^\s;,]*/.exec(text.slice(i))![0];
          value = token;
          i += token.length;
        }
      }
      const key = name[1]!.toLowerCase();
      // RFC 8288 3.3: only the first occurrence of rel counts.
      if (!link.params.has(key)) link.params.set(key, value);
    }
    links.push(link);
    // RFC 8288 section 3, `Link = #link-value`: a list (RFC 9110 section 5.6.1), so a link-value ends at a comma or the end.
    while (i < text.length && /\s/.test(text[i]!)) i += 1;
    if (i < text.length && text[i] !== ',') problems?.push(`no comma after the link-value <${link.target}>`);
  }
  return links;
}

/** Relation type → target. A value may name several relation types (`rel="first prev"`); they compare case-insensitively. */
export function linkRelations(header: string | null | undefined): Map<string, string> {
  const relations = new Map<string, string>();
  for (const link of parseLinkHeader(header)) {
    for (const rel of (link.params.get('rel') ?? '').trim().split(/\s+/)) {
      if (rel !== '' && !relations.has(rel.toLowerCase())) relations.set(rel.toLowerCase(), link.target);
    }
  }
  return relations;
}

/** The query of a link target, resolved against the request URL, as decoded name → values. */
export function targetQuery(target: string, base: string): { pathname: string; params: URLSearchParams } {
  const url = new URL(target, base);
  return { pathname: url.pathname, params: url.searchParams };
}
