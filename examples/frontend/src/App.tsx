// The page: a search box, the client list with paging, and the detail of the client opened. It reads
// through TanStack Query, which shares one request between identical queries in flight: React's
// StrictMode mounts every component twice in development, and each mount asks for the same page, yet
// the backend sees one request per page shown (the Playwright tests count them in the mock's journal).
import { useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { createApi, type Result } from './api.ts';
import { ClientList, PAGE_SIZE, type ListState } from './ClientList.tsx';
import { ClientDetailPanel, type DetailState } from './ClientDetail.tsx';

// Same origin: the dev server's proxy sends /api to the mock, with the key (vite.config.ts).
const api = createApi(window.location.origin);

function stateOf<T, S>(
  result: Result<T> | undefined,
  ready: (value: T) => S,
): S | { kind: 'loading' } | { kind: 'error'; message: string } {
  if (!result) return { kind: 'loading' };
  return result.ok ? ready(result.value) : { kind: 'error', message: result.error };
}

export default function App() {
  const [page, setPage] = useState(1);
  const [filter, setFilter] = useState('');
  const [openId, setOpenId] = useState<string>();
  const list = useQuery({
    queryKey: ['clients', page, filter],
    queryFn: () => api.list({ page, pageSize: PAGE_SIZE, ...(filter ? { filter } : {}) }),
  });
  const detail = useQuery({
    queryKey: ['client', openId],
    queryFn: () => api.detail(openId!),
    enabled: openId !== undefined,
  });

  function search(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setFilter(String(new FormData(event.currentTarget).get('filter') ?? '').trim());
    setPage(1);
  }

  const listState: ListState = stateOf(list.data, (value) => ({ kind: 'ready', page: value }));
  const detailState: DetailState = stateOf(detail.data, (client) => ({ kind: 'ready', client }));
  return (
    <main>
      <h1>Clients</h1>
      <form role="search" onSubmit={search}>
        <input name="filter" type="search" aria-label="Search clients" placeholder="Name, personal id, email or phone" />
        <button type="submit">Search</button>
      </form>
      <ClientList state={listState} page={page} onPage={setPage} onOpen={(client) => setOpenId(client.IdClient)} />
      {openId !== undefined && <ClientDetailPanel state={detailState} />}
    </main>
  );
}
