// The Node adapter of the neutral road (neutral-road.ts), for the in-process handlers (msw-core.ts) and
// the tests that run the whole contract suite through them behind a real socket: it makes the request's
// context on Node's own request and response (its id, the request line, the control room's hook), hands
// the request as a value to the neutral road, writes the answer value back in one writeHead + end, and
// hands what the road cannot prove plain, untouched, to the Express app on the same ApiPath (app.ts).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ApiPath } from './api-path';
import type { App } from './app';
import { AnswerRecorder, type ApiAnswer, type ApiRequest } from './exchange';
import { neutralRoad } from './neutral-road';
import { beginRequest } from './request';

/** A Node request as a value (the socket kept: the key gate's verdict per connection). */
function requestValue(req: IncomingMessage): ApiRequest {
  return { method: req.method ?? 'GET', url: req.url ?? '', headers: req.headers, rawHeaders: req.rawHeaders, socket: req.socket };
}

/** Writes an answer value on Node's response: status and headers in one writeHead, then the body. */
function writeAnswer(res: ServerResponse, answer: ApiAnswer | undefined): void {
  if (!answer) {
    res.destroy();
    return;
  }
  const flat: string[] = [];
  for (const [name, value] of answer.headers) flat.push(name, value);
  res.writeHead(answer.status, flat);
  res.end(answer.body);
}

/**
 * A request handler that makes the request's context as the Express app's own handler does (its id, the
 * control room's hook), answers by the neutral road what it can prove plain, and hands the rest, untouched,
 * to the Express app on the same API path, which `full` makes when first asked. `beforeFull` readies a
 * request for Express (msw-core.ts: light-my-request's objects). The in-process handlers use it; so do the
 * tests that run the whole contract suite through it behind a real socket (tests/contract/lean-path.test.ts,
 * the mutation killer).
 */
export function leanFirst(
  path: ApiPath,
  full: () => Promise<App>,
  beforeFull?: (req: IncomingMessage, res: ServerResponse) => void,
): (req: IncomingMessage, res: ServerResponse) => void {
  const road = neutralRoad(path);
  return (req, res) => {
    const context = beginRequest(req, res, path.lines);
    path.control?.begin(req, res, context);
    const request = requestValue(req);
    if (road(request, new AnswerRecorder(request.method, (answer) => writeAnswer(res, answer)), context)) return;
    beforeFull?.(req, res);
    full().then(
      (app) => app.respond(req, res, context),
      (error: unknown) => res.destroy(error as Error),
    );
  };
}
