// No false alarm on a large deployment: the filter checks walk a filtered list
// only up to a bound (context.walk: 20 pages of 100), so with more than 2,000
// clients per staff member or location they cannot reach every sampled client,
// and the relations compare sets past their bound (2,000 clients) by
// X-Total-Count and their first clients. A correct backend of that size must
// still pass them. The second implementation with 20,000 clients puts over
// 2,000 on each of its 7 staff members and 5 locations.
import { runChecks } from '../../contract-suite/registry';
import { startSecondImplementation, type SecondImplementation } from './second-implementation';

const CLIENTS = 20_000;

/** The checks that walk a filtered list and look for sampled clients in it. */
const AFFECTED =
  /idStaff → only that staff member's clients|idLocation → only that location's clients|\?filter → only matching clients|filter=<phone digits>|\(completeness\)|\(case- and accent-insensitive completeness\)|^relation: /;

let second: SecondImplementation;
beforeAll(async () => {
  second = await startSecondImplementation({ clients: CLIENTS });
});
afterAll(() => second.stop());

describe(`the filter checks against a correct deployment of ${CLIENTS.toLocaleString('en')} clients`, () => {
  test('every staff member and location has more clients than a bounded walk reaches', async () => {
    const page = await fetch(`${second.baseUrl}/api/v1/Client/Extended?pageSize=100`, { headers: { 'X-Api-Key': second.apiKey } });
    const { Results } = (await page.json()) as { Results: { IdStaff: string | null; IdLocation: string | null }[] };
    const staff = Results.find((c) => c.IdStaff !== null)!.IdStaff!;
    const location = Results.find((c) => c.IdLocation !== null)!.IdLocation!;
    for (const query of [`idStaff=${staff}`, `idLocation=${location}`]) {
      const answer = await fetch(`${second.baseUrl}/api/v1/Client/Extended?${query}&pageSize=1`, {
        headers: { 'X-Api-Key': second.apiKey },
      });
      await answer.arrayBuffer();
      expect(Number(answer.headers.get('x-total-count'))).toBeGreaterThan(2_000);
    }
  });

  test('the idStaff, idLocation and filter checks and the relations pass (no false alarm)', async () => {
    const { results } = await runChecks({ baseUrl: second.baseUrl, apiKey: second.apiKey }, (check) => AFFECTED.test(check.name));

    expect(results.length).toBeGreaterThanOrEqual(30);
    expect(results.filter((r) => r.error).map((r) => `${r.check.name}\n${r.error!.message}`)).toEqual([]);
    expect(results.filter((r) => r.check.name.startsWith('relation: ') && r.outcome !== 'pass').map((r) => r.check.name)).toEqual([]);
  }, 240_000);
});
