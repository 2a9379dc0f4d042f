// Every generated record validates against the schemas compiled from openapi.yaml.
import { generateClients } from '../../seeds/client';
import { describeSchemaError, SpecSchemas } from '../../contract/spec';
import { toExtended, toSimple } from '../../server/engine/projections';

const schemas = new SpecSchemas();
const clients = generateClients(11, 5000);

function firstInvalid(validatorName: string, records: readonly unknown[]): string | undefined {
  const validate = schemas.validator(validatorName);
  for (const [i, record] of records.entries()) {
    if (!validate(record)) return `[${i}]${describeSchemaError(validate.errors?.[0])}`;
  }
  return undefined;
}

describe('generated clients against openapi.yaml', () => {
  test('5,000 clients → every one is a valid ClientDetail', () => {
    expect(clients).toHaveLength(5000);
    expect(firstInvalid('ClientDetail', clients)).toBeUndefined();
  });

  test('5,000 clients → every Simple item is a valid ClientSimple', () => {
    expect(firstInvalid('ClientSimple', clients.map(toSimple))).toBeUndefined();
  });

  test('5,000 clients → every Extended item is a valid ClientExtended', () => {
    expect(firstInvalid('ClientExtended', clients.map(toExtended))).toBeUndefined();
  });

  test('the validator is strict: a record with a wrong Status case is rejected', () => {
    const broken = { ...clients[0]!, Status: 'active' };

    expect(firstInvalid('ClientDetail', [broken])).toMatch(/^\[0\]\.Status: must be equal to one of the allowed values/);
  });
});
