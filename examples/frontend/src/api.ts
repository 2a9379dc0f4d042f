// The page's data layer: openapi-fetch typed from this package's OpenAPI types,
// so a path, parameter or field that openapi.yaml does not have is a compile error.
import createClient from 'openapi-fetch';
import type { components, paths } from 'client-records-mock';

export type ClientRow = components['schemas']['ClientExtended'];
export type ClientDetail = components['schemas']['ClientDetail'];
type ErrorDto = components['schemas']['ErrorDto'];

export interface ListRequest {
  page: number;
  pageSize: number;
  filter?: string;
}

export interface ListPage {
  rows: ClientRow[];
  /** From X-Total-Count: the matching clients over all pages. */
  total: number;
  page: number;
  pageSize: number;
}

/** What the page shows: the data, or one line saying what went wrong. */
export type Result<T> = { ok: true; value: T } | { ok: false; error: string };

function failure(error: ErrorDto | undefined, response: Response): { ok: false; error: string } {
  return { ok: false, error: error ? `${error.Code}: ${error.Message}` : `HTTP ${response.status}` };
}

const UNREACHABLE: { ok: false; error: string } = { ok: false, error: 'The client service cannot be reached' };

/**
 * The data layer for a base URL. The key is optional: the app in a browser sends none, since the dev
 * server's proxy adds it (vite.config.ts); a test in Node talks to the mock directly and passes it.
 */
export function createApi(baseUrl: string, apiKey?: string) {
  const client = createClient<paths>({
    baseUrl,
    headers: apiKey ? { 'X-Api-Key': apiKey } : {},
    // Looked up at each call, not captured once: MSW (and other test doubles) replace globalThis.fetch after start-up.
    fetch: (request) => globalThis.fetch(request),
  });

  return {
    async list({ page, pageSize, filter }: ListRequest): Promise<Result<ListPage>> {
      try {
        const query = { page, pageSize, ...(filter ? { filter } : {}) };
        const { data, error, response } = await client.GET('/api/v1/Client/Extended', { params: { query } });
        if (!data) return failure(error, response);
        const total = Number(response.headers.get('X-Total-Count'));
        return { ok: true, value: { rows: data.Results, total, page: data.Page, pageSize: data.PageSize } };
      } catch {
        return UNREACHABLE;
      }
    },

    async detail(idClient: string): Promise<Result<ClientDetail>> {
      try {
        const { data, error, response } = await client.GET('/api/v1/Client/Detail/{idClient}', { params: { path: { idClient } } });
        return data ? { ok: true, value: data } : failure(error, response);
      } catch {
        return UNREACHABLE;
      }
    },
  };
}

export type Api = ReturnType<typeof createApi>;
