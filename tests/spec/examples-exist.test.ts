// The spec's examples are real (issue 15): the example idClient, idStaff and
// idLocation of openapi.yaml exist in the default data set (SEED=1,
// CLIENTS=1000), and each operation's `typical` example is the answer the
// default server gives to the request its summary names. Tools that build
// requests from examples (Portman, Dredd, Schemathesis) then reach the 200 paths.
import { loadSpec } from '../../contract/spec';
import { responseExamples } from '../../contract/response-examples';
import { get, startTestServer, type TestServer } from '../support/servers';

const spec = loadSpec();

interface Parameter {
  name: string;
  example?: string;
}

function parameterExample(template: string, name: string): string {
  const parameters = (spec.paths[template]!.get as { parameters: Parameter[] }).parameters;
  const example = parameters.find((parameter) => parameter.name === name)?.example;
  if (!example) throw new Error(`no example for ${name} of ${template}`);
  return example;
}

const typical = (template: string) => responseExamples(spec, template).get(200)!.examples.get('typical');

describe('examples of openapi.yaml against the default data set', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.stop());

  test('GET /Client/Detail/{idClient} with the example idClient → 200, the typical example itself', async () => {
    const template = '/api/v1/Client/Detail/{idClient}';

    const response = await get(server.baseUrl, `/api/v1/Client/Detail/${parameterExample(template, 'idClient')}`);

    expect(response.status).toBe(200);
    expect(await response.json()).toEqual(typical(template));
  });

  test.each(['idStaff', 'idLocation'])(
    'GET /Client/Extended with the example %s → clients, the example idClient among them',
    async (name) => {
      const idClient = parameterExample('/api/v1/Client/Detail/{idClient}', 'idClient');

      const response = await get(
        server.baseUrl,
        `/api/v1/Client/Extended?pageSize=100&${name}=${parameterExample('/api/v1/Client/Extended', name)}`,
      );
      const body = (await response.json()) as { Results: { IdClient: string }[] };

      expect(response.status).toBe(200);
      expect(body.Results.map((client) => client.IdClient)).toContain(idClient);
    },
  );

  test.each([
    ['/api/v1/Client/Simple', '?pageSize=2'],
    ['/api/v1/Client/Extended', '?pageSize=1'],
  ])('GET %s%s → the typical example itself', async (template, query) => {
    const response = await get(server.baseUrl, `${template}${query}`);

    expect(await response.json()).toEqual(typical(template));
  });
});
