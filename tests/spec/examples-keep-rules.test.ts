// The spec keeps its own rules (issue 23, item 7): every example in
// openapi.yaml passes the rules the contract suite holds a deployment to.
// Response examples keep their schema, the in-record rules (Luhn digit,
// PersonalId and DateOfBirth, FullName, repeated basic fields, nulls), the
// list order and uniqueness, and the error table; schema, property, parameter
// and header examples keep their own schemas; the Link example names the
// right pages for the X-Total-Count example. Found by walking the document, so
// an example added to it is checked with no change here.
import { compareClients } from '../../contract/list-order';
import { personalIdProblems, recordProblems, UniqueRecords } from '../../contract/record-rules';
import { loadSpec, type OpenApiDocument } from '../../contract/spec';
import { judgeRequest, linkViolations } from '../../contract/judge';
import { linkRelations } from '../../contract/link-header';
import { SpecContract } from '../../contract/spec-contract';

type Json = Record<string, unknown>;

const document: OpenApiDocument = loadSpec();
const contract = new SpecContract(document);

interface Example {
  /** JSON pointer of the example's value. */
  pointer: string;
  /** JSON pointer of the schema it must keep. */
  schema: string;
  value: unknown;
  /** For a response example: its status. */
  status?: number;
}

const escape = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1');

/**
 * The status of a shared response (components/responses/X): the status an
 * operation documents it under, else the error table's status for the Code
 * its description names (NotFound is used by no operation: any unknown path gets it).
 */
function componentStatus(pointer: string): string | undefined {
  const name = /^#\/components\/responses\/([^/]+)\/content\//.exec(pointer)?.[1];
  if (!name) return undefined;
  for (const item of Object.values(document.paths))
    for (const [status, response] of Object.entries(((item.get as Json).responses ?? {}) as Record<string, Json>))
      if (response.$ref === `#/components/responses/${name}`) return status;
  const description = String(contract.resolve(`#/components/responses/${name}`).node.description ?? '');
  return String(contract.errorTable().find((row) => description.includes(`\`${row.code}\``))?.status ?? '');
}

/** Every example in the document: `example`, `examples` lists of schemas and named `examples` of media types and parameters. */
function examplesOf(node: unknown, pointer: string, found: Example[] = []): Example[] {
  if (Array.isArray(node)) {
    node.forEach((item, i) => examplesOf(item, `${pointer}/${i}`, found));
    return found;
  }
  if (typeof node !== 'object' || node === null) return found;
  const object = node as Json;
  const schemaPointer = 'schema' in object ? `${pointer}/schema` : pointer;
  const status = /\/responses\/(\d{3})\/content\//.exec(pointer)?.[1] ?? componentStatus(pointer);
  if ('example' in object) found.push({ pointer: `${pointer}/example`, schema: schemaPointer, value: object.example });
  if (Array.isArray(object.examples) && !('schema' in object))
    object.examples.forEach((value, i) => found.push({ pointer: `${pointer}/examples/${i}`, schema: pointer, value }));
  if (object.examples && !Array.isArray(object.examples) && typeof object.examples === 'object')
    for (const [name, example] of Object.entries(object.examples as Record<string, Json>))
      found.push({
        pointer: `${pointer}/examples/${escape(name)}/value`,
        schema: schemaPointer,
        value: example.value,
        ...(status ? { status: Number(status) } : {}),
      });
  for (const [key, child] of Object.entries(object))
    if (key !== 'example' && key !== 'examples') examplesOf(child, `${pointer}/${escape(key)}`, found);
  return found;
}

/** The pointer with `$ref`s followed where the document has them, so Ajv reaches the schema itself. */
function schemaAt(pointer: string): string {
  const parts = pointer.replace(/^#\//, '').split('/');
  let resolved = '#';
  for (const part of parts) {
    resolved = contract.resolve(`${resolved}/${part}`).pointer;
  }
  return resolved;
}

const examples = examplesOf(document, '#');

/** The in-record rules, the order and uniqueness a page of clients (or one client) must keep. */
function recordRuleProblems(value: unknown): string[] {
  if (typeof value !== 'object' || value === null) return [];
  const page = value as { Results?: Json[] };
  const records = Array.isArray(page.Results) ? page.Results : 'PersonalInfo' in page ? [page as Json] : [];
  const problems = records.flatMap((record, i) =>
    recordProblems(record).map((p) => `[${i}] ${p.rule} at ${p.field}: expected ${p.expected}, got ${p.actual}`),
  );
  const unique = new UniqueRecords<number>();
  records.forEach((record, i) => {
    const repeated = unique.add(record, i);
    if (repeated) problems.push(`[${i}] ${repeated.rule}: repeats [${repeated.earlier}]`);
    const before = records[i - 1];
    if (before && compareClients(before as never, record as never) >= 0)
      problems.push(`[${i}] comes before [${i - 1}] in the documented order`);
  });
  return problems;
}

describe('every example in openapi.yaml keeps the rules the contract suite enforces', () => {
  test('the document has examples of every kind (the walk finds them)', () => {
    expect(examples.filter((e) => e.status === 200).length).toBeGreaterThanOrEqual(10);
    expect(examples.filter((e) => e.status !== undefined && e.status >= 400).length).toBeGreaterThanOrEqual(5);
    expect(examples.some((e) => e.pointer.includes('/components/schemas/PersonalId/examples/'))).toBe(true);
    expect(examples.some((e) => e.pointer.includes('/components/headers/Link/example'))).toBe(true);
  });

  test.each(examples.map((example) => [example.pointer, example] as const))('%s keeps its schema', (_pointer, example) => {
    const validate = contract.validator(schemaAt(example.schema));
    // A parameter's or header's example is its value as text on the wire: integers and booleans are read as such.
    const valid = validate(example.value);

    expect(valid ? [] : validate.errors).toEqual([]);
  });

  test.each(examples.filter((e) => e.status !== undefined).map((example) => [example.pointer, example] as const))(
    '%s keeps the in-record rules, the order and the error table',
    (_pointer, example) => {
      const problems = recordRuleProblems(example.value);
      const code = (example.value as { Code?: unknown } | null)?.Code;
      if (typeof code === 'string' && !contract.codesFor(example.status!).includes(code))
        problems.push(`Code ${code} is not the error table's for ${example.status} (${contract.codesFor(example.status!).join(', ')})`);

      expect(problems).toEqual([]);
    },
  );

  test.each(examples.filter((e) => /PersonalId/.test(e.schema) && typeof e.value === 'string').map((e) => [e.pointer, e] as const))(
    '%s (a PersonalId) ends in its Luhn digit',
    (pointer, example) => {
      expect(personalIdProblems(example.value as string, pointer)).toEqual([]);
    },
  );

  test.each(
    contract.operations.flatMap((operation) =>
      operation.parameters.flatMap((parameter) => {
        const examplesOfParameter = examples.filter(
          (e) => e.schema === parameter.schemaPointer || e.schema === parameter.schemaPointer.replace(/\/schema$/, ''),
        );
        return examplesOfParameter.map(
          (e) => [`${operation.operationId} ${parameter.name}=${String(e.value)}`, operation, parameter, e.value] as const,
        );
      }),
    ),
  )('parameter example %s is a valid request', (_title, operation, parameter, value) => {
    const path = operation.template.replace(/\{(\w+)\}/g, (_m, name: string) =>
      name === parameter.name ? encodeURIComponent(String(value)) : '00000000-0000-4000-8000-000000000000',
    );
    const query = parameter.in === 'query' ? `?${encodeURIComponent(parameter.name)}=${encodeURIComponent(String(value))}` : '';
    const headers: Record<string, string> = { 'X-Api-Key': 'example-key' };
    if (parameter.in === 'header') headers[parameter.name] = String(value);

    const judged = judgeRequest(contract, { method: 'GET', path: path + query, headers, keyAccepted: true });

    expect(judged.violations).toEqual([]);
  });

  test('the Link example names the right pages for the X-Total-Count example (the request its first link names)', () => {
    const link = String(contract.resolve('#/components/headers/Link').node.example);
    const total = Number(contract.resolve('#/components/headers/X-Total-Count').node.example);
    const first = linkRelations(link).get('first')!;

    const violations = linkViolations(
      contract,
      { method: 'GET', path: first, headers: { 'X-Api-Key': 'example-key' }, keyAccepted: true },
      link,
      total,
    );

    expect(violations).toEqual([]);
  });

  test('the X-Request-Id example is one the server echoes (1-128 of [A-Za-z0-9_.:@-])', () => {
    expect(String(contract.resolve('#/components/headers/X-Request-Id').node.example)).toMatch(/^[A-Za-z0-9_.:@-]{1,128}$/);
  });
});
