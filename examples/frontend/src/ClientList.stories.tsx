// The client list in every state the API's scenarios name (issue 39), read through the app's own data layer
// (api.ts) from client-records-mock/browser's handlers in MSW's service worker: each story picks its
// scenario in parameters.msw, and the mock pages, filters and fails inside the page as the spec says, with
// no server. e2e-storybook/ opens each story of the static build in Chromium and asserts what it shows.
import { useEffect, useState } from 'react';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { fn } from 'storybook/test';
import { createHandlers } from 'client-records-mock/browser';
import { createApi, type ClientRow } from './api.ts';
import { ClientList, PAGE_SIZE, type ListState } from './ClientList.tsx';

const API_KEY = 'storybook-key';
// The page's own origin: the worker answers the API's paths there, wherever the Storybook is served.
const api = createApi(window.location.origin, API_KEY);

/** The mock of every story: 1,000 clients from seed 1 (the app's e2e tests' data), in the scenario given. */
const mock = (scenario?: string) => createHandlers({ seed: 1, clients: 1000, apiKeys: [API_KEY], ...(scenario ? { scenario } : {}) });

interface ListOfApiProps {
  /** The search term (Name, personal id, email or phone), as the app's search box sends it. */
  filter?: string;
  /** The page shown first; Previous and Next page on from it. */
  page: number;
  onOpen: (client: ClientRow) => void;
}

/** The list with its data: the page asked for through api.ts, as the app reads it, shown by ClientList. */
function ClientListOfApi({ filter, page: firstPage, onOpen }: ListOfApiProps) {
  const [page, setPage] = useState(firstPage);
  const [state, setState] = useState<ListState>({ kind: 'loading' });
  useEffect(() => {
    let shown = true;
    setState({ kind: 'loading' });
    void api.list({ page, pageSize: PAGE_SIZE, ...(filter ? { filter } : {}) }).then((result) => {
      if (shown) setState(result.ok ? { kind: 'ready', page: result.value } : { kind: 'error', message: result.error });
    });
    return () => {
      shown = false;
    };
  }, [page, filter]);
  return <ClientList state={state} page={page} onPage={setPage} onOpen={onOpen} />;
}

const meta = {
  title: 'Clients/ClientList',
  component: ClientListOfApi,
  args: { page: 1, onOpen: fn() },
  decorators: [
    (Story) => (
      <main>
        <Story />
      </main>
    ),
  ],
} satisfies Meta<typeof ClientListOfApi>;

export default meta;
type Story = StoryObj<typeof meta>;

/** The first page of 1,000 clients. */
export const Typical: Story = { parameters: { msw: { handlers: mock() } } };

/** No client at all: the lists' `empty` example. */
export const Empty: Story = { parameters: { msw: { handlers: mock('empty') } } };

/** One client: the lists' `single` example. */
export const Single: Story = { parameters: { msw: { handlers: mock('single') } } };

/** Every text at its longest: the lists' `longest` example, for the layout's worst case. */
export const Longest: Story = { parameters: { msw: { handlers: mock('longest') } } };

/** The backend down: every Client operation answers 500 INTERNAL_ERROR. */
export const Down: Story = { parameters: { msw: { handlers: mock('down') } } };

/** A slow backend: "Loading…" for 1.2 to 1.5 s, then the rows. */
export const Slow: Story = { parameters: { msw: { handlers: mock('slow;min=1200;max=1500') } } };

/** Every key rejected: 401 UNAUTHORIZED. */
export const Unauthorised: Story = { parameters: { msw: { handlers: mock('unauthorised') } } };

/** The second page of a search, as the app's search box asks for it: filtered and paged by the mock. */
export const FilteredPage: Story = { args: { filter: 'berg', page: 2 }, parameters: { msw: { handlers: mock() } } };
