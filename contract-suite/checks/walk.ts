// Checks over whole lists rather than one page: the full walk (unique ids, the documented order across every page
// boundary, the count), Simple and Extended row against row, the in-record rules on every walked record, Detail
// against the list row of every walked client (up to DETAIL_BOUND, a seeded sample above it), filter completeness
// (completeness.ts) and every Link target followed.
import { isDeepStrictEqual } from 'node:util';
import { describeRecordProblem, recordProblems } from '../../contract/record-rules';
import type { ClientDetail, ClientExtended } from '../../contract/wire-types';
import { compareClients, linkRelations, queryString, targetQuery, totalCount, type ListQuery } from '../kit/semantics';
import { operationPaths, type CheckContext, type Define } from '../kit/context';
import type { RuleId } from '../../contract/judge';
import { pathBelowBase } from '../kit/http';
import { seededSample } from '../kit/sampling';
import type { SpecContract } from '../../contract/spec-contract';
import {
  combinedFiltersExactly,
  countProbe,
  foldedUpperCasedName,
  onlySearchedFieldsMatch,
  phoneEndAsWritten,
  termOnlyInEmail,
  termOnlyInFullName,
  termsOfEveryKind,
} from './completeness';
import { PROBED_CHARACTERS, PROBED_PER_LENGTH, PROBED_PIECES, PROBED_RANKS, walkedClients } from './cut-terms';

type Check = (context: CheckContext) => Promise<void>;

const RECORD_RULES: readonly RuleId[] = [
  'record.luhn',
  'record.birth-date',
  'record.full-name',
  'record.basic-fields',
  'record.staff-name',
  'record.location-name',
];

/**
 * Detail is compared with the list row of every walked client up to this many; above, with this many drawn from
 * the walked clients with the run's seed. A Detail that disagrees with its row for one client in 30 is then found
 * for sure up to the bound, and with probability 1 - (29/30)^2000 (all but 10^-29) above it.
 */
export const DETAIL_BOUND = 2_000;

/** Unique ids and PersonalIds, the order across every page boundary the walk read, X-Total-Count on every page and in all. */
const fullWalkUniqueAndOrdered =
  (path: string): Check =>
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
  };

/** The two full walks row against row: the same clients, order and basic fields, and one X-Total-Count. */
const simpleWalkMatchesExtended =
  (simplePath: string, extendedPath: string): Check =>
  async (context) => {
    const [simple, ext] = [await context.fullWalk(simplePath), await context.fullWalk(extendedPath)];

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
  };

/** Every walked record keeps every in-record rule, each rule named per page (so a page counts as having held them all). */
const walkedRecordsKeepTheRules =
  (extended: string): Check =>
  async (context) => {
    const walk = await context.fullWalk(extended);

    for (const { exchange, items } of walk.pages) {
      const problems = items.flatMap((client) => recordProblems(client).map((problem) => ({ client, problem })));
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
  };

/** One Detail against its list row: every shared section equal as JSON values, and the in-record rules. */
async function expectDetailAgrees(context: CheckContext, detailPath: string, listed: ClientExtended): Promise<void> {
  const exchange = await context.get(`${detailPath}/${listed.IdClient}`);

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

/** Detail of every walked client up to DETAIL_BOUND (a seeded sample above it, the clients without staff or location added). */
const detailAgreesWithEveryRow =
  (extended: string, detailPath: string): Check =>
  async (context) => {
    const walk = await context.fullWalk(extended);
    if (walk.total === 0) context.skip('the deployment lists no clients: no Detail to compare with a list row');
    const clients = walkedClients(walk);
    const picks = seededSample(clients, DETAIL_BOUND, context.seed);
    for (const kind of ['IdStaff', 'IdLocation'] as const) {
      const withNull = clients.find((c) => c[kind] === null);
      if (withNull && !picks.includes(withNull)) picks.push(withNull);
    }

    for (const listed of picks) await expectDetailAgrees(context, detailPath, listed);
  };

/** Every Link target of the page `query` asks for: exactly the page it names, asked for directly. */
const linkTargetsGiveTheirPages =
  (path: string, query: ListQuery): Check =>
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
  };

/** The filter completeness checks over the full walk (completeness.ts). */
function completenessChecks(check: Define, extended: string): void {
  const completeness = (name: string, run: Check, rules: readonly RuleId[]) => check('getClientsExtended', name, run, rules);
  completeness(
    'GET /Client/Extended?filter=<a term only in FullName> → exactly the matching clients (completeness)',
    termOnlyInFullName(extended),
    ['check.filter-complete', 'filter.text'],
  );
  completeness(
    'GET /Client/Extended?filter=<a term only in Email> → exactly the matching clients (completeness)',
    termOnlyInEmail(extended),
    ['check.filter-complete', 'filter.text'],
  );
  completeness(
    'GET /Client/Extended?filter=<the last digits of a Phone, as written> → exactly the matching clients (completeness)',
    phoneEndAsWritten(extended),
    ['check.filter-complete', 'check.filter-phone-digits'],
  );
  completeness(
    'GET /Client/Extended?filter=<a full name folded and upper-cased> → exactly the matching clients (case- and accent-insensitive completeness)',
    foldedUpperCasedName(extended),
    ['check.filter-complete', 'check.filter-folding'],
  );
  completeness(
    'GET /Client/Extended?filter=<terms only in fields that are not searched, spanning two fields, or with a letter outside the folding table transliterated> → no client: only FullName, PersonalId, Email and Phone are searched, each on its own',
    onlySearchedFieldsMatch(extended),
    ['check.filter-fields', 'filter.text'],
  );
  completeness(
    'GET /Client/Extended?filter=<terms of 1, 2 and 3 characters, the commonest cut term, one with more matches than a page, the commonest that a page holds, the rarest, digits as written and with a dash put in, the rarest character> → exactly the matching clients, in list order, on every page (completeness)',
    termsOfEveryKind(extended),
    ['check.filter-complete', 'filter.text', 'check.filter-phone-digits'],
  );
  completeness(
    `GET /Client/Extended?filter=<every character of the searched fields, 2- and 3-character pieces, substrings of 4-8 characters and cut terms of every commonness> → X-Total-Count and the first page exactly the rule's (one request a term, at most ${PROBED_CHARACTERS + PROBED_PIECES + 5 * PROBED_PER_LENGTH + PROBED_RANKS})`,
    countProbe(extended),
    ['check.filter-complete', 'filter.text'],
  );
  completeness(
    'GET /Client/Extended?filter&active, and idStaff or idLocation with active and filter, at a large and a small pageSize → exactly the clients that meet every filter, in list order (AND)',
    combinedFiltersExactly(extended),
    ['check.filter-and', 'filter.active', 'filter.staff', 'filter.location', 'filter.text'],
  );
}

export function walkChecks(check: Define, contract: SpecContract): void {
  const PATHS = operationPaths(contract);
  const extended = PATHS.getClientsExtended;
  for (const operation of ['getClientsSimple', 'getClientsExtended'] as const)
    check(
      operation,
      `GET ${PATHS[operation].replace('/api/v1', '')} full walk (pageSize 100, bounded) → unique ids and PersonalIds, ordered across every page boundary, as many as X-Total-Count`,
      fullWalkUniqueAndOrdered(PATHS[operation]),
      ['check.walk-unique', 'check.order', 'check.total', 'record.unique-personal-id'],
    );
  check(
    'getClientsSimple',
    'GET /Client/Simple and /Client/Extended full walks → the same clients in the same order with the same basic fields',
    simpleWalkMatchesExtended(PATHS.getClientsSimple, extended),
    ['check.simple-extended'],
  );
  check(
    'getClientsExtended',
    'GET /Client/Extended full walk → every record keeps the in-record rules (FullName is FirstName LastName; PersonalId begins with DateOfBirth and ends in its Luhn digit; basic fields repeat the sections; StaffName/LocationName null with their ids)',
    walkedRecordsKeepTheRules(extended),
    RECORD_RULES,
  );
  check(
    'getClientDetail',
    `GET /Client/Detail/{idClient} for every walked client up to ${DETAIL_BOUND.toLocaleString('en')} (above that ${DETAIL_BOUND.toLocaleString('en')} drawn with the run's seed) → agrees with Extended, keeps the in-record rules`,
    detailAgreesWithEveryRow(extended, PATHS.getClientDetail),
    ['detail.agrees-with-list', ...RECORD_RULES],
  );
  completenessChecks(check, extended);
  for (const operation of ['getClientsSimple', 'getClientsExtended'] as const) {
    const queries: ListQuery[] = [{ page: '2', pageSize: '3' }];
    if (operation === 'getClientsExtended') queries.push({ page: '2', pageSize: '2', active: 'true', filter: 'a' });
    for (const query of queries)
      check(
        operation,
        `GET ${PATHS[operation].replace('/api/v1', '')}${queryString(query)} → every Link target (first, prev, next, last) gives exactly the page it names`,
        linkTargetsGiveTheirPages(PATHS[operation], query),
        ['check.link-follow', 'list.link'],
      );
  }
}
