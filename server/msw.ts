// The package's MSW entry for require() (`client-records-mock/msw` from CommonJS, and node10
// type resolution): msw's own `http`, as this project's msw resolves it, handed to the handlers.
// ES-module projects get server/msw.mjs instead (package.json exports), which imports msw,
// so the handlers come from the same msw (2 or 3) as the project's setupServer.
import { http, type HttpHandler } from 'msw';
import { createHandlersWith, type HandlerOptions, type MockHandlers } from './msw-core';

export type { HandlerOptions } from './msw-core';

/**
 * Handlers for msw's `setupServer` (vitest, jest). Options are the mock's own
 * (seed, clients, dataFile, apiKeys, auth, latencyMs, errorRate, ...), checked at
 * once: a bad option throws a ConfigError here, not at the first request. The
 * data is built once per set of options, in the background, and shared by every
 * handler call and every createHandlers call with the same options (pass the
 * suite's options along with `prefer`). The array's `setScenario(name)` switches the scenario
 * its later answers are given in.
 */
export function createHandlers(options: Readonly<HandlerOptions>): MockHandlers<HttpHandler> {
  return createHandlersWith(http, options);
}
