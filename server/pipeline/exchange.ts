// The pipeline's seam: a request and its answer as plain values, and the few members of a request and
// a response that the API path's steps use. Three roads answer through the same steps (api-path.ts):
// the Express app (app.ts) hands them Express's own objects, which have these members; the in-process
// handlers in Node (msw-core.ts, lean-path.ts) and in the browser (server/browser.ts) hand them an
// ApiRequest and an AnswerRecorder, which turns what the steps do into an ApiAnswer (status, headers,
// body). Nothing here imports Express or Node: the browser build bundles this file as it is.

/** Header values as Node's parser gives them: names in lower case, repeated ones as arrays. */
export type RequestHeaders = Readonly<Record<string, string | string[] | undefined>>;

/** A request as a value: method, the raw path and query, headers (names in lower case). */
export interface ApiRequest {
  method: string;
  /** The path and query as sent on the request line, e.g. `/api/v1/Client/Simple?page=2`. */
  url: string;
  headers: RequestHeaders;
  /** The header lines, name and value by turns, as sent (the journal keeps them). */
  rawHeaders: readonly string[];
  /** The connection it came on, when there is one: the key gate keeps a verdict per connection (auth.ts). */
  socket?: object;
}

/** An answer as a value: the status, the headers in the order they were set (names as set), the body. */
export interface ApiAnswer {
  status: number;
  headers: [string, string][];
  /** Empty for a HEAD, a 204 and a 304. */
  body: Uint8Array;
}

/** What the steps read of a request (Express's Request has all of it; so does the neutral one, neutralRequest). */
export interface PipelineRequest {
  method: string;
  url: string;
  /** The URL's path, without its query. */
  path: string;
  headers: RequestHeaders;
  /** The query as Express's 'simple' parser reads it (parseSimpleQuery). */
  query: Record<string, unknown>;
  params: Record<string, string | string[]>;
  socket?: object;
}

export type HeaderValue = string | number | readonly string[];

/** What the steps call on a response: the members of Node's and Express 5's response they use. */
export interface PipelineResponse {
  statusCode: number;
  readonly headersSent: boolean;
  readonly destroyed: boolean;
  setHeader(name: string, value: HeaderValue): unknown;
  getHeader(name: string): HeaderValue | undefined;
  removeHeader(name: string): void;
  end(chunk?: unknown): unknown;
  status(code: number): PipelineResponse;
  set(field: string | Record<string, unknown>, value?: unknown): PipelineResponse;
  get(name: string): HeaderValue | undefined;
  send(body?: unknown): PipelineResponse;
  json(body: unknown): PipelineResponse;
  on(event: 'close', listener: () => void): unknown;
}

/** Characters Express's URL parser (parseurl) treats apart: such URLs are left to Express itself, or refused. */
export const UNUSUAL_URL = /[\t\n\f\r #\u00a0\ufeff]/;

/**
 * Express's 'simple' query parser (app.ts sets it; it is Node's querystring.parse): `&`-separated pairs split at the
 * first `=`, `+` read as a space, percent-decoded where that decodes, a repeated name as an array of its values.
 * The raw query check (raw-query.ts) runs first on every road and refuses what does not decode and repeats, so the
 * steps read the same values whichever parser made them.
 */
export function parseSimpleQuery(search: string): Record<string, unknown> {
  const query: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  if (search === '') return query;
  let count = 0;
  for (const pair of search.split('&')) {
    // querystring.parse's maxKeys.
    if (++count > 1000) break;
    if (pair === '') continue;
    const at = pair.indexOf('=');
    const name = unescapeQuery(at < 0 ? pair : pair.slice(0, at));
    const value = at < 0 ? '' : unescapeQuery(pair.slice(at + 1));
    const known = query[name];
    if (known === undefined) query[name] = value;
    else if (Array.isArray(known)) known.push(value);
    else query[name] = [known, value];
  }
  return query;
}

/** querystring.unescape: `+` as a space, then decoded; text that does not decode whole is kept with only valid escapes decoded. */
function unescapeQuery(text: string): string {
  const spaced = text.includes('+') ? text.replace(/\+/g, ' ') : text;
  if (!spaced.includes('%')) return spaced;
  try {
    return decodeURIComponent(spaced);
  } catch {
    return spaced.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => {
      try {
        return decodeURIComponent(run);
      } catch {
        return run;
      }
    });
  }
}

/** The request the steps read, made from a request value: its path and query split once, as Express splits them. */
export function neutralRequest(request: ApiRequest): PipelineRequest {
  const at = request.url.indexOf('?');
  return {
    method: request.method,
    url: request.url,
    path: at < 0 ? request.url : request.url.slice(0, at),
    headers: request.headers,
    query: at < 0 ? {} : parseSimpleQuery(request.url.slice(at + 1)),
    params: {},
    ...(request.socket ? { socket: request.socket } : {}),
  };
}

const encoder = new TextEncoder();

function byteLength(text: string): number {
  return encoder.encode(text).length;
}

/** Express's setCharset (send() of text): the type with `charset=utf-8`, its other parameters kept in Express's order. */
function withUtf8(type: string): string {
  const [essence = '', ...parameters] = type.split(';').map((part) => part.trim());
  const named = new Map(
    parameters.filter(Boolean).map((part) => [part.slice(0, part.indexOf('=')).toLowerCase(), part.slice(part.indexOf('=') + 1)]),
  );
  named.set('charset', 'utf-8');
  return [essence.toLowerCase(), ...[...named.keys()].sort().map((name) => `${name}=${named.get(name)!}`)].join('; ');
}

/** A JSON body's check before it is sent (lean-path.ts: the documented response schema); an error to answer instead, or undefined. */
export type BodyCheck = (status: number, body: unknown) => unknown;

/**
 * A response that records: what the steps set and send becomes an ApiAnswer, with the bytes and headers
 * Express 5.3's response would send (res.set adds `charset=utf-8` to a JSON Content-Type, as mime-types
 * does; send() sets Content-Length, strips a 204/304's body headers and sends no body to HEAD; json()
 * stringifies, after `checkBody`). Headers keep the order they were first set in, as Node writes them.
 */
export class AnswerRecorder implements PipelineResponse {
  statusCode = 200;
  headersSent = false;
  writableFinished = false;
  destroyed = false;
  private readonly headers = new Map<string, [string, HeaderValue]>();
  private body: Uint8Array = new Uint8Array(0);
  private listeners: (() => void)[] = [];
  private checked = false;

  /** The check of a JSON body before it is sent, and where a failed one goes (the error handler): set by the road. */
  checkBody: BodyCheck = () => undefined;
  fail: (error: unknown) => void = () => undefined;

  constructor(
    private readonly method: string,
    /** Called once with the answer, or with undefined when it broke after it started (nothing to answer). */
    private readonly finished: (answer: ApiAnswer | undefined) => void,
  ) {}

  setHeader(name: string, value: HeaderValue): this {
    const key = name.toLowerCase();
    // As Node's: a header set again keeps its first place, with the latest spelling.
    this.headers.set(key, [name, value]);
    return this;
  }

  getHeader(name: string): HeaderValue | undefined {
    return this.headers.get(name.toLowerCase())?.[1];
  }

  removeHeader(name: string): void {
    this.headers.delete(name.toLowerCase());
  }

  on(event: 'close', listener: () => void): this {
    this.listeners.push(listener);
    return this;
  }

  /** Stops the answer (a broken one, as Express's final handler destroys the socket): nothing is answered. */
  destroy(): void {
    if (this.destroyed || this.headersSent) return;
    this.destroyed = true;
    this.finished(undefined);
  }

  end(chunk?: unknown): this {
    if (this.headersSent) return this;
    if (typeof chunk === 'string') this.body = encoder.encode(chunk);
    else if (chunk instanceof Uint8Array) this.body = chunk;
    this.headersSent = true;
    this.writableFinished = true;
    const headers: [string, string][] = [];
    for (const [name, value] of this.headers.values()) {
      if (Array.isArray(value)) for (const item of value as readonly string[]) headers.push([name, item]);
      else headers.push([name, String(value)]);
    }
    const noBody = this.method === 'HEAD' || this.statusCode === 204 || this.statusCode === 304;
    this.finished({ status: this.statusCode, headers, body: noBody ? new Uint8Array(0) : this.body });
    const listeners = this.listeners;
    this.listeners = [];
    for (const listener of listeners) listener();
    return this;
  }

  status(code: number): this {
    this.statusCode = code;
    return this;
  }

  get(name: string): HeaderValue | undefined {
    return this.getHeader(name);
  }

  set(field: string | Record<string, unknown>, value?: unknown): this {
    if (typeof field !== 'string') {
      for (const name of Object.keys(field)) this.set(name, field[name]);
      return this;
    }
    let text: string | string[] = Array.isArray(value) ? value.map(String) : String(value);
    if (field.toLowerCase() === 'content-type' && typeof text === 'string' && /^application\/json$/i.test(text.trim())) {
      text = `${text}; charset=utf-8`;
    }
    return this.setHeader(field, text);
  }

  send(body?: unknown): this {
    let chunk = body as string | Uint8Array | undefined;
    if (typeof chunk === 'string') {
      const type = this.getHeader('Content-Type');
      this.set('Content-Type', typeof type === 'string' ? withUtf8(type) : 'text/html; charset=utf-8');
    } else if (chunk !== undefined && !(chunk instanceof Uint8Array)) {
      return this.json(chunk);
    } else if (chunk !== undefined && !this.getHeader('Content-Type')) {
      this.set('Content-Type', 'application/octet-stream');
    }
    if (chunk !== undefined && !this.getHeader('Transfer-Encoding')) {
      this.set('Content-Length', typeof chunk === 'string' ? byteLength(chunk) : chunk.length);
    }
    if (this.statusCode === 204 || this.statusCode === 304) {
      for (const name of ['Content-Type', 'Content-Length', 'Transfer-Encoding']) this.removeHeader(name);
      chunk = '';
    }
    return this.end(chunk);
  }

  json(body: unknown): this {
    // Once per response: the error handler's own 500 goes out as it is, even where a spec documents no 500.
    const mismatch = this.checked ? undefined : this.checkBody(this.statusCode, body);
    if (mismatch !== undefined) {
      this.checked = true;
      this.fail(mismatch);
      return this;
    }
    if (!this.getHeader('Content-Type')) this.set('Content-Type', 'application/json');
    return this.send(JSON.stringify(body));
  }
}
