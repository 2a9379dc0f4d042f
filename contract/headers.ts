// Header values as RFC 9110 reads them, the one place the judge, the suite's checks and the proxy read a field:
// from a Fetch `Headers` or a node:http record (any case of name, repeated lines as an array); a field value
// without the optional white space around it (§5.5), several field lines as one value joined by commas (§5.3),
// and a list field's elements (§5.6.1: split at commas outside quoted strings, OWS trimmed, empty elements
// ignored). `Allow: GET␠`, `X-Total-Count: 5␠` and `Vary: origin` on two lines are what the plain forms are.
export type HeaderValue = string | readonly string[] | undefined;
/** Request or response headers: a Fetch `Headers`, or a plain record (node:http's, any case of name; repeated lines as an array). */
export type HeaderBag = Headers | Readonly<Record<string, HeaderValue>>;

/** RFC 9110 §5.6.3: OWS is spaces and horizontal tabs, nothing else (a no-break space is a byte of the value). */
const AROUND = /^[ \t]+|[ \t]+$/g;

/**
 * Fields RFC 9110 and the Fetch standard define as lists (`#element`), none of them an exception of §5.3: read
 * element by element, over every line, so `Allow: GET ,` on one line and `Vary: origin` beside `Vary: accept-encoding`
 * are `GET` and `origin, accept-encoding`.
 */
const LIST_FIELDS = new Set([
  'accept-encoding',
  'access-control-allow-headers',
  'access-control-allow-methods',
  'access-control-expose-headers',
  'allow',
  'cache-control',
  'connection',
  'content-encoding',
  'vary',
]);

/** A comma with white space before it, or without exactly one space and then something else after it. */
const NOT_JOINT_FORM = /[ \t],|,(?! [^ \t])/;

/** A field line's value without the optional white space around it (RFC 9110 §5.5). */
export function withoutOws(value: string): string {
  return value.replace(AROUND, '');
}

/**
 * A field line, or the lines Fetch's `Headers` joined, without OWS around it and with `, ` at every comma outside
 * quoted strings (RFC 9110 §5.6.4) and `<…>` references (RFC 8288): white space next to such a comma is a list's or
 * a joint's OWS, never the value's. Node's fetch (undici, Node 22 and 24) keeps each line's trailing white space
 * (`Link: <a>; rel=first␠` beside a second Link line reads `<a>; rel=first␠, <b>…`): without this, the same answer
 * read by fetch and by a raw socket was two values. Lines read one by one get the same form, so both readers agree.
 */
function withoutJointOws(joined: string): string {
  // Already in that form (every comma with no white space before it and one space, then more, after it): nothing to
  // move, wherever the commas stand. The walk below would copy it as it is.
  if (!NOT_JOINT_FORM.test(joined)) return withoutOws(joined);
  let out = '';
  let quoted = false;
  let bracketed = false;
  for (let i = 0; i < joined.length; i += 1) {
    const c = joined[i]!;
    if (quoted) {
      out += c;
      if (c === '\\' && i + 1 < joined.length) out += joined[++i];
      else if (c === '"') quoted = false;
    } else if (bracketed) {
      out += c;
      if (c === '>') bracketed = false;
    } else if (c === ',') {
      out = `${out.replace(/[ \t]+$/, '')}, `;
      while (joined[i + 1] === ' ' || joined[i + 1] === '\t') i += 1;
    } else {
      out += c;
      quoted = c === '"';
      bracketed = c === '<';
    }
  }
  // `, ` written for a comma that ended the value (an empty last element) keeps no white space after it.
  return withoutOws(out);
}

/**
 * A field's lines, each without the white space around it, or undefined when the message has none. A Fetch
 * `Headers` has joined them already (with ", "): it gives one line, without the white space at its joints.
 */
export function fieldLines(bag: HeaderBag, name: string): string[] | undefined {
  if (typeof (bag as Headers).get === 'function') {
    const joined = (bag as Headers).get(name);
    return joined === null ? undefined : [withoutJointOws(joined)];
  }
  const lower = name.toLowerCase();
  const lines: string[] = [];
  for (const [key, line] of Object.entries(bag as Record<string, HeaderValue>)) {
    if (key.toLowerCase() !== lower || line === undefined) continue;
    lines.push(...(typeof line === 'string' ? [line] : line));
  }
  return lines.length === 0 ? undefined : lines.map(withoutJointOws);
}

/**
 * A header's field value (several lines joined by `, `, RFC 9110 §5.3), without the optional white space around
 * each line, or undefined when the message has none. A list field (LIST_FIELDS) is given in its plain form: its
 * elements joined by `, `, empty ones dropped.
 */
export function headerOf(bag: HeaderBag, name: string): string | undefined {
  const value = fieldLines(bag, name)?.join(', ');
  if (value === undefined || !LIST_FIELDS.has(name.toLowerCase())) return value;
  return listOf(value, { caseSensitive: true }).join(', ');
}

/**
 * A list field's elements (RFC 9110 §5.6.1): split at the commas outside quoted strings, each without the white
 * space around it, empty elements dropped. In lower case unless `caseSensitive` (tokens such as header names,
 * directives and media types compare in any case; methods do not, RFC 9110 §9.1).
 */
export function listOf(header: string | undefined, { caseSensitive = false }: { caseSensitive?: boolean } = {}): string[] {
  const items: string[] = [];
  let item = '';
  let quoted = false;
  const text = header ?? '';
  for (let i = 0; i < text.length; i += 1) {
    const character = text[i]!;
    if (quoted && character === '\\') {
      item += character + (text[i + 1] ?? '');
      i += 1;
      continue;
    }
    if (character === '"') quoted = !quoted;
    if (character === ',' && !quoted) {
      items.push(item);
      item = '';
    } else item += character;
  }
  items.push(item);
  return items
    .map((element) => withoutOws(element))
    .filter((element) => element !== '')
    .map((e) => (caseSensitive ? e : e.toLowerCase()));
}
