// One road to the spec (issue 27): a served spec (SPEC_FILE, --spec, --watch)
// is the spec everywhere, not only in the validator. A copy of openapi.yaml
// whose PageSize parameter is renamed `size` with a default of 10 must give
// pages of 10, read `size`, write `size` into Link, and name `query.size` in
// the request line of a bad value: every module that once read the package's
// bundled openapi.yaml behind the app's back would answer with the bundled
// `pageSize` and its default of 25.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import YAML from 'yaml';
import { SPEC_PATH, type OpenApiDocument } from '../../contract/spec';
import { get, startTestServer, type TestServer } from '../support/servers';

interface Parameter {
  name: string;
  schema: { default?: number; maximum?: number };
  example?: number;
}

let server: TestServer;

beforeAll(async () => {
  const spec = YAML.parse(fs.readFileSync(SPEC_PATH, 'utf8')) as OpenApiDocument;
  const pageSize = (spec.components.parameters as Record<string, Parameter>).PageSize!;
  pageSize.name = 'size';
  pageSize.schema.default = 10;
  pageSize.example = 10;
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'served-spec-')), 'openapi.yaml');
  fs.writeFileSync(file, YAML.stringify(spec));
  server = await startTestServer({ specFile: file, logLevel: 'info' });
});
afterAll(() => server.stop());

describe('a served spec (SPEC_FILE) whose PageSize is renamed `size` with default 10', () => {
  test('GET /api/v1/Client/Simple → pages of the served default, 10, with `size` in every Link target', async () => {
    const response = await get(server.baseUrl, '/api/v1/Client/Simple');

    const body = (await response.json()) as { PageSize: number; Results: unknown[] };
    expect(response.status).toBe(200);
    expect(body.PageSize).toBe(10);
    expect(body.Results).toHaveLength(10);
    expect(response.headers.get('link')).toBe(
      '</api/v1/Client/Simple?page=1&size=10>; rel="first", </api/v1/Client/Simple?page=2&size=10>; rel="next", ' +
        '</api/v1/Client/Simple?page=100&size=10>; rel="last"',
    );
  });

  test('GET /api/v1/Client/Extended?size=3&page=2 → three clients of page 2, as the served name asks', async () => {
    const response = await get(server.baseUrl, '/api/v1/Client/Extended?size=3&page=2');

    const body = (await response.json()) as { Page: number; PageSize: number; Results: unknown[] };
    expect(response.status).toBe(200);
    expect([body.Page, body.PageSize, body.Results.length]).toEqual([2, 3, 3]);
    expect(response.headers.get('link')).toContain('</api/v1/Client/Extended?page=3&size=3>; rel="next"');
  });

  test('GET /api/v1/Client/Simple?pageSize=3 → 400 unknown query parameter: the bundled name is not the served one', async () => {
    const response = await get(server.baseUrl, '/api/v1/Client/Simple?pageSize=3');

    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ Code: 'VALIDATION_ERROR', Message: "unknown query parameter 'pageSize'" });
  });

  test('GET /api/v1/Client/Simple?size=500 → 400, and the request line names the served parameter query.size', async () => {
    const response = await get(server.baseUrl, '/api/v1/Client/Simple?size=500', { 'X-Api-Key': 'dev-key', 'X-Request-Id': 'served-size' });
    await response.arrayBuffer();
    // The line is written when the response closes, just after the client has read it.
    await new Promise((resolve) => setTimeout(resolve, 50));

    const line = server.logs.records.find((record) => record.reqId === 'served-size');
    expect(response.status).toBe(400);
    expect(line).toMatchObject({ code: 'VALIDATION_ERROR', param: 'query.size' });
  });
});
