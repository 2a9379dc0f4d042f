// Why: some faults are best measured on the project's real server, with everything else exactly as the suite
// knows it: a small proxy in front of it breaks one sentence of openapi.yaml (or of an RFC it cites) in the
// request it forwards or the answer it returns, and nothing else. With no fault it forwards unchanged (the
// probes' clean baseline); its variants rewrite answers in ways the document allows.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import type { ProxyFaultId, ProxyVariantId } from './ids';

export interface ProxyOptions {
  upstream: string;
  fault?: ProxyFaultId;
  variant?: ProxyVariantId;
}

export interface RunningProxy {
  url: string;
  close(): Promise<void>;
}

interface Answer {
  status: number;
  headers: [string, string][];
  body: Buffer;
}

/** The statuses openapi.yaml documents per path (for the Prefer fault). */
function documented(path: string): number[] | undefined {
  if (path === '/api/v1/Diagnostics/Ping') return [200, 400, 405, 500];
  if (path === '/api/v1/Diagnostics/Exception') return [400, 405, 500];
  if (path === '/api/v1/Client/Simple' || path === '/api/v1/Client/Extended') return [200, 400, 401, 405, 500];
  if (/^\/api\/v1\/Client\/Detail\/[^/]+$/.test(path)) return [200, 400, 401, 404, 405, 500];
  return undefined;
}

/** Splits a Link value into link-values at commas outside `<…>` and quotes. */
function splitLinks(value: string): string[] {
  const out: string[] = [];
  let cur = '';
  let inUri = false;
  let inQuote = false;
  for (const ch of value) {
    if (ch === '<' && !inQuote) inUri = true;
    else if (ch === '>' && !inQuote) inUri = false;
    else if (ch === '"' && !inUri) inQuote = !inQuote;
    if (ch === ',' && !inUri && !inQuote) {
      out.push(cur.trim());
      cur = '';
    } else cur += ch;
  }
  if (cur.trim()) out.push(cur.trim());
  return out;
}

function preferences(value: string): [string, string][] {
  return value
    .split(/[,;]/)
    .map((p) => p.trim())
    .filter(Boolean)
    .map((p) => {
      const eq = p.indexOf('=');
      return eq < 0 ? [p.toLowerCase(), ''] : [p.slice(0, eq).trim().toLowerCase(), p.slice(eq + 1).trim()];
    });
}

function reverseMembers(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(reverseMembers);
  if (v !== null && typeof v === 'object') {
    return Object.fromEntries(
      Object.keys(v)
        .reverse()
        .map((k) => [k, reverseMembers((v as Record<string, unknown>)[k])]),
    );
  }
  return v;
}

export class FaultProxy {
  constructor(private readonly options: ProxyOptions) {}

  private is(id: ProxyFaultId): boolean {
    return this.options.fault === id;
  }

  async listen(): Promise<RunningProxy> {
    const server = http.createServer((req, res) => {
      this.handle(req, res).catch((error: unknown) => {
        if (!res.headersSent) {
          res.statusCode = 502;
          res.end(`proxy: ${(error as Error).message}`);
        } else res.destroy();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    return {
      url: `http://127.0.0.1:${port}`,
      close: () =>
        new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        }),
    };
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const target = req.url ?? '/';
    const path = target.split('?')[0]!;
    const headers: Record<string, string | string[]> = {};
    for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) headers[k] = v;
    delete headers.connection;
    delete headers['keep-alive'];
    headers['accept-encoding'] = 'identity';

    const short = this.shortCircuit(req, path, headers);
    const answer = short ?? (await this.forward(req.method ?? 'GET', target, headers, Buffer.concat(chunks)));
    const out = this.rewrite(req, path, answer);
    this.write(res, out);
  }

  /** Request-side faults: rewrite the request, or answer without asking the server. */
  private shortCircuit(req: http.IncomingMessage, path: string, headers: Record<string, string | string[]>): Answer | undefined {
    const prefer = typeof headers.prefer === 'string' ? headers.prefer : undefined;
    if (prefer === undefined) return undefined;
    const prefs = preferences(prefer);
    if (this.is('px.prefer-unimplemented-400')) {
      const unknown = prefs.find(([name]) => !['code', 'delay', 'example'].includes(name));
      if (unknown) return this.error(req, 400, 'VALIDATION_ERROR', `header 'Prefer': unknown preference '${unknown[0]}'`);
    }
    if (this.is('px.prefer-repeated-last-wins')) {
      const last = new Map<string, string>();
      for (const [name, value] of prefs) last.set(name, value);
      headers.prefer = [...last].map(([n, v]) => (v ? `${n}=${v}` : n)).join(', ');
    }
    if (this.is('px.prefer-delay-above-max')) {
      headers.prefer = prefer.replace(/delay=(\d+)/g, (m, n: string) => (Number(n) > 10000 ? 'delay=0' : m));
    }
    if (this.is('px.prefer-undocumented-code')) {
      const code = prefs.find(([name]) => name === 'code')?.[1];
      const statuses = documented(path);
      if (code && /^[1-5]\d\d$/.test(code) && statuses && !statuses.includes(Number(code)) && Number(code) >= 400) {
        return this.error(req, Number(code), 'INTERNAL_ERROR', `Simulated status ${code} (Prefer)`);
      }
    }
    return undefined;
  }

  /** An ErrorDto answer with the headers the real server would add. */
  private error(req: http.IncomingMessage, status: number, code: string, message: string): Answer {
    const given = req.headers['x-request-id'];
    const id = typeof given === 'string' && /^[A-Za-z0-9_.:@-]{1,128}$/.test(given) ? given : randomUUID();
    const headers: [string, string][] = [['X-Request-Id', id]];
    if (req.headers.origin)
      headers.push(['Access-Control-Allow-Origin', '*'], ['Access-Control-Expose-Headers', 'X-Total-Count,Link,X-Request-Id']);
    headers.push(['Content-Type', 'application/json; charset=utf-8']);
    return { status, headers, body: Buffer.from(JSON.stringify({ Code: code, Message: message })) };
  }

  private forward(method: string, target: string, headers: Record<string, string | string[]>, body: Buffer): Promise<Answer> {
    const up = new URL(this.options.upstream);
    return new Promise((resolve, reject) => {
      const r = http.request({ host: up.hostname, port: up.port, method, path: target, headers, agent: false }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const pairs: [string, string][] = [];
          for (let i = 0; i < res.rawHeaders.length; i += 2) pairs.push([res.rawHeaders[i]!, res.rawHeaders[i + 1]!]);
          resolve({ status: res.statusCode ?? 502, headers: pairs, body: Buffer.concat(chunks) });
        });
        res.on('error', reject);
      });
      r.on('error', reject);
      r.end(body.length > 0 ? body : undefined);
    });
  }

  /** Response-side faults and variants. */
  private rewrite(req: http.IncomingMessage, path: string, a: Answer): Answer {
    let headers = a.headers.filter(([n]) => !['connection', 'keep-alive', 'transfer-encoding', 'content-length'].includes(n.toLowerCase()));
    let body = a.body;
    const get = (name: string) => headers.find(([n]) => n.toLowerCase() === name)?.[1];
    const set = (name: string, value: string | undefined) => {
      headers = headers.filter(([n]) => n.toLowerCase() !== name.toLowerCase());
      if (value !== undefined) headers.push([name, value]);
    };
    const query = new URLSearchParams((req.url ?? '').split('?')[1] ?? '');
    const json = (): unknown => {
      try {
        return JSON.parse(body.toString('utf8'));
      } catch {
        return undefined;
      }
    };

    if (this.is('px.total-plus-one-filtered') && get('x-total-count') !== undefined) {
      if (['active', 'filter', 'idStaff', 'idLocation'].some((p) => query.has(p)))
        set('X-Total-Count', String(Number(get('x-total-count')) + 1));
    }
    if (this.is('px.exception-message-period') && path === '/api/v1/Diagnostics/Exception' && a.status === 500) {
      const b = json() as { Code?: string; Message?: string } | undefined;
      if (b?.Code === 'TEST_EXCEPTION') body = Buffer.from(JSON.stringify({ ...b, Message: `${b.Message}.` }));
    }
    if (this.is('px.allow-lowercase') && get('allow') !== undefined) set('Allow', get('allow')!.toLowerCase());
    if (this.is('px.results-null-empty') && a.status === 200) {
      const b = json() as { Results?: unknown[] } | undefined;
      if (Array.isArray(b?.Results) && b.Results.length === 0) body = Buffer.from(JSON.stringify({ ...b, Results: null }));
    }
    if (this.is('px.xrid-truncated')) {
      const id = get('x-request-id');
      if (id !== undefined && id.length > 64) set('X-Request-Id', id.slice(0, 64));
    }
    if (this.is('px.preflight-no-allow-headers') && req.method === 'OPTIONS') set('Access-Control-Allow-Headers', undefined);
    if (this.is('px.expose-missing-on-errors') && a.status >= 400) set('Access-Control-Expose-Headers', undefined);
    if (this.is('px.no-date')) set('Date', undefined);
    if (this.is('px.content-type-missing')) set('Content-Type', undefined);
    if (this.is('px.pong-lowercase') && path === '/api/v1/Diagnostics/Ping' && a.status === 200) body = Buffer.from('"pong"');

    const v = this.options.variant;
    if (v === 'pv.json-reformat' && /json/i.test(get('content-type') ?? '') && body.length > 0) {
      const b = json();
      if (b !== undefined) body = Buffer.from(`\n${JSON.stringify(reverseMembers(b), null, 4)}\n`);
    }
    if (v === 'pv.link-split' && get('link') !== undefined) {
      const values = splitLinks(get('link')!).map((l) => l.replace(/rel="([a-z]+)"/, 'rel=$1'));
      set('Link', undefined);
      for (const l of values) headers.push(['Link', l]);
    }
    if (v === 'pv.headers-extra') {
      headers = headers.map(([n, value]) => [n.toUpperCase(), value]);
      headers.push(
        ['ETAG', `"${body.length}-${a.status}"`],
        ['LAST-MODIFIED', 'Mon, 02 Mar 2026 08:00:00 GMT'],
        ['VARY', 'Origin, Accept-Encoding'],
      );
      headers.push(['SERVER', 'reach-proxy'], ['STRICT-TRANSPORT-SECURITY', 'max-age=63072000'], ['X-POWERED-BY', 'nothing in particular']);
    }
    return { status: a.status, headers, body };
  }

  private write(res: http.ServerResponse, a: Answer): void {
    if (this.is('px.no-date')) res.sendDate = false;
    res.statusCode = a.status;
    for (const [name, value] of a.headers) {
      const known = res.getHeader(name);
      res.setHeader(name, known === undefined ? value : [...(Array.isArray(known) ? known : [String(known)]), value]);
    }
    if (this.options.variant === 'pv.json-reformat' && a.body.length > 0) {
      // Chunked, in two pieces.
      const half = Math.ceil(a.body.length / 2);
      res.write(a.body.subarray(0, half));
      res.end(a.body.subarray(half));
      return;
    }
    res.setHeader('Content-Length', String(a.body.length));
    res.end(a.body);
  }
}

export function startProxy(options: ProxyOptions): Promise<RunningProxy> {
  return new FaultProxy(options).listen();
}
