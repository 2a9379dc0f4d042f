// The client list as a component of its data: what to show comes in as a state (loading, an error, or a
// page of rows), what the user does goes out as callbacks. It fetches nothing, so a story, a test or
// another page can render any state of it without a backend. Every state has its own visible text in
// the status line, which the Playwright tests read.
import type { ClientRow, ListPage } from './api.ts';

export const PAGE_SIZE = 10;

export type ListState = { kind: 'loading' } | { kind: 'error'; message: string } | { kind: 'ready'; page: ListPage };

export interface ClientListProps {
  state: ListState;
  /** The page asked for (1-based): the rows are numbered from it. */
  page: number;
  onPage: (page: number) => void;
  onOpen: (client: ClientRow) => void;
}

function statusOf(state: ListState, page: number): { text: string; kind: 'info' | 'error' | 'loading' } {
  if (state.kind === 'loading') return { text: 'Loading…', kind: 'loading' };
  if (state.kind === 'error') return { text: `Could not load clients: ${state.message}`, kind: 'error' };
  const { rows, total } = state.page;
  if (total === 0) return { text: 'No clients match.', kind: 'info' };
  const first = (page - 1) * PAGE_SIZE + 1;
  return { text: `${first}–${first + rows.length - 1} of ${total}`, kind: 'info' };
}

export function ClientList({ state, page, onPage, onOpen }: ClientListProps) {
  const status = statusOf(state, page);
  const rows = state.kind === 'ready' ? state.page.rows : [];
  const total = state.kind === 'ready' ? state.page.total : 0;
  return (
    <>
      <p id="status" role="status" data-kind={status.kind}>
        {status.text}
      </p>
      <table>
        <thead>
          <tr>
            <th>Name</th>
            <th>Personal id</th>
            <th>Phone</th>
            <th>Status</th>
          </tr>
        </thead>
        <tbody id="rows">
          {rows.map((client) => (
            <tr key={client.IdClient}>
              <td>
                <button type="button" className="link" onClick={() => onOpen(client)}>
                  {client.FullName}
                </button>
              </td>
              <td>{client.PersonalId}</td>
              <td>{client.Phone}</td>
              <td>{client.Status}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <nav aria-label="Pages">
        <button type="button" disabled={state.kind !== 'ready' || page <= 1} onClick={() => onPage(page - 1)}>
          Previous
        </button>
        <button type="button" disabled={state.kind !== 'ready' || page * PAGE_SIZE >= total} onClick={() => onPage(page + 1)}>
          Next
        </button>
      </nav>
    </>
  );
}
