// Logging hygiene: even synthetic health data is logged as if it were real.
// Every operation is called, errors included, with keys, filters, ids and paths
// carrying marker strings; then the whole log (level trace) is searched for
// them and for the data the responses carried.
import { API_KEY, get, startTestServer, type TestServer } from '../support/servers';
import { rawRequest, sendRaw } from '../support/raw-http';

const VALID_KEY = 'key-VALIDKEYMARKER-5f2c';
const WRONG_KEY = 'key-WRONGKEYMARKER-9d1e';
const UNKNOWN_ID = 'dead0000-beef-4000-8000-0000decafbad';

interface ClientFields {
  IdClient: string;
  PersonalInfo: { FullName: string; PersonalId: string; Email: string | null; Phone: string | null };
}

let server: TestServer;
let client: ClientFields;
let requestsSent = 0;

async function call(pathAndQuery: string, headers: Record<string, string> = { 'X-Api-Key': VALID_KEY }, method = 'GET'): Promise<Response> {
  requestsSent++;
  const response = await fetch(server.baseUrl + pathAndQuery, { method, headers });
  await response.arrayBuffer();
  return response;
}

beforeAll(async () => {
  server = await startTestServer({ logLevel: 'trace', apiKeys: [VALID_KEY], apiKeysGiven: true });
  const first = (await (await get(server.baseUrl, '/api/v1/Client/Simple?pageSize=1', { 'X-Api-Key': VALID_KEY })).json()) as {
    Results: { IdClient: string }[];
  };
  requestsSent++;
  const detail = await get(server.baseUrl, `/api/v1/Client/Detail/${first.Results[0]!.IdClient}`, { 'X-Api-Key': VALID_KEY });
  requestsSent++;
  client = (await detail.json()) as ClientFields;
  const surname = client.PersonalInfo.FullName.split(' ').pop()!;
  const key = { 'X-Api-Key': VALID_KEY };

  const statuses = [
    // ping, exception
    await call('/api/v1/Diagnostics/Ping', {}),
    await call('/api/v1/Diagnostics/Ping?FILTERMARKER0=1', {}),
    await call('/api/v1/Diagnostics/Exception', {}),
    // getClientsSimple
    await call('/api/v1/Client/Simple?page=2&pageSize=3'),
    await call('/api/v1/Client/Simple', { 'X-Api-Key': WRONG_KEY }),
    await call('/api/v1/Client/Simple?page=PAGEMARKER'),
    // getClientsExtended: the filter is the client's surname (a hit) or a marker
    await call(`/api/v1/Client/Extended?filter=${encodeURIComponent(surname)}&pageSize=5`),
    await call('/api/v1/Client/Extended?filter=FILTERMARKER1'),
    await call('/api/v1/Client/Extended?filter=FILTERMARKER1'),
    await call('/api/v1/Client/Extended?filter=FILTERMARKER2&pageSize=0'),
    await call(`/api/v1/Client/Extended?filter=FILTERMARKER3${'x'.repeat(300)}`),
    await call('/api/v1/Client/Extended?filter=FILTERMARKER4', { ...key, Prefer: 'code=500' }),
    await call('/api/v1/Client/Extended?filter=FILTERMARKER5', { 'X-Api-Key': WRONG_KEY }),
    // getClientDetail: twice (the second from the cache), upper case, unknown, invalid, simulated 404
    await call(`/api/v1/Client/Detail/${client.IdClient}`),
    await call(`/api/v1/Client/Detail/${client.IdClient}`),
    await call(`/api/v1/Client/Detail/${client.IdClient.toUpperCase()}`),
    await call(`/api/v1/Client/Detail/${UNKNOWN_ID}`),
    await call('/api/v1/Client/Detail/IDMARKER'),
    await call(`/api/v1/Client/Detail/${client.IdClient}`, { ...key, Prefer: 'code=404' }),
    await call(`/api/v1/Client/Detail/${client.IdClient}`, { 'X-Api-Key': WRONG_KEY }),
    // no operation: 404 and 405
    await call('/api/v1/PATHMARKER?filter=FILTERMARKER6'),
    await call(`/api/v1/Client/Detail/${client.IdClient}`, key, 'DELETE'),
  ].map((response) => response.status);
  // Make sure every kind of answer really happened, so the search below is not vacuous.
  expect(new Set(statuses)).toEqual(new Set([200, 400, 401, 404, 405, 500]));

  // Rejected by the HTTP parser, before the app: only a code may be logged.
  await sendRaw(
    server.running.port,
    rawRequest('GET', `/api/v1/Client/Detail/${client.IdClient}?filter=FILTERMARKER7${'y'.repeat(17_000)}`, [`X-Api-Key: ${VALID_KEY}`]),
  );
  await sendRaw(
    server.running.port,
    rawRequest('GET', `/api/v1/Client/Detail/${client.IdClient}`, [`X-Api-Key: ${VALID_KEY}`, 'Bad Header: FILTERMARKER8']),
  );

  // A request line is written when its response closes: wait for all of them.
  for (let waited = 0; waited < 2_000; waited += 20) {
    if (server.logs.records.filter((record) => record.msg === 'request').length >= requestsSent) break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  // Parser rejections are summed up per interval, and at the latest when the server stops.
  await server.stop();
});
afterAll(() => server.stop());

describe('what reaches the log', () => {
  test('every request → one line with the route template', () => {
    const lines = server.logs.records.filter((record) => record.msg === 'request');

    expect(lines).toHaveLength(requestsSent);
    expect(lines.map((line) => line.route)).toContain('/api/v1/Client/Detail/{idClient}');
    expect(lines.map((line) => line.route)).toContain('(no route)');
  });

  test('requests the HTTP parser rejects → counted by code in one summary line, not a line each', () => {
    const summaries = server.logs.records.filter((record) => record.msg === 'connections rejected or closed by the HTTP server');

    expect(summaries).toHaveLength(1);
    expect(summaries[0]!.counts).toEqual({ '431 HPE_HEADER_OVERFLOW': 1, '400 HPE_INVALID_HEADER_TOKEN': 1 });
  });

  test.each([
    ['the accepted X-Api-Key', VALID_KEY],
    ['a rejected X-Api-Key', WRONG_KEY],
    ['the default key, not configured here', API_KEY],
    ['any filter value', 'FILTERMARKER'],
    ['an invalid page value', 'PAGEMARKER'],
    ['an unknown path', 'PATHMARKER'],
    ['an invalid id', 'IDMARKER'],
    ['an unknown id', UNKNOWN_ID],
    ['a query string', '?'],
  ])('the log → never holds %s', (_what, marker) => {
    expect(server.logs.text).not.toContain(marker);
  });

  test('the log → never holds a raw Detail URL, only its template', () => {
    expect(server.logs.text).not.toMatch(/\/api\/v1\/Client\/Detail\/(?!\{idClient\})/);
  });

  test('the log → never holds the client id, in any case', () => {
    expect(server.logs.text.toLowerCase()).not.toContain(client.IdClient.toLowerCase());
  });

  test('the log → never holds a response body: name, personal id, e-mail, phone', () => {
    const { FullName, PersonalId, Email, Phone } = client.PersonalInfo;

    for (const value of [FullName, PersonalId, Email, Phone, 'This is a test exception']) {
      if (value) expect(server.logs.text).not.toContain(value);
    }
  });
});
