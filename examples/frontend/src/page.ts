// The page: a list of clients with a search box and paging, and a detail panel.
// Plain DOM, so the example stays small; every state a user can meet (loading,
// empty, error, slow) has its own visible text, which the Playwright tests read.
import type { Api, ClientDetail, ClientRow } from './api';

export const PAGE_SIZE = 10;

function element<K extends keyof HTMLElementTagNameMap>(tag: K, text?: string, className?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (className) node.className = className;
  return node;
}

function byId<T extends HTMLElement>(id: string): T {
  const node = document.getElementById(id);
  if (!node) throw new Error(`#${id} is missing from index.html`);
  return node as T;
}

function section(title: string, lines: string[]): HTMLElement {
  const box = element('section');
  box.append(element('h3', title));
  for (const line of lines) box.append(element('p', line));
  return box;
}

function renderDetail(client: ClientDetail): HTMLElement[] {
  const { PersonalInfo: person, ContactInfo: contact, Staff: staff, Location: location, Insurance: insurance, Medical: medical } = client;
  const address = (a: { Street: string; PostalCode: string; City: string; Country: string }) =>
    `${a.Street}, ${a.PostalCode} ${a.City}, ${a.Country}`;
  return [
    element('h2', person.FullName),
    section('Personal', [`Personal id ${person.PersonalId}`, `Born ${person.DateOfBirth}`, person.Gender, client.Status]),
    section('Contact', [contact.Email, contact.Phone, address(contact.Address)]),
    section('Staff', staff ? [staff.FullName, staff.Specialization, staff.Phone] : ['No staff member assigned']),
    section('Location', location ? [location.Name, address(location.Address)] : ['No location']),
    section('Insurance', insurance ? [insurance.Name, insurance.PolicyNumber] : ['No insurance']),
    section('Allergies', medical.Allergies.length ? medical.Allergies.map((a) => `${a.Name} (${a.Severity})`) : ['None known']),
    section(
      'Medications',
      medical.Medications.length ? medical.Medications.map((m) => `${m.Name}, ${m.Dosage}, ${m.Frequency}`) : ['None'],
    ),
  ];
}

export function mountPage(api: Api): void {
  const form = byId<HTMLFormElement>('search');
  const filterInput = byId<HTMLInputElement>('filter');
  const status = byId('status');
  const rows = byId('rows');
  const prev = byId<HTMLButtonElement>('prev');
  const next = byId<HTMLButtonElement>('next');
  const detail = byId('detail');
  let page = 1;
  let filter = '';
  // Only the newest request may paint: an answer that arrives late (a slow backend) must not overwrite a newer one.
  let generation = 0;

  function showStatus(text: string, kind: 'info' | 'error' | 'loading'): void {
    status.textContent = text;
    status.dataset.kind = kind;
  }

  async function openDetail(row: ClientRow): Promise<void> {
    detail.hidden = false;
    detail.replaceChildren(element('p', 'Loading…', 'loading'));
    const result = await api.detail(row.IdClient);
    detail.replaceChildren(
      ...(result.ok ? renderDetail(result.value) : [element('p', `Could not load the client: ${result.error}`, 'error')]),
    );
  }

  function renderRows(list: ClientRow[]): void {
    rows.replaceChildren(
      ...list.map((client) => {
        const tr = element('tr');
        const open = element('button', client.FullName, 'link');
        open.type = 'button';
        open.addEventListener('click', () => void openDetail(client));
        const name = element('td');
        name.append(open);
        tr.append(name, element('td', client.PersonalId), element('td', client.Phone), element('td', client.Status));
        return tr;
      }),
    );
  }

  async function load(): Promise<void> {
    const mine = ++generation;
    showStatus('Loading…', 'loading');
    prev.disabled = next.disabled = true;
    const result = await api.list({ page, pageSize: PAGE_SIZE, ...(filter ? { filter } : {}) });
    if (mine !== generation) return;
    if (!result.ok) {
      rows.replaceChildren();
      showStatus(`Could not load clients: ${result.error}`, 'error');
      return;
    }
    const { rows: list, total } = result.value;
    renderRows(list);
    if (total === 0) showStatus('No clients match.', 'info');
    else showStatus(`${(page - 1) * PAGE_SIZE + 1}–${(page - 1) * PAGE_SIZE + list.length} of ${total}`, 'info');
    prev.disabled = page <= 1;
    next.disabled = page * PAGE_SIZE >= total;
  }

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    filter = filterInput.value.trim();
    page = 1;
    void load();
  });
  prev.addEventListener('click', () => {
    page -= 1;
    void load();
  });
  next.addEventListener('click', () => {
    page += 1;
    void load();
  });
  void load();
}
