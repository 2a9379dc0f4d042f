// Deliberate faults for the mutation check: a tiny node:http proxy in front of
// a real server that rewrites requests or responses, one fault at a time.
// If the contract checks pass against a mutant, they cannot see that drift.
import http, { type IncomingHttpHeaders, type OutgoingHttpHeaders } from 'node:http';
import { foldText } from '../contract/text-folding';
import { listenOnLoopback } from './loopback';

export interface ProxiedRequest {
  method: string;
  /** Path and query as received. */
  url: string;
  headers: IncomingHttpHeaders;
}

export interface ProxiedResponse {
  status: number;
  headers: OutgoingHttpHeaders;
  body: Buffer;
}

export interface Mutant {
  name: string;
  /** Changes the request before the real server sees it. */
  request?(request: ProxiedRequest): void;
  /** Changes the real server's response before the client sees it. */
  response?(request: ProxiedRequest, response: ProxiedResponse): void;
}

const pathOf = (request: ProxiedRequest) => request.url.split('?')[0]!;
const isList = (request: ProxiedRequest) => /^\/api\/v1\/Client\/(Simple|Extended)$/.test(pathOf(request));
const isExtended = (request: ProxiedRequest) => pathOf(request) === '/api/v1/Client/Extended';
const isDetail = (request: ProxiedRequest) => pathOf(request).startsWith('/api/v1/Client/Detail/');

type JsonObject = Record<string, unknown>;

/** Rewrites a JSON body in place. */
function editJson(response: ProxiedResponse, edit: (body: JsonObject) => unknown): void {
  const body = JSON.parse(response.body.toString('utf8')) as JsonObject;
  const replaced = edit(body);
  response.body = Buffer.from(JSON.stringify(replaced === undefined ? body : replaced));
}

function editResults(response: ProxiedResponse, edit: (item: JsonObject) => void): void {
  editJson(response, (body) => (body.Results as JsonObject[]).forEach(edit));
}

function editQuery(request: ProxiedRequest, edit: (params: URLSearchParams) => void): void {
  // At the first "?" only: a value may hold another (allowReserved).
  const at = request.url.indexOf('?');
  const [path, query] = at < 0 ? [request.url, ''] : [request.url.slice(0, at), request.url.slice(at + 1)];
  const params = new URLSearchParams(query);
  edit(params);
  const rebuilt = params.toString();
  request.url = rebuilt ? `${path}?${rebuilt}` : path;
}

const queryOf = (request: ProxiedRequest) =>
  new URLSearchParams(request.url.includes('?') ? request.url.slice(request.url.indexOf('?') + 1) : '');
const isUnfiltered = (request: ProxiedRequest) =>
  ['active', 'filter', 'idStaff', 'idLocation'].every((name) => !queryOf(request).has(name));

/** Rewrites the Link header's targets for one relation. */
function editLink(response: ProxiedResponse, edit: (rel: string, target: string) => string): void {
  const header = response.headers.link;
  if (typeof header !== 'string') return;
  response.headers.link = header.replace(
    /<([^>]*)>; rel="([^"]+)"/g,
    (_m, target: string, rel: string) => `<${edit(rel, target)}>; rel="${rel}"`,
  );
}

/** Drops the Results a filter should have kept, and lowers X-Total-Count to match, as a backend with that bug would. */
function dropResults(response: ProxiedResponse, drop: (item: JsonObject) => boolean): void {
  let dropped = 0;
  editJson(response, (body) => {
    const kept = (body.Results as JsonObject[]).filter((item) => !drop(item));
    dropped = (body.Results as JsonObject[]).length - kept.length;
    body.Results = kept;
  });
  if (dropped > 0) response.headers['x-total-count'] = String(Number(response.headers['x-total-count']) - dropped);
}

/** Rewrites every string under a given key, at any depth. */
function editDeep(value: unknown, key: string, edit: (text: string, owner: JsonObject) => string): void {
  if (Array.isArray(value)) value.forEach((item) => editDeep(item, key, edit));
  else if (value !== null && typeof value === 'object') {
    const object = value as JsonObject;
    for (const [name, child] of Object.entries(object)) {
      if (name === key && typeof child === 'string') object[name] = edit(child, object);
      else editDeep(child, key, edit);
    }
  }
}

const isClientAnswer = (request: ProxiedRequest, response: ProxiedResponse) =>
  (isList(request) || isDetail(request)) && response.status === 200;

/** The operation paths as openapi.yaml writes them, for the mutants that route near misses to them. */
const OPERATION_PATH = /^\/api\/v1\/(Diagnostics\/(Ping|Exception)|Client\/(Simple|Extended)|Client\/Detail\/[^/]+)$/;

function setPath(request: ProxiedRequest, path: string): void {
  const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
  request.url = path + query;
}

/**
 * Faults of the kinds the derived checks look for (issue 23): what a loose
 * router, a lax validator or a helpful framework does. Each breaks one
 * sentence of openapi.yaml, or of an RFC it brings in.
 */
export const DERIVED_MUTANTS: readonly Mutant[] = [
  {
    name: 'paths matched case-insensitively (/api/v1/client/simple is Simple)',
    request: (request) => {
      const path = pathOf(request);
      const known = ['/api/v1/Diagnostics/Ping', '/api/v1/Diagnostics/Exception', '/api/v1/Client/Simple', '/api/v1/Client/Extended'];
      const found = known.find((candidate) => candidate.toLowerCase() === path.toLowerCase());
      const detail = /^\/api\/v1\/client\/detail\/([^/]+)$/i.exec(path);
      if (found) setPath(request, found);
      else if (detail) setPath(request, `/api/v1/Client/Detail/${detail[1]}`);
    },
  },
  {
    name: 'a trailing slash accepted (/api/v1/Client/Simple/ is Simple)',
    request: (request) => {
      const path = pathOf(request);
      if (path.length > 1 && path.endsWith('/') && OPERATION_PATH.test(path.slice(0, -1))) setPath(request, path.slice(0, -1));
    },
  },
  {
    name: 'a trailing slash redirected (308 to the path without it, as Flask and Go do)',
    response: (request, response) => {
      const path = pathOf(request);
      if (path.endsWith('/') && OPERATION_PATH.test(path.slice(0, -1))) {
        response.status = 308;
        response.headers = { location: path.slice(0, -1), 'content-type': 'text/plain' };
        response.body = Buffer.from('Permanent Redirect');
      }
    },
  },
  {
    name: 'a .json suffix stripped before routing (Spring suffix pattern)',
    request: (request) => {
      const path = pathOf(request);
      if (path.endsWith('.json') && OPERATION_PATH.test(path.slice(0, -5))) setPath(request, path.slice(0, -5));
    },
  },
  {
    name: 'dot segments redirected to the cleaned path (Go ServeMux: 301)',
    response: (request, response) => {
      const path = pathOf(request);
      if (/\/\.\.?(\/|$)/.test(path)) {
        const cleaned = new URL(path, 'http://x').pathname;
        response.status = 301;
        response.headers = { location: cleaned, 'content-type': 'text/plain' };
        response.body = Buffer.from('Moved Permanently');
      }
    },
  },
  {
    name: '%2F decoded before routing (/api/v1/Client%2FSimple is Simple)',
    request: (request) => {
      const path = pathOf(request);
      if (/%2F/i.test(path) && OPERATION_PATH.test(path.replace(/%2F/gi, '/'))) setPath(request, path.replace(/%2F/gi, '/'));
    },
  },
  {
    name: 'a byte order mark before every JSON body (RFC 8259 §8.1: MUST NOT)',
    response: (_request, response) => {
      if (/json/.test(String(response.headers['content-type'] ?? '')) && response.body.length > 0)
        response.body = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), response.body]);
    },
  },
  {
    name: 'HEAD answered 200 as GET without content (Express answers HEAD with the GET route)',
    request: (request) => {
      if (request.method === 'HEAD') {
        request.method = 'GET';
        request.headers['x-mutant-head'] = '1';
      }
    },
    response: (request, response) => {
      if (request.headers['x-mutant-head']) response.body = Buffer.alloc(0);
    },
  },
  {
    name: 'X-HTTP-Method-Override honoured (a POST that says GET is a GET)',
    request: (request) => {
      const override = request.headers['x-http-method-override'];
      if (typeof override === 'string') request.method = override.toUpperCase();
    },
  },
  {
    name: 'an OPTIONS with Access-Control-Request-Method but no Origin answered as a preflight',
    request: (request) => {
      if (request.method === 'OPTIONS' && request.headers['access-control-request-method'] && !request.headers.origin)
        request.headers.origin = 'https://mutant.example';
    },
    response: (request, response) => {
      if (request.headers.origin === 'https://mutant.example') delete response.headers['access-control-allow-origin'];
    },
  },
  {
    name: 'the key accepted in the query (?X-Api-Key=…)',
    request: (request) => {
      if (!queryOf(request).has('X-Api-Key')) return;
      editQuery(request, (params) => {
        const key = params.get('X-Api-Key');
        if (key === null) return;
        params.delete('X-Api-Key');
        request.headers['x-api-key'] = key;
      });
    },
  },
  {
    name: "the query cut at a second '?' (a reserved character of an allowReserved value)",
    request: (request) => {
      const first = request.url.indexOf('?');
      const second = first < 0 ? -1 : request.url.indexOf('?', first + 1);
      if (second >= 0) request.url = request.url.slice(0, second);
    },
  },
  {
    name: 'the key accepted as Authorization: Bearer',
    request: (request) => {
      const bearer = /^Bearer (.+)$/.exec(String(request.headers.authorization ?? ''));
      if (bearer && request.headers['x-api-key'] === undefined) request.headers['x-api-key'] = bearer[1];
    },
  },
  {
    name: 'pageSize bound off by one (100 rejected: "< 100" for "<= 100")',
    request: (request) => {
      if (isList(request)) editQuery(request, (params) => params.get('pageSize') === '100' && params.set('pageSize', '101'));
    },
  },
  {
    name: 'filter length counted in UTF-16 units (200 emoji rejected)',
    request: (request) => {
      if (isExtended(request))
        editQuery(request, (params) => {
          const filter = params.get('filter');
          if (filter !== null && filter.length > 200 && [...filter].length <= 200) params.set('filter', 'x'.repeat(201));
        });
    },
  },
  {
    name: 'uuids validated in lower case only (an upper-case idStaff is 400)',
    request: (request) => {
      if (isExtended(request))
        editQuery(request, (params) => {
          const id = params.get('idStaff');
          if (id !== null && id !== id.toLowerCase()) params.set('idStaff', 'not-a-uuid');
        });
    },
  },
  // Issue 35: questions the suite did not ask before (the request space, derived and measured).
  {
    name: 'a method on a path that is no operation answered 405 (a router that matches the method first)',
    response: (request, response) => {
      if (request.method !== 'GET' && response.status === 404) {
        response.status = 405;
        response.headers.allow = 'GET';
        response.body = Buffer.from(JSON.stringify({ Code: 'METHOD_NOT_ALLOWED', Message: `${request.method} is not allowed` }));
      }
    },
  },
  {
    name: 'an empty X-Api-Key answered 400 instead of 401',
    response: (request, response) => {
      if (request.headers['x-api-key'] === '' && response.status === 401) {
        response.status = 400;
        response.body = Buffer.from(JSON.stringify({ Code: 'VALIDATION_ERROR', Message: 'X-Api-Key must not be empty' }));
      }
    },
  },
  {
    name: 'If-None-Match answered 304 with no body (a freshness check without validators)',
    response: (request, response) => {
      if (request.headers['if-none-match'] !== undefined && response.status === 200) {
        response.status = 304;
        delete response.headers['content-type'];
        response.body = Buffer.alloc(0);
      }
    },
  },
  {
    name: 'a preflight with a query string validated as the request (400 for an undocumented parameter)',
    response: (request, response) => {
      if (request.method === 'OPTIONS' && request.headers.origin !== undefined && /[?&]contract-suite-unknown=/.test(request.url)) {
        response.status = 400;
        response.headers['content-type'] = 'application/json; charset=utf-8';
        response.body = Buffer.from(JSON.stringify({ Code: 'VALIDATION_ERROR', Message: 'contract-suite-unknown is not a parameter' }));
      }
    },
  },
];

/** The faults the issue lists, then a few more; then those of the derived checks' kinds. */
export const MUTANTS: readonly Mutant[] = [
  {
    name: 'a required field dropped (PersonalId of every Simple item)',
    response: (request, response) => {
      if (pathOf(request) === '/api/v1/Client/Simple' && response.status === 200) editResults(response, (item) => delete item.PersonalId);
    },
  },
  {
    name: 'an undocumented field added (Detail gets "Notes")',
    response: (request, response) => {
      if (isDetail(request) && response.status === 200) editJson(response, (body) => void (body.Notes = 'no notes'));
    },
  },
  {
    name: 'a wrong type (Page as a string)',
    response: (request, response) => {
      if (isList(request) && response.status === 200) editJson(response, (body) => void (body.Page = String(body.Page)));
    },
  },
  {
    name: 'Status in the wrong case ("active")',
    response: (request, response) => {
      if (isExtended(request) && response.status === 200)
        editResults(response, (item) => void (item.Status = String(item.Status).toLowerCase()));
      if (isDetail(request) && response.status === 200)
        editJson(response, (body) => void (body.Status = String(body.Status).toLowerCase()));
    },
  },
  {
    name: 'a wrong status code (422 instead of 400)',
    response: (_request, response) => {
      if (response.status === 400) response.status = 422;
    },
  },
  {
    name: 'X-Total-Count missing',
    response: (request, response) => {
      if (isList(request)) delete response.headers['x-total-count'];
    },
  },
  {
    name: 'a wrong content type (text/plain on Detail)',
    response: (request, response) => {
      if (isDetail(request)) response.headers['content-type'] = 'text/plain; charset=utf-8';
    },
  },
  {
    name: '200 for pageSize=101 (clamped to 100)',
    request: (request) => {
      if (isList(request)) editQuery(request, (params) => Number(params.get('pageSize')) > 100 && params.set('pageSize', '100'));
    },
  },
  {
    name: 'the active filter ignored',
    request: (request) => {
      if (isExtended(request)) editQuery(request, (params) => params.delete('active'));
    },
  },
  {
    name: 'a Detail that disagrees with the list (another e-mail address)',
    response: (request, response) => {
      if (isDetail(request) && response.status === 200)
        editJson(response, (body) => void ((body.ContactInfo as JsonObject).Email = 'someone.else@example.com'));
    },
  },
  {
    name: '500 instead of 404 for an unknown id',
    response: (request, response) => {
      if (isDetail(request) && response.status === 404) {
        response.status = 500;
        response.body = Buffer.from(JSON.stringify({ Code: 'INTERNAL_ERROR', Message: 'An unexpected error occurred' }));
      }
    },
  },
  {
    name: 'a missing-key request let through',
    request: (request) => {
      if (request.headers['x-api-key'] === undefined) request.headers['x-api-key'] = 'dev-key';
    },
  },
  // More drift of the kinds a hand-written backend shows.
  {
    name: 'page ignored (always page 1)',
    request: (request) => {
      if (isList(request)) editQuery(request, (params) => params.delete('page'));
    },
    response: (request, response) => {
      const page = queryOf(request).get('page');
      if (isList(request) && response.status === 200 && page !== null) editJson(response, (body) => void (body.Page = Number(page)));
    },
  },
  {
    name: 'the Exception message reworded',
    response: (request, response) => {
      if (pathOf(request) === '/api/v1/Diagnostics/Exception' && response.status === 500)
        editJson(response, (body) => void (body.Message = 'Test exception'));
    },
  },
  {
    name: 'idStaff and idLocation compared case-sensitively (an upper-case uuid matches no client)',
    request: (request) => {
      if (isExtended(request))
        editQuery(request, (params) => {
          for (const name of ['idStaff', 'idLocation']) {
            const value = params.get(name);
            if (value !== null && value !== value.toLowerCase()) params.set(name, '00000000-0000-4000-8000-00000000dead');
          }
        });
    },
  },
  {
    name: 'the filter ignored',
    request: (request) => {
      if (isExtended(request)) editQuery(request, (params) => params.delete('filter'));
    },
  },
  {
    name: 'Allow missing on 405',
    response: (_request, response) => {
      if (response.status === 405) delete response.headers.allow;
    },
  },
  // The subtle breaks (issue 12): one or more per new check.
  {
    name: 'Link prev always points at page 1',
    response: (request, response) => {
      if (isList(request)) editLink(response, (rel, target) => (rel === 'prev' ? target.replace(/([?&]page=)\d+/, '$11') : target));
    },
  },
  {
    name: 'Link targets drop the filters',
    response: (request, response) => {
      if (isList(request)) editLink(response, (_rel, target) => target.replace(/&(active|filter|idStaff|idLocation)=[^&]*/g, ''));
    },
  },
  {
    name: 'no Link header on an empty list',
    response: (request, response) => {
      if (isList(request) && response.headers['x-total-count'] === '0') delete response.headers.link;
    },
  },
  {
    name: 'the filter misses clients found only by their Email',
    response: (request, response) => {
      const filter = queryOf(request).get('filter')?.trim();
      if (!isExtended(request) || response.status !== 200 || !filter) return;
      const term = foldText(filter);
      dropResults(response, (item) => {
        const others = [item.FullName, item.PersonalId, item.Phone].map((text) => foldText(String(text)));
        const digits = term.replace(/\D/g, '');
        return !others.some((text) => text.includes(term)) && !(digits && String(item.Phone).replace(/\D/g, '').includes(digits));
      });
    },
  },
  {
    name: 'the filter is accent-sensitive (lower case only)',
    response: (request, response) => {
      const filter = queryOf(request).get('filter')?.trim();
      if (!isExtended(request) || response.status !== 200 || !filter || /\d/.test(filter)) return;
      const term = filter.toLowerCase();
      dropResults(
        response,
        (item) => ![item.FullName, item.PersonalId, item.Email, item.Phone].some((text) => String(text).toLowerCase().includes(term)),
      );
    },
  },
  {
    name: 'a duplicate client in the middle of the unfiltered list (page 3 and later)',
    response: (request, response) => {
      if (isList(request) && response.status === 200 && isUnfiltered(request) && Number(queryOf(request).get('page')) >= 3)
        editJson(response, (body) => {
          const results = body.Results as JsonObject[];
          if (results.length > 1) results[1] = results[0]!;
        });
    },
  },
  {
    name: 'two clients swapped in the middle of the unfiltered list (page 3 and later)',
    response: (request, response) => {
      if (isList(request) && response.status === 200 && isUnfiltered(request) && Number(queryOf(request).get('page')) >= 3)
        editJson(response, (body) => {
          const results = body.Results as JsonObject[];
          if (results.length > 1) [results[0], results[1]] = [results[1]!, results[0]!];
        });
    },
  },
  {
    name: 'Detail disagrees with Extended for one client in eight (ids ending in 0 or 1)',
    response: (request, response) => {
      if (isDetail(request) && response.status === 200 && /[01]$/.test(pathOf(request)))
        editJson(response, (body) => void (((body.ContactInfo as JsonObject).Address as JsonObject).City = 'Elsewhere'));
    },
  },
  {
    name: 'PersonalId with a wrong Luhn check digit, everywhere alike',
    response: (request, response) => {
      if (isClientAnswer(request, response))
        editJson(response, (body) => editDeep(body, 'PersonalId', (id) => id.slice(0, -1) + String((Number(id.slice(-1)) + 1) % 10)));
    },
  },
  {
    name: 'PersonalId that does not begin with DateOfBirth (birth day moved), everywhere alike',
    response: (request, response) => {
      if (isClientAnswer(request, response))
        editJson(response, (body) => editDeep(body, 'DateOfBirth', (date) => `${date.slice(0, 8)}${date.slice(8) === '01' ? '02' : '01'}`));
    },
  },
  {
    name: 'FullName as "FirstName  LastName" (two spaces), everywhere alike',
    response: (request, response) => {
      if (isClientAnswer(request, response)) editJson(response, (body) => editDeep(body, 'FullName', (name) => name.replace(' ', '  ')));
    },
  },
  {
    name: 'StaffName kept when IdStaff is null',
    response: (request, response) => {
      if (isExtended(request) && response.status === 200)
        editResults(response, (item) => {
          if (item.IdStaff === null) item.StaffName = 'Nobody';
        });
    },
  },
  {
    name: 'no CORS headers for a request with an Origin',
    response: (request, response) => {
      if (request.method !== 'OPTIONS') {
        delete response.headers['access-control-allow-origin'];
        delete response.headers['access-control-expose-headers'];
      }
    },
  },
  {
    name: 'Link and X-Request-Id not exposed to browsers',
    response: (_request, response) => {
      if (typeof response.headers['access-control-expose-headers'] === 'string')
        response.headers['access-control-expose-headers'] = 'X-Total-Count';
    },
  },
  {
    name: 'CORS preflight answered 405',
    request: (request) => {
      if (request.method === 'OPTIONS') delete request.headers['access-control-request-method'];
    },
  },
  {
    name: 'X-Request-Id not echoed on Client operations',
    response: (request, response) => {
      if (pathOf(request).startsWith('/api/v1/Client/')) response.headers['x-request-id'] = '00000000-0000-4000-8000-000000000000';
    },
  },
  {
    name: 'X-Request-Id echoed even when it breaks the rule (a space)',
    request: (request) => {
      const id = request.headers['x-request-id'];
      if (typeof id === 'string' && id.includes(' ')) request.headers['x-request-id'] = id.replace(/ /g, '_');
    },
    response: (request, response) => {
      const id = request.headers['x-request-id'];
      if (typeof id === 'string' && id.includes('_') && !/^cs-/.test(id)) response.headers['x-request-id'] = id.replace(/_/g, ' ');
    },
  },
  {
    name: 'one 401 Message for a missing and an unknown key',
    response: (_request, response) => {
      if (response.status === 401) response.body = Buffer.from(JSON.stringify({ Code: 'UNAUTHORIZED', Message: 'Unauthorized' }));
    },
  },
  {
    name: 'keys compared case-insensitively',
    request: (request) => {
      const key = request.headers['x-api-key'];
      if (typeof key === 'string' && key.toLowerCase() === 'dev-key') request.headers['x-api-key'] = 'dev-key';
    },
  },
  {
    name: 'a key prefix accepted',
    request: (request) => {
      const key = request.headers['x-api-key'];
      if (typeof key === 'string' && key.length >= 3 && 'dev-key'.startsWith(key)) request.headers['x-api-key'] = 'dev-key';
    },
  },
  {
    name: 'a longer key accepted (compared by prefix)',
    request: (request) => {
      const key = request.headers['x-api-key'];
      if (typeof key === 'string' && key.startsWith('dev-key')) request.headers['x-api-key'] = 'dev-key';
    },
  },
  {
    // Issue 23, item 4: a backend developer's rename; the suite must report it as one cause, not as CORS or X-Request-Id failures.
    name: 'one renamed field of Detail (ContactInfo → Contact)',
    response: (request, response) => {
      if (isDetail(request) && response.status === 200)
        editJson(response, (body) => {
          body.Contact = body.ContactInfo;
          delete body.ContactInfo;
        });
    },
  },
  {
    // A broken Ping is a contract violation (exit 1), not a target that cannot be checked (exit 2).
    name: 'Ping answers "Ping"',
    response: (request, response) => {
      if (pathOf(request) === '/api/v1/Diagnostics/Ping' && response.status === 200) response.body = Buffer.from('"Ping"');
    },
  },
  // Issue 23: the kinds the derived checks look for (DERIVED_MUTANTS below).
  ...DERIVED_MUTANTS,
];

export interface RunningProxy {
  baseUrl: string;
  stop(): Promise<void>;
}

/** A proxy on 127.0.0.1 and a free port that forwards to `upstream` through the mutant (none: unchanged). */
export function startMutantProxy(upstream: string, mutant?: Mutant): Promise<RunningProxy> {
  const target = new URL(upstream);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
  const server = http.createServer((incoming, outgoing) => {
    const request: ProxiedRequest = { method: incoming.method ?? 'GET', url: incoming.url ?? '/', headers: { ...incoming.headers } };
    delete request.headers.connection;
    delete request.headers['keep-alive'];
    mutant?.request?.(request);
    const forward = http.request(
      { host: target.hostname, port: target.port, method: request.method, path: request.url, headers: request.headers, agent },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () => {
          const headers: OutgoingHttpHeaders = { ...answer.headers };
          for (const hop of ['connection', 'keep-alive', 'transfer-encoding', 'content-length']) delete headers[hop];
          const response: ProxiedResponse = { status: answer.statusCode ?? 502, headers, body: Buffer.concat(chunks) };
          mutant?.response?.(request, response);
          response.headers['content-length'] = String(response.body.length);
          outgoing.writeHead(response.status, response.headers);
          outgoing.end(response.body);
        });
      },
    );
    forward.on('error', (error) => {
      outgoing.writeHead(502, { 'content-type': 'text/plain' });
      outgoing.end(`proxy: ${error.message}`);
    });
    forward.end();
  });
  return listenOnLoopback(server, () => agent.destroy());
}
