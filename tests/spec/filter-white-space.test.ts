// "White space" in `filter` is the Unicode White_Space property (openapi.yaml,
// getClientsExtended, filter): U+0085 and U+3000 are white space, U+FEFF is
// not, whatever JavaScript's \s and trim() say. The server (its search index)
// and the contract suite (the judge's filter rule) must agree on every term:
// the server's answer is compared with the rule applied to the whole data set.
import { filterTerm, matchesFilter, trimWhiteSpace } from '../../contract/text-folding';
import { judgeRequest, judgeResponse } from '../../contract/judge';
import { specContract } from '../../contract/spec-contract';
import type { ClientExtended } from '../../contract/wire-types';
import { generateClients } from '../../seeds/client';
import { API_KEY, startTestServer, type TestServer } from '../support/servers';

const clients = generateClients(7, 300);
const [first, last] = clients[42]!.PersonalInfo.FullName.split(' ') as [string, string];

describe('filterTerm: White_Space, and only it, is trimmed and collapsed', () => {
  test.each([
    ['U+3000 inside', `a\u3000b`, 'a b'],
    ['U+0085 inside', `a\u0085b`, 'a b'],
    ['a run of mixed white space', `a \t\u00a0\u2028\u0085 b`, 'a b'],
    ['U+3000 and U+0085 around', `\u3000ab\u0085`, 'ab'],
    ['U+FEFF inside is kept', `a\ufeffb`, 'a\ufeffb'],
    ['U+FEFF around is kept (not trimmed)', `\ufeffab\ufeff`, '\ufeffab\ufeff'],
    ['U+200B is kept', `a\u200bb`, 'a\u200bb'],
  ])('%s', (_what, filter, term) => {
    expect(filterTerm(filter)).toBe(term);
  });

  test('trimWhiteSpace differs from String.prototype.trim on U+FEFF and U+0085', () => {
    expect(trimWhiteSpace('\ufeffx\u0085')).toBe('\ufeffx');
    expect('\ufeffx\u0085'.trim()).toBe('x\u0085');
  });
});

describe('GET /Client/Extended?filter with U+0085, U+3000 and U+FEFF → the server and the suite agree', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({}, clients);
  });
  afterAll(() => server.stop());

  test.each([
    ['U+3000 between the names (white space: matches)', `${first}\u3000${last}`, true],
    ['U+0085 between the names (white space: matches)', `${first}\u0085${last}`, true],
    ['U+3000 and U+0085 around the name (trimmed: matches)', `\u3000${first} ${last}\u0085`, true],
    ['U+FEFF between the names (not white space: no match)', `${first}\ufeff${last}`, false],
    ['U+FEFF before the name (not trimmed: no match)', `\ufeff${first} ${last}`, false],
  ])('%s', async (_what, filter, found) => {
    const path = `/api/v1/Client/Extended?pageSize=100&filter=${encodeURIComponent(filter)}`;

    const response = await fetch(server.baseUrl + path, { headers: { 'X-Api-Key': API_KEY } });
    const bytes = new Uint8Array(await response.arrayBuffer());

    const served = (JSON.parse(new TextDecoder().decode(bytes)) as { Results: ClientExtended[] }).Results.map((c) => c.IdClient);
    const ruled = clients
      .filter((c) => matchesFilter({ ...c.PersonalInfo, ...c.ContactInfo }, filter))
      .map((c) => c.IdClient)
      .sort();
    expect([...served].sort()).toEqual(ruled);
    expect(served.includes(clients[42]!.IdClient)).toBe(found);
    const contract = specContract();
    const judged = judgeRequest(contract, { method: 'GET', path, headers: { 'X-Api-Key': API_KEY }, keyAccepted: true });
    expect(judgeResponse(contract, judged, { status: response.status, headers: response.headers, bytes })).toEqual([]);
  });
});
