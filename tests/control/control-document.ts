// Test helper: holds a control API answer to control.openapi.yaml — its status
// documented for the operation, its body valid against the documented schema
// of that status and media type, and the headers every answer carries.
import fs from 'node:fs';
import YAML from 'yaml';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { CONTROL_SPEC_PATH } from '../../server/control/document';

type Doc = {
  paths: Record<string, Record<string, { responses: Record<string, { $ref?: string; content?: Record<string, { schema: unknown }> }> }>>;
  components: { responses: Record<string, { content?: Record<string, { schema: unknown }> }> };
};

const DOC = YAML.parse(fs.readFileSync(CONTROL_SPEC_PATH, 'utf8')) as Doc;
const ajv = new Ajv2020({ strict: false, allErrors: true, formats: { int32: true, int64: true, double: true } });
addFormats(ajv);
ajv.addSchema(DOC, 'control');

const escape = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1');

/** Throws unless `response` is an answer control.openapi.yaml documents for `method template`. */
export async function expectDocumented(method: string, template: string, response: Response): Promise<unknown> {
  const operation = DOC.paths[template]?.[method.toLowerCase()];
  if (!operation) throw new Error(`control.openapi.yaml has no ${method} ${template}`);
  const status = String(response.status);
  const documented = operation.responses[status];
  if (!documented) throw new Error(`${method} ${template} answered ${status}, which control.openapi.yaml does not document`);
  if (!response.headers.get('x-request-id')) throw new Error(`${method} ${template} ${status}: no X-Request-Id`);
  const resolved = documented.$ref ? DOC.components.responses[documented.$ref.split('/').pop()!]! : documented;
  const text = await response.text();
  if (!resolved.content) {
    if (text !== '') throw new Error(`${method} ${template} ${status}: a body where none is documented`);
    return undefined;
  }
  const type = (response.headers.get('content-type') ?? '').split(';')[0]!.trim();
  if (!resolved.content[type]) throw new Error(`${method} ${template} ${status}: media type ${type} is not documented`);
  const body: unknown = type === 'application/json' ? JSON.parse(text) : text;
  const pointer = documented.$ref
    ? `control#/components/responses/${documented.$ref.split('/').pop()}/content/${escape(type)}/schema`
    : `control#/paths/${escape(template)}/${method.toLowerCase()}/responses/${status}/content/${escape(type)}/schema`;
  const validate = ajv.getSchema(pointer)!;
  if (!validate(body)) throw new Error(`${method} ${template} ${status}: ${ajv.errorsText(validate.errors)}`);
  return body;
}
