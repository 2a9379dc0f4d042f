// Filter completeness over the full walk: the filter rule applied to the walked list gives exactly the filtered
// answer, in list order, for terms cut from the data (cut-terms.ts) of every length and commonness, terms only in
// one field or in none, and filters combined, at a large and a small page size. A model of the rule, checked
// against the deployment's own clients; what holds whatever the data is a relation (relations/).
import { isDeepStrictEqual } from 'node:util';
import { digitTerm, filterTerm } from '../../contract/text-folding';
import type { ClientExtended } from '../../contract/wire-types';
import { fold, matchesFilter, queryString, termStretch, totalCount, upperCaseSameLength, type ListQuery } from '../kit/semantics';
import type { CheckContext, FullWalk } from '../kit/context';
import { meetsFilters } from '../../contract/judge';
import { countProbeTerms, cutTerms, PROBE_PAGE_SIZE, spread, termKinds, walkedClients, walkedFromStart, type CutTerm } from './cut-terms';

type Check = (context: CheckContext) => Promise<void>;

/** Pages of a filtered list read when the full walk could not read the whole list: only its start is compared then. */
const FILTERED_PAGES_ON_A_LONG_LIST = 3;

/**
 * The list under `filters` walked (bounded by context.walk) at `pageSize`, compared with those filters' rules
 * applied to the full walk's pages from the first on (all of them when it read every page): the filtered list
 * begins with exactly the clients of that stretch that meet every filter, in list order (any later match comes
 * after them all); when both walks are complete, that is the whole filtered list and X-Total-Count its number.
 */
async function expectQueryExactly(
  context: CheckContext,
  extended: string,
  filters: ListQuery,
  why: string,
  source?: ClientExtended,
  pageSize = context.maxPageSize,
): Promise<void> {
  const walk = await context.fullWalk(extended);
  const query = { ...filters, pageSize: String(context.maxPageSize) };
  const probe = await context.get(extended + queryString(query));
  context.expectList(probe, query);

  const expected = walkedFromStart(walk)
    .filter((c) => meetsFilters(c as unknown as Record<string, unknown>, filters as Record<string, string | undefined>))
    .map((c) => c.IdClient);
  // Past a full walk's reach only the filtered list's start is compared: its first pages are enough.
  const found = await context.walk<ClientExtended>(extended, filters, pageSize, walk.complete ? undefined : FILTERED_PAGES_ON_A_LONG_LIST);

  const ids = found.items.map((c) => c.IdClient);
  const shown = `${queryString(filters)} (${why})`;
  // A bounded walk of a large filtered list need not reach the source client.
  if (source && found.complete)
    context.expect(
      ids.includes(source.IdClient),
      probe,
      `${shown} misses ${source.FullName} (${source.IdClient})`,
      'check.filter-complete',
    );
  // What both walks read: a filtered walk that stopped early is compared as far as it went.
  const compared = found.complete ? expected.length : Math.min(expected.length, ids.length);
  const [got, wanted] = [ids.slice(0, compared), expected.slice(0, compared)];
  const whole = walk.complete && found.complete;
  const missing = wanted.filter((id) => !got.includes(id));
  const extra = (whole ? ids : got).filter((id) => !expected.includes(id));
  context.expect(
    isDeepStrictEqual(got, wanted) && (!whole || (ids.length === expected.length && found.total === expected.length)),
    probe,
    `${shown} is not exactly the clients that meet it, in list order${whole ? ', X-Total-Count their number' : ` (the first ${compared} compared)`}: ${missing.length} missing (${missing.slice(0, 3).join(', ')}), ${extra.length} extra (${extra.slice(0, 3).join(', ')}), X-Total-Count ${found.total} for ${expected.length}`,
    Object.keys(filters).length > 1 ? 'check.filter-and' : 'check.filter-complete',
  );
}

/** The filtered list walked, compared with the filter rule applied to the full walk. */
const expectFilterExactly = (context: CheckContext, extended: string, term: string, source: ClientExtended, why: string) =>
  expectQueryExactly(context, extended, { filter: term }, why, source);

/** The full walk's clients, or a skip when it lists none. */
async function walkedOrSkip(context: CheckContext, extended: string, what: string): Promise<ClientExtended[]> {
  const clients = walkedClients(await context.fullWalk(extended));
  if (clients.length === 0) context.skip(`the deployment lists no clients: ${what}`);
  return clients;
}

/** True when `term` folded is in the client's `field` and in none of its other searched fields. */
const onlyIn = (client: ClientExtended, term: string, field: 'FullName' | 'Email' | 'Phone') => {
  const others = (['FullName', 'PersonalId', 'Email', 'Phone'] as const).filter((f) => f !== field);
  return others.every((f) => !fold(client[f]).includes(fold(term)));
};

/** The last five letters of a last name that no other searched field of the client holds. */
export const termOnlyInFullName =
  (extended: string): Check =>
  async (context) => {
    const clients = await walkedOrSkip(context, extended, 'no name to cut a term from');
    const candidates = spread(clients, 40).map((client) => {
      const chars = [...termStretch(client.PersonalInfo.LastName)];
      return {
        client,
        term: chars
          .slice(Math.max(0, chars.length - 5))
          .join('')
          .trim(),
      };
    });
    const pick = candidates.find(({ client, term }) => term.length >= 3 && onlyIn(client, term, 'FullName')) ?? candidates[0]!;

    await expectFilterExactly(context, extended, pick.term, pick.client, 'only in FullName');
  };

/** The characters around an e-mail address's `@`: no name, PersonalId or phone holds an `@`. */
export const termOnlyInEmail =
  (extended: string): Check =>
  async (context) => {
    const clients = await walkedOrSkip(context, extended, 'no e-mail address to cut a term from');
    const client = clients[Math.floor(clients.length / 3)]!;
    const at = client.Email.indexOf('@');
    const term = client.Email.slice(Math.max(0, at - 2), at + 3);

    await expectFilterExactly(context, extended, term, client, 'only in Email');
  };

/** A phone's last six characters as written. */
export const phoneEndAsWritten =
  (extended: string): Check =>
  async (context) => {
    const clients = await walkedOrSkip(context, extended, 'no phone number to cut a term from');
    const client = clients[Math.floor((2 * clients.length) / 3)]!;
    const term = client.Phone.slice(-6).trim();

    await expectFilterExactly(context, extended, term, client, 'in Phone');
  };

/** A whole name with its space, folded and upper-cased: found in FullName only by folding, in no e-mail address. */
export const foldedUpperCasedName =
  (extended: string): Check =>
  async (context) => {
    const clients = await walkedOrSkip(context, extended, 'no name to fold and upper-case');
    const client = clients.find((c) => fold(c.FullName) !== c.FullName.toLowerCase()) ?? clients[0]!;
    const term = upperCaseSameLength(fold(termStretch(client.FullName) || client.FullName));

    await expectFilterExactly(context, extended, term, client, 'accents folded, upper case');
  };

/** Letters outside the folding table and the ASCII letter a transliteration would make of them: they must not match it. */
const LOOKALIKES: Record<string, string> = { ŋ: 'n', ħ: 'h', ə: 'e', ŧ: 't', ɲ: 'n', ʒ: 'z', ɛ: 'e', ɔ: 'o' };

/** The first or last `count` characters of a text's longest stretch. */
const cut = (text: string, from: 'start' | 'end', count = 4) => {
  const chars = [...termStretch(text)];
  return (from === 'start' ? chars.slice(0, count) : chars.slice(-count)).join('').trim();
};

/** Terms no walked client matches: only in a field that is not searched, spanning two fields, a letter outside the table transliterated. */
function termsMatchingNoOne(clients: readonly ClientExtended[], rarestSource: ClientExtended | undefined): { term: string; why: string }[] {
  const nowhere = (term: string) => term.length >= 3 && !clients.some((client) => matchesFilter(client, term));
  const empty: { term: string; why: string }[] = [];
  const picks = spread(clients, 25);
  for (const [field, value] of [
    ['City', (c: ClientExtended) => c.ContactInfo.Address.City],
    ['Street', (c: ClientExtended) => c.ContactInfo.Address.Street],
    ['LocationName', (c: ClientExtended) => c.LocationName ?? ''],
    ['StaffName', (c: ClientExtended) => c.StaffName ?? ''],
  ] as const) {
    const term = picks.map((c) => termStretch(value(c))).find(nowhere);
    if (term !== undefined) empty.push({ term, why: `only in ${field}, which is not searched` });
  }
  // The first client's fields, and those of the client holding the rarest character (a search may well keep texts
  // with rare characters apart, and join their fields otherwise).
  for (const client of new Set([clients[0]!, ...(rarestSource ? [rarestSource] : [])]))
    for (const [a, b, pair] of [
      [client.FullName, client.PersonalId, 'FullName and PersonalId'],
      [client.PersonalId, client.Email, 'PersonalId and Email'],
      [client.Email, client.Phone, 'Email and Phone'],
    ] as const)
      for (const joint of [' ', '']) {
        const term = `${cut(a, 'end')}${joint}${cut(b, 'start')}`;
        if (nowhere(term) && !empty.some((e) => e.term === term))
          empty.push({ term, why: `spanning ${pair} (each field is searched on its own)` });
      }
  const outside = clients.find((c) => [...fold(c.FullName)].some((letter) => letter in LOOKALIKES));
  if (outside) {
    const term = [...fold(termStretch(outside.FullName))].map((letter) => LOOKALIKES[letter] ?? letter).join('');
    if (nowhere(term)) empty.push({ term, why: 'a letter outside the folding table transliterated (it matches only itself)' });
  }
  return empty;
}

/** Terms no walked client matches in a searched field: no client (from a complete walk), and each row held to the rule anyway. */
export const onlySearchedFieldsMatch =
  (extended: string): Check =>
  async (context) => {
    const walk = await context.fullWalk(extended);
    const clients = walkedClients(walk);
    if (clients.length === 0) context.skip('the deployment lists no clients: no fields to cut terms from');
    const empty = termsMatchingNoOne(clients, termKinds(walk).rare[0]?.source);
    if (empty.length === 0) context.skip('no term could be cut that no listed client matches');

    for (const { term, why } of empty) {
      const query = { filter: term, pageSize: String(context.maxPageSize) };
      const exchange = await context.get(extended + queryString(query));
      context.expectList(exchange, query);
      if (walk.complete)
        context.expect(
          totalCount(exchange) === 0,
          exchange,
          `filter=${JSON.stringify(term)} (${why}) found ${totalCount(exchange)} clients; none matches it`,
          'check.filter-fields',
        );
    }
  };

/** The full walk, or a skip when it lists no client. */
async function everyClient(context: CheckContext, extended: string, what: string): Promise<FullWalk> {
  const walk = await context.fullWalk(extended);
  if (walk.total === 0) context.skip(`the deployment lists no clients: no fields to cut ${what} from`);
  return walk;
}

/** The terms of every kind the kinds check sends, each with why it was picked. */
function picksOfEveryKind(context: CheckContext, walk: FullWalk): [CutTerm | undefined, string][] {
  const { words, digits, rare: atRarest } = termKinds(walk);
  const common = words[0] ?? context.skip('no searched field of a listed client is 4 characters long: no term to cut');
  const rare = words[words.length - 1]!;
  const overPage = words.filter((t) => t.matches > context.maxPageSize && t.matches < common.matches).pop();
  const picks: [CutTerm | undefined, string][] = [
    [common, `the commonest cut term, ${common.matches} clients`],
    [overPage, 'more matches than a page'],
    [words.find((t) => t.matches > 1 && t.matches <= context.maxPageSize), 'the commonest cut term held by a page'],
    [rare, 'the rarest cut term'],
    [digits[0], 'the commonest digits as written'],
    [digits[digits.length - 1], 'the rarest digits as written'],
  ];
  for (const from of [common, rare])
    for (const length of [1, 2, 3]) {
      const term = [...from.term].slice(0, length).join('').trim();
      picks.push([{ ...from, term }, `${length} character(s) of ${from === common ? 'the commonest' : 'the rarest'} cut term`]);
    }
  for (const pick of atRarest) picks.push([pick, `at the rarest character of the searched fields (${pick.matches} times)`]);
  // A phone's last seven digits with a dash the phone does not have: found only by its digits (the phone-digit rule);
  // of the rarest cut term's client and of the last walked one (an index may lose the end of what it holds).
  const last = walk.pages[walk.pages.length - 1]!.items.at(-1) ?? rare.source;
  for (const source of new Set([rare.source, last])) {
    const phone = source.Phone.replace(/\D/g, '');
    picks.push([{ ...rare, source, term: `${phone.slice(-7, -4)}-${phone.slice(-4)}` }, "a phone's digits with a dash put in"]);
  }
  return picks;
}

/** Terms of every length, commonness and kind: exactly the matching clients, in list order, on every page. */
export const termsOfEveryKind =
  (extended: string): Check =>
  async (context) => {
    const walk = await everyClient(context, extended, 'terms of every kind');
    for (const [pick, why] of picksOfEveryKind(context, walk))
      if (pick) await expectFilterExactly(context, extended, pick.term, pick.source, why);
  };

/** The count probe: one short page a term, its X-Total-Count and first rows exactly the rule's. */
export const countProbe =
  (extended: string): Check =>
  async (context) => {
    const walk = await everyClient(context, extended, 'terms to count');
    // The list's first clients (all of them when the walk is complete): the filtered list begins with their matches.
    const listed = walkedFromStart(walk);
    // A short page: the count and where the matches begin tell most faults, and a term costs one small answer.
    const pageSize = Math.min(PROBE_PAGE_SIZE, context.maxPageSize);
    for (const term of countProbeTerms(walkedClients(walk))) {
      const query = { filter: term, pageSize: String(pageSize) };
      const exchange = await context.get(extended + queryString(query));
      context.expectList(exchange, query);
      const expected = listed.filter((c) => matchesFilter(c, term)).map((c) => c.IdClient);
      const ids = ((exchange.json as { Results?: ClientExtended[] } | undefined)?.Results ?? []).map((c) => c.IdClient);
      const n = Math.min(expected.length, pageSize);
      const total = totalCount(exchange);
      context.expect(
        isDeepStrictEqual(ids.slice(0, n), expected.slice(0, n)) && (!walk.complete || (ids.length === n && total === expected.length)),
        exchange,
        `filter=${JSON.stringify(term)}: the first page is not exactly the first ${n} clients that match it${walk.complete ? `, or X-Total-Count (${total}) not their number (${expected.length})` : ''}`,
        'check.filter-complete',
      );
    }
  };

type Combination = [ListQuery, string, ClientExtended?, number?];

/**
 * The staff member and the location with the most clients, each with both statuses where the data has one, walked at
 * a third of their clients a page: every filter then leaves some of the others' clients out, on more than one page.
 */
function groupCombinations(context: CheckContext, clients: readonly ClientExtended[], common: CutTerm): Combination[] {
  const statusOf = (client: ClientExtended) => (client.Status === 'Active' ? 'true' : 'false');
  const combinations: Combination[] = [];
  for (const field of ['IdStaff', 'IdLocation'] as const) {
    const groups = new Map<string, ClientExtended[]>();
    for (const c of clients) if (c[field] !== null) groups.set(c[field]!, [...(groups.get(c[field]!) ?? []), c]);
    const mixed = (group: ClientExtended[]) => new Set(group.map((c) => c.Status)).size;
    const [id, group] = [...groups].sort(([, a], [, b]) => mixed(b) - mixed(a) || b.length - a.length)[0] ?? [];
    if (id === undefined || group === undefined) continue;
    const parameter = field === 'IdStaff' ? 'idStaff' : 'idLocation';
    const query = { [parameter]: id, active: statusOf(group[0]!), filter: common.term };
    const pageSize = Math.min(context.maxPageSize, Math.max(1, Math.floor(group.length / 3)));
    combinations.push([query, `${parameter} with the most clients, active, the commonest cut term`, undefined, pageSize]);
    // And a term cut from the group's own clients with about as many matches as it has clients: neither filter then
    // holds most of the other, and they share at least the client the term came from.
    const alike = cutTerms(clients, spread(group, 12))
      .filter((t) => t.matches > 1 && digitTerm(filterTerm(t.term)) === undefined)
      .sort((a, b) => Math.abs(a.matches - group.length) - Math.abs(b.matches - group.length))[0];
    if (alike)
      combinations.push([
        { [parameter]: id, filter: alike.term },
        `${parameter} with a cut term of about as many matches`,
        undefined,
        pageSize,
      ]);
  }
  return combinations;
}

/** Filters combined (filter with active; idStaff or idLocation with active and filter): exactly the clients that meet every one. */
export const combinedFiltersExactly =
  (extended: string): Check =>
  async (context) => {
    const walk = await everyClient(context, extended, 'filter combinations');
    const clients = walkedClients(walk);
    const { words } = termKinds(walk);
    const common = words[0] ?? context.skip('no searched field of a listed client is 4 characters long: no term to cut');
    const rare = words[words.length - 1]!;
    const combinations: Combination[] = [
      [{ filter: common.term, active: 'true' }, 'the commonest cut term, active'],
      [{ filter: common.term, active: 'false' }, 'the commonest cut term, inactive'],
      [
        { filter: rare.term, active: rare.source.Status === 'Active' ? 'true' : 'false' },
        "the rarest cut term and its client's status",
        rare.source,
      ],
      ...groupCombinations(context, clients, common),
    ];
    for (const [query, why, source, pageSize] of combinations) await expectQueryExactly(context, extended, query, why, source, pageSize);
  };
