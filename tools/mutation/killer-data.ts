// Why this file exists: the data and first requests that the mutation killer's servers hold
// (tests/mutation/contract-killer.test.ts), in one place, so the differential decider (roads.ts) opens the same
// servers: a mutant that only those data or that first request bring out must differ on the decider's corpus too,
// not be called equivalent because the corpus ran on other data.
import type { ClientDetail } from '../../contract/wire-types';

/**
 * Names (and ids) that make each rule of the documented order matter (openapi.yaml, "Lists: paging, order and
 * totals"): the same name twice and a name equal to it under the collator but not as a string (Åsa / Asa), the
 * three with ids in neither the order of the data nor its reverse, and Åsa's between the two Asa's, so that only
 * ranking them as one name and then by IdClient orders them right (a tie kept in data order or reversed, or Åsa
 * put after Asa, gives another order: the lazy store's selection of the first page, list-order.ts select, meets
 * them too); and a letter the collator places apart from what it folds to (Þ sorts after Z, its folding
 * "th" among the T's), so that a sort by the folded names alone is told from the collator's. Generated names
 * rarely do all of this in 120 clients.
 */
const ORDER_CASES: readonly (readonly [string, string, string?])[] = [
  ['Åsa', 'Berg', '00000000-0000-4000-8000-000000000002'],
  ['Asa', 'Berg', '00000000-0000-4000-8000-000000000003'],
  ['Asa', 'Berg', '00000000-0000-4000-8000-000000000001'],
  ['Tor', 'Ek'],
  ['Þór', 'Ek'],
  ['Zoe', 'Aero'],
];

/**
 * Names in scripts far from the generated ones (Greek, Cyrillic, Han), after the order cases: with them the data's
 * folded fields hold more distinct characters than the search index's alphabet (63), so its rarest characters
 * share the "other" symbol and a term holding one takes that path (the texts kept as UTF-8, each match confirmed
 * on its text). The generated data alone has some 43 characters, so that path was never taken with a match.
 */
const SCRIPT_CASES: readonly (readonly [string, string])[] = [
  ['Ελένη', 'Παπαδοπούλου'],
  ['Αθηνά', 'Ζαχαρίου'],
  ['Дмитрий', 'Соколов'],
  ['Юлия', 'Щербакова'],
  ['李', '小龍'],
];

/**
 * Every sixth client's phone as long as the schema allows (`+` and 24 digits): the phones' digits then outrun the
 * room the search index sets aside for them (about 12 a client), so its growing is run; generated phones have 11.
 */
const LONG_PHONE_EVERY = 6;

/** The clients with the order cases first (and the script cases after them when `scripts`), every sixth phone long. */
export function withCases(clients: readonly ClientDetail[], scripts: boolean): ClientDetail[] {
  return clients.map((generated, i) => {
    const client =
      i % LONG_PHONE_EVERY === LONG_PHONE_EVERY - 1
        ? {
            ...generated,
            ContactInfo: {
              ...generated.ContactInfo,
              Phone: `+${`${generated.ContactInfo.Phone.replace(/\D/g, '')}${i}`.padEnd(24, '7').slice(0, 24)}`,
            },
          }
        : generated;
    const names = ORDER_CASES[i] ?? (scripts ? SCRIPT_CASES[i - ORDER_CASES.length] : undefined);
    if (!names) return client;
    const [FirstName, LastName, IdClient = client.IdClient] = names;
    return { ...client, IdClient, PersonalInfo: { ...client.PersonalInfo, FirstName, LastName, FullName: `${FirstName} ${LastName}` } };
  });
}

/**
 * A lazy store (the in-process handlers') fills in as it is asked: the suite's first request is the first page,
 * which it answers by selection, and its third sorts. What the suite never asks first: a filter before anything
 * (its groups read every record before any order is known), and the first page then a filter (the groups read past
 * the selection before the sort). What a store does wrong then stays in it, where later requests meet it.
 */
export const ASKED_FIRST = {
  filter: ['/api/v1/Client/Extended?active=true'],
  'page-then-filter': ['/api/v1/Client/Simple', '/api/v1/Client/Extended?active=true'],
} as const satisfies Record<string, readonly string[]>;
