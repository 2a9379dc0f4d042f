// Traffic in which no request repeats, so every answer is a cache miss that the
// response cache then keeps: the worst case for its memory bound. Shared by
// npm run bench:cache-flood and the soak's cache-churn phase.
import http from 'node:http';
import { API_KEY, HOST } from '../tools/processes';

/**
 * The memory bound docs/reliability.md states ("Memory bound"), measured with
 * npm run bench:cache-flood: RSS at start (the data, every list view made:
 * warmListViews) + what a flood of misses
 * allocates between collections, whatever the cache (CACHE=off peaked 87 to
 * 139 MB above start) + CACHE_RSS_FACTOR × CACHE_MB (a full, churning cache
 * raised the peak by up to 4.5 times its size at 100,000 clients: what it
 * evicts dies in the old generation, which V8 lets grow before collecting).
 */
export const FLOOD_WORKING_SET_MB = 200;
export const CACHE_RSS_FACTOR = 4;

/**
 * Serves every client's Simple and Extended view once, so the per-client JSON
 * the server keeps for list pages (made on first use, kept for good) is built
 * before "start" is measured: it is data, not cache. `Prefer: code=200` keeps
 * these answers out of the response cache (Prefer requests are never cached).
 */
export async function warmListViews(port: number, clients: number): Promise<void> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
  const get = (path: string) =>
    new Promise<void>((resolve, reject) => {
      http
        .get({ host: HOST, port, path, agent, headers: { 'X-Api-Key': API_KEY, Prefer: 'code=200' } }, (res) => {
          res.resume();
          res.on('end', resolve);
        })
        .on('error', reject);
    });
  const pages = Math.ceil(clients / 100);
  const paths = ['Simple', 'Extended'].flatMap((list) =>
    Array.from({ length: pages }, (_, i) => `/api/v1/Client/${list}?page=${i + 1}&pageSize=100`),
  );
  for (let i = 0; i < paths.length; i += 4) await Promise.all(paths.slice(i, i + 4).map(get));
  agent.destroy();
}

/** The bound in MB for a server that started at `startMb`. */
export function cacheBoundMb(startMb: number, cacheMb: number): number {
  return Math.round(startMb + FLOOD_WORKING_SET_MB + CACHE_RSS_FACTOR * cacheMb);
}

/** The bound as the reports print it. */
export function describeBound(startMb: number, cacheMb: number): string {
  return `${startMb.toFixed(0)} + ${FLOOD_WORKING_SET_MB} + ${CACHE_RSS_FACTOR} × ${cacheMb} = ${cacheBoundMb(startMb, cacheMb)} MB`;
}

/**
 * The n-th request of the flood: 404s, list pages, filtered pages and 400s,
 * every one a URL not seen before. Pages are 1 to 20 records: the point is many
 * entries (each with its overhead) at the rate a client can send, not big ones.
 */
export function uniquePath(n: number): string {
  const round = Math.floor(n / 4);
  switch (n % 4) {
    case 0:
      return `/api/v1/Client/Detail/00000000-0000-4000-8000-${round.toString(16).padStart(12, '0')}`;
    case 1:
      return `/api/v1/Client/Simple?page=${1 + (round % 5000)}&pageSize=${1 + (Math.floor(round / 5000) % 20)}`;
    case 2:
      return `/api/v1/Client/Extended?filter=an&page=${1 + (round % 1000)}&pageSize=${1 + (Math.floor(round / 1000) % 20)}`;
    default:
      return `/api/v1/Client/Simple?pageSize=${round + 101}`;
  }
}

export interface FloodFigures {
  requests: number;
  errors: number;
  statuses: Record<string, number>;
}

/**
 * `connections` keep-alive loops sending unique requests from `firstRequest`
 * on until `durationMs` is over (bounded in time; each request has a 10 s timeout).
 */
export async function uniqueFlood(port: number, durationMs: number, connections: number, firstRequest = 0): Promise<FloodFigures> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const figures: FloodFigures = { requests: 0, errors: 0, statuses: {} };
  const endAt = performance.now() + durationMs;
  let next = firstRequest;
  const one = (path: string) =>
    new Promise<void>((resolve) => {
      const req = http.get({ host: HOST, port, path, agent, headers: { 'X-Api-Key': API_KEY }, timeout: 10_000 }, (res) => {
        res.resume();
        res.on('end', () => {
          figures.statuses[res.statusCode ?? 0] = (figures.statuses[res.statusCode ?? 0] ?? 0) + 1;
          resolve();
        });
      });
      req.on('timeout', () => req.destroy(new Error('timeout')));
      req.on('error', () => {
        figures.errors++;
        resolve();
      });
    });
  const loop = async () => {
    while (performance.now() < endAt) {
      figures.requests++;
      await one(uniquePath(next++));
    }
  };
  await Promise.all(Array.from({ length: connections }, loop));
  agent.destroy();
  return figures;
}
