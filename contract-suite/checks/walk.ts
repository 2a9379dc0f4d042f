// Checks over whole lists rather than one page: the full walk (unique ids, the
// documented order across every page boundary, the count), Detail agreement
// sampled across the whole list, the in-record rules on every walked record,
// filter completeness (the rule applied to the walked list gives exactly the
// filtered answer: for terms cut from the data of every length and commonness,
// and for filters combined, at a large and a small page size) and every Link
// target followed.
import { isDeepStrictEqual } from 'node:util';
import { describeRecordProblem, recordProblems } from '../../contract/record-rules';
import { digitTerm, filterTerm } from '../../contract/text-folding';
import type { ClientDetail, ClientExtended } from '../../contract/wire-types';
import {
  compareClients,
  fold,
  linkRelations,
  matchesFilter,
  queryString,
  targetQuery,
  termStretch,
  totalCount,
  upperCaseSameLength,
  type ListQuery,
} from '../kit/semantics';
import { operationPaths, type CheckContext, type Define, type FullWalk } from '../kit/context';
import { meetsFilters, type RuleId } from '../../contract/judge';
import { pathBelowBase } from '../kit/http';
import type { SpecContract } from '../../contract/spec-contract';

const RECORD_RULES: readonly RuleId[] = [
  'record.luhn',
  'record.birth-date',
  'record.full-name',
  'record.basic-fields',
  'record.staff-name',
  'record.location-name',
];

/** Every walked client, in list order. */
function walkedClients(walk: FullWalk): ClientExtended[] {
  return walk.pages.flatMap((page) => page.items);
}

/** The walked clients of pages 1, 2, … up to the first page a bounded walk left out: the list's first clients, all of them when it is complete. */
function walkedFromStart(walk: FullWalk): ClientExtended[] {
  const pages = [...walk.pages].sort((a, b) => a.page - b.page);
  const gap = pages.findIndex((page, i) => page.page !== i + 1);
  return pages.slice(0, gap < 0 ? pages.length : gap).flatMap((page) => page.items);
}

/** Evenly spread picks from a list, first and last included. */
function spread<T>(items: readonly T[], count: number): T[] {
  if (items.length <= count) return [...items];
  return Array.from({ length: count }, (_, i) => items[Math.round((i * (items.length - 1)) / (count - 1))]!);
}

/** The fields `filter` searches (openapi.yaml), each on its own. */
const SEARCHED = ['FullName', 'PersonalId', 'Email', 'Phone'] as const;

/** Clients a cut term's matches are counted on: all of them up to this many. */
const COUNTED = 2000;

/** A term cut from a client's searched field, and how many walked clients hold it in some field as written. */
interface CutTerm {
  term: string;
  matches: number;
  source: ClientExtended;
}

/**
 * Terms cut from the searched fields of clients spread over the walked list (4 to 12 characters from the start,
 * the middle and the end of each and at each sign in it, folded, so the source holds each; or of the given sources),
 * every term with the count of walked clients (COUNTED of them at most) holding it in a folded field. The count only
 * ranks the terms (it leaves out the phone-digit rule): what a check expects of a term is the filter rule applied to
 * the full walk, never this count.
 */
function cutTerms(clients: readonly ClientExtended[], sources = spread(clients, 12), lengths = [4, 6, 8, 12]): CutTerm[] {
  // Counted on at most COUNTED clients: on a long list counting them all kept the connection idle for seconds (a
  // server may close an idle keep-alive connection then), and a rank needs no exact count.
  const folded = spread(clients, COUNTED).map((c) => SEARCHED.map((field) => fold(c[field])));
  const terms = new Map<string, CutTerm>();
  for (const source of sources)
    for (const field of SEARCHED) {
      const chars = [...fold(termStretch(source[field]))];
      // Characters that are no letter or digit (`@`, `.`, `+`, a space): terms that begin or end at one are often common.
      const signs = chars.flatMap((c, i) => (/[\p{L}\p{N}]/u.test(c) ? [] : [i]));
      for (const length of lengths)
        for (const at of [
          0,
          Math.floor((chars.length - length) / 2),
          chars.length - length,
          ...signs.flatMap((i) => [i, i - length + 1]),
        ]) {
          const term = chars
            .slice(Math.max(0, at), Math.max(0, at) + length)
            .join('')
            .trim();
          if ([...term].length < Math.min(...lengths) || terms.has(term)) continue;
          terms.set(term, { term, source, matches: folded.filter((fields) => fields.some((text) => text.includes(term))).length });
        }
    }
  return [...terms.values()];
}

/**
 * Terms at the rarest character of the walked clients' folded searched fields (a search may well keep rare
 * characters apart from the rest): that character alone, and with the three characters after and before it.
 */
function rarestCharacterTerms(clients: readonly ClientExtended[]): CutTerm[] {
  const counts = new Map<string, number>();
  const first = new Map<string, [ClientExtended, string[]]>();
  for (const source of clients)
    for (const field of SEARCHED) {
      const chars = [...fold(termStretch(source[field]))];
      for (const c of chars) {
        counts.set(c, (counts.get(c) ?? 0) + 1);
        if (!first.has(c)) first.set(c, [source, chars]);
      }
    }
  // Among equally rare ones the last in code-point order: scripts far from Latin come last, and are likelier kept apart.
  const rarest = [...counts].filter(([c]) => c !== ' ').sort(([a, x], [b, y]) => x - y || (a < b ? 1 : -1))[0]?.[0];
  if (rarest === undefined) return [];
  const [source, chars] = first.get(rarest)!;
  const at = chars.indexOf(rarest);
  const terms = [rarest, chars.slice(at, at + 4).join(''), chars.slice(Math.max(0, at - 3), at + 1).join('')];
  return terms.map((term) => ({ term: term.trim(), source, matches: counts.get(rarest)! }));
}

/**
 * The cut terms of each kind a search can answer differently (a filter index may well: a term of 1-3 characters,
 * one in most texts, one between), by their count: `words` are terms of letters and signs, `digits` those the
 * phone-digit rule also applies to (only digits, spaces, `+`, `-` and brackets), most matches first; `rare` the
 * terms at the rarest character.
 */
function termKinds(walk: FullWalk): TermKinds {
  const known = kindsOf.get(walk);
  if (known) return known;
  const byMatches = (a: CutTerm, b: CutTerm) => b.matches - a.matches || (a.term < b.term ? -1 : 1);
  const terms = cutTerms(walkedClients(walk)).sort(byMatches);
  const isDigits = (t: CutTerm) => digitTerm(filterTerm(t.term)) !== undefined;
  const kinds = {
    words: terms.filter((t) => !isDigits(t)),
    digits: terms.filter(isDigits),
    rare: rarestCharacterTerms(walkedClients(walk)),
  };
  kindsOf.set(walk, kinds);
  return kinds;
}
/** Each full walk's terms, cut once: a run's checks share one full walk, and cutting is the costly part. */
const kindsOf = new WeakMap<FullWalk, TermKinds>();
interface TermKinds {
  words: CutTerm[];
  digits: CutTerm[];
  /** Terms at the rarest character of the searched fields. */
  rare: CutTerm[];
}

/** At most this many terms of each kind the count probe sends (one request each): characters, 2-3 character pieces, cut terms by rank. */
export const PROBED_CHARACTERS = 96;
export const PROBED_PIECES = 48;
export const PROBED_RANKS = 16;
/** The page size the count probe asks for: its first page is compared with the rule's first matches. */
const PROBE_PAGE_SIZE = 10;
/** Substrings of each length from 4 to 8 the probe sends, spread over those held by two clients or more, by how many hold each. */
export const PROBED_PER_LENGTH = 6;
/** Clients (spread over the walk) whose substrings are counted: every substring of 4-8 characters costs more than a cut term. */
const SUBSTRINGS_COUNTED = 500;

/**
 * Terms whose count and first page a search index may answer wrong while its rare and commonest terms come out right
 * (an index may well answer terms of 1-3 characters from a table as they are, and intersect the pieces of longer ones):
 * every character of the walked clients' folded searched fields (spread over their ranks by how often each occurs when
 * there are more than PROBED_CHARACTERS), 2- and 3-character pieces cut from the fields of clients spread over the list
 * as the longer cut terms are (the start, the middle, the end, at each sign: digits with a dash, a space or a bracket
 * among them), substrings of 4 to 8 characters spread over their ranks by how many clients hold each, and the cut
 * terms of 4-12 characters spread over their ranks by matches (every commonness, not only the ends). Only the data
 * decides them: what is expected of each is the filter rule applied to the walk.
 */
export function countProbeTerms(clients: readonly ClientExtended[]): string[] {
  const counts = new Map<string, number>();
  for (const client of clients)
    for (const field of SEARCHED) for (const c of fold(termStretch(client[field]))) counts.set(c, (counts.get(c) ?? 0) + 1);
  const characters = [...counts]
    .filter(([c]) => !/\p{White_Space}/u.test(c))
    .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1))
    .map(([c]) => c);
  const pieces = cutTerms(clients, spread(clients, 4), [2, 3]).map((t) => t.term);
  const ranked = cutTerms(clients).sort((a, b) => b.matches - a.matches || (a.term < b.term ? -1 : 1));
  // Substrings of each length from 4 to 8 of every commonness (an index may well keep common ones' matches apart).
  const folded = spread(clients, SUBSTRINGS_COUNTED).map((c) => SEARCHED.map((field) => fold(termStretch(c[field]))));
  const substrings: string[] = [];
  for (let length = 4; length <= 8; length++) {
    const held = new Map<string, number>();
    for (const fields of folded) {
      const own = new Set<string>();
      for (const text of fields) {
        const chars = [...text];
        for (let i = 0; i + length <= chars.length; i++) own.add(chars.slice(i, i + length).join(''));
      }
      for (const piece of own) if (piece.trim() === piece) held.set(piece, (held.get(piece) ?? 0) + 1);
    }
    const shared = [...held].filter(([, count]) => count > 1).sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1));
    substrings.push(...spread(shared, PROBED_PER_LENGTH).map(([piece]) => piece));
  }
  const terms = [
    ...substrings,
    ...spread(characters, PROBED_CHARACTERS),
    ...spread(pieces, PROBED_PIECES),
    ...spread(ranked, PROBED_RANKS).map((t) => t.term),
  ];
  return [...new Set(terms)];
}

/** Pages of a filtered list read when the full walk could not read the whole list: only its start is compared then. */
const FILTERED_PAGES_ON_A_LONG_LIST = 3;

/** How many clients Detail is compared with, spread over the walked list. */
const DETAIL_SAMPLES = 24;

export function walkChecks(check: Define, contract: SpecContract): void {
  const PATHS = operationPaths(contract);
  const extended = PATHS.getClientsExtended;

  for (const operation of ['getClientsSimple', 'getClientsExtended'] as const) {
    const path = PATHS[operation];
    const short = path.replace('/api/v1', '');
    check(
      operation,
      `GET ${short} full walk (pageSize 100, bounded) → unique ids and PersonalIds, ordered across every page boundary, as many as X-Total-Count`,
      async (context) => {
        const walk = await context.fullWalk(path);

        const seen = new Set<string>();
        const personalIds = new Set<string>();
        let previous: ClientExtended | undefined;
        let previousPage = 0;
        for (const { page, exchange, items } of walk.pages) {
          context.expect(
            totalCount(exchange) === walk.total,
            exchange,
            `X-Total-Count changed to ${totalCount(exchange)} from ${walk.total}`,
            'check.total',
          );
          // Across the gap of a bounded walk the order cannot be compared.
          if (page !== previousPage + 1) previous = undefined;
          for (const [i, client] of items.entries()) {
            const id = client.IdClient.toLowerCase();
            context.expect(
              !seen.has(id),
              exchange,
              `client ${client.IdClient} (${client.FullName}) is listed twice (page ${page}, item ${i})`,
              'check.walk-unique',
            );
            seen.add(id);
            context.expect(
              !personalIds.has(client.PersonalId),
              exchange,
              `PersonalId ${client.PersonalId} is not unique (page ${page}, item ${i})`,
              'record.unique-personal-id',
            );
            personalIds.add(client.PersonalId);
            if (previous)
              context.expect(
                compareClients(previous, client) < 0,
                exchange,
                `page ${page} item ${i}: ${client.FullName} (${client.IdClient}) comes after ${previous.FullName} (${previous.IdClient}), against the documented order`,
                'list.order',
              );
            previous = client;
          }
          previousPage = page;
        }
        if (walk.complete) {
          const probe = walk.pages[walk.pages.length - 1]!.exchange;
          context.expect(
            seen.size === walk.total,
            probe,
            `the walk found ${seen.size} clients; X-Total-Count says ${walk.total}`,
            'check.total',
          );
        }
      },
      ['check.walk-unique', 'check.order', 'check.total', 'record.unique-personal-id'],
    );
  }

  check(
    'getClientsSimple',
    'GET /Client/Simple and /Client/Extended full walks → the same clients in the same order with the same basic fields',
    async (context) => {
      const [simple, ext] = [await context.fullWalk(PATHS.getClientsSimple), await context.fullWalk(extended)];

      const basic = (c: ClientExtended) => [c.IdClient, c.FullName, c.PersonalId, c.Phone, c.Email];
      const a = walkedClients(simple).map(basic);
      const b = walkedClients(ext).map(basic);
      const probe = ext.pages[0]!.exchange;
      context.expect(
        simple.total === ext.total,
        probe,
        `X-Total-Count: Simple ${simple.total}, Extended ${ext.total}`,
        'check.simple-extended',
      );
      const differs = a.findIndex((row, i) => !isDeepStrictEqual(row, b[i]));
      context.expect(
        differs < 0 && a.length === b.length,
        probe,
        `Simple and Extended differ at walked position ${differs}`,
        'check.simple-extended',
      );
    },
    ['check.simple-extended'],
  );

  check(
    'getClientsExtended',
    'GET /Client/Extended full walk → every record keeps the in-record rules (FullName is FirstName LastName; PersonalId begins with DateOfBirth and ends in its Luhn digit; basic fields repeat the sections; StaffName/LocationName null with their ids)',
    async (context) => {
      const walk = await context.fullWalk(extended);

      for (const { exchange, items } of walk.pages) {
        const problems = items.flatMap((client) => recordProblems(client).map((problem) => ({ client, problem })));
        // Each rule named, so a page of records counts as having held them all (runCheck's test of a vacuous pass).
        for (const rule of items.length > 0 ? RECORD_RULES : []) {
          const broken = problems.filter(({ problem }) => problem.rule === rule);
          context.expect(
            broken.length === 0,
            exchange,
            broken
              .slice(0, 5)
              .map(({ client, problem }) => `${client.IdClient}: ${describeRecordProblem(problem)}`)
              .join('\n    '),
            rule,
          );
        }
      }
    },
    RECORD_RULES,
  );

  check(
    'getClientDetail',
    `GET /Client/Detail/{idClient} for ${DETAIL_SAMPLES} clients spread over the whole list (first, middle, last pages) → agrees with Extended, keeps the in-record rules`,
    async (context) => {
      const walk = await context.fullWalk(extended);
      if (walk.total === 0) context.skip('the deployment lists no clients: no Detail to compare with a list row');
      const picks = spread(walkedClients(walk), DETAIL_SAMPLES);
      for (const kind of ['IdStaff', 'IdLocation'] as const) {
        const withNull = walkedClients(walk).find((c) => c[kind] === null);
        if (withNull && !picks.includes(withNull)) picks.push(withNull);
      }

      for (const listed of picks) {
        const exchange = await context.get(`${PATHS.getClientDetail}/${listed.IdClient}`);

        context.expectStatus(exchange, 200);
        const detail = exchange.json as ClientDetail;
        const expect = (ok: boolean, what: string) =>
          context.expect(
            ok,
            exchange,
            `Detail disagrees with Extended on ${what} for ${listed.IdClient} (${listed.FullName})`,
            'detail.agrees-with-list',
          );
        // JSON objects are unordered (RFC 8259): values are compared, not serializations.
        expect(detail.IdClient.toLowerCase() === listed.IdClient.toLowerCase(), 'IdClient');
        expect(isDeepStrictEqual(detail.PersonalInfo, listed.PersonalInfo), 'PersonalInfo');
        expect(isDeepStrictEqual(detail.ContactInfo, listed.ContactInfo), 'ContactInfo');
        expect(detail.Status === listed.Status, 'Status');
        expect((detail.Staff?.IdStaff ?? null) === listed.IdStaff && (detail.Staff?.FullName ?? null) === listed.StaffName, 'Staff');
        expect(
          (detail.Location?.IdLocation ?? null) === listed.IdLocation && (detail.Location?.Name ?? null) === listed.LocationName,
          'Location',
        );
        const problems = recordProblems(detail);
        if (problems.length > 0) context.fail(exchange, problems.map(describeRecordProblem).join('\n    '), problems[0]!.rule);
      }
    },
    ['detail.agrees-with-list', ...RECORD_RULES],
  );

  /**
   * The list under `filters` walked (bounded by context.walk) at `pageSize`, compared with those filters' rules
   * applied to the full walk's pages from the first on (all of them when it read every page): the filtered list
   * begins with exactly the clients of that stretch that meet every filter, in list order (any later match comes
   * after them all); when both walks are complete, that is the whole filtered list and X-Total-Count its number.
   */
  async function expectQueryExactly(
    context: CheckContext,
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
    const found = await context.walk<ClientExtended>(
      extended,
      filters,
      pageSize,
      walk.complete ? undefined : FILTERED_PAGES_ON_A_LONG_LIST,
    );

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
  const expectFilterExactly = (context: CheckContext, term: string, source: ClientExtended, why: string) =>
    expectQueryExactly(context, { filter: term }, why, source);

  const onlyIn = (client: ClientExtended, term: string, field: 'FullName' | 'Email' | 'Phone') => {
    const others = (['FullName', 'PersonalId', 'Email', 'Phone'] as const).filter((f) => f !== field);
    return others.every((f) => !fold(client[f]).includes(fold(term)));
  };

  check(
    'getClientsExtended',
    'GET /Client/Extended?filter=<a term only in FullName> → exactly the matching clients (completeness)',
    async (context) => {
      const clients = walkedClients(await context.fullWalk(extended));
      if (clients.length === 0) context.skip('the deployment lists no clients: no name to cut a term from');
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

      await expectFilterExactly(context, pick.term, pick.client, 'only in FullName');
    },
    ['check.filter-complete', 'filter.text'],
  );
  check(
    'getClientsExtended',
    'GET /Client/Extended?filter=<a term only in Email> → exactly the matching clients (completeness)',
    async (context) => {
      const clients = walkedClients(await context.fullWalk(extended));
      const client =
        clients[Math.floor(clients.length / 3)] ?? context.skip('the deployment lists no clients: no e-mail address to cut a term from');
      const at = client.Email.indexOf('@');
      // Around the '@': no name, PersonalId or phone holds an '@'.
      const term = client.Email.slice(Math.max(0, at - 2), at + 3);

      await expectFilterExactly(context, term, client, 'only in Email');
    },
    ['check.filter-complete', 'filter.text'],
  );
  check(
    'getClientsExtended',
    'GET /Client/Extended?filter=<the last digits of a Phone, as written> → exactly the matching clients (completeness)',
    async (context) => {
      const clients = walkedClients(await context.fullWalk(extended));
      const client =
        clients[Math.floor((2 * clients.length) / 3)] ??
        context.skip('the deployment lists no clients: no phone number to cut a term from');
      const term = client.Phone.slice(-6).trim();

      await expectFilterExactly(context, term, client, 'in Phone');
    },
    ['check.filter-complete', 'check.filter-phone-digits'],
  );
  check(
    'getClientsExtended',
    'GET /Client/Extended?filter=<a full name folded and upper-cased> → exactly the matching clients (case- and accent-insensitive completeness)',
    async (context) => {
      const clients = walkedClients(await context.fullWalk(extended));
      // The whole name with its space: found in FullName only by folding, and in no e-mail address (they hold no spaces).
      const client =
        clients.find((c) => fold(c.FullName) !== c.FullName.toLowerCase()) ??
        clients[0] ??
        context.skip('the deployment lists no clients: no name to fold and upper-case');
      const term = upperCaseSameLength(fold(termStretch(client.FullName) || client.FullName));

      await expectFilterExactly(context, term, client, 'accents folded, upper case');
    },
    ['check.filter-complete', 'check.filter-folding'],
  );

  /** Letters outside the folding table and the ASCII letter a transliteration would make of them: they must not match it. */
  const LOOKALIKES: Record<string, string> = { ŋ: 'n', ħ: 'h', ə: 'e', ŧ: 't', ɲ: 'n', ʒ: 'z', ɛ: 'e', ɔ: 'o' };
  const TABLE_LETTERS = /[øæßłđœðþı]/i;
  const cut = (text: string, from: 'start' | 'end', count = 4) => {
    const chars = [...termStretch(text)];
    return (from === 'start' ? chars.slice(0, count) : chars.slice(-count)).join('').trim();
  };

  check(
    'getClientsExtended',
    'GET /Client/Extended?filter=<terms only in fields that are not searched, spanning two fields, with a letter outside the folding table transliterated, or folded by its table> → exactly the clients that match in FullName, PersonalId, Email or Phone, each on its own',
    async (context) => {
      const walk = await context.fullWalk(extended);
      const clients = walkedClients(walk);
      if (clients.length === 0) context.skip('the deployment lists no clients: no fields to cut terms from');
      // A term no walked client matches: the answer must be empty (when the walk saw every client), and each row the judge holds to the rule anyway.
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
      for (const client of new Set([
        clients[0]!,
        ...termKinds(walk)
          .rare.slice(0, 1)
          .map((t) => t.source),
      ]))
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
      const tabled = clients.find((c) => TABLE_LETTERS.test(c.FullName));
      if (tabled) {
        // The whole name with its space: e-mail addresses are often the folded name, but hold no space, so only the name can match.
        const word = termStretch(tabled.FullName);
        const term = upperCaseSameLength(fold(word));
        const found = await context.walk<ClientExtended>(extended, { filter: term });
        const probe = await context.get(extended + queryString({ filter: term, pageSize: String(context.maxPageSize) }));
        if (found.complete)
          context.expect(
            found.items.some((c) => c.IdClient === tabled.IdClient),
            probe,
            `filter=${JSON.stringify(term)} (${word} folded by the letter table) misses ${tabled.FullName}`,
            'check.filter-folding',
          );
      }
      if (empty.length === 0 && !tabled)
        context.skip('no term could be cut that no listed client matches, and no listed name has a letter of the folding table');
    },
    ['check.filter-fields', 'check.filter-folding', 'filter.text'],
  );

  /** The full walk, or a skip when it lists no client. */
  async function everyClient(context: CheckContext, what: string): Promise<FullWalk> {
    const walk = await context.fullWalk(extended);
    if (walk.total === 0) context.skip(`the deployment lists no clients: no fields to cut ${what} from`);
    return walk;
  }

  check(
    'getClientsExtended',
    'GET /Client/Extended?filter=<terms of 1, 2 and 3 characters, the commonest cut term, one with more matches than a page, the commonest that a page holds, the rarest, digits as written and with a dash put in, the rarest character> → exactly the matching clients, in list order, on every page (completeness)',
    async (context) => {
      const walk = await everyClient(context, 'terms of every kind');
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
      for (const [pick, why] of picks) if (pick) await expectFilterExactly(context, pick.term, pick.source, why);
    },
    ['check.filter-complete', 'filter.text', 'check.filter-phone-digits'],
  );
  check(
    'getClientsExtended',
    `GET /Client/Extended?filter=<every character of the searched fields, 2- and 3-character pieces, substrings of 4-8 characters and cut terms of every commonness> → X-Total-Count and the first page exactly the rule's (one request a term, at most ${PROBED_CHARACTERS + PROBED_PIECES + 5 * PROBED_PER_LENGTH + PROBED_RANKS})`,
    async (context) => {
      const walk = await everyClient(context, 'terms to count');
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
    },
    ['check.filter-complete', 'filter.text'],
  );
  check(
    'getClientsExtended',
    'GET /Client/Extended?filter&active, and idStaff or idLocation with active and filter, at a large and a small pageSize → exactly the clients that meet every filter, in list order (AND)',
    async (context) => {
      const walk = await everyClient(context, 'filter combinations');
      const clients = walkedClients(walk);
      const { words } = termKinds(walk);
      const common = words[0] ?? context.skip('no searched field of a listed client is 4 characters long: no term to cut');
      const rare = words[words.length - 1]!;
      const statusOf = (client: ClientExtended) => (client.Status === 'Active' ? 'true' : 'false');
      const combinations: [ListQuery, string, ClientExtended?, number?][] = [
        [{ filter: common.term, active: 'true' }, 'the commonest cut term, active'],
        [{ filter: common.term, active: 'false' }, 'the commonest cut term, inactive'],
        [{ filter: rare.term, active: statusOf(rare.source) }, "the rarest cut term and its client's status", rare.source],
      ];
      // The staff member and the location with the most clients, each with both statuses where the data has one, walked at
      // a third of their clients a page: every filter then leaves some of the others' clients out, on more than one page.
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
      for (const [query, why, source, pageSize] of combinations) await expectQueryExactly(context, query, why, source, pageSize);
    },
    ['check.filter-and', 'filter.active', 'filter.staff', 'filter.location', 'filter.text'],
  );

  for (const operation of ['getClientsSimple', 'getClientsExtended'] as const) {
    const path = PATHS[operation];
    const short = path.replace('/api/v1', '');
    const queries: ListQuery[] = [{ page: '2', pageSize: '3' }];
    if (operation === 'getClientsExtended') queries.push({ page: '2', pageSize: '2', active: 'true', filter: 'a' });
    for (const query of queries) {
      check(
        operation,
        `GET ${short}${queryString(query)} → every Link target (first, prev, next, last) gives exactly the page it names`,
        async (context) => {
          const start = await context.get(path + queryString(query));
          context.expectList(start, query);
          const links = linkRelations(start.headers.get('link'));

          for (const rel of ['first', 'prev', 'next', 'last']) {
            const target = links.get(rel);
            if (target === undefined) continue; // listViolations already holds which links must be there.
            const { params } = targetQuery(target, start.url);
            // Resolved against the request URL, then taken below the base URL's path prefix (send() puts it back).
            const followed = await context.get(pathBelowBase(context.target, new URL(target, start.url)));
            const named: ListQuery = { ...query, page: params.get('page') ?? '1', pageSize: params.get('pageSize') ?? undefined };
            context.expectList(followed, named);
            const direct = await context.get(path + queryString(named));
            context.expect(
              isDeepStrictEqual(followed.json, direct.json) && totalCount(followed) === totalCount(start),
              followed,
              `Link rel="${rel}" gave another page than ${path}${queryString(named)}`,
              'check.link-follow',
            );
          }
        },
        ['check.link-follow', 'list.link'],
      );
    }
  }
}
