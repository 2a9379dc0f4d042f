// Types of server/msw.mjs, the `import` entry of `client-records-mock/msw`: msw's HttpHandler as
// an ES module sees it, so `setupServer(...createHandlers(...))` type-checks in an ES-module
// project under NodeNext, Node16 and Bundler resolution with MSW 2 or 3 (issue 26). The options
// come from the CommonJS declarations, which import nothing of msw.
import type { HttpHandler } from 'msw';
import type { HandlerOptions, MockHandlers } from './msw-core.js';

export type { HandlerOptions };

/**
 * Handlers for msw's `setupServer` (vitest, jest). Options are the mock's own
 * (seed, clients, dataFile, apiKeys, auth, latencyMs, errorRate, ...), checked at
 * once: a bad option throws a ConfigError here, not at the first request.
 */
export declare function createHandlers(options: Readonly<HandlerOptions>): MockHandlers<HttpHandler>;
