// Tag Client: thin handlers over the store. The validator has already checked
// every parameter, so handlers only read them.
import { Router, type RequestHandler } from 'express';
import type { ClientDetail, ClientExtendedPage, ClientSimplePage } from '../../contract/wire-types';
import { clientNotFound } from '../errors';
import { readListQuery, setPagingHeaders } from '../paging';
import { toExtended, toSimple } from '../projections';
import type { ClientStore } from '../store';

/** One handler for both lists: they differ only in how a client is projected. */
function listPage<Page extends ClientSimplePage | ClientExtendedPage>(
  store: ClientStore,
  project: (client: ClientDetail) => Page['Results'][number],
  publicUrl: string | undefined,
): RequestHandler {
  return (req, res) => {
    const query = readListQuery(req.query);
    const { total, items } = store.page(query);
    setPagingHeaders(res, req.path, query, total, publicUrl);
    res.json({ Page: query.page, PageSize: query.pageSize, Results: items.map(project) } as Page);
  };
}

export function clientRoutes(store: ClientStore, publicUrl?: string): Router {
  const router = Router({ caseSensitive: true, strict: true });

  // operationId: getClientsSimple
  router.get('/api/v1/Client/Simple', listPage<ClientSimplePage>(store, toSimple, publicUrl));

  // operationId: getClientsExtended
  router.get('/api/v1/Client/Extended', listPage<ClientExtendedPage>(store, toExtended, publicUrl));

  // operationId: getClientDetail
  router.get('/api/v1/Client/Detail/:idClient', (req, res) => {
    const id = String(req.params.idClient);
    const client: ClientDetail | undefined = store.byId(id.toLowerCase());
    if (!client) throw clientNotFound(id);
    res.json(client);
  });

  return router;
}
