// The body of an answer against its documented response: the media type (RFC 9110), the JSON text
// (RFC 8259) and the full schema, each schema error grouped by its place so one fault is one cause.
import type { ErrorObject } from 'ajv';
import { checkJsonText } from '../json-text';
import { pointerSegment } from '../spec';
import type { SpecResponse } from '../spec-contract';
import type { Judging } from './judging';
import { wildcard } from './words';

type Json = Record<string, unknown>;

interface Body {
  parsed: boolean;
  value?: unknown;
  /** Instance paths (with indexes) where the body breaks its schema. */
  invalid: string[];
}

/**
 * A Content-Type as RFC 9110 writes it: `type "/" subtype *( OWS ";" OWS [ parameter ] )`, a parameter being
 * `token "=" ( token / quoted-string )` (§8.3.1, §5.6.6). The media type alone is not enough: a parameter with no
 * name (`; =utf-8`), an empty value (`charset=`) or a value with `=` in it is no media type a client can parse.
 */
const TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
const MEDIA_TYPE = new RegExp(`^${TOKEN}/${TOKEN}(?:[ \\t]*;[ \\t]*(?:${TOKEN}=(?:${TOKEN}|"(?:[^"\\\\]|\\\\.)*"))?)*[ \\t]*$`);

export function content(j: Judging, response: SpecResponse): Body {
  const documented = response.node.content as Json | undefined;
  const contentType = j.header('content-type');
  j.apply('response.media-type');
  if (!documented) {
    if (j.exchange.bytes.length > 0)
      j.add('response.media-type', 'body', 'no body (the response documents none)', `${j.exchange.bytes.length} bytes`);
    return { parsed: false, invalid: [] };
  }
  const mediaType = contentType?.split(';')[0]!.trim().toLowerCase();
  const key = Object.keys(documented).find((candidate) => candidate.toLowerCase() === mediaType);
  if (!key) {
    j.add('response.media-type', 'Content-Type', `Content-Type ${Object.keys(documented).join(' or ')}`, contentType ?? '(absent)');
    return { parsed: false, invalid: [] };
  }
  if (!MEDIA_TYPE.test(contentType!))
    j.add('response.media-type', 'Content-Type', 'a media type as RFC 9110 writes it (type/subtype; name=value)', contentType!);
  if (!/^application\/(.+\+)?json$/i.test(key)) return { parsed: false, invalid: [] };
  // The answer to HEAD carries the headers of the answer to GET and no body (RFC 9110 §9.3.2).
  if (j.judged.request.method.toUpperCase() === 'HEAD') return { parsed: false, invalid: [] };
  j.apply('response.json');
  const text = checkJsonText(j.exchange.bytes, contentType);
  for (const problem of text.problems) j.add('response.json', problem.kind, 'an RFC 8259 JSON text in UTF-8', problem.message);
  if (!text.parsed) return { parsed: false, invalid: [] };
  j.apply('response.schema');
  const schemaPointer = `${response.pointer}/content/${pointerSegment(key)}/schema`;
  const validate = j.contract.validator(schemaPointer);
  // The schema by its component name (`ClientDetail`), as a reader finds it in the document.
  const schemaName = j.contract.resolve(schemaPointer).pointer.split('/').pop() ?? 'the schema';
  if (validate(text.value)) return { parsed: true, value: text.value, invalid: [] };
  const errors = validate.errors ?? [];
  const byPlace = new Map<string, ErrorObject[]>();
  for (const error of errors) {
    const place = wildcard(error.instancePath);
    byPlace.set(place, [...(byPlace.get(place) ?? []), error]);
  }
  for (const [place, placed] of byPlace) {
    const described = placed.slice(0, 3).map((error) => {
      const params = error.params as { missingProperty?: string; additionalProperty?: string };
      if (error.keyword === 'required') return `${params.missingProperty} is required but missing`;
      if (error.keyword === 'additionalProperties') return `${params.additionalProperty} is not a documented property`;
      return `${error.keyword}: ${error.message ?? 'is not valid'}`;
    });
    const keywords = [...new Set(placed.map((error) => error.keyword))].join(', ');
    j.add(
      'response.schema',
      `${schemaName} ${place} ${keywords}`,
      `${schemaName} at ${place} (${keywords})`,
      `${place}: ${[...new Set(described)].join('; ')}${placed.length > 3 ? ` (+${placed.length - 3} more)` : ''}`,
      [schemaName],
    );
  }
  return { parsed: true, value: text.value, invalid: errors.map((error) => error.instancePath) };
}
