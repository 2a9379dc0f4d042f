// The query of a request as the judge reads it: pairs in order, decoded as a form (`+` is a space), a bad
// percent-encoding kept as a problem of its pair rather than thrown.
// ---------------------------------------------------------------- requests

export interface QueryPair {
  name: string;
  value: string;
  /** `?name` without `=`. */
  bare: boolean;
  decodeError?: string;
}

function decodeComponent(text: string): string {
  return decodeURIComponent(text.replace(/\+/g, ' '));
}

/** The query as pairs, in order, names and values decoded as a form (`+` is a space). */
export function parseQuery(search: string): QueryPair[] {
  const pairs: QueryPair[] = [];
  for (const part of search.replace(/^\?/, '').split('&')) {
    if (part === '') continue;
    const at = part.indexOf('=');
    const rawName = at < 0 ? part : part.slice(0, at);
    const rawValue = at < 0 ? '' : part.slice(at + 1);
    try {
      pairs.push({ name: decodeComponent(rawName), value: decodeComponent(rawValue), bare: at < 0 });
    } catch {
      let name = rawName;
      try {
        name = decodeComponent(rawName);
      } catch {
        // the name itself is badly encoded: reported under its raw form
      }
      pairs.push({ name, value: rawValue, bare: at < 0, decodeError: `bad percent-encoding in ${JSON.stringify(part.slice(0, 60))}` });
    }
  }
  return pairs;
}
