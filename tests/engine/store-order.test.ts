// The store's list order against the documented comparator. The store sorts
// by collation rank of the distinct names (not with a collator call per
// comparison); these data sets are built to hit what that shortcut could get
// wrong: names equal under the collator but different as strings (case,
// accents, the special letters), punctuation and spaces, upper-case ids, and
// names shared by many clients, so that the id decides.
import fc from 'fast-check';
import type { ClientDetail } from '../../contract/wire-types';
import { generateClients } from '../../seeds/client';
import { ClientStore, compareClients } from '../../server/engine/store';

const base = generateClients(3, 400);

const nameParts = [
  'Åsa',
  'asa',
  'ASA',
  'Asa',
  'Ása',
  'Øyvind',
  'oyvind',
  'Łukasz',
  'Lukasz',
  "O'Keefe",
  'OKeefe',
  'O Keefe',
  'Strauß',
  'Strauss',
  'Æsir',
  'Aesir',
  'José',
  'Jose',
  'van der Berg',
  'Vanderberg',
  'Ö',
  'O',
  '',
  ' ',
];

function withNames(names: readonly string[], upperIds: readonly boolean[]): ClientDetail[] {
  return names.map((FullName, i) => {
    const client = base[i % base.length]!;
    const IdClient = upperIds[i] ? client.IdClient.toUpperCase() : client.IdClient;
    return { ...client, IdClient, PersonalInfo: { ...client.PersonalInfo, FullName } };
  });
}

function expectDocumentedOrder(clients: ClientDetail[]): void {
  const store = new ClientStore(clients);
  expect(store.clients().map((c) => c.IdClient)).toEqual([...clients].sort(compareClients).map((c) => c.IdClient));
}

describe('list order = compareClients', () => {
  test('generated clients', () => {
    expectDocumentedOrder(generateClients(11, 3000));
  });

  test('names equal under the collator, punctuation, spaces, upper-case ids, shared names', () => {
    const name = fc.array(fc.constantFrom(...nameParts), { minLength: 1, maxLength: 3 }).map((parts) => parts.join(' '));
    fc.assert(
      fc.property(fc.array(fc.tuple(name, fc.boolean()), { minLength: 1, maxLength: 400 }), (rows) => {
        expectDocumentedOrder(
          withNames(
            rows.map(([n]) => n),
            rows.map(([, upper]) => upper),
          ),
        );
      }),
      { numRuns: 150, seed: 23 },
    );
  });

  test('an empty data set and a single client', () => {
    expect(new ClientStore([]).clients()).toEqual([]);
    expectDocumentedOrder(base.slice(0, 1));
  });
});
