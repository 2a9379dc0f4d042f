// Why: the probes that prove each fault is live (faults.ts) must send exactly the request they mean: `fetch`
// normalises dot segments, joins nothing it is not asked to and refuses some methods, so they speak raw
// node:http instead, one connection per request, with a time limit.
import http from 'node:http';

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** Names and values as received, in order (Node joins repeated lines in `headers`). */
  rawHeaders: string[];
  body: Buffer;
  text: string;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  json: unknown;
}

export interface RawRequest {
  method?: string;
  path: string;
  headers?: Record<string, string>;
}

export function rawRequest(baseUrl: string, request: RawRequest, timeoutMs = 15_000): Promise<RawResponse> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        method: request.method ?? 'GET',
        path: request.path,
        headers: request.headers ?? {},
        agent: false,
        timeout: timeoutMs,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const body = Buffer.concat(chunks);
          const text = body.toString('utf8');
          let json: unknown;
          try {
            json = JSON.parse(text.replace(/^\uFEFF/, ''));
          } catch {
            json = undefined;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, rawHeaders: res.rawHeaders, body, text, json });
        });
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer in ${timeoutMs} ms: ${request.method ?? 'GET'} ${request.path}`)));
    req.on('error', reject);
    req.end();
  });
}

/** The header as one string (several lines joined with ", ", as RFC 9110 §5.3 allows for list headers). */
export function header(res: RawResponse, name: string): string | undefined {
  const v = res.headers[name.toLowerCase()];
  return Array.isArray(v) ? v.join(', ') : v;
}

/** How many header lines carry this field. */
export function lineCount(res: RawResponse, name: string): number {
  return res.rawHeaders.filter((h, i) => i % 2 === 0 && h.toLowerCase() === name.toLowerCase()).length;
}

/** RFC 8288 link-values as {target, rels}; enough for the probes (targets hold no `>`). */
export function links(res: RawResponse): { target: string; rels: string[] }[] {
  const value = header(res, 'link') ?? '';
  const out: { target: string; rels: string[] }[] = [];
  for (const m of value.matchAll(/<([^>]*)>((?:\s*;\s*[^;,<]+)*)/g)) {
    const rel = /(?:^|;)\s*rel\s*=\s*(?:"([^"]*)"|([^\s;,"]+))/i.exec(m[2] ?? '');
    out.push({ target: m[1]!, rels: (rel?.[1] ?? rel?.[2] ?? '').toLowerCase().split(/\s+/).filter(Boolean) });
  }
  return out;
}

/** The `page` of the link with this relation type, or undefined. */
export function linkPage(res: RawResponse, rel: string): number | undefined {
  const l = links(res).find((x) => x.rels.includes(rel));
  if (!l) return undefined;
  const page = new URL(l.target, 'http://h/api/v1/Client/Simple').searchParams.get('page');
  return page === null ? undefined : Number(page);
}
