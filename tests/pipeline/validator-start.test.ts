// The validator's start is trimmed of a compile it never uses (server/pipeline/validator.ts,
// skipUnusedSpecValidator; issue 26 item 6): with validateApiSpec off nothing of the OpenAPI
// meta-schema is built, and with it on the validator's own class still runs; the schema
// preprocessor reads component schemas from Ajv's registry instead of compiling them to read them.
import fs from 'node:fs';
import path from 'node:path';
import { loadSpec } from '../../contract/spec';
import { openApiValidator } from '../../server/pipeline/validator';

interface SchemaValidatorModule {
  OpenAPISchemaValidator: (new (options: { version: string; validateApiSpec: boolean }) => {
    validate(document: unknown): { errors: unknown[] };
  }) & { skipsUnused?: boolean };
}

const framework = path.join(path.dirname(require.resolve('express-openapi-validator/package.json')), 'dist', 'framework');
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the very module the validator reads the class from.
const schemaValidator = () => require(path.join(framework, 'openapi.schema.validator.js')) as SchemaValidatorModule;

test('once a validator step is made, the unused OpenAPI document validator costs nothing, the used one is intact', () => {
  openApiValidator(loadSpec(), true);
  const { OpenAPISchemaValidator } = schemaValidator();
  expect(OpenAPISchemaValidator.skipsUnused).toBe(true);
  expect(new OpenAPISchemaValidator({ version: '3.1.0', validateApiSpec: false }).validate({})).toEqual({ errors: [] });
  const checking = new OpenAPISchemaValidator({ version: '3.1.0', validateApiSpec: true });
  expect(checking.validate({ openapi: '3.1.0' }).errors.length).toBeGreaterThan(0);
});

test('the validator still reads the class from the module at each start (the seam the trim relies on)', () => {
  const source = fs.readFileSync(path.join(framework, 'index.js'), 'utf8');
  expect(source).toMatch(/new openapi_schema_validator_1\.OpenAPISchemaValidator\(/);
  expect(source).toMatch(/if \(validateApiSpec\) \{\s*const apiDocValidation = validator\.validate\(apiDoc\)/);
});

test('the preprocessor resolves a component $ref to the very object Ajv holds, without compiling it', () => {
  openApiValidator(loadSpec(), true);
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the validator's own modules, as installed.
  const { SchemaPreprocessor } = require(path.join(path.dirname(framework), 'middlewares', 'parsers', 'schema.preprocessor.js')) as {
    SchemaPreprocessor: new (
      apiDoc: unknown,
      ajvOptions: object,
      responses: unknown,
    ) => {
      ajv: { schemas: Record<string, { schema: unknown; validate?: unknown }> };
      resolveSchema(schema: unknown): unknown;
    };
  };
  const apiDoc = structuredClone(loadSpec());
  const preprocessor = new SchemaPreprocessor(apiDoc, { formats: {}, validateFormats: false }, false);
  const ref = '#/components/schemas/ClientSimple';
  expect(preprocessor.resolveSchema({ $ref: ref })).toBe(apiDoc.components.schemas.ClientSimple);
  expect(preprocessor.ajv.schemas[ref]!.validate).toBeUndefined();
});

test("every component schema of the package's openapi.yaml compiles (a compile the preprocessor no longer does at start)", () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the validator's own Ajv factory, as its validators use it.
  const { createResponseAjv } = require(path.join(framework, 'ajv', 'index.js')) as {
    createResponseAjv: (spec: unknown, options: object) => { getSchema(ref: string): unknown };
  };
  const spec = structuredClone(loadSpec());
  const ajv = createResponseAjv(spec, { formats: {}, validateFormats: false });
  for (const name of Object.keys(spec.components.schemas)) expect(ajv.getSchema(`#/components/schemas/${name}`)).toBeInstanceOf(Function);
});
