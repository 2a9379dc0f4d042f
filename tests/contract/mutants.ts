// Deliberate faults for the mutation check: a tiny node:http proxy in front of
// a real server that rewrites requests or responses, one fault at a time.
// If the contract checks pass against a mutant, they cannot see that drift.
import http, { type IncomingHttpHeaders, type OutgoingHttpHeaders } from 'node:http';

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
  const [path, query = ''] = request.url.split('?') as [string, string?];
  const params = new URLSearchParams(query);
  edit(params);
  const rebuilt = params.toString();
  request.url = rebuilt ? `${path}?${rebuilt}` : path;
}

/** The faults the issue lists, then a few more. */
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
      const page = new URLSearchParams(request.url.split('?')[1] ?? '').get('page');
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
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      resolve({
        baseUrl: `http://127.0.0.1:${port}`,
        stop: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
            agent.destroy();
          }),
      });
    });
  });
}
