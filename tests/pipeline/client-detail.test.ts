import type { ClientDetail, ClientExtendedPage, ClientSimplePage } from '../../contract/wire-types';
import { get, startTestServer, type TestServer } from '../support/servers';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.stop());

const detail = async (id: string, headers?: Record<string, string>) => {
  const response = await get(server.baseUrl, `/api/v1/Client/Detail/${id}`, headers);
  return { response, body: (await response.json()) as ClientDetail & { Code?: string; Message?: string } };
};

describe('GET /api/v1/Client/Detail/{idClient}', () => {
  test('every id of a Simple page → resolves in Detail with the same values', async () => {
    const page = (await (await get(server.baseUrl, '/api/v1/Client/Simple?page=3&pageSize=100')).json()) as ClientSimplePage;

    for (const item of page.Results) {
      const { response, body } = await detail(item.IdClient);
      expect(response.status).toBe(200);
      expect({
        IdClient: body.IdClient,
        FullName: body.PersonalInfo.FullName,
        PersonalId: body.PersonalInfo.PersonalId,
        Phone: body.ContactInfo.Phone,
        Email: body.ContactInfo.Email,
      }).toEqual(item);
    }
  });

  test('an Extended item and its Detail → the same PersonalInfo, ContactInfo, staff, location and status', async () => {
    const page = (await (await get(server.baseUrl, '/api/v1/Client/Extended?pageSize=40')).json()) as ClientExtendedPage;

    for (const item of page.Results) {
      const { body } = await detail(item.IdClient);
      expect(body.PersonalInfo).toEqual(item.PersonalInfo);
      expect(body.ContactInfo).toEqual(item.ContactInfo);
      expect([body.Staff?.IdStaff ?? null, body.Staff?.FullName ?? null]).toEqual([item.IdStaff, item.StaffName]);
      expect([body.Location?.IdLocation ?? null, body.Location?.Name ?? null]).toEqual([item.IdLocation, item.LocationName]);
      expect(body.Status).toBe(item.Status);
    }
  });

  test('GET /Client/Detail/{id} → the seven sections, in the documented shape', async () => {
    const page = (await (await get(server.baseUrl, '/api/v1/Client/Simple?pageSize=1')).json()) as ClientSimplePage;

    const { body } = await detail(page.Results[0]!.IdClient);

    expect(Object.keys(body)).toEqual(['IdClient', 'PersonalInfo', 'ContactInfo', 'Staff', 'Location', 'Insurance', 'Medical', 'Status']);
    expect(Object.keys(body.PersonalInfo)).toEqual(['FirstName', 'LastName', 'FullName', 'PersonalId', 'DateOfBirth', 'Gender']);
    expect(Object.keys(body.Medical)).toEqual(['Allergies', 'Medications']);
  });

  test('an upper-case id → the same client', async () => {
    const page = (await (await get(server.baseUrl, '/api/v1/Client/Simple?pageSize=1')).json()) as ClientSimplePage;
    const id = page.Results[0]!.IdClient;

    const { response, body } = await detail(id.toUpperCase());

    expect(response.status).toBe(200);
    expect(body.IdClient).toBe(id);
  });

  test('GET /Client/Detail/{idClient} → 404 CLIENT_NOT_FOUND naming the id when no client has it', async () => {
    const id = '00000000-0000-4000-8000-000000000000';

    const { response, body } = await detail(id);

    expect(response.status).toBe(404);
    expect(body).toEqual({ Code: 'CLIENT_NOT_FOUND', Message: `No client with IdClient ${id} exists` });
  });

  test.each([
    'abc',
    '123',
    '00000000-0000-4000-8000-00000000000',
    '00000000-0000-4000-8000-0000000000000',
    'zzzzzzzz-zzzz-zzzz-zzzz-zzzzzzzzzzzz',
    'urn%3Auuid%3A00000000-0000-4000-8000-000000000000',
    '%E0%A4%A',
  ])('GET /Client/Detail/%s → 400 VALIDATION_ERROR (not a uuid, or not percent-encoding) naming idClient, not 404', async (id) => {
    const { response, body } = await detail(id);

    expect(response.status).toBe(400);
    expect(body.Code).toBe('VALIDATION_ERROR');
    expect(body.Message).toContain("path parameter 'idClient'");
  });

  test('GET /Client/Detail/{idClient} without a key → 401, before the id is looked at', async () => {
    const { response, body } = await detail('abc', {});

    expect(response.status).toBe(401);
    expect(body.Code).toBe('UNAUTHORIZED');
  });

  test('GET /Client/Detail/ (no id) → 404 NOT_FOUND: no such route', async () => {
    const { response, body } = await detail('');

    expect(response.status).toBe(404);
    expect(body.Code).toBe('NOT_FOUND');
  });
});
