import type { ClientExtended, ClientExtendedPage, ClientSimplePage } from '../../contract/wire-types';
import { foldText } from '../../contract/text-folding';
import { get, startTestServer, testStore, type TestServer } from '../support/servers';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.stop());

type ErrorBody = { Code?: string; Message?: string };
const extended = async (query: string) => {
  const response = await get(server.baseUrl, `/api/v1/Client/Extended${query}`);
  return {
    response,
    body: (await response.json()) as ClientExtendedPage & ErrorBody,
    total: Number(response.headers.get('x-total-count')),
  };
};

/** Every matching client over all pages. */
async function all(query: string): Promise<ClientExtended[]> {
  const results: ClientExtended[] = [];
  for (let page = 1; page < 20; page++) {
    const { body } = await extended(`?${query}${query ? '&' : ''}page=${page}&pageSize=100`);
    results.push(...body.Results);
    if (body.Results.length < 100) break;
  }
  return results;
}

const clients = testStore().clients();
const someStaff = clients.find((c) => c.Staff)!.Staff!;
const someLocation = clients.find((c) => c.Location)!.Location!;
const searchable = (c: ClientExtended) => foldText([c.FullName, c.PersonalId, c.Email, c.Phone].join(' | '));

describe('GET /api/v1/Client/Extended', () => {
  test('GET /Client/Extended → 200 with the Simple fields plus sections, in the same order as Simple', async () => {
    const { body } = await extended('?pageSize=50');
    const simple = (await (await get(server.baseUrl, '/api/v1/Client/Simple?pageSize=50')).json()) as ClientSimplePage;

    expect(Object.keys(body.Results[0]!)).toEqual([
      'IdClient',
      'FullName',
      'PersonalId',
      'Phone',
      'Email',
      'PersonalInfo',
      'ContactInfo',
      'IdStaff',
      'StaffName',
      'IdLocation',
      'LocationName',
      'Status',
    ]);
    expect(body.Results.map((r) => r.IdClient)).toEqual(simple.Results.map((r) => r.IdClient));
    body.Results.forEach((item, i) => {
      expect({
        IdClient: item.IdClient,
        FullName: item.FullName,
        PersonalId: item.PersonalId,
        Phone: item.Phone,
        Email: item.Email,
      }).toEqual(simple.Results[i]);
    });
  });

  test.each([
    ['true', 'Active'],
    ['false', 'Inactive'],
  ])('GET /Client/Extended?active=%s → only %s clients, X-Total-Count counts them', async (active, status) => {
    const results = await all(`active=${active}`);
    const { total } = await extended(`?active=${active}`);

    expect(results.length).toBe(clients.filter((c) => c.Status === status).length);
    expect(total).toBe(results.length);
    expect(results.every((r) => r.Status === status)).toBe(true);
  });

  test("GET /Client/Extended?idStaff=… → only that staff member's clients", async () => {
    const results = await all(`idStaff=${someStaff.IdStaff}`);

    expect(results.length).toBe(clients.filter((c) => c.Staff?.IdStaff === someStaff.IdStaff).length);
    expect(results.length).toBeGreaterThan(0);
    expect(results.every((r) => r.IdStaff === someStaff.IdStaff && r.StaffName === someStaff.FullName)).toBe(true);
  });

  test("GET /Client/Extended?idLocation=… → only that location's clients", async () => {
    const results = await all(`idLocation=${someLocation.IdLocation}`);

    expect(results.length).toBe(clients.filter((c) => c.Location?.IdLocation === someLocation.IdLocation).length);
    expect(results.every((r) => r.IdLocation === someLocation.IdLocation && r.LocationName === someLocation.Name)).toBe(true);
  });

  test('an upper-case uuid in idStaff → the same clients (uuids compare case-insensitively)', async () => {
    const { total: lower } = await extended(`?idStaff=${someStaff.IdStaff}`);
    const { total: upper } = await extended(`?idStaff=${someStaff.IdStaff.toUpperCase()}`);

    expect(upper).toBe(lower);
  });

  test('an unknown idStaff or idLocation uuid → 200 with no results', async () => {
    const { response, body, total } = await extended('?idStaff=00000000-0000-4000-8000-000000000000');

    expect(response.status).toBe(200);
    expect(body.Results).toEqual([]);
    expect(total).toBe(0);
  });

  test('filters combine with AND: active + idStaff + idLocation + filter', async () => {
    const results = await all(`active=true&idStaff=${someStaff.IdStaff}&idLocation=${someLocation.IdLocation}&filter=a`);
    const expected = clients.filter(
      (c) =>
        c.Status === 'Active' &&
        c.Staff?.IdStaff === someStaff.IdStaff &&
        c.Location?.IdLocation === someLocation.IdLocation &&
        searchable({
          FullName: c.PersonalInfo.FullName,
          PersonalId: c.PersonalInfo.PersonalId,
          Email: c.ContactInfo.Email,
          Phone: c.ContactInfo.Phone,
        } as ClientExtended).includes('a'),
    );

    expect(results.map((r) => r.IdClient)).toEqual(expected.map((c) => c.IdClient));
  });

  test('active + idStaff → the intersection, not the union', async () => {
    const both = (await all(`active=false&idStaff=${someStaff.IdStaff}`)).map((r) => r.IdClient);
    const staffOnly = await all(`idStaff=${someStaff.IdStaff}`);

    expect(both).toEqual(staffOnly.filter((r) => r.Status === 'Inactive').map((r) => r.IdClient));
  });
});

describe('GET /api/v1/Client/Extended?filter=…', () => {
  const accented = clients.find((c) => /[åäöéèüčřšž]/i.test(c.PersonalInfo.LastName))!;
  const apostrophe = clients.find((c) => c.PersonalInfo.LastName.includes("'"))!;
  const twoWordName = clients.find((c) => !c.PersonalInfo.FirstName.includes(' ') && !c.PersonalInfo.LastName.includes(' '))!;

  test('a name in another case and without accents → finds the accented client', async () => {
    const term = foldText(accented.PersonalInfo.LastName).toUpperCase();

    const results = await all(`filter=${encodeURIComponent(term)}`);

    expect(results.map((r) => r.IdClient)).toContain(accented.IdClient);
    expect(results.every((r) => searchable(r).includes(foldText(term)))).toBe(true);
  });

  test('an accented term → finds the same clients as the plain one', async () => {
    const plain = await all('filter=asa');
    const accentedTerm = await all(`filter=${encodeURIComponent('Åsa')}`);

    expect(plain.length).toBeGreaterThan(0);
    expect(accentedTerm.map((r) => r.IdClient)).toEqual(plain.map((r) => r.IdClient));
  });

  test.each([
    ['+', (n: string) => n.replace(' ', '+')],
    ['%20', (n: string) => n.replace(' ', '%20')],
  ])('a full name with %s for the space → finds that client', async (_sep, encode) => {
    const name = twoWordName.PersonalInfo.FullName;

    const results = await all(`filter=${encode(encodeURIComponent(name.split(' ')[0]!) + ' ' + encodeURIComponent(name.split(' ')[1]!))}`);

    expect(results.map((r) => r.IdClient)).toContain(twoWordName.IdClient);
  });

  test("an apostrophe → plain text (O'Kon style names)", async () => {
    const results = await all(`filter=${apostrophe.PersonalInfo.LastName}`);

    expect(results.map((r) => r.IdClient)).toContain(apostrophe.IdClient);
    expect(results.every((r) => r.FullName.includes("'"))).toBe(true);
  });

  test('phone digits without formatting → finds the client whose phone is written with spaces', async () => {
    const client = clients[17]!;
    const digits = client.ContactInfo.Phone.replace(/\D/g, '').slice(2);

    const results = await all(`filter=${digits}`);

    expect(results.map((r) => r.IdClient)).toEqual([client.IdClient]);
  });

  test('phone digits written with dashes and brackets → matched on the digits', async () => {
    const client = clients[23]!;
    const digits = client.ContactInfo.Phone.replace(/\D/g, '');
    const formatted = `(${digits.slice(2, 4)}) ${digits.slice(4, 7)}-${digits.slice(7)}`;

    const results = await all(`filter=${encodeURIComponent(formatted)}`);

    expect(results.map((r) => r.IdClient)).toContain(client.IdClient);
  });

  test('an e-mail with @ and a PersonalId with - → exact matches', async () => {
    const client = clients[5]!;

    expect((await all(`filter=${client.ContactInfo.Email}`)).map((r) => r.IdClient)).toEqual([client.IdClient]);
    expect((await all(`filter=${client.PersonalInfo.PersonalId}`)).map((r) => r.IdClient)).toEqual([client.IdClient]);
  });

  test.each(['a/b', '(x', 'x,y', 'a&b', '%', '💉', '\u0000'])(
    'the reserved or unusual text %j → 200, plain text, no error',
    async (term) => {
      const { response, body } = await extended(`?filter=${encodeURIComponent(term)}`);

      expect(response.status).toBe(200);
      expect(body.Results).toEqual([]);
    },
  );

  test('tabs, newlines and runs of spaces in a filter → one space, as a search box would', async () => {
    const { total: single } = await extended('?filter=a%20b');
    const { total: messy } = await extended('?filter=a%09%0A%20%20b');

    expect(messy).toBe(single);
  });

  test('an empty or blank filter → no filter', async () => {
    const { total: none } = await extended('?filter=');
    const { total: blank } = await extended('?filter=%20%20');

    expect([none, blank]).toEqual([1000, 1000]);
  });

  test('a filter of exactly 200 characters → 200; 201 characters → 400 naming filter', async () => {
    const ok = await extended(`?filter=${'a'.repeat(200)}`);
    const tooLong = await extended(`?filter=${'a'.repeat(201)}`);

    expect(ok.response.status).toBe(200);
    expect(tooLong.response.status).toBe(400);
    expect(tooLong.body.Message).toContain("query parameter 'filter'");
  });

  test('the Link header keeps the filters', async () => {
    const { response } = await extended(`?filter=${encodeURIComponent("O'B a")}&active=true&pageSize=5`);

    expect(response.headers.get('link')).toContain(`active=true&filter=${encodeURIComponent("O'B a")}`);
  });
});

describe('GET /api/v1/Client/Extended with invalid parameters', () => {
  test.each([
    ['active=yes', "query parameter 'active'"],
    ['active=1', "query parameter 'active'"],
    ['active=', "query parameter 'active'"],
    ['idStaff=abc', "query parameter 'idStaff'"],
    ['idLocation=123', "query parameter 'idLocation'"],
    ['idStaff=' + '0'.repeat(40), "query parameter 'idStaff'"],
    ['pageSize=101', "query parameter 'pageSize' must be <= 100"],
    ['Filter=x', "unknown query parameter 'Filter'"],
    ['filter=a&filter=b', "query parameter 'filter' is given more than once"],
    ['filter=%E0%A4%A', "query parameter 'filter' has invalid percent-encoding"],
  ])('GET /Client/Extended?%s → 400 VALIDATION_ERROR naming the parameter', async (query, message) => {
    const { response, body } = await extended(`?${query}`);

    expect(response.status).toBe(400);
    expect(body.Code).toBe('VALIDATION_ERROR');
    expect(body.Message).toContain(message);
  });
});
