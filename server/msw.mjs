// The package's MSW entry for `import` (package.json exports): msw's `http` as the importing
// project's msw resolves it for ES modules (MSW 3 is ES modules only; MSW 2's ES build), handed
// to the handlers, so they come from the same msw as the project's setupServer. The rest of the
// package is CommonJS, imported as one default object. Types: server/msw.d.mts.
import { http } from 'msw';
import core from './msw-core.js';

/** See server/msw.ts: the same function, with the ES-module msw. */
export function createHandlers(options) {
  return core.createHandlersWith(http, options);
}
