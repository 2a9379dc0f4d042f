// Tag Client: thin handlers over the store. The validator has already checked
// every parameter, so handlers only read them: a list's query is parsed once
// into a ListQuery (request.ts) that goes down to the store and into the
// page's echo and Link. Answers are assembled from the per-client JSON made
// once per client (engine/projections.ts); with full response validation on
// they take the object path through res.json instead, where
// express-openapi-validator checks every body.
import type { PipelineResponse } from '../exchange';
import type { OperationId } from '../../../contract/operations';
import type { ClientDetail, ClientExtendedPage, ClientSimplePage } from '../../../contract/wire-types';
import { clientNotFound } from '../../errors';
import { readListQuery, type ListParameters, type OperationHandler, type PagingHeaders } from '../request';
import { toExtended, toSimple, type ClientParts, type ClientView } from '../../engine/projections';
import type { ClientStore } from '../../engine/store';

export interface ClientRouteOptions {
  parts: ClientParts;
  /** The served spec's list parameters: their names and defaults. */
  listParameters: ListParameters;
  /** Writes X-Total-Count and Link (paging.ts). */
  paging: PagingHeaders;
  /** Build objects and answer through res.json, so the response validator sees every body. */
  objectPath: boolean;
}

/** What res.json does with the text it has stringified: the same headers (it adds the charset for text), the same bytes. */
function sendJson(res: PipelineResponse, json: Buffer): void {
  if (!res.get('Content-Type')) res.set('Content-Type', 'application/json; charset=utf-8');
  res.send(json);
}

/** One handler for both lists: they differ only in how a client is projected. */
function listPage<Page extends ClientSimplePage | ClientExtendedPage>(
  store: ClientStore,
  project: (client: ClientDetail) => Page['Results'][number],
  view: ClientView,
  options: ClientRouteOptions,
): OperationHandler {
  const { parts, listParameters, paging, objectPath } = options;
  return (req, res, context) => {
    const query = readListQuery(req.query, listParameters);
    const { total, positions } = store.page(query);
    paging(res, req.path, query, total);
    if (objectPath) {
      const Results = positions.map((position) => project(store.client(position)));
      res.json({ Page: query.page, PageSize: query.pageSize, Results } as Page);
      return;
    }
    const head = `{"Page":${query.page},"PageSize":${query.pageSize},"Results":[`;
    // A cached copy of this page keeps the positions, not the bytes: 8 bytes a client instead of 180-1,000.
    context.remake = {
      make: () => parts.join(view, positions, head, ']}'),
      heldBytes: 8 * positions.length + 2 * head.length + 160,
      copies: true,
    };
    sendJson(res, parts.join(view, positions, head, ']}'));
  };
}

export function clientHandlers(
  store: ClientStore,
  options: ClientRouteOptions,
): Record<Extract<OperationId, 'getClientsSimple' | 'getClientsExtended' | 'getClientDetail'>, OperationHandler> {
  const { parts, objectPath } = options;
  return {
    getClientsSimple: listPage<ClientSimplePage>(store, toSimple, 'ClientSimple', options),
    getClientsExtended: listPage<ClientExtendedPage>(store, toExtended, 'ClientExtended', options),
    getClientDetail: (req, res, context) => {
      // Decoded from the path by dispatch (app.ts), and checked to be a uuid by the validator.
      const id = String(req.params.idClient);
      const position = store.positionOf(id.toLowerCase());
      if (position === undefined) throw clientNotFound(id);
      if (objectPath) res.json(store.client(position));
      else {
        // The bytes are a slice of the record's JSON (client-records.ts): a cached copy holds nothing more.
        context.remake = { make: () => parts.bytes('ClientDetail', position), heldBytes: 96, copies: false };
        sendJson(res, parts.bytes('ClientDetail', position));
      }
    },
  };
}
