// Every row of the error table (docs/decisions.md) is documented, with ErrorDto, on each
// operation it applies to; every documented response has a realistic example.
import { loadSpec } from '../../contract/spec';

type Json = Record<string, unknown>;
const spec = loadSpec();
const schemas = (spec.components.schemas ?? {}) as Json;
const responses = (spec.components.responses ?? {}) as Json;

const CLIENT_OPERATIONS = ['getClientsSimple', 'getClientsExtended', 'getClientDetail'];
const ALL_OPERATIONS = ['ping', 'exception', ...CLIENT_OPERATIONS];

// docs/decisions.md "Errors": status, Code, and the operations the row applies to.
const ERROR_TABLE: { status: string; code: string; operations: string[] }[] = [
  { status: '400', code: 'VALIDATION_ERROR', operations: ALL_OPERATIONS },
  { status: '401', code: 'UNAUTHORIZED', operations: CLIENT_OPERATIONS },
  { status: '404', code: 'CLIENT_NOT_FOUND', operations: ['getClientDetail'] },
  { status: '405', code: 'METHOD_NOT_ALLOWED', operations: ALL_OPERATIONS },
  { status: '500', code: 'TEST_EXCEPTION', operations: ['exception'] },
  { status: '500', code: 'INTERNAL_ERROR', operations: ALL_OPERATIONS },
];

function operation(operationId: string): Json {
  for (const item of Object.values(spec.paths)) {
    const get = item.get as Json | undefined;
    if (get?.operationId === operationId) return get;
  }
  throw new Error(`no operation ${operationId}`);
}

function resolve(response: Json): Json {
  const ref = response.$ref as string | undefined;
  if (!ref) return response;
  return responses[ref.replace('#/components/responses/', '')] as Json;
}

function jsonContent(response: Json): Json {
  const content = (response.content as Json | undefined)?.['application/json'] as Json | undefined;
  if (!content) throw new Error('response without application/json content');
  return content;
}

function exampleCodes(content: Json): string[] {
  const examples = Object.values((content.examples as Record<string, Json> | undefined) ?? {}).map((e) => e.value as Json);
  if (content.example) examples.push(content.example as Json);
  return examples.map((e) => e.Code as string);
}

describe('openapi.yaml documents every error of the error table', () => {
  const rows = ERROR_TABLE.flatMap((row) => row.operations.map((operationId) => ({ ...row, operationId })));

  test.each(rows)('$operationId documents $status $code as an ErrorDto', ({ operationId, status, code }) => {
    const response = (operation(operationId).responses as Json)[status] as Json | undefined;

    expect(response).toBeDefined();
    const content = jsonContent(resolve(response!));
    expect((content.schema as Json).$ref).toBe('#/components/schemas/ErrorDto');
    expect(((schemas.ErrorDto as Json).properties as Json).Code).toMatchObject({ enum: expect.arrayContaining([code]) });
  });

  test.each(['400', '401', '404', '405'])('the %s responses each carry an example with the documented Code', (status) => {
    const withStatus = ERROR_TABLE.filter((row) => row.status === status);
    for (const row of withStatus) {
      for (const operationId of row.operations) {
        const content = jsonContent(resolve((operation(operationId).responses as Json)[status] as Json));
        expect(exampleCodes(content)).toContain(row.code);
      }
    }
  });

  test('NOT_FOUND (no such path) is documented as a reusable response with an example', () => {
    expect(exampleCodes(jsonContent(responses.NotFound as Json))).toContain('NOT_FOUND');
  });

  test('405 responses document the Allow header', () => {
    expect(((responses.MethodNotAllowed as Json).headers as Json).Allow).toBeDefined();
  });

  test('the ErrorDto Code enum is exactly the catalogue of the server', async () => {
    const { ERROR_CATALOGUE } = await import('../../server/errors');

    expect([...(((schemas.ErrorDto as Json).properties as Json).Code as { enum: string[] }).enum].sort()).toEqual(
      Object.keys(ERROR_CATALOGUE).sort(),
    );
  });
});

describe('openapi.yaml operations', () => {
  test.each(ALL_OPERATIONS)('%s has a tag, a summary, a description and a 200 or its designed 500 with an example', (operationId) => {
    const get = operation(operationId);

    expect((get.tags as string[]).length).toBe(1);
    expect(get.summary).toEqual(expect.any(String));
    expect(get.description).toEqual(expect.any(String));
    const success = ((get.responses as Json)['200'] ?? (get.responses as Json)['500']) as Json;
    const content = jsonContent(resolve(success));
    expect(content.example ?? content.examples).toBeDefined();
  });

  test.each(CLIENT_OPERATIONS)('%s requires the X-Api-Key scheme (global security)', (operationId) => {
    expect(operation(operationId).security).toBeUndefined();
    expect(spec.security).toEqual([{ ApiKeyAuth: [] }]);
    expect((spec.components.securitySchemes as Json).ApiKeyAuth).toMatchObject({ type: 'apiKey', in: 'header', name: 'X-Api-Key' });
  });

  test.each(['ping', 'exception'])('%s is public (security: [])', (operationId) => {
    expect(operation(operationId).security).toEqual([]);
  });

  test('every object schema forbids undocumented properties and lists its required fields', () => {
    for (const [name, schema] of Object.entries(schemas) as [string, Json][]) {
      const type = schema.type;
      if (type !== 'object' && !(Array.isArray(type) && type.includes('object'))) continue;
      expect({ name, additionalProperties: schema.additionalProperties }).toEqual({ name, additionalProperties: false });
      expect({ name, required: [...(schema.required as string[])].sort() }).toEqual({
        name,
        required: Object.keys(schema.properties as Json).sort(),
      });
    }
  });

  test('the list operations document X-Total-Count and Link on 200, every response X-Request-Id', () => {
    for (const operationId of ['getClientsSimple', 'getClientsExtended']) {
      const headers = ((operation(operationId).responses as Json)['200'] as Json).headers as Json;
      expect(Object.keys(headers)).toEqual(expect.arrayContaining(['X-Total-Count', 'Link', 'X-Request-Id']));
    }
    for (const operationId of ALL_OPERATIONS) {
      for (const response of Object.values(operation(operationId).responses as Json)) {
        expect(Object.keys(resolve(response as Json).headers as Json)).toContain('X-Request-Id');
      }
    }
  });

  test('filter allows reserved characters and is bounded', () => {
    const filter = (operation('getClientsExtended').parameters as Json[]).find((p) => p.name === 'filter')!;

    expect(filter.allowReserved).toBe(true);
    expect(filter.schema).toMatchObject({ type: 'string', maxLength: 200 });
  });
});
