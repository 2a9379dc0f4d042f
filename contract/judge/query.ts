// The query of a request as the judge reads it: pairs in order, decoded as a form (`+` is a space), a bad
// percent-encoding kept as a problem of its pair rather than thrown.
// ---------------------------------------------------------------- requests

export interface QueryPair {
  name: string;
  value: string;
  /** `?name` without `=`. */
  bare: boolean;
  decodeError?: string;
  /** For a value with a decodeError: the value read as text (readAsText), as a deployment that takes it may. */
  asText?: string;
}

function decodeComponent(text: string): string {
  return decodeURIComponent(text.replace(/\+/g, ' '));
}

/**
 * A query component read as text whatever its percent-encoding: `+` a space, each `%XX` triplet a byte, bytes that
 * are no UTF-8 U+FFFD, any other `%` itself. The document says only that `+` and `%20` mean a space; this is one
 * reading a deployment may give a cut encoding (`%E0%A4%A` → `\uFFFD%A`).
 */
export function readAsText(text: string): string {
  const bytes: number[] = [];
  const plain = text.replace(/\+/g, ' ');
  for (let i = 0; i < plain.length; i += 1) {
    const triplet = /^%[0-9A-Fa-f]{2}/.exec(plain.slice(i));
    if (triplet) {
      bytes.push(parseInt(triplet[0].slice(1), 16));
      i += 2;
    } else bytes.push(...new TextEncoder().encode(plain[i]!));
  }
  return new TextDecoder('utf-8').decode(Uint8Array.from(bytes));
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
      pairs.push({
        name,
        value: rawValue,
        bare: at < 0,
        decodeError: `bad percent-encoding in ${JSON.stringify(part.slice(0, 60))}`,
        asText: readAsText(rawValue),
      });
    }
  }
  return pairs;
}
