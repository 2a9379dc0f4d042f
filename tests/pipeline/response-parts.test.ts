// Pages assembled from the per-client JSON made and validated at load must be
// the very bytes the object path sends through res.json with every body
// validated by express-openapi-validator (FULL_RESPONSE_VALIDATION=on), for a
// few thousand varied requests (the benchmark's URL mix over every operation),
// and stay the same once the records are kept as JSON alone.
import { varyingUrls, type TrafficSample } from '../../bench/traffic';
import { API_KEY, startTestServer, testStore, type TestServer } from '../support/servers';
import { rawGet } from '../support/raw-get';

jest.setTimeout(120_000);

const SEED = 7;
const CLIENTS = 3000;
let assembled: TestServer;
let validated: TestServer;

beforeAll(async () => {
  const common = { seed: SEED, clients: CLIENTS, cache: false };
  assembled = await startTestServer(common);
  validated = await startTestServer({ ...common, fullResponseValidation: true });
});

afterAll(async () => {
  await assembled.stop();
  await validated.stop();
});

function sampleOf(): TrafficSample {
  const clients = testStore(SEED, CLIENTS).clients();
  return {
    total: clients.length,
    ids: clients.map((c) => c.IdClient),
    names: clients.map((c) => c.PersonalInfo.FullName),
    emails: clients.map((c) => c.ContactInfo.Email),
    phones: clients.map((c) => c.ContactInfo.Phone),
    staff: [...new Set(clients.flatMap((c) => (c.Staff ? [c.Staff.IdStaff] : [])))],
    locations: [...new Set(clients.flatMap((c) => (c.Location ? [c.Location.IdLocation] : [])))],
  };
}

test('the assembled answers equal the fully validated object path, byte for byte', async () => {
  const targets = [
    ...varyingUrls(sampleOf(), 3000, 13),
    '/api/v1/Client/Simple',
    `/api/v1/Client/Simple?page=${CLIENTS}&pageSize=1`,
    '/api/v1/Client/Simple?page=999&pageSize=100',
    '/api/v1/Client/Extended?filter=%C3%85sa&pageSize=100',
    '/api/v1/Client/Extended?filter=zzzzzz',
    `/api/v1/Client/Detail/${testStore(SEED, CLIENTS).client(0).IdClient.toUpperCase()}`,
  ];
  const statuses = new Set<number>();
  let next = 0;
  const worker = async () => {
    while (next < targets.length) {
      const target = targets[next++]!;
      const [mine, full] = await Promise.all([
        rawGet(assembled.baseUrl, target, { 'X-Api-Key': API_KEY }),
        rawGet(validated.baseUrl, target, { 'X-Api-Key': API_KEY }),
      ]);
      statuses.add(mine.status);
      if (mine.stable !== full.stable) expect({ target, mine: mine.stable }).toEqual({ target, mine: full.stable });
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  expect([...statuses].sort()).toEqual([200, 404]);
});

test('after the records are compacted to JSON (client-records.ts): the same answers as before, and both paths still agree', async () => {
  const store = testStore(SEED, CLIENTS);
  const before = varyingUrls(sampleOf(), 400, 29);
  const after = varyingUrls(sampleOf(), 400, 31);
  const fetchAll = (baseUrl: string, targets: string[]) =>
    Promise.all(targets.map(async (target) => (await rawGet(baseUrl, target, { 'X-Api-Key': API_KEY })).stable));
  const assembledBefore = await fetchAll(assembled.baseUrl, before);
  const validatedBefore = await fetchAll(validated.baseUrl, before);

  await store.compact();
  expect(store.records.compacted).toBe(true);

  expect(await fetchAll(assembled.baseUrl, before)).toEqual(assembledBefore);
  expect(await fetchAll(validated.baseUrl, before)).toEqual(validatedBefore);
  // New URLs: views made now from parsed records, against the object path on parsed records.
  expect(await fetchAll(assembled.baseUrl, after)).toEqual(await fetchAll(validated.baseUrl, after));
});
