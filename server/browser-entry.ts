// What `client-records-mock/browser` is (dist/browser/index.js, bundled by scripts/build-browser.ts):
// createHandlers with the page's own msw `http` (MSW 2 or 3, whichever the page imports: msw stays
// outside the bundle) and the package's own openapi.yaml, parsed at build time and bundled as its
// JSON (a virtual module of the build; served-spec.d.ts types it). Only esbuild compiles this file.
import { http, type HttpHandler } from 'msw';
import servedSpec from 'client-records-mock:served-spec';
import { createHandlersWith, type BrowserHandlerOptions, type BrowserHandlers } from './browser';

export { ConfigError, type BrowserHandlerOptions, type BrowserHandlers } from './browser';

/**
 * Handlers for msw's `setupWorker` (a Vite dev server, Storybook, a static preview): the mock answers in the
 * page, with no server. Options are the mock's own (seed, clients, apiKeys, auth, latencyMs, errorRate,
 * validateResponses, publicUrl, corsOrigins, control), with `baseUrl` (default: the page's origin), `prefer`
 * and `scenario` as the Node handlers take them; a bad one throws a ConfigError naming it.
 */
export function createHandlers(options: Readonly<BrowserHandlerOptions> = {}): BrowserHandlers<HttpHandler> {
  return createHandlersWith(http, servedSpec, options);
}
