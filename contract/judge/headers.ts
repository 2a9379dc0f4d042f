// Header values as the judge reads them: from a Fetch `Headers` or a node:http record (any case of name,
// repeated lines as an array), and comma-separated lists (RFC 9110 §5.6.1).
export type HeaderValue = string | readonly string[] | undefined;
/** Request or response headers: a Fetch `Headers`, or a plain record (node:http's, any case of name; repeated lines as an array). */
export type HeaderBag = Headers | Readonly<Record<string, HeaderValue>>;

/** A header's value (several lines joined by `, `), or undefined. */
export function headerOf(bag: HeaderBag, name: string): string | undefined {
  if (typeof (bag as Headers).get === 'function') return (bag as Headers).get(name) ?? undefined;
  const lower = name.toLowerCase();
  for (const [key, value] of Object.entries(bag as Record<string, HeaderValue>)) {
    if (key.toLowerCase() !== lower || value === undefined) continue;
    return typeof value === 'string' ? value : value.join(', ');
  }
  return undefined;
}

export function listOf(header: string | undefined): string[] {
  return (header ?? '')
    .split(',')
    .map((item) => item.trim().toLowerCase())
    .filter(Boolean);
}
