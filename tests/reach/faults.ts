// Why: the catalogue of faults "nobody picked" and of correct-but-unusual variants, written from openapi.yaml
// (and the RFCs it cites) before the contract suite's own lists were read. Each fault breaks one sentence and
// nothing else; the sentence is quoted, with where it stands and how the fault is injected. Each entry also
// carries a probe: a few requests that show the fault (or the variant) is live, run against the faulty target
// and against the clean one, so a fault that silently changed nothing can never be counted as "missed".
import type { RawResponse } from './http';
import { header, lineCount, linkPage, links, rawRequest } from './http';
import type { ImplFaultId, ImplVariantId, ProxyFaultId, ProxyVariantId } from './ids';
import { codePoints, COLLATOR, luhnDigit, UUID } from './rules';

export type Area =
  | 'error table'
  | 'paths'
  | 'parameters'
  | 'security'
  | 'descriptions: order'
  | 'descriptions: filter'
  | 'descriptions: totals and Link'
  | 'descriptions: X-Request-Id'
  | 'descriptions: CORS'
  | 'descriptions: records'
  | 'schemas'
  | 'media type'
  | 'HTTP'
  | 'Prefer';

export interface ProbeContext {
  url: string;
  key: string;
  req(path: string, options?: { key?: boolean; headers?: Record<string, string>; method?: string }): Promise<RawResponse>;
}

export interface FaultCase {
  id: ImplFaultId | ProxyFaultId;
  injection: 'impl' | 'proxy';
  area: Area;
  /** The sentence it breaks, quoted. */
  breaks: string;
  /** Where the sentence stands. */
  source: string;
  /** How the fault is injected, one line. */
  how: string;
  /** True when the target shows the fault (false on the clean target). */
  shows: (c: ProbeContext) => Promise<boolean>;
}

export interface VariantCase {
  id: ImplVariantId | ProxyVariantId;
  injection: 'impl' | 'proxy';
  /** What it does differently. */
  choice: string;
  /** The sentence that allows it, quoted. */
  allowedBy: string;
  shows: (c: ProbeContext) => Promise<boolean>;
}

export function probeContext(url: string, key: string): ProbeContext {
  return {
    url,
    key,
    req: (path, o = {}) =>
      rawRequest(url, { method: o.method, path, headers: { ...(o.key === false ? {} : { 'X-Api-Key': key }), ...(o.headers ?? {}) } }),
  };
}

// ---- probe helpers -----------------------------------------------------------------------------------------

type Row = Record<string, unknown> & { IdClient: string; FullName: string; PersonalId: string; Phone: string; Email: string };
type ExtRow = Row & {
  PersonalInfo: Record<string, string>;
  ContactInfo: { Email: string; Phone: string; Address: Record<string, string> };
  IdStaff: string | null;
  StaffName: string | null;
  IdLocation: string | null;
  Status: string;
};

async function results<T = Row>(c: ProbeContext, path: string): Promise<T[]> {
  const r = await c.req(path);
  const body = r.json as { Results?: T[] } | undefined;
  return Array.isArray(body?.Results) ? body.Results : [];
}
const extended = (c: ProbeContext, q = 'pageSize=100') => results<ExtRow>(c, `/api/v1/Client/Extended?${q}`);
async function total(c: ProbeContext, q: string): Promise<number> {
  return Number(header(await c.req(`/api/v1/Client/Extended?${q}`), 'x-total-count'));
}
const enc = encodeURIComponent;
async function status(c: ProbeContext, path: string, o?: Parameters<ProbeContext['req']>[1]): Promise<number> {
  return (await c.req(path, o)).status;
}
async function firstId(c: ProbeContext): Promise<string> {
  return (await results(c, '/api/v1/Client/Simple?pageSize=1'))[0]!.IdClient;
}
async function allSimple(c: ProbeContext): Promise<Row[]> {
  const out: Row[] = [];
  for (let page = 1; page < 50; page++) {
    const rows = await results(c, `/api/v1/Client/Simple?pageSize=100&page=${page}`);
    if (rows.length === 0) break;
    out.push(...rows);
  }
  return out;
}
function orderBroken(rows: Row[]): boolean {
  for (let i = 1; i < rows.length; i++) {
    const a = rows[i - 1]!;
    const b = rows[i]!;
    const byName = COLLATOR.compare(a.FullName, b.FullName);
    if (byName > 0 || (byName === 0 && a.IdClient.toLowerCase() > b.IdClient.toLowerCase())) return true;
  }
  return false;
}
const errorCode = (r: RawResponse) => (r.json as { Code?: string } | undefined)?.Code;
const errorMessage = (r: RawResponse) => (r.json as { Message?: string } | undefined)?.Message ?? '';
const UNKNOWN_UUID = '00000000-0000-4000-8000-000000000000';
const preflight = { method: 'OPTIONS', key: false, headers: { Origin: 'https://probe.example', 'Access-Control-Request-Method': 'GET' } };

// ---- the faults ---------------------------------------------------------------------------------------------

const ERR_TABLE = 'openapi.yaml info.description, ## Errors table';
const PAGING = 'openapi.yaml info.description, ## Lists: paging, order and totals';
const FILTER = 'openapi.yaml paths./api/v1/Client/Extended parameters.filter.description';
const LINK = 'openapi.yaml components.headers.Link.description';
const XRID = 'openapi.yaml components.headers.X-Request-Id.description';
const CORS = 'openapi.yaml info.description, ## CORS';
const DETAIL = 'openapi.yaml paths./api/v1/Client/Detail/{idClient}.get.description';
const EXT = 'openapi.yaml components.schemas.ClientExtended.description';

export const FAULTS: readonly FaultCase[] = [
  // -- the error table and the paths
  {
    id: 'err.unknown-path-code',
    injection: 'impl',
    area: 'error table',
    breaks: '| 404 | `NOT_FOUND` | no such path (paths are case-sensitive and exact, no trailing slash) |',
    source: ERR_TABLE,
    how: 'an unknown path is answered 404 with Code CLIENT_NOT_FOUND (a valid enum value)',
    shows: async (c) => errorCode(await c.req('/api/v1/Nothing')) === 'CLIENT_NOT_FOUND',
  },
  {
    id: 'path.case-insensitive',
    injection: 'impl',
    area: 'paths',
    breaks: 'no such path (paths are case-sensitive and exact, no trailing slash)',
    source: ERR_TABLE,
    how: 'the router compares paths case-insensitively (`/api/v1/client/simple` is served)',
    shows: async (c) => (await status(c, '/api/v1/client/simple')) === 200,
  },
  {
    id: 'path.trailing-slash',
    injection: 'impl',
    area: 'paths',
    breaks: "any request whose path is not one of this document's, such as `/api/v1/client/simple` or `/api/v1/Client/Simple/`, gets it.",
    source: 'openapi.yaml components.responses.NotFound.description',
    how: 'one trailing slash is stripped before routing',
    shows: async (c) => (await status(c, '/api/v1/Client/Simple/')) === 200,
  },
  {
    id: 'path.empty-segments',
    injection: 'impl',
    area: 'paths',
    breaks: 'no such path (paths are case-sensitive and exact, no trailing slash)',
    source: ERR_TABLE,
    how: 'runs of `/` are merged before routing (`/api/v1//Client/Simple` is served)',
    shows: async (c) => (await status(c, '/api/v1//Client/Simple')) === 200,
  },
  {
    id: 'path.dot-segments',
    injection: 'impl',
    area: 'paths',
    breaks: 'no such path (paths are case-sensitive and exact, no trailing slash)',
    source: ERR_TABLE,
    how: '`.` and `..` segments sent raw are resolved before routing (`/api/v1/Diagnostics/../Client/Simple` is served)',
    shows: async (c) => (await status(c, '/api/v1/Diagnostics/../Client/Simple')) === 200,
  },
  {
    id: 'path.matrix-params',
    injection: 'impl',
    area: 'paths',
    breaks: 'no such path (paths are case-sensitive and exact, no trailing slash)',
    source: ERR_TABLE,
    how: 'servlet-style `;name=value` path parameters are stripped (`/api/v1/Client/Simple;jsessionid=1` is served)',
    shows: async (c) => (await status(c, '/api/v1/Client/Simple;jsessionid=1')) === 200,
  },
  {
    id: 'path.detail-extra-segment',
    injection: 'impl',
    area: 'paths',
    breaks: 'no such path (paths are case-sensitive and exact, no trailing slash)',
    source: ERR_TABLE,
    how: 'the Detail template matches a prefix: `/api/v1/Client/Detail/{id}/anything` answers the client',
    shows: async (c) => (await status(c, `/api/v1/Client/Detail/${await firstId(c)}/x`)) === 200,
  },
  {
    id: 'path.suffix-extension',
    injection: 'impl',
    area: 'paths',
    breaks: 'no such path (paths are case-sensitive and exact, no trailing slash)',
    source: ERR_TABLE,
    how: 'a `.json`/`.xml` suffix is stripped (Spring/Rails suffix matching): `/api/v1/Client/Simple.json` is served',
    shows: async (c) => (await status(c, '/api/v1/Client/Simple.json')) === 200,
  },
  {
    id: 'err.405-no-allow',
    injection: 'impl',
    area: 'error table',
    breaks: '| 405 | `METHOD_NOT_ALLOWED` | any method but GET on a known path; the `Allow: GET` header is set |',
    source: ERR_TABLE,
    how: '405 answers carry no Allow header',
    shows: async (c) => {
      const r = await c.req('/api/v1/Client/Simple', { method: 'POST' });
      return r.status === 405 && header(r, 'allow') === undefined;
    },
  },
  {
    id: 'err.head-served',
    injection: 'impl',
    area: 'error table',
    breaks: '| 405 | `METHOD_NOT_ALLOWED` | any method but GET on a known path; the `Allow: GET` header is set |',
    source: ERR_TABLE,
    how: 'HEAD is answered like GET (200, no body), as HTTP stacks do by default',
    shows: async (c) => (await status(c, '/api/v1/Client/Simple', { method: 'HEAD' })) === 200,
  },
  {
    id: 'err.post-404',
    injection: 'impl',
    area: 'error table',
    breaks: '| 405 | `METHOD_NOT_ALLOWED` | any method but GET on a known path; the `Allow: GET` header is set |',
    source: ERR_TABLE,
    how: 'a method other than GET on a known path is 404 NOT_FOUND (a router that only knows GET routes)',
    shows: async (c) => (await status(c, '/api/v1/Diagnostics/Ping', { method: 'DELETE' })) === 404,
  },
  {
    id: 'err.options-204',
    injection: 'impl',
    area: 'error table',
    breaks: 'An `OPTIONS` that is not a preflight is a method like any other (`405`).',
    source: CORS,
    how: 'an OPTIONS without Origin / Access-Control-Request-Method is answered 204 with `Allow: GET, OPTIONS`',
    shows: async (c) => (await status(c, '/api/v1/Diagnostics/Ping', { method: 'OPTIONS' })) === 204,
  },
  {
    id: 'err.exception-code',
    injection: 'impl',
    area: 'error table',
    breaks: 'Always fails with `500` and `Code: TEST_EXCEPTION`',
    source: 'openapi.yaml paths./api/v1/Diagnostics/Exception.get.description',
    how: 'Diagnostics/Exception answers 500 with Code INTERNAL_ERROR (its Message unchanged)',
    shows: async (c) => errorCode(await c.req('/api/v1/Diagnostics/Exception')) === 'INTERNAL_ERROR',
  },
  {
    id: 'err.exception-message',
    injection: 'impl',
    area: 'error table',
    breaks: 'and exactly the `Message` of the `testException` example',
    source: 'openapi.yaml paths./api/v1/Diagnostics/Exception.get.description',
    how: 'the Message reads "This is a test exception from the /Exception endpoint" (one word added)',
    shows: async (c) => errorMessage(await c.req('/api/v1/Diagnostics/Exception')) !== 'This is a test exception from /Exception endpoint',
  },
  {
    id: 'err.not-found-text',
    injection: 'impl',
    area: 'error table',
    breaks: 'Every non-2xx response is an `ErrorDto` `{Code, Message}` in JSON:',
    source: ERR_TABLE,
    how: 'an unknown path is answered 404 `text/plain` "Not Found" (a framework default page)',
    shows: async (c) => !/json/.test(header(await c.req('/api/v1/Nothing'), 'content-type') ?? ''),
  },
  {
    id: 'err.extra-member',
    injection: 'impl',
    area: 'schemas',
    breaks: 'ErrorDto: `additionalProperties: false`',
    source: 'openapi.yaml components.schemas.ErrorDto',
    how: 'every error body also carries `"Status": <status>`',
    shows: async (c) => Object.keys((await c.req('/api/v1/Nothing')).json ?? {}).length > 2,
  },
  {
    id: 'err.message-maxlength',
    injection: 'impl',
    area: 'schemas',
    breaks: 'ErrorDto.Message: `maxLength: 500`',
    source: 'openapi.yaml components.schemas.ErrorDto.properties.Message',
    how: 'every 400 Message has a long hint appended (about 560 characters in all)',
    shows: async (c) => codePoints(errorMessage(await c.req('/api/v1/Client/Simple?pageSize=0'))) > 500,
  },
  {
    id: 'err.400-unnamed',
    injection: 'impl',
    area: 'error table',
    breaks: '| 400 | `VALIDATION_ERROR` | a parameter or header breaks this document; the Message names it |',
    source: ERR_TABLE,
    how: 'every 400 Message is "The request is not valid." (the parameter is not named)',
    shows: async (c) => !errorMessage(await c.req('/api/v1/Client/Simple?pageSize=0')).includes('pageSize'),
  },
  {
    id: 'err.400-wrong-code',
    injection: 'impl',
    area: 'error table',
    breaks: '| 400 | `VALIDATION_ERROR` | a parameter or header breaks this document; the Message names it |',
    source: ERR_TABLE,
    how: 'a 400 carries Code INTERNAL_ERROR (a valid enum value)',
    shows: async (c) => errorCode(await c.req('/api/v1/Client/Simple?pageSize=0')) === 'INTERNAL_ERROR',
  },
  {
    id: 'err.401-same-message',
    injection: 'impl',
    area: 'security',
    breaks:
      'A missing header and an unknown key are both answered with `401` and `Code: UNAUTHORIZED`; the `Message` tells the two cases apart.',
    source: 'openapi.yaml info.description, ## Authentication',
    how: 'both 401 cases say "Not authorised"',
    shows: async (c) =>
      errorMessage(await c.req('/api/v1/Client/Simple', { key: false })) ===
      errorMessage(await c.req('/api/v1/Client/Simple', { key: false, headers: { 'X-Api-Key': 'no-such-key' } })),
  },
  {
    id: 'err.detail-404-code',
    injection: 'impl',
    area: 'error table',
    breaks: '| 404 | `CLIENT_NOT_FOUND` | `Detail` of a well-formed uuid that no client has |',
    source: ERR_TABLE,
    how: 'an unknown client is 404 with Code NOT_FOUND',
    shows: async (c) => errorCode(await c.req(`/api/v1/Client/Detail/${UNKNOWN_UUID}`)) === 'NOT_FOUND',
  },
  {
    id: 'err.detail-404-message',
    injection: 'impl',
    area: 'error table',
    breaks: 'No client has this `idClient` (`CLIENT_NOT_FOUND`; the Message names the id).',
    source: "openapi.yaml paths./api/v1/Client/Detail/{idClient}.get.responses['404'].description",
    how: 'the CLIENT_NOT_FOUND Message is "There is no such client"',
    shows: async (c) => !errorMessage(await c.req(`/api/v1/Client/Detail/${UNKNOWN_UUID}`)).includes(UNKNOWN_UUID),
  },
  // -- parameters
  {
    id: 'page.zero-clamped',
    injection: 'impl',
    area: 'parameters',
    breaks:
      'Any other value (0, negative, a fraction, not a number, empty, above 100) is rejected with `400 VALIDATION_ERROR` naming the parameter: values are never silently clamped.',
    source: PAGING,
    how: '`page` 0 or negative is served as page 1 (Page echoes 1)',
    shows: async (c) => (await status(c, '/api/v1/Client/Simple?page=0')) === 200,
  },
  {
    id: 'page.max-rejected',
    injection: 'impl',
    area: 'parameters',
    breaks: 'page: `maximum: 2147483647` (inclusive)',
    source: 'openapi.yaml components.parameters.Page.schema',
    how: 'page 2147483647 is rejected (an exclusive bound)',
    shows: async (c) => (await status(c, '/api/v1/Client/Simple?page=2147483647')) === 400,
  },
  {
    id: 'page.int32-overflow',
    injection: 'impl',
    area: 'parameters',
    breaks: 'page: `maximum: 2147483647`',
    source: 'openapi.yaml components.parameters.Page.schema',
    how: 'page 2147483648 and above are accepted (an empty page)',
    shows: async (c) => (await status(c, '/api/v1/Client/Simple?page=2147483648')) === 200,
  },
  {
    id: 'page.fraction-truncated',
    injection: 'impl',
    area: 'parameters',
    breaks: 'Any other value (0, negative, a fraction, not a number, empty, above 100) is rejected with `400 VALIDATION_ERROR`',
    source: PAGING,
    how: '`page=2.5` is read as 2 (parseInt)',
    shows: async (c) => (await status(c, '/api/v1/Client/Simple?page=2.5')) === 200,
  },
  {
    id: 'page.empty-default',
    injection: 'impl',
    area: 'parameters',
    breaks: 'Any other value (0, negative, a fraction, not a number, empty, above 100) is rejected with `400 VALIDATION_ERROR`',
    source: PAGING,
    how: '`page=` (present, empty) is taken as absent: page 1',
    shows: async (c) => (await status(c, '/api/v1/Client/Simple?page=')) === 200,
  },
  {
    id: 'page.past-end-last',
    injection: 'impl',
    area: 'parameters',
    breaks: 'A page past the end is `200` with an empty `Results` array; `Page` and `PageSize` always echo the request.',
    source: PAGING,
    how: 'a page past the end returns the rows of the last page (Page still echoes the request)',
    shows: async (c) => (await results(c, '/api/v1/Client/Simple?page=100000')).length > 0,
  },
  {
    id: 'pageSize.clamped',
    injection: 'impl',
    area: 'parameters',
    breaks: 'Records per page, 1 to 100. Larger values are rejected, never clamped.',
    source: 'openapi.yaml components.parameters.PageSize.description',
    how: 'pageSize above 100 is served as 100',
    shows: async (c) => (await status(c, '/api/v1/Client/Simple?pageSize=101')) === 200,
  },
  {
    id: 'pageSize.100-rejected',
    injection: 'impl',
    area: 'parameters',
    breaks: 'pageSize: `maximum: 100` (inclusive)',
    source: 'openapi.yaml components.parameters.PageSize.schema',
    how: 'pageSize=100 is rejected (off by one)',
    shows: async (c) => (await status(c, '/api/v1/Client/Simple?pageSize=100')) === 400,
  },
  {
    id: 'pageSize.default-20',
    injection: 'impl',
    area: 'parameters',
    breaks: '`pageSize` an integer from 1 to 100 (default 25).',
    source: PAGING,
    how: 'without pageSize, pages hold 20 clients (and echo PageSize 20)',
    shows: async (c) => (await results(c, '/api/v1/Client/Simple')).length === 20,
  },
  {
    id: 'param.unknown-ignored',
    injection: 'impl',
    area: 'parameters',
    breaks: 'Query parameters not documented for an operation are rejected with `400`, so a typo such as `pagesize` is caught at once;',
    source: 'openapi.yaml info.description, ## CORS (last paragraph)',
    how: 'undocumented query parameters are ignored',
    shows: async (c) => (await status(c, '/api/v1/Client/Simple?pagesize=5')) === 200,
  },
  {
    id: 'param.repeated-first',
    injection: 'impl',
    area: 'parameters',
    breaks: 'so is a parameter given twice.',
    source: 'openapi.yaml info.description, ## CORS (last paragraph)',
    how: 'a repeated parameter is read from its first instance',
    shows: async (c) => (await status(c, '/api/v1/Client/Simple?page=1&page=2')) === 200,
  },
  {
    id: 'param.names-case-insensitive',
    injection: 'impl',
    area: 'parameters',
    breaks: 'Query parameters not documented for an operation are rejected with `400`',
    source: 'openapi.yaml info.description, ## CORS (last paragraph)',
    how: 'parameter names are matched case-insensitively (`PageSize=5` is taken as pageSize)',
    shows: async (c) => (await status(c, '/api/v1/Client/Simple?PageSize=5')) === 200,
  },
  {
    id: 'active.lenient',
    injection: 'impl',
    area: 'parameters',
    breaks: '`true` keeps active clients only, `false` inactive clients only. Any other value is `400`.',
    source: 'openapi.yaml paths./api/v1/Client/Extended parameters.active.description',
    how: '`1`, `yes`, `TRUE` (and `0`, `no`) are accepted as booleans',
    shows: async (c) => (await status(c, '/api/v1/Client/Extended?active=1')) === 200,
  },
  {
    id: 'active.false-ignored',
    injection: 'impl',
    area: 'parameters',
    breaks: '`true` keeps active clients only, `false` inactive clients only.',
    source: 'openapi.yaml paths./api/v1/Client/Extended parameters.active.description',
    how: '`active=false` filters nothing (a falsy check)',
    shows: async (c) => (await extended(c, 'pageSize=100&active=false')).some((r) => r.Status === 'Active'),
  },
  {
    id: 'filter.maxlength-off',
    injection: 'impl',
    area: 'parameters',
    breaks: 'filter: `maxLength: 200`',
    source: 'openapi.yaml paths./api/v1/Client/Extended parameters.filter.schema',
    how: 'a filter of 201 characters or more is accepted',
    shows: async (c) => (await status(c, `/api/v1/Client/Extended?filter=${'a'.repeat(201)}`)) === 200,
  },
  {
    id: 'filter.length-utf16',
    injection: 'impl',
    area: 'parameters',
    breaks: 'filter: `maxLength: 200` (JSON Schema counts characters, i.e. code points)',
    source: 'openapi.yaml paths./api/v1/Client/Extended parameters.filter.schema; JSON Schema validation §6.3.1',
    how: 'the length is counted in UTF-16 units: 150 astral characters (300 units) are rejected',
    shows: async (c) => (await status(c, `/api/v1/Client/Extended?filter=${enc('𝐀'.repeat(150))}`)) === 400,
  },
  {
    id: 'filter.not-trimmed',
    injection: 'impl',
    area: 'descriptions: filter',
    breaks: 'Full-text search. Trimmed; empty means no filter;',
    source: FILTER,
    how: 'the term is not trimmed (` oberg ` must match with its spaces)',
    shows: async (c) => (await total(c, `filter=${enc(' oberg ')}`)) !== (await total(c, 'filter=oberg')),
  },
  {
    id: 'filter.runs-kept',
    injection: 'impl',
    area: 'descriptions: filter',
    breaks: 'inside the term every run of white space counts as one space.',
    source: FILTER,
    how: 'runs of white space inside the term are kept as they are',
    shows: async (c) => (await total(c, `filter=${enc('asa  oberg')}`)) !== (await total(c, `filter=${enc('asa oberg')}`)),
  },
  {
    id: 'filter.whitespace-ecmascript',
    injection: 'impl',
    area: 'descriptions: filter',
    breaks: 'White space is exactly the characters with the Unicode `White_Space` property',
    source: FILTER,
    how: '"white space" in filter is ECMAScript \\s (U+FEFF counts as white space, U+0085 does not)',
    shows: async (c) => (await total(c, `filter=${enc('asa\uFEFFoberg')}`)) === (await total(c, `filter=${enc('asa oberg')}`)),
  },
  {
    id: 'filter.accents-kept',
    injection: 'impl',
    area: 'descriptions: filter',
    breaks: 'Folding is exactly: Unicode canonical decomposition (NFD), every combining mark (category M) removed,',
    source: FILTER,
    how: 'folding skips NFD and mark removal (lower case and the letter table only)',
    shows: async (c) => (await total(c, `filter=${enc('asa oberg')}`)) !== (await total(c, `filter=${enc('Åsa Öberg')}`)),
  },
  {
    id: 'filter.case-sensitive',
    injection: 'impl',
    area: 'descriptions: filter',
    breaks: 'lower case (Unicode default case mapping),',
    source: FILTER,
    how: 'folding skips the lower-case step',
    shows: async (c) => (await total(c, `filter=${enc('asa oberg')}`)) !== (await total(c, `filter=${enc('ASA OBERG')}`)),
  },
  {
    id: 'filter.no-letter-table',
    injection: 'impl',
    area: 'descriptions: filter',
    breaks: 'then these letters replaced: `ø`→`o`, `æ`→`ae`, `ß`→`ss`, `ł`→`l`, `đ`→`d`, `œ`→`oe`, `ð`→`d`, `þ`→`th`, `ı`→`i`.',
    source: FILTER,
    how: 'folding skips the letter table',
    shows: async (c) => (await total(c, `filter=${enc('ß')}`)) !== (await total(c, 'filter=ss')),
  },
  {
    id: 'filter.over-folding',
    injection: 'impl',
    area: 'descriptions: filter',
    breaks: 'any other letter (e.g. `ŋ`, `ħ`, `ə`) matches only itself and its own case forms.',
    source: FILTER,
    how: 'folding also maps ŋ→n, ħ→h, ə→e (a transliteration library)',
    shows: async (c) => (await total(c, `filter=${enc('ŋ')}`)) === (await total(c, 'filter=n')),
  },
  {
    id: 'filter.email-not-searched',
    injection: 'impl',
    area: 'descriptions: filter',
    breaks:
      'A client matches when the folded term is a substring of the folded `FullName`, `PersonalId`, `Email` or `Phone` (each field on its own).',
    source: FILTER,
    how: 'Email is not searched',
    shows: async (c) => (await total(c, `filter=${enc((await extended(c, 'pageSize=1'))[0]!.Email)}`)) === 0,
  },
  {
    id: 'filter.city-searched',
    injection: 'impl',
    area: 'descriptions: filter',
    breaks:
      'A client matches when the folded term is a substring of the folded `FullName`, `PersonalId`, `Email` or `Phone` (each field on its own).',
    source: FILTER,
    how: 'ContactInfo.Address.City is searched too',
    shows: async (c) => (await total(c, `filter=${enc((await extended(c, 'pageSize=1'))[0]!.ContactInfo.Address.City!)}`)) > 0,
  },
  {
    id: 'filter.across-fields',
    injection: 'impl',
    area: 'descriptions: filter',
    breaks: '(each field on its own)',
    source: FILTER,
    how: 'the four fields are searched as one string joined with spaces (a term may span two)',
    shows: async (c) => {
      const r = (await extended(c, 'pageSize=1'))[0]!;
      return (await total(c, `filter=${enc(`${r.FullName} ${r.PersonalId}`)}`)) > 0;
    },
  },
  {
    id: 'filter.phone-digits-off',
    injection: 'impl',
    area: 'descriptions: filter',
    breaks:
      "A term made only of digits, spaces, `+`, `-` and brackets, with at least one digit, also matches when its digits are a substring of the phone number's digits",
    source: FILTER,
    how: 'the phone-digit rule is missing',
    shows: async (c) => {
      const r = (await extended(c, 'pageSize=100')).find((x) => / \d+ /.test(x.Phone))!;
      return (await total(c, `filter=${r.Phone.replace(/\D/g, '').slice(2, 9)}`)) === 0;
    },
  },
  {
    id: 'filter.phone-digits-any-term',
    injection: 'impl',
    area: 'descriptions: filter',
    breaks: 'A term made only of digits, spaces, `+`, `-` and brackets, with at least one digit, also matches',
    source: FILTER,
    how: 'the phone-digit rule also applies to terms with letters (`x7012345`)',
    shows: async (c) => {
      const r = (await extended(c, 'pageSize=100')).find((x) => / \d+ /.test(x.Phone))!;
      return (await total(c, `filter=x${r.Phone.replace(/\D/g, '').slice(2, 9)}`)) > 0;
    },
  },
  {
    id: 'filter.plus-literal',
    injection: 'impl',
    area: 'descriptions: filter',
    breaks: 'Every character is plain text: `+` and `%20` both mean a space;',
    source: FILTER,
    how: '`+` in the filter value is kept as a literal plus',
    shows: async (c) => (await total(c, 'filter=asa+oberg')) !== (await total(c, 'filter=asa%20oberg')),
  },
  {
    id: 'filters.active-dropped-with-staff',
    injection: 'impl',
    area: 'descriptions: filter',
    breaks: 'All given filters combine with AND; `X-Total-Count` counts the clients that match them all.',
    source: 'openapi.yaml paths./api/v1/Client/Extended.get.description',
    how: 'when idStaff is given, active is ignored',
    shows: async (c) => {
      const r = (await extended(c, 'pageSize=100&active=false')).find((x) => x.IdStaff !== null)!;
      return (await total(c, `idStaff=${r.IdStaff}&active=true`)) === (await total(c, `idStaff=${r.IdStaff}`));
    },
  },
  {
    id: 'idStaff.case-sensitive',
    injection: 'impl',
    area: 'parameters',
    breaks:
      'Uuids are compared case-insensitively (RFC 9562 §4: UUIDs are case-insensitive on input), so the same uuid in upper case selects the same clients.',
    source: 'openapi.yaml paths./api/v1/Client/Extended parameters.idStaff.description',
    how: 'idStaff is compared as given (upper case selects nobody)',
    shows: async (c) => {
      const id = (await extended(c)).find((x) => x.IdStaff !== null)!.IdStaff!;
      return (await total(c, `idStaff=${id.toUpperCase()}`)) !== (await total(c, `idStaff=${id}`));
    },
  },
  {
    id: 'idStaff.not-validated',
    injection: 'impl',
    area: 'parameters',
    breaks: 'idStaff: `format: uuid`',
    source: 'openapi.yaml paths./api/v1/Client/Extended parameters.idStaff.schema',
    how: 'idStaff is not validated (a non-uuid matches nobody, 200)',
    shows: async (c) => (await status(c, '/api/v1/Client/Extended?idStaff=not-a-uuid')) === 200,
  },
  {
    id: 'idStaff.versions-1-5',
    injection: 'impl',
    area: 'parameters',
    breaks: 'idStaff/idLocation: `format: uuid` (RFC 9562: versions 1 to 8, nil and max are all uuids)',
    source: 'openapi.yaml paths./api/v1/Client/Extended parameters.idStaff.schema; RFC 9562 §4',
    how: "idStaff and idLocation must have version 1-5 and variant 10 (an RFC 4122-era regex): the data's v8 ids are 400",
    shows: async (c) => {
      const id = (await extended(c)).find((x) => x.IdStaff !== null)!.IdStaff!;
      return (await status(c, `/api/v1/Client/Extended?idStaff=${id}`)) === 400;
    },
  },
  {
    id: 'idLocation.unknown-400',
    injection: 'impl',
    area: 'parameters',
    breaks: 'Only clients of this location. An unknown uuid matches no client.',
    source: 'openapi.yaml paths./api/v1/Client/Extended parameters.idLocation.description',
    how: 'a well-formed idLocation that no location has is 400 "no such location"',
    shows: async (c) => (await status(c, `/api/v1/Client/Extended?idLocation=${UNKNOWN_UUID}`)) === 400,
  },
  {
    id: 'detail.case-sensitive',
    injection: 'impl',
    area: 'parameters',
    breaks:
      'Uuids are compared case-insensitively (RFC 9562 §4: UUIDs are case-insensitive on input), so the same uuid in upper case finds the same client.',
    source: 'openapi.yaml paths./api/v1/Client/Detail/{idClient} parameters.idClient.description',
    how: 'idClient is looked up as given (upper case is 404)',
    shows: async (c) => (await status(c, `/api/v1/Client/Detail/${(await firstId(c)).toUpperCase()}`)) === 404,
  },
  {
    id: 'detail.non-uuid-404',
    injection: 'impl',
    area: 'descriptions: records',
    breaks: 'A value that is not a uuid is `400`; a uuid that no client has is `404 CLIENT_NOT_FOUND`.',
    source: DETAIL,
    how: 'a value that is not a uuid is looked up anyway: 404 CLIENT_NOT_FOUND',
    shows: async (c) => (await status(c, '/api/v1/Client/Detail/not-a-uuid')) === 404,
  },
  {
    id: 'detail.uuid-no-dashes',
    injection: 'impl',
    area: 'parameters',
    breaks: 'idClient: `format: uuid` (the RFC 9562 string form, with its dashes)',
    source: 'openapi.yaml paths./api/v1/Client/Detail/{idClient} parameters.idClient.schema',
    how: 'a 32-digit hex id without dashes is accepted and finds the client (a lenient uuid parser)',
    shows: async (c) => (await status(c, `/api/v1/Client/Detail/${(await firstId(c)).replace(/-/g, '')}`)) === 200,
  },
  // -- security
  {
    id: 'auth.ping-key-required',
    injection: 'impl',
    area: 'security',
    breaks: 'Public; `X-Api-Key` is not required. Always answers the JSON string `"Pong"`.',
    source: 'openapi.yaml paths./api/v1/Diagnostics/Ping.get.description',
    how: 'Ping requires the key (401 without it)',
    shows: async (c) => (await status(c, '/api/v1/Diagnostics/Ping', { key: false })) === 401,
  },
  {
    id: 'auth.detail-public',
    injection: 'impl',
    area: 'security',
    breaks: 'Every `/api/v1/Client/*` operation requires the `X-Api-Key` request header.',
    source: 'openapi.yaml info.description, ## Authentication',
    how: 'Detail answers without a key',
    shows: async (c) => (await status(c, `/api/v1/Client/Detail/${await firstId(c)}`, { key: false })) === 200,
  },
  {
    id: 'auth.cookie',
    injection: 'impl',
    area: 'security',
    breaks: 'ApiKeyAuth: `type: apiKey, in: header, name: X-Api-Key`',
    source: 'openapi.yaml components.securitySchemes.ApiKeyAuth',
    how: 'the key is also taken from a `Cookie: X-Api-Key=…`',
    shows: async (c) => (await status(c, '/api/v1/Client/Simple', { key: false, headers: { Cookie: `X-Api-Key=${c.key}` } })) === 200,
  },
  {
    id: 'auth.bearer',
    injection: 'impl',
    area: 'security',
    breaks: 'ApiKeyAuth: `type: apiKey, in: header, name: X-Api-Key`',
    source: 'openapi.yaml components.securitySchemes.ApiKeyAuth',
    how: 'the key is also taken from `Authorization: Bearer …`',
    shows: async (c) => (await status(c, '/api/v1/Client/Simple', { key: false, headers: { Authorization: `Bearer ${c.key}` } })) === 200,
  },
  {
    id: 'auth.prefix',
    injection: 'impl',
    area: 'security',
    breaks: 'A missing header and an unknown key are both answered with `401` and `Code: UNAUTHORIZED`',
    source: 'openapi.yaml info.description, ## Authentication',
    how: 'a key that starts with an accepted key is accepted (a startsWith comparison)',
    shows: async (c) => (await status(c, '/api/v1/Client/Simple', { key: false, headers: { 'X-Api-Key': `${c.key}x` } })) === 200,
  },
  // -- order
  {
    id: 'order.ordinal',
    injection: 'impl',
    area: 'descriptions: order',
    breaks:
      'Clients are ordered by `FullName` (case- and accent-insensitive, English collation: the Unicode Collation Algorithm for `en` at primary strength',
    source: PAGING,
    how: 'FullName is compared by UTF-16 code units',
    shows: async (c) => orderBroken(await allSimple(c)),
  },
  {
    id: 'order.swedish',
    injection: 'impl',
    area: 'descriptions: order',
    breaks:
      "English collation: the Unicode Collation Algorithm for `en` at primary strength, as `Intl.Collator('en', {sensitivity: 'base'})` compares",
    source: PAGING,
    how: 'the Swedish collation (Å, Ä, Ö after Z) at primary strength',
    shows: async (c) => orderBroken(await allSimple(c)),
  },
  {
    id: 'order.ties-desc',
    injection: 'impl',
    area: 'descriptions: order',
    breaks: 'ties (names equal at that strength) broken by `IdClient` in lower case, compared character by character.',
    source: PAGING,
    how: 'ties are broken by IdClient descending',
    shows: async (c) => orderBroken(await allSimple(c)),
  },
  {
    id: 'order.extended-ties',
    injection: 'impl',
    area: 'descriptions: order',
    breaks: '`Simple` and `Extended` use the same order, so a client has the same position in both.',
    source: PAGING,
    how: 'Extended breaks ties by PersonalId',
    shows: async (c) => {
      const s = (await results(c, '/api/v1/Client/Simple?pageSize=100')).map((r) => r.IdClient).join();
      const e = (await extended(c)).map((r) => r.IdClient).join();
      return s !== e;
    },
  },
  // -- totals and Link
  {
    id: 'total.page-length',
    injection: 'impl',
    area: 'descriptions: totals and Link',
    breaks: 'Number of clients matching the request, over all pages.',
    source: 'openapi.yaml components.headers.X-Total-Count.description',
    how: 'X-Total-Count is the number of rows on the page',
    shows: async (c) => header(await c.req('/api/v1/Client/Simple?pageSize=2'), 'x-total-count') === '2',
  },
  {
    id: 'total.ignores-filters',
    injection: 'impl',
    area: 'descriptions: totals and Link',
    breaks: 'All given filters combine with AND; `X-Total-Count` counts the clients that match them all.',
    source: 'openapi.yaml paths./api/v1/Client/Extended.get.description',
    how: "Extended's X-Total-Count counts all clients, filters or not",
    shows: async (c) => (await total(c, 'active=true')) === (await total(c, 'pageSize=1')),
  },
  {
    id: 'total.absent-when-zero',
    injection: 'impl',
    area: 'descriptions: totals and Link',
    breaks: 'X-Total-Count: `required: true`',
    source: 'openapi.yaml components.headers.X-Total-Count',
    how: 'X-Total-Count is left out when nothing matches',
    shows: async (c) => header(await c.req('/api/v1/Client/Extended?filter=zzqqzzqq'), 'x-total-count') === undefined,
  },
  {
    id: 'link.prev-past-end',
    injection: 'impl',
    area: 'descriptions: totals and Link',
    breaks: '`prev` is present when `page > 1` and names page `min(page - 1, last)`;',
    source: LINK,
    how: 'prev names page - 1 also past the end',
    shows: async (c) => linkPage(await c.req('/api/v1/Client/Simple?page=1000&pageSize=100'), 'prev') === 999,
  },
  {
    id: 'link.last-zero',
    injection: 'impl',
    area: 'descriptions: totals and Link',
    breaks: 'With `last = max(1, ceil(X-Total-Count / pageSize))`: `first` (page 1) and `last` are always present, also on an empty list;',
    source: LINK,
    how: 'last = ceil(total / pageSize), so an empty list links last to page 0',
    shows: async (c) => linkPage(await c.req('/api/v1/Client/Extended?filter=zzqqzzqq'), 'last') === 0,
  },
  {
    id: 'link.next-on-last',
    injection: 'impl',
    area: 'descriptions: totals and Link',
    breaks: '`next` is present when `page < last` and names page `page + 1`.',
    source: LINK,
    how: 'next is also present on the last page',
    shows: async (c) => {
      const t = Number(header(await c.req('/api/v1/Client/Simple?pageSize=100'), 'x-total-count'));
      return linkPage(await c.req(`/api/v1/Client/Simple?pageSize=100&page=${Math.max(1, Math.ceil(t / 100))}`), 'next') !== undefined;
    },
  },
  {
    id: 'link.no-first-on-page1',
    injection: 'impl',
    area: 'descriptions: totals and Link',
    breaks: '`first` (page 1) and `last` are always present, also on an empty list;',
    source: LINK,
    how: 'first is left out on page 1',
    shows: async (c) => linkPage(await c.req('/api/v1/Client/Simple'), 'first') === undefined,
  },
  {
    id: 'link.drops-filters',
    injection: 'impl',
    area: 'descriptions: totals and Link',
    breaks:
      'Each target is the same operation with that `page`, the same `pageSize` and every other query parameter of the request with the same value, so following it gives exactly that page.',
    source: LINK,
    how: 'targets keep page and pageSize only (filters dropped)',
    shows: async (c) => !links(await c.req('/api/v1/Client/Extended?filter=a&pageSize=5')).some((l) => l.target.includes('filter=')),
  },
  {
    id: 'link.absolute',
    injection: 'impl',
    area: 'descriptions: totals and Link',
    breaks: 'RFC 8288 page links as relative references',
    source: LINK,
    how: 'targets are absolute URIs built from the Host header',
    shows: async (c) => links(await c.req('/api/v1/Client/Simple')).some((l) => /^https?:/.test(l.target)),
  },
  {
    id: 'link.other-operation',
    injection: 'impl',
    area: 'descriptions: totals and Link',
    breaks: 'Each target is the same operation with that `page`',
    source: LINK,
    how: "Extended's links point at /api/v1/Client/Simple",
    shows: async (c) => links(await c.req('/api/v1/Client/Extended')).some((l) => l.target.includes('/Client/Simple')),
  },
  {
    id: 'link.rel-previous',
    injection: 'impl',
    area: 'descriptions: totals and Link',
    breaks: 'an RFC 8288 `Link` header carries `first`, `prev`, `next` and `last` page links',
    source: PAGING,
    how: 'the relation type is `previous` instead of `prev`',
    shows: async (c) => links(await c.req('/api/v1/Client/Simple?page=2')).some((l) => l.rels.includes('previous')),
  },
  {
    id: 'link.unencoded',
    injection: 'impl',
    area: 'descriptions: totals and Link',
    breaks:
      'A long non-ASCII `filter` makes a long header (four percent-encoded copies of it). / RFC 8288 §3: the target is a URI-Reference (RFC 3986: no raw space)',
    source: `${LINK}; RFC 8288 §3; RFC 3986 §4.1`,
    how: 'printable ASCII in the copied parameters is not percent-encoded (a space stays a space)',
    shows: async (c) => (header(await c.req('/api/v1/Client/Extended?filter=a%20b'), 'link') ?? '').includes('filter=a b'),
  },
  // -- X-Request-Id
  {
    id: 'xrid.never-echoed',
    injection: 'impl',
    area: 'descriptions: X-Request-Id',
    breaks:
      "The request's `X-Request-Id` is echoed unchanged when it is 1 to 128 characters of letters `A-Z a-z`, digits, `_`, `.`, `:`, `@` and `-`;",
    source: XRID,
    how: 'every response carries a generated id',
    shows: async (c) =>
      header(await c.req('/api/v1/Diagnostics/Ping', { headers: { 'X-Request-Id': 'probe-1' } }), 'x-request-id') !== 'probe-1',
  },
  {
    id: 'xrid.echo-any',
    injection: 'impl',
    area: 'descriptions: X-Request-Id',
    breaks: 'otherwise (absent, empty, longer, other characters) the server sends an id it generated.',
    source: XRID,
    how: 'any printable ASCII id of at most 128 characters is echoed (`a/b+c` too)',
    shows: async (c) =>
      header(await c.req('/api/v1/Diagnostics/Ping', { headers: { 'X-Request-Id': 'a/b+c' } }), 'x-request-id') === 'a/b+c',
  },
  {
    id: 'xrid.missing-on-errors',
    injection: 'impl',
    area: 'descriptions: X-Request-Id',
    breaks: 'On every response.',
    source: XRID,
    how: 'error responses carry no X-Request-Id',
    shows: async (c) => header(await c.req('/api/v1/Nothing'), 'x-request-id') === undefined,
  },
  {
    id: 'xrid.lowercased',
    injection: 'impl',
    area: 'descriptions: X-Request-Id',
    breaks: "The request's `X-Request-Id` is echoed unchanged",
    source: XRID,
    how: 'the echoed id is lower-cased',
    shows: async (c) =>
      header(await c.req('/api/v1/Diagnostics/Ping', { headers: { 'X-Request-Id': 'Probe-AB' } }), 'x-request-id') === 'probe-ab',
  },
  {
    id: 'xrid.127-max',
    injection: 'impl',
    area: 'descriptions: X-Request-Id',
    breaks: 'when it is 1 to 128 characters',
    source: XRID,
    how: 'an id of exactly 128 characters is replaced (off by one)',
    shows: async (c) => {
      const id = 'A'.repeat(128);
      return header(await c.req('/api/v1/Diagnostics/Ping', { headers: { 'X-Request-Id': id } }), 'x-request-id') !== id;
    },
  },
  // -- CORS
  {
    id: 'cors.expose-no-link',
    injection: 'impl',
    area: 'descriptions: CORS',
    breaks: 'and `Access-Control-Expose-Headers` naming `X-Total-Count`, `Link` and `X-Request-Id`.',
    source: CORS,
    how: 'the expose list leaves Link out',
    shows: async (c) =>
      !/\blink\b/i.test(
        header(await c.req('/api/v1/Client/Simple', { headers: { Origin: 'https://probe.example' } }), 'access-control-expose-headers') ??
          '',
      ),
  },
  {
    id: 'cors.no-acao-on-errors',
    injection: 'impl',
    area: 'descriptions: CORS',
    breaks: 'A request with an `Origin` the server accepts (any, by default) gets `Access-Control-Allow-Origin`',
    source: CORS,
    how: 'error responses carry no CORS headers (a browser cannot read the ErrorDto)',
    shows: async (c) =>
      header(
        await c.req('/api/v1/Client/Simple', { key: false, headers: { Origin: 'https://probe.example' } }),
        'access-control-allow-origin',
      ) === undefined,
  },
  {
    id: 'cors.preflight-needs-key',
    injection: 'impl',
    area: 'descriptions: CORS',
    breaks:
      'A preflight (`OPTIONS` with `Origin` and `Access-Control-Request-Method: GET`) on any path of this document is answered with a 2xx status,',
    source: CORS,
    how: 'a preflight to a Client path is authenticated first (401: browsers never send the key on a preflight)',
    shows: async (c) => (await status(c, '/api/v1/Client/Simple', preflight)) === 401,
  },
  {
    id: 'cors.preflight-no-x-api-key',
    injection: 'impl',
    area: 'descriptions: CORS',
    breaks: '`Access-Control-Allow-Methods` including `GET` and `Access-Control-Allow-Headers` including `X-Api-Key`.',
    source: CORS,
    how: 'Access-Control-Allow-Headers names content-type, prefer and x-request-id only',
    shows: async (c) => !/x-api-key/i.test(header(await c.req('/api/v1/Client/Simple', preflight), 'access-control-allow-headers') ?? ''),
  },
  // -- records and list/Detail agreement
  {
    id: 'detail.staff-name',
    injection: 'impl',
    area: 'descriptions: records',
    breaks: '`Staff.IdStaff` and `Staff.FullName` are `IdStaff` and `StaffName`,',
    source: DETAIL,
    how: 'Detail\'s Staff.FullName is prefixed "Dr. "',
    shows: async (c) => {
      const r = (await extended(c)).find((x) => x.IdStaff !== null)!;
      const d = (await c.req(`/api/v1/Client/Detail/${r.IdClient}`)).json as { Staff: { FullName: string } };
      return d.Staff.FullName !== r.StaffName;
    },
  },
  {
    id: 'detail.status-flipped',
    injection: 'impl',
    area: 'descriptions: records',
    breaks: '`PersonalInfo`, `ContactInfo` and `Status` equal those of `Extended` (as JSON values: member order is free);',
    source: DETAIL,
    how: "Detail's Status is the opposite of the list's for one client in seven",
    shows: async (c) => {
      for (const r of (await extended(c, 'pageSize=40')).slice(0, 40)) {
        const d = (await c.req(`/api/v1/Client/Detail/${r.IdClient}`)).json as { Status: string };
        if (d.Status !== r.Status) return true;
      }
      return false;
    },
  },
  {
    id: 'detail.location-null',
    injection: 'impl',
    area: 'descriptions: records',
    breaks: "and `Staff` or `Location` is null exactly when the list's id is.",
    source: DETAIL,
    how: "Detail's Location is null for one client in five that has one",
    shows: async (c) => {
      for (const r of (await extended(c, 'pageSize=40')).filter((x) => x.IdLocation !== null)) {
        const d = (await c.req(`/api/v1/Client/Detail/${r.IdClient}`)).json as { Location: unknown };
        if (d.Location === null) return true;
      }
      return false;
    },
  },
  {
    id: 'extended.staffname-placeholder',
    injection: 'impl',
    area: 'descriptions: records',
    breaks: '`StaffName` is null exactly when `IdStaff` is,',
    source: EXT,
    how: 'StaffName is "Unassigned" when IdStaff is null',
    shows: async (c) => (await extended(c)).some((r) => r.IdStaff === null && r.StaffName !== null),
  },
  {
    id: 'extended.phone-differs',
    injection: 'impl',
    area: 'descriptions: records',
    breaks: '`Email` and `Phone` those of `ContactInfo`.',
    source: EXT,
    how: "Extended's top-level Phone is written without spaces (ContactInfo.Phone keeps them)",
    shows: async (c) => (await extended(c)).some((r) => r.Phone !== r.ContactInfo.Phone),
  },
  {
    id: 'record.luhn',
    injection: 'impl',
    area: 'descriptions: records',
    breaks:
      '`C` the Luhn check digit of `YYMMDDNNN` (digits weighted 2, 1, 2, … from the left, products above 9 reduced by 9, `C` brings the sum to a multiple of 10).',
    source: 'openapi.yaml components.schemas.PersonalId.description',
    how: 'one client in nine has its check digit plus one (mod 10), in every view',
    shows: async (c) =>
      (await results(c, '/api/v1/Client/Simple?pageSize=100')).some(
        (r) => Number(r.PersonalId[12]) !== luhnDigit(r.PersonalId.slice(2, 8) + r.PersonalId.slice(9, 12)),
      ),
  },
  {
    id: 'record.fullname-two-spaces',
    injection: 'impl',
    area: 'descriptions: records',
    breaks: 'In `PersonalInfo`, and in the lists beside it: exactly `FirstName`, one space, `LastName` of that `PersonalInfo`.',
    source: 'openapi.yaml components.schemas.FullName.description',
    how: 'one client in eleven has two spaces between the names, in every view',
    shows: async (c) => (await extended(c)).some((r) => r.FullName !== `${r.PersonalInfo.FirstName} ${r.PersonalInfo.LastName}`),
  },
  {
    id: 'record.pid-dob',
    injection: 'impl',
    area: 'descriptions: records',
    breaks: '`YYYYMMDD` is `PersonalInfo.DateOfBirth` without its dashes',
    source: 'openapi.yaml components.schemas.PersonalId.description',
    how: 'one client in thirteen has DateOfBirth one day off its PersonalId',
    shows: async (c) => (await extended(c)).some((r) => r.PersonalId.slice(0, 8) !== r.PersonalInfo.DateOfBirth!.replace(/-/g, '')),
  },
  {
    id: 'record.pid-duplicate',
    injection: 'impl',
    area: 'descriptions: records',
    breaks: 'Unique per client.',
    source: 'openapi.yaml components.schemas.PersonalId.description',
    how: 'the first two clients in order share a PersonalId (and DateOfBirth)',
    shows: async (c) => {
      const ids = (await results(c, '/api/v1/Client/Simple?pageSize=5')).map((r) => r.PersonalId);
      return new Set(ids).size !== ids.length;
    },
  },
  // -- response schemas
  {
    id: 'schema.page-string',
    injection: 'impl',
    area: 'schemas',
    breaks: 'PageNumber: `type: integer`',
    source: 'openapi.yaml components.schemas.PageNumber',
    how: 'Page is sent as a JSON string ("1")',
    shows: async (c) => typeof ((await c.req('/api/v1/Client/Simple')).json as { Page: unknown }).Page === 'string',
  },
  {
    id: 'schema.simple-extra',
    injection: 'impl',
    area: 'schemas',
    breaks: 'ClientSimple: `additionalProperties: false`',
    source: 'openapi.yaml components.schemas.ClientSimple',
    how: 'Simple rows also carry Status',
    shows: async (c) => Object.keys((await results(c, '/api/v1/Client/Simple?pageSize=1'))[0]!).length > 5,
  },
  {
    id: 'schema.staff-omitted',
    injection: 'impl',
    area: 'schemas',
    breaks: 'ClientDetail: `required: [IdClient, PersonalInfo, ContactInfo, Staff, Location, Insurance, Medical, Status]`',
    source: 'openapi.yaml components.schemas.ClientDetail',
    how: 'Staff is left out of Detail when it is null (a serializer that skips nulls)',
    shows: async (c) => {
      const r = (await extended(c)).find((x) => x.IdStaff === null)!;
      return !('Staff' in ((await c.req(`/api/v1/Client/Detail/${r.IdClient}`)).json as object));
    },
  },
  {
    id: 'schema.email-format',
    injection: 'impl',
    area: 'schemas',
    breaks: 'Email: `format: email`',
    source: 'openapi.yaml components.schemas.Email',
    how: 'one client in ten has "name(at)example.net", in every view',
    shows: async (c) => (await results(c, '/api/v1/Client/Simple?pageSize=100')).some((r) => !r.Email.includes('@')),
  },
  {
    id: 'schema.phone-national',
    injection: 'impl',
    area: 'schemas',
    breaks: "Phone: `pattern: '^\\+[0-9 ()-]{6,24}$'` (International format with spaces)",
    source: 'openapi.yaml components.schemas.Phone',
    how: 'one client in eight has a national number ("070 123 45 67"), in every view',
    shows: async (c) => (await results(c, '/api/v1/Client/Simple?pageSize=100')).some((r) => !r.Phone.startsWith('+')),
  },
  {
    id: 'schema.postal-no-space',
    injection: 'impl',
    area: 'schemas',
    breaks: "Address.PostalCode: `pattern: '^\\d{3} \\d{2}$'`",
    source: 'openapi.yaml components.schemas.Address',
    how: 'clients\' PostalCode is written without its space ("75320")',
    shows: async (c) => (await extended(c, 'pageSize=1')).some((r) => !r.ContactInfo.Address.PostalCode!.includes(' ')),
  },
  {
    id: 'schema.allergies-51',
    injection: 'impl',
    area: 'schemas',
    breaks: 'Medical.Allergies: `maxItems: 50`',
    source: 'openapi.yaml components.schemas.Medical',
    how: 'the first client in order has 51 allergies',
    shows: async (c) =>
      ((await c.req(`/api/v1/Client/Detail/${await firstId(c)}`)).json as { Medical: { Allergies: unknown[] } }).Medical.Allergies.length >
      50,
  },
  {
    id: 'schema.gender-extra',
    injection: 'impl',
    area: 'schemas',
    breaks: 'PersonalInfo.Gender: `enum: [Male, Female, Other, Unknown]`',
    source: 'openapi.yaml components.schemas.PersonalInfo',
    how: 'one client in six has Gender "Nonbinary", in every view',
    shows: async (c) => (await extended(c)).some((r) => !['Male', 'Female', 'Other', 'Unknown'].includes(r.PersonalInfo.Gender!)),
  },
  {
    id: 'schema.status-lowercase',
    injection: 'impl',
    area: 'schemas',
    breaks: 'ClientStatus: `enum: [Active, Inactive]`',
    source: 'openapi.yaml components.schemas.ClientStatus',
    how: 'Status is written in lower case in Extended and Detail (the filter still works)',
    shows: async (c) => (await extended(c)).some((r) => r.Status !== 'Active' && r.Status !== 'Inactive'),
  },
  {
    id: 'schema.fullname-121',
    injection: 'impl',
    area: 'schemas',
    breaks: 'FullName: `maxLength: 120` (FirstName and LastName each within their 60)',
    source: 'openapi.yaml components.schemas.FullName',
    how: 'the first client in order has a 60-letter FirstName and a 60-letter LastName: FullName 121',
    shows: async (c) => codePoints((await results(c, '/api/v1/Client/Simple?pageSize=1'))[0]!.FullName) > 120,
  },
  {
    id: 'schema.idstaff-not-uuid',
    injection: 'impl',
    area: 'schemas',
    breaks: 'ClientExtended.IdStaff: `type: [string, null], format: uuid`',
    source: 'openapi.yaml components.schemas.ClientExtended.properties.IdStaff',
    how: 'staff ids are "staff-xxxxxx", in every view',
    shows: async (c) => (await extended(c)).some((r) => r.IdStaff !== null && !UUID.test(r.IdStaff)),
  },
  {
    id: 'schema.pong-object',
    injection: 'impl',
    area: 'schemas',
    breaks: 'Always answers the JSON string `"Pong"`.',
    source: 'openapi.yaml paths./api/v1/Diagnostics/Ping.get.description',
    how: 'Ping answers {"Message": "Pong"}',
    shows: async (c) => (await c.req('/api/v1/Diagnostics/Ping')).json !== 'Pong',
  },
  {
    id: 'schema.insurance-empty-object',
    injection: 'impl',
    area: 'schemas',
    breaks: "The client's health insurance provider and policy, or null when the client has none.",
    source: 'openapi.yaml components.schemas.Insurance.description',
    how: 'a client without insurance has `Insurance: {}`',
    shows: async (c) => {
      for (const r of await results(c, '/api/v1/Client/Simple?pageSize=30')) {
        const d = (await c.req(`/api/v1/Client/Detail/${r.IdClient}`)).json as { Insurance: unknown };
        if (d.Insurance !== null && typeof d.Insurance === 'object' && Object.keys(d.Insurance).length === 0) return true;
      }
      return false;
    },
  },
  // -- media type (RFC 8259) and HTTP (RFC 9110)
  {
    id: 'media.bom',
    injection: 'impl',
    area: 'media type',
    breaks: 'Implementations MUST NOT add a byte order mark (U+FEFF) to the beginning of a networked-transmitted JSON text.',
    source: 'RFC 8259 §8.1',
    how: 'every JSON body starts with a UTF-8 BOM',
    shows: async (c) => (await c.req('/api/v1/Diagnostics/Ping')).body.subarray(0, 3).equals(Buffer.from([0xef, 0xbb, 0xbf])),
  },
  {
    id: 'media.latin1',
    injection: 'impl',
    area: 'media type',
    breaks: 'JSON text exchanged between systems that are not part of a closed ecosystem MUST be encoded using UTF-8',
    source: 'RFC 8259 §8.1',
    how: 'bodies are encoded in ISO-8859-1 (and say so in charset)',
    shows: async (c) => {
      try {
        new TextDecoder('utf-8', { fatal: true }).decode((await c.req('/api/v1/Client/Simple?pageSize=100')).body);
        return false;
      } catch {
        return true;
      }
    },
  },
  {
    id: 'media.text-plain',
    injection: 'impl',
    area: 'media type',
    breaks: 'content: application/json (every 200 response)',
    source: 'openapi.yaml paths.*.get.responses.200.content',
    how: 'successful answers say `Content-Type: text/plain`',
    shows: async (c) => (header(await c.req('/api/v1/Diagnostics/Ping'), 'content-type') ?? '').startsWith('text/plain'),
  },
  {
    id: 'media.duplicate-names',
    injection: 'impl',
    area: 'media type',
    breaks: 'The names within an object SHOULD be unique.',
    source: 'RFC 8259 §4',
    how: 'list pages carry the member "Page" twice (same value: JSON.parse does not notice)',
    shows: async (c) => ((await c.req('/api/v1/Client/Simple')).text.match(/"Page"/g) ?? []).length > 1,
  },
  {
    id: 'media.error-problem-json',
    injection: 'impl',
    area: 'media type',
    breaks: 'Every non-2xx response is an `ErrorDto` `{Code, Message}` in JSON (content: application/json)',
    source: `${ERR_TABLE}; components.responses.*.content`,
    how: 'errors say `Content-Type: application/problem+json`',
    shows: async (c) => (header(await c.req('/api/v1/Nothing'), 'content-type') ?? '').includes('problem+json'),
  },
  // -- proxy faults, in front of the project's real server
  {
    id: 'px.total-plus-one-filtered',
    injection: 'proxy',
    area: 'descriptions: totals and Link',
    breaks: 'All given filters combine with AND; `X-Total-Count` counts the clients that match them all.',
    source: 'openapi.yaml paths./api/v1/Client/Extended.get.description',
    how: 'X-Total-Count plus one whenever a filter parameter is present',
    shows: async (c) => (await total(c, 'filter=')) !== Number(header(await c.req('/api/v1/Client/Simple'), 'x-total-count')),
  },
  {
    id: 'px.prefer-unimplemented-400',
    injection: 'proxy',
    area: 'Prefer',
    breaks:
      'As RFC 7240 asks, a preference the mock does not implement (`return=minimal`, `handling=lenient`, `respond-async`, ...) is ignored',
    source: 'openapi.yaml components.parameters.Prefer.description; RFC 7240 §2',
    how: 'a request with a preference other than code/delay/example is answered 400 VALIDATION_ERROR naming Prefer',
    shows: async (c) => (await status(c, '/api/v1/Diagnostics/Ping', { headers: { Prefer: 'return=minimal' } })) === 400,
  },
  {
    id: 'px.prefer-repeated-last-wins',
    injection: 'proxy',
    area: 'Prefer',
    breaks: 'and so is a repeated one after its first instance.',
    source: 'openapi.yaml components.parameters.Prefer.description; RFC 7240 §2',
    how: 'the proxy keeps the last instance of a repeated preference',
    shows: async (c) => (await status(c, '/api/v1/Diagnostics/Ping', { headers: { Prefer: 'code=500, code=400' } })) === 400,
  },
  {
    id: 'px.prefer-delay-above-max',
    injection: 'proxy',
    area: 'Prefer',
    breaks:
      '`delay=MS`: answer that many milliseconds late (0 to 10000); … A bad value of `code`, `delay` or `example` is `400 VALIDATION_ERROR` naming it',
    source: 'openapi.yaml components.parameters.Prefer.description',
    how: 'a delay above 10000 is forwarded as delay=0 (accepted, answered at once)',
    shows: async (c) => (await status(c, '/api/v1/Diagnostics/Ping', { headers: { Prefer: 'delay=10001' } })) === 200,
  },
  {
    id: 'px.prefer-undocumented-code',
    injection: 'proxy',
    area: 'Prefer',
    breaks:
      '`Prefer: code=404` returns that documented status of the operation with a valid `ErrorDto` (an undocumented status is `400 VALIDATION_ERROR`);',
    source: 'openapi.yaml info.description, ## Mock controls',
    how: 'an undocumented code=NNN (4xx/5xx) is answered with that status and an INTERNAL_ERROR body',
    shows: async (c) => (await status(c, '/api/v1/Diagnostics/Ping', { headers: { Prefer: 'code=418' } })) === 418,
  },
  {
    id: 'px.exception-message-period',
    injection: 'proxy',
    area: 'error table',
    breaks: 'and exactly the `Message` of the `testException` example',
    source: 'openapi.yaml paths./api/v1/Diagnostics/Exception.get.description',
    how: 'a full stop is appended to the TEST_EXCEPTION Message',
    shows: async (c) => errorMessage(await c.req('/api/v1/Diagnostics/Exception')).endsWith('.'),
  },
  {
    id: 'px.allow-lowercase',
    injection: 'proxy',
    area: 'HTTP',
    breaks: 'Allow: `enum: [GET]` (RFC 9110 §9.1: "The method token is case-sensitive")',
    source: 'openapi.yaml components.responses.MethodNotAllowed.headers.Allow; RFC 9110 §9.1',
    how: 'the Allow header is lower-cased ("get")',
    shows: async (c) => header(await c.req('/api/v1/Diagnostics/Ping', { method: 'POST' }), 'allow') === 'get',
  },
  {
    id: 'px.results-null-empty',
    injection: 'proxy',
    area: 'schemas',
    breaks: 'A page past the end is `200` with an empty `Results` array (Results: `type: array`)',
    source: `${PAGING}; components.schemas.ClientSimplePage`,
    how: 'an empty Results is sent as null',
    shows: async (c) => ((await c.req('/api/v1/Client/Simple?page=100000')).json as { Results: unknown }).Results === null,
  },
  {
    id: 'px.xrid-truncated',
    injection: 'proxy',
    area: 'descriptions: X-Request-Id',
    breaks: "The request's `X-Request-Id` is echoed unchanged when it is 1 to 128 characters",
    source: XRID,
    how: 'an echoed id longer than 64 characters is cut to 64',
    shows: async (c) =>
      (header(await c.req('/api/v1/Diagnostics/Ping', { headers: { 'X-Request-Id': 'b'.repeat(100) } }), 'x-request-id') ?? '').length ===
      64,
  },
  {
    id: 'px.preflight-no-allow-headers',
    injection: 'proxy',
    area: 'descriptions: CORS',
    breaks: '`Access-Control-Allow-Headers` including `X-Api-Key`.',
    source: CORS,
    how: 'Access-Control-Allow-Headers is removed from preflight answers',
    shows: async (c) => header(await c.req('/api/v1/Client/Simple', preflight), 'access-control-allow-headers') === undefined,
  },
  {
    id: 'px.expose-missing-on-errors',
    injection: 'proxy',
    area: 'descriptions: CORS',
    breaks:
      'A request with an `Origin` the server accepts (any, by default) gets `Access-Control-Allow-Origin` (`*` or that origin) and `Access-Control-Expose-Headers` naming `X-Total-Count`, `Link` and `X-Request-Id`.',
    source: CORS,
    how: 'Access-Control-Expose-Headers is removed from 4xx/5xx answers (a browser then cannot read X-Request-Id of an error)',
    shows: async (c) =>
      header(await c.req('/api/v1/Nothing', { headers: { Origin: 'https://probe.example' } }), 'access-control-expose-headers') ===
      undefined,
  },
  {
    id: 'px.no-date',
    injection: 'proxy',
    area: 'HTTP',
    breaks:
      'An origin server with a clock […] MUST generate a Date header field in all 2xx (Successful), 3xx (Redirection), and 4xx (Client Error) responses',
    source: 'RFC 9110 §6.6.1',
    how: 'the Date header is removed',
    shows: async (c) => header(await c.req('/api/v1/Diagnostics/Ping'), 'date') === undefined,
  },
  {
    id: 'px.content-type-missing',
    injection: 'proxy',
    area: 'media type',
    breaks: 'content: application/json (RFC 9110 §8.3: a sender that generates content SHOULD generate Content-Type)',
    source: 'openapi.yaml responses.*.content; RFC 9110 §8.3',
    how: 'Content-Type is removed',
    shows: async (c) => header(await c.req('/api/v1/Diagnostics/Ping'), 'content-type') === undefined,
  },
  {
    id: 'px.pong-lowercase',
    injection: 'proxy',
    area: 'schemas',
    breaks: 'Pong: `enum: [Pong]`',
    source: 'openapi.yaml components.schemas.Pong',
    how: 'Ping answers "pong"',
    shows: async (c) => (await c.req('/api/v1/Diagnostics/Ping')).json === 'pong',
  },
];

// ---- correct but unusual -----------------------------------------------------------------------------------

export const VARIANTS: readonly VariantCase[] = [
  {
    id: 'auth-first',
    injection: 'impl',
    choice: 'the key is checked before the parameters (401 before 400; the base implementation does 400 first)',
    allowedBy: 'The error table names 400 and 401 and orders neither ("A missing header and an unknown key are both answered with 401")',
    shows: async (c) => (await status(c, '/api/v1/Client/Simple?pageSize=0', { key: false })) === 401,
  },
  {
    id: 'cors-star',
    injection: 'impl',
    choice: 'Access-Control-Allow-Origin is `*`, no Vary',
    allowedBy: '`Access-Control-Allow-Origin` (`*` or that origin)',
    shows: async (c) =>
      header(await c.req('/api/v1/Diagnostics/Ping', { headers: { Origin: 'https://x.example' } }), 'access-control-allow-origin') === '*',
  },
  {
    id: 'cors-allow-list',
    injection: 'impl',
    choice: 'only the listed Origin is accepted (the harness passes it as --origin)',
    allowedBy: 'sent when the request carries an `Origin` the server accepts (`*` by default, or the configured origin list)',
    shows: async (c) =>
      header(await c.req('/api/v1/Diagnostics/Ping', { headers: { Origin: 'https://other.example' } }), 'access-control-allow-origin') ===
      undefined,
  },
  {
    id: 'link-conventional',
    injection: 'impl',
    choice: 'Link on one line, one link-value per relation, rel quoted',
    allowedBy: 'any RFC 8288 form: one header line or several',
    shows: async (c) => lineCount(await c.req('/api/v1/Client/Simple?page=2'), 'link') === 1,
  },
  {
    id: 'link-relative-path',
    injection: 'impl',
    choice: 'targets are relative-path (`Simple?…`) and query-only (`?…`) references, resolved against the request URI',
    allowedBy:
      'RFC 8288 page links as relative references (RFC 3986 §4.2: relative-path and query-only references are relative references)',
    shows: async (c) => links(await c.req('/api/v1/Client/Simple?page=2')).some((l) => l.target.startsWith('?')),
  },
  {
    id: 'link-exotic-params',
    injection: 'impl',
    choice: 'link-values with `title` and `type` parameters first, `REL` in upper case after them, spaces around `;` and `,`',
    allowedBy:
      'parameters in any order, `rel` quoted or not, several relation types in one value (RFC 8288 §3: link-param names are case-insensitive, B.3 lower-cases them)',
    shows: async (c) => /REL=/.test(header(await c.req('/api/v1/Client/Simple'), 'link') ?? ''),
  },
  {
    id: 'json-escaped',
    injection: 'impl',
    choice: 'JSON with members in alphabetical order, tab/CRLF whitespace, every non-ASCII character as \\uXXXX and `/` as `\\/`',
    allowedBy: 'RFC 8259 §7 "Any character may be escaped", §2 insignificant whitespace, §4 "An object is an unordered collection"',
    shows: async (c) => (await c.req('/api/v1/Client/Simple?pageSize=100')).text.includes('\\u00'),
  },
  {
    id: 'gzip',
    injection: 'impl',
    choice: 'bodies gzip-compressed when the request accepts gzip, with Vary: Accept-Encoding',
    allowedBy: 'RFC 9110 §8.4 Content-Encoding / §12.5.3 Accept-Encoding; the document constrains the content, not its coding',
    shows: async (c) =>
      header(await c.req('/api/v1/Diagnostics/Ping', { headers: { 'Accept-Encoding': 'gzip' } }), 'content-encoding') === 'gzip',
  },
  {
    id: 'conventional-framing',
    injection: 'impl',
    choice: 'Content-Length framing, keep-alive, Title-Case header names, compact JSON, preflight 204',
    allowedBy: 'RFC 9112 §6 (either framing); "answered with a 2xx status"',
    shows: async (c) => header(await c.req('/api/v1/Diagnostics/Ping'), 'content-length') !== undefined,
  },
  {
    id: 'other-messages',
    injection: 'impl',
    choice: 'other Message texts: `/query/pageSize: …`, the 404 names the id in lower case, an empty X-Api-Key counts as unknown',
    allowedBy:
      'ErrorDto.Message "Human-readable message, never empty."; only "names it" / "tells the two cases apart" / "names the id" are fixed (RFC 9562 §4: the lower-case id is the same uuid)',
    shows: async (c) => errorMessage(await c.req('/api/v1/Client/Simple?pageSize=0')).startsWith('/query/'),
  },
  {
    id: 'request-id-long',
    injection: 'impl',
    choice: 'generated X-Request-Ids are 128 characters long',
    allowedBy: 'the server sends an id it generated (X-Request-Id: string, maxLength 128)',
    shows: async (c) => (header(await c.req('/api/v1/Diagnostics/Ping'), 'x-request-id') ?? '').length === 128,
  },
  {
    id: 'preflight-anywhere',
    injection: 'impl',
    choice: "a preflight is answered 204 on any path, also one that is not the document's (CORS before routing)",
    allowedBy: 'A preflight … on any path of this document is answered with a 2xx status (other paths are not named)',
    shows: async (c) => (await status(c, '/api/v1/Nothing', preflight)) === 204,
  },
  {
    id: 'pv.json-reformat',
    injection: 'proxy',
    choice: "the real server's JSON re-serialised with members reversed, 4-space indentation, newlines around it, chunked",
    allowedBy: 'RFC 8259 §2 insignificant whitespace, §4 unordered members; RFC 9112 §7.1 chunked',
    shows: async (c) => (await c.req('/api/v1/Client/Simple')).text.startsWith('\n'),
  },
  {
    id: 'pv.link-split',
    injection: 'proxy',
    choice: "the real server's Link split into one header line per link-value, rel unquoted",
    allowedBy: 'any RFC 8288 form: one header line or several, parameters in any order, `rel` quoted or not',
    shows: async (c) => lineCount(await c.req('/api/v1/Client/Simple'), 'link') > 1,
  },
  {
    id: 'pv.headers-extra',
    injection: 'proxy',
    choice: 'upper-case header names and extra headers (ETag, Last-Modified, Vary, Server, Strict-Transport-Security, X-Powered-By)',
    allowedBy: 'RFC 9110 §5.1 field names are case-insensitive; §5.1 unrecognised fields are ignored; the document forbids no header',
    shows: async (c) => header(await c.req('/api/v1/Diagnostics/Ping'), 'etag') !== undefined,
  },
];
