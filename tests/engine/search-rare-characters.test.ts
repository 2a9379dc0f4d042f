// Terms holding a character outside the search index's 63-symbol alphabet
// (search-index.ts, otherTexts): such a term can only be in a text holding
// that character, and the index keeps those texts as strings. Here a tenth of
// the clients carry one of 150 rare characters in their names, so many of
// them fall outside the alphabet; every term with one must find exactly what
// the plain scan finds, before and after the records are compacted.
import { foldText } from '../../contract/text-folding';
import { generateClients } from '../../seeds/client';
import { normalizeTerm } from '../../server/engine/search/search-index';
import { ClientStore } from '../../server/engine/store';

const RARE = Array.from({ length: 150 }, (_, i) => String.fromCharCode((i % 2 ? 0x4e00 : 0x0410) + i));
const clients = generateClients(11, 3000).map((client, i) => {
  if (i % 10 !== 0) return client;
  const FullName = `${client.PersonalInfo.FullName}${RARE[(i / 10) % RARE.length]}${RARE[(i / 10 + 7) % RARE.length]}`;
  return { ...client, PersonalInfo: { ...client.PersonalInfo, FullName } };
});
const fields = clients.map((c) =>
  [c.PersonalInfo.FullName, c.PersonalInfo.PersonalId, c.ContactInfo.Email, c.ContactInfo.Phone].map(foldText),
);

function scan(filter: string): string[] {
  const term = normalizeTerm(filter);
  return clients.filter((_, i) => fields[i]!.some((field) => field.includes(term))).map((c) => c.IdClient);
}

function found(store: ClientStore, filter: string): string[] {
  const { positions } = store.page({ page: 1, pageSize: 3000, filter });
  return positions.map((position) => store.client(position).IdClient);
}

// Each rare character alone, with the letter before it, and with the next rare character.
const terms = clients
  .filter((_, i) => i % 10 === 0)
  .flatMap((c) => {
    const name = c.PersonalInfo.FullName;
    return [name.slice(-2, -1), name.slice(-3, -1), name.slice(-2)];
  });

test.each([false, true])('rare-character terms (compacted: %s) → the clients the scan finds', async (compacted) => {
  const store = new ClientStore(clients);
  if (compacted) await store.compact();
  let matched = 0;
  for (const term of terms) {
    const expected = scan(term);
    expect(found(store, term).sort()).toEqual(expected.sort());
    matched += expected.length;
  }
  // The terms do hit: a broken lookup cannot pass by finding nothing where nothing is.
  expect(matched).toBeGreaterThan(terms.length);
});
