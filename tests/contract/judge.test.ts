// The judge (contract/judge/), the rule engine the suite and the proxy
// share: what openapi.yaml allows for a request (derived from its parameter
// schemas and security), and what an answer breaks. Answers come from our
// real server in-process; the faulty ones are that server's real bytes with
// one thing changed, as a faulty deployment would send them.
import { ExchangeMemory, judgeRequest, judgeResponse, type JudgedExchange } from '../../contract/judge';
import { SHARED_FIELDS, type SharedView } from '../../contract/judge/memory';
import { specContract } from '../../contract/spec-contract';
import { API_KEY, startTestServer, type TestServer } from '../support/servers';

const contract = specContract();
const KEY = { 'X-Api-Key': API_KEY };
/** `keyAccepted` null: the caller cannot tell whether the deployment accepts the key (a proxy). */
const request = (path: string, headers: Record<string, string> = KEY, method = 'GET', keyAccepted: boolean | null = true) => ({
  method,
  path,
  headers,
  keyAccepted: keyAccepted ?? undefined,
});

describe('judgeRequest: what a request breaks and which statuses the document allows', () => {
  test.each([
    ['a valid list request', '/api/v1/Client/Simple?page=2&pageSize=7', [], [200]],
    ['Detail of a well-formed uuid (it may name no client)', '/api/v1/Client/Detail/C0FFEE00-DEAD-4BAD-8BAD-0123456789AB', [], [200, 404]],
    ['pageSize above its maximum', '/api/v1/Client/Simple?pageSize=101', ['request.value'], [400]],
    ['an integer written as 1e2', '/api/v1/Client/Simple?page=1e2', ['request.value'], [400]],
    ['a parameter given twice', '/api/v1/Client/Simple?page=1&page=2', ['request.repeated'], [400]],
    ['an undocumented parameter', '/api/v1/Client/Simple?pagesize=10', ['request.unknown-parameter'], [400]],
    ['an empty filter (allowEmptyValue)', '/api/v1/Client/Extended?filter=', [], [200]],
    ['an empty active', '/api/v1/Client/Extended?active=', ['request.value'], [400]],
    ['201 code points of filter', `/api/v1/Client/Extended?filter=${encodeURIComponent('😀'.repeat(201))}`, ['request.value'], [400]],
    ['200 code points of filter (400 UTF-16 units)', `/api/v1/Client/Extended?filter=${encodeURIComponent('😀'.repeat(200))}`, [], [200]],
    ['a urn:uuid spelling', '/api/v1/Client/Extended?idStaff=urn%3Auuid%3Ac0ffee00-dead-4bad-8bad-0123456789ab', ['request.value'], [400]],
    // The document states no reading of a cut encoding: a free text may be read as text (--strict-http: 400 only).
    ['bad percent-encoding in a free text', '/api/v1/Client/Extended?filter=%E0%A4%A', ['request.value'], [200, 400]],
    ['bad percent-encoding in an integer (no reading is one)', '/api/v1/Client/Extended?page=%E0%A4%A', ['request.value'], [400]],
    ['a path that is no operation', '/api/v1/client/simple', ['request.path'], [404]],
    ['a trailing slash', '/api/v1/Client/Simple/', ['request.path'], [404]],
  ])('%s', (_what, path, rules, statuses) => {
    const judged = judgeRequest(contract, request(path));

    expect(judged.violations.map((v) => v.rule)).toEqual(rules);
    expect(judged.allowedStatuses).toEqual(statuses);
  });

  test('no key and a bad parameter: the order is open, so 400 and 401 are both allowed', () => {
    const judged = judgeRequest(contract, request('/api/v1/Client/Simple?pageSize=0', {}, 'GET', null));

    expect(judged.violations.map((v) => v.rule).sort()).toEqual(['request.key-missing', 'request.value']);
    expect(judged.allowedStatuses).toEqual([400, 401]);
  });

  test('the key in the query instead of the header: key missing (it travels in the query) and an unknown parameter', () => {
    const judged = judgeRequest(contract, request(`/api/v1/Client/Simple?X-Api-Key=${API_KEY}`, {}, 'GET', null));

    expect(judged.violations.map((v) => v.rule).sort()).toEqual(['request.key-missing', 'request.unknown-parameter']);
    expect(judged.violations.find((v) => v.rule === 'request.key-missing')!.actual).toContain('in the query');
    expect(judged.allowedStatuses).toEqual([400, 401]);
  });

  test('a key the proxy cannot vouch for: 401 stays allowed beside the answer', () => {
    expect(judgeRequest(contract, request('/api/v1/Client/Simple', KEY, 'GET', null)).allowedStatuses).toEqual([200, 401]);
  });

  test('another method → 405; a CORS preflight → 2xx; a public operation needs no key', () => {
    expect(judgeRequest(contract, request('/api/v1/Client/Simple', KEY, 'DELETE')).allowedStatuses).toEqual([405]);
    expect(
      judgeRequest(
        contract,
        request('/api/v1/Client/Simple', { Origin: 'https://a.example', 'Access-Control-Request-Method': 'GET' }, 'OPTIONS'),
      ).allowedStatuses,
    ).toEqual([200, 204]);
    expect(judgeRequest(contract, request('/api/v1/Diagnostics/Ping', {}, 'GET', null)).allowedStatuses).toEqual([200]);
    expect(judgeRequest(contract, request('/api/v1/Diagnostics/Exception', {}, 'GET', null)).allowedStatuses).toEqual([500]);
  });

  test('Prefer: code=500 adds the simulated status; an undocumented code adds 400; the plain answer stays allowed', () => {
    expect(judgeRequest(contract, request('/api/v1/Client/Simple', { ...KEY, Prefer: 'code=500' })).allowedStatuses).toEqual([200, 500]);
    expect(judgeRequest(contract, request('/api/v1/Client/Simple', { ...KEY, Prefer: 'code=418' })).allowedStatuses).toEqual([200, 400]);
  });
});

describe('judgeResponse against our server', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.stop());

  async function exchange(
    path: string,
    headers: Record<string, string> = KEY,
    method = 'GET',
  ): Promise<JudgedExchange & { headers: Headers; url: string }> {
    const url = server.baseUrl + path;
    const response = await fetch(url, { method, headers });
    return { status: response.status, headers: response.headers, bytes: new Uint8Array(await response.arrayBuffer()), url };
  }

  function judge(path: string, answer: JudgedExchange, headers: Record<string, string> = KEY, memory?: ExchangeMemory) {
    return judgeResponse(contract, judgeRequest(contract, { ...request(path, headers), url: server.baseUrl + path }), answer, memory);
  }

  /** The answer with its JSON body edited, as a faulty deployment would send it. */
  function edited(answer: JudgedExchange, edit: (body: Record<string, unknown>) => void): JudgedExchange {
    const body = JSON.parse(new TextDecoder().decode(answer.bytes)) as Record<string, unknown>;
    edit(body);
    return { ...answer, bytes: new TextEncoder().encode(JSON.stringify(body)) };
  }

  test.each([
    '/api/v1/Diagnostics/Ping',
    '/api/v1/Diagnostics/Exception',
    '/api/v1/Client/Simple?page=3&pageSize=7',
    '/api/v1/Client/Extended?active=false&filter=an&pageSize=100',
    '/api/v1/Client/Extended?page=999&pageSize=10',
    '/api/v1/Client/Detail/c0ffee00-dead-4bad-8bad-0123456789ab',
    '/api/v1/Client/Simple?pageSize=0',
    '/api/v1/client/simple',
  ])('GET %s → no violation', async (path) => {
    const answer = await exchange(path);

    expect(judge(path, answer)).toEqual([]);
  });

  test('one renamed field of Detail → one schema cause at the root, nothing else', async () => {
    const list = await exchange('/api/v1/Client/Extended?pageSize=1');
    const id = (JSON.parse(new TextDecoder().decode(list.bytes)) as { Results: { IdClient: string }[] }).Results[0]!.IdClient;
    const path = `/api/v1/Client/Detail/${id}`;
    const memory = new ExchangeMemory();
    judge('/api/v1/Client/Extended?pageSize=1', list, KEY, memory);
    const renamed = edited(await exchange(path), (body) => {
      body.Contact = body.ContactInfo;
      delete body.ContactInfo;
    });

    const violations = judge(path, renamed, KEY, memory);

    expect(violations.map((v) => v.cause)).toEqual(['response.schema ClientDetail / required, additionalProperties']);
    expect(violations[0]!.actual).toContain('ContactInfo is required but missing');
    expect(violations[0]!.actual).toContain('Contact is not a documented property');
  });

  test('a Detail that disagrees with the list row seen earlier → detail.agrees-with-list', async () => {
    const listPath = '/api/v1/Client/Extended?pageSize=1';
    const list = await exchange(listPath);
    const id = (JSON.parse(new TextDecoder().decode(list.bytes)) as { Results: { IdClient: string }[] }).Results[0]!.IdClient;
    const memory = new ExchangeMemory();
    expect(judge(listPath, list, KEY, memory)).toEqual([]);
    const path = `/api/v1/Client/Detail/${id}`;
    const detail = edited(await exchange(path), (body) => {
      (body.ContactInfo as { Email: string }).Email = 'someone.else@example.org';
    });

    expect(judge(path, detail, KEY, memory).map((v) => v.rule)).toEqual(['detail.agrees-with-list']);
    expect(judge(path, detail, KEY).map((v) => v.rule)).toEqual([]);
  });

  test.each([
    ['a byte order mark', (bytes: Uint8Array) => new Uint8Array([0xef, 0xbb, 0xbf, ...bytes]), 'bom'],
    [
      'a member name twice',
      (bytes: Uint8Array) => new TextEncoder().encode(`{"Page":1,${new TextDecoder().decode(bytes).slice(1)}`),
      'duplicate',
    ],
    ['bytes that are not UTF-8', (bytes: Uint8Array) => new Uint8Array([...bytes.subarray(0, bytes.length - 1), 0xff, 0x7d]), 'utf-8'],
  ])('RFC 8259: %s → response.json', async (_what, corrupt, kind) => {
    const path = '/api/v1/Client/Simple?pageSize=2';
    const answer = await exchange(path);

    const violations = judge(path, { ...answer, bytes: corrupt(answer.bytes) });

    expect(violations.map((v) => v.cause)).toContain(`response.json ${kind}`);
  });

  test('charset=iso-8859-1 on a JSON answer → response.json charset', async () => {
    const path = '/api/v1/Diagnostics/Ping';
    const answer = await exchange(path);
    const headers = new Headers(answer.headers);
    headers.set('content-type', 'application/json; charset=iso-8859-1');

    expect(judge(path, { ...answer, headers }).map((v) => v.cause)).toEqual(['response.json charset']);
  });

  test('X-Total-Count missing → one header cause; the paging rules that need it are not applied', async () => {
    const path = '/api/v1/Client/Simple?pageSize=2';
    const answer = await exchange(path);
    const headers = new Headers(answer.headers);
    headers.delete('x-total-count');

    expect(judge(path, { ...answer, headers }).map((v) => v.cause)).toEqual(['response.header X-Total-Count']);
  });

  test('a wrong Luhn digit in a list row → record.luhn at its field', async () => {
    const path = '/api/v1/Client/Simple?pageSize=3';
    const answer = edited(await exchange(path), (body) => {
      const row = (body.Results as { PersonalId: string }[])[1]!;
      row.PersonalId = row.PersonalId.slice(0, -1) + String((Number(row.PersonalId.slice(-1)) + 1) % 10);
    });

    expect(judge(path, answer).map((v) => v.cause)).toEqual(['record.luhn /Results/*/PersonalId']);
  });

  test('a 200 to a bad request → response.status (expected 400); a 400 for it → none', async () => {
    const good = await exchange('/api/v1/Client/Simple?pageSize=100');
    const bad = await exchange('/api/v1/Client/Simple?pageSize=101');

    expect(judge('/api/v1/Client/Simple?pageSize=101', good).map((v) => v.rule)).toEqual(['response.status']);
    expect(judge('/api/v1/Client/Simple?pageSize=101', bad)).toEqual([]);
  });

  test('HEAD on a known path → 405 with the headers of the answer and no body: no violation', async () => {
    const path = '/api/v1/Client/Simple';
    const answer = await exchange(path, KEY, 'HEAD');

    expect(answer.status).toBe(405);
    expect(judgeResponse(contract, judgeRequest(contract, request(path, KEY, 'HEAD')), answer)).toEqual([]);
  });

  test('a 404 for a path that is no operation with Code CLIENT_NOT_FOUND → error.code (NOT_FOUND)', async () => {
    const path = '/api/v1/client/simple';
    const answer = edited(await exchange(path), (body) => void (body.Code = 'CLIENT_NOT_FOUND'));

    const violations = judge(path, answer);

    expect(violations.map((v) => v.rule)).toEqual(['error.code']);
    expect(violations[0]!.expected).toContain('NOT_FOUND');
  });
});

describe('ExchangeMemory', () => {
  const VIEW = Object.fromEntries(SHARED_FIELDS.map((field) => [field, undefined])) as SharedView['fields'];

  test('holds at most maxClients, evicting the least recently seen', () => {
    const memory = new ExchangeMemory(2);

    memory.meet('A').simple = { kind: 'simple', fields: VIEW };
    memory.meet('B').simple = { kind: 'simple', fields: VIEW };
    memory.meet('a').detail = { kind: 'detail', fields: VIEW };
    memory.meet('C').simple = { kind: 'simple', fields: VIEW };

    expect(memory.size).toBe(2);
    expect(memory.recall('B')).toBeUndefined();
    expect(Object.keys(memory.recall('A') ?? {})).toEqual(['simple', 'detail']);
    expect(Object.keys(memory.recall('c') ?? {})).toEqual(['simple']);
  });
});
