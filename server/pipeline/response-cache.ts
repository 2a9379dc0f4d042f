// The fast path. The data set is immutable, so a response is a pure function of
// (method, raw URL, key accepted or not, Origin): the first answer to such a
// request goes through the whole pipeline, request and response validation
// included, and its exact bytes are kept in an LRU bounded by bytes (for a list
// page or a Detail, the recipe that makes those bytes again from the client
// views: the positions of its clients, 8 bytes each where their JSON takes
// 180-1,000, so a CACHE_MB holds many times more answers). Repeats are
// written straight from there, before Express runs at all. Prefer requests,
// requests in a scenario other than normal (control.openapi.yaml) and
// failures the fault injector decides always take the full pipeline; injected
// latency still applies to hits.
//
// Every first answer is kept: with recipes a store costs a few µs, so even a
// URL never asked for again costs little (reports/performance/figures.md, "The
// response cache: keeping on first sight", has the measurement that chose this).
//
// A hit costs one Map lookup and one writeHead + end: the headers are kept as
// the flat [name, value, …] list Node writes without a per-header setHeader,
// with their names as the miss wrote them (case and order), so the bytes on
// the wire are the miss's bytes but for X-Request-Id and Date.
import type { ApiKeyGate, KeyedRequest } from './auth';
import type { RouteMatch } from '../../contract/operations';
import {
  NO_FAULT,
  REQUEST_ID_HEADER,
  type ApiStep,
  type BodyRecipe,
  type DecideFault,
  type FaultDecision,
  type RequestContext,
} from './request';

interface CachedResponse {
  status: number;
  /** Flat `[name, value, name, value, …]`, names as sent, without the per-request ones. */
  headers: (string | number | string[])[];
  /** The bytes, or how to make them again from the client views (a list page, a Detail): the same bytes, far less memory. */
  body: Buffer | BodyRecipe;
  route: RouteMatch;
  /** The first answer went through mock controls (not a 400/401 before them): hits get LATENCY_MS and ERROR_RATE too. */
  faulted: boolean;
  /** Hits served by remaking the body from its recipe; at KEEP_BYTES_AFTER_REMAKES the bytes are kept instead. */
  remakes: number;
  /** An error answer's Code and named parameter, for the request line of a hit (request.ts). */
  errorCode: string | undefined;
  errorParam: string | undefined;
}

/** Node has it on every outgoing message; @types/node declares it on ClientRequest only. */
interface WithRawHeaderNames {
  getRawHeaderNames(): string[];
}

/** What the cache reads of a request (Node's, or any with these members). */
interface CacheRequest extends KeyedRequest {
  method?: string | undefined;
  url?: string | undefined;
}

/** What a hit writes on (Node's response): the status and headers at once, then the body. */
interface RawResponse {
  readonly destroyed: boolean;
  writeHead(status: number, headers: (string | number | string[])[]): unknown;
  end(body: Uint8Array): unknown;
}

// Per-request headers, and those Node writes itself, are never replayed.
const NOT_REPLAYED = new Set(['x-request-id', 'date', 'connection', 'keep-alive', 'transfer-encoding']);
// Statuses that are a pure function of the request (a 401 is answered before capture starts).
// 5xx never: Exception must run its real path.
const CACHEABLE_STATUS = new Set([200, 400, 404]);
/**
 * What an entry keeps beyond its body, key and header text: the Map slot, the
 * entry object, the header list, the Buffer object and its share of the 8 KB
 * pool slab small bodies are cut from. Measured (npm run bench:cache-flood, its
 * accounting phase: heap and external memory after GC per entry, for 404s and
 * for list pages); the count errs high, never low, so CACHE_MB holds.
 */
const ENTRY_OVERHEAD_BYTES = 768;
/**
 * A recipe costs a page's copy on every hit (~5-15 µs for 25-100 clients). An
 * answer asked for this often is kept as its bytes from then on: the few hot
 * URLs of a page a frontend polls are written straight from memory, while the
 * long tail of varied traffic stays small recipes, so CACHE_MB still holds
 * many of them.
 */
const KEEP_BYTES_AFTER_REMAKES = 8;

/** Bytes an entry holds, as counted against CACHE_MB: body, key, header names and values, overhead. */
function entryBytes(key: string, entry: CachedResponse): number {
  let headerBytes = 0;
  for (const item of entry.headers) headerBytes += typeof item === 'number' ? 8 : String(item).length;
  // A key with characters beyond Latin-1 is stored two bytes a character.
  const keyBytes = /[\u0100-\uffff]/.test(key) ? key.length * 2 : key.length;
  const bodyBytes = Buffer.isBuffer(entry.body) ? entry.body.length : entry.body.heldBytes;
  return bodyBytes + keyBytes + headerBytes + ENTRY_OVERHEAD_BYTES;
}

export class ResponseCache {
  private readonly entries = new Map<string, CachedResponse>();
  private bytes = 0;
  hits = 0;

  constructor(
    private readonly maxBytes: number,
    private readonly gate: ApiKeyGate,
    /** The mock controls' decision (FaultInjector.decide): a hit whose first answer was shaped by them is shaped again. */
    private readonly decideFault: DecideFault,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  get usedBytes(): number {
    return this.bytes;
  }

  private keyOf(req: CacheRequest, context: RequestContext): string | undefined {
    // A scenario other than normal (server/control) shapes the answer as Prefer does: one scenario's answer is never another's;
    // a bad X-Mock-Session or X-Mock-Scenario is a 400 the full pipeline gives, never the plain request's cached answer.
    if (req.method !== 'GET' || req.headers.prefer !== undefined || context.scenario !== undefined || context.scenarioProblem !== undefined)
      return undefined;
    context.keyCheck ??= this.gate.check(req);
    return `${context.keyCheck}\u0000${req.headers.origin ?? ''}\u0000${req.url ?? ''}`;
  }

  /** Writes a cached response and returns true, or returns false to let the full pipeline answer. */
  serve(req: CacheRequest, res: RawResponse, context: RequestContext): boolean {
    const key = this.keyOf(req, context);
    const entry = key === undefined ? undefined : this.entries.get(key);
    if (!entry || key === undefined) return false;
    const fault: FaultDecision = entry.faulted ? this.decideFault(context) : NO_FAULT;
    if (fault.fail) return false;
    // Refresh the entry's place in the LRU order.
    this.entries.delete(key);
    this.entries.set(key, entry);
    this.hits++;
    context.route = entry.route;
    context.servedFromCache = true;
    context.errorCode = entry.errorCode;
    context.errorParam = entry.errorParam;
    const write = () => {
      // The caller went away during an injected delay: there is nobody to answer.
      if (res.destroyed) return;
      // X-Request-Id first, where beginRequest's caller put it on the miss.
      res.writeHead(entry.status, [REQUEST_ID_HEADER, context.id, ...entry.headers]);
      res.end(this.bodyOf(key, entry));
    };
    if (fault.delayMs > 0) setTimeout(write, fault.delayMs);
    else write();
    return true;
  }

  /** A step of the API path: records the final bytes of a cacheable response as they are sent. */
  capture(): ApiStep {
    return (req, res, context) => {
      const key = this.keyOf(req, context);
      const route = context.route;
      if (key === undefined || !route) return;
      const end = res.end.bind(res) as (...args: unknown[]) => unknown;
      (res as { end: (...args: unknown[]) => unknown }).end = (...args: unknown[]) => {
        const [chunk, encoding] = args;
        if (CACHEABLE_STATUS.has(res.statusCode) && (typeof chunk === 'string' || Buffer.isBuffer(chunk))) {
          // Only a 200 sent as bytes can be the page its recipe makes; anything else keeps its own bytes.
          const { remake } = context;
          const body =
            (res.statusCode === 200 && Buffer.isBuffer(chunk) ? remake : undefined) ??
            (typeof chunk === 'string' ? Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8') : chunk);
          const headers: CachedResponse['headers'] = [];
          for (const name of (res as unknown as WithRawHeaderNames).getRawHeaderNames()) {
            const value = res.getHeader(name);
            if (!NOT_REPLAYED.has(name.toLowerCase()) && value !== undefined) headers.push(name, value as string | number | string[]);
          }
          const { errorCode, errorParam } = context;
          this.store(key, {
            status: res.statusCode,
            headers,
            body,
            route,
            faulted: context.fault !== undefined,
            errorCode,
            errorParam,
            remakes: 0,
          });
        }
        return end(...args);
      };
    };
  }

  /** The entry's bytes: kept, or remade from its recipe (and kept from the KEEP_BYTES_AFTER_REMAKES-th time on). */
  private bodyOf(key: string, entry: CachedResponse): Buffer {
    if (Buffer.isBuffer(entry.body)) return entry.body;
    const body = entry.body.make();
    // A Detail's bytes are a slice of the records' JSON (client-records.ts): nothing is assembled, nothing to save.
    if (entry.body.copies && ++entry.remakes >= KEEP_BYTES_AFTER_REMAKES && this.entries.get(key) === entry) {
      this.store(key, { ...entry, body });
    }
    return body;
  }

  private store(key: string, entry: CachedResponse): void {
    const size = entryBytes(key, entry);
    if (size > this.maxBytes) return;
    const previous = this.entries.get(key);
    if (previous) {
      this.bytes -= entryBytes(key, previous);
      this.entries.delete(key);
    }
    this.entries.set(key, entry);
    this.bytes += size;
    for (const [oldestKey, oldest] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(oldestKey);
      this.bytes -= entryBytes(oldestKey, oldest);
    }
  }
}
