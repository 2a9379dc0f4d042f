// The response contract, read from openapi.yaml at run time and checked with
// our own Ajv (JSON Schema 2020-12, as OAS 3.1 uses), not with the server's
// validator middleware. For an exchange it answers: which operation is this,
// is the status documented for it, and do the content type, the documented
// headers and the body match the response the spec documents for that status?
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { loadSpec, followRefs, pointerSegment, type OpenApiDocument } from './spec';

type Json = Record<string, unknown>;

export interface SpecParameter {
  name: string;
  in: 'query' | 'path' | 'header' | 'cookie';
  required: boolean;
  schema: Json;
  allowReserved: boolean;
  /** `allowEmptyValue: true`: present without a value (`?filter` or `?filter=`) is allowed. */
  allowEmptyValue: boolean;
  /** JSON pointer of its schema, after `$ref`s (for validator()). */
  schemaPointer: string;
  description: string;
  /**
   * A header whose description says a real deployment ignores it (`Prefer`: "Mock control, ignored by a real
   * deployment"): a deployment may answer as if it were absent, whatever its value, so a value outside its schema
   * may be answered 400 (the mock) or as the plain request (a deployment).
   */
  ignoredByDeployment: boolean;
  /** Its `example`, or the first of its `examples`, when it has one (the derived checks fill a path with it). */
  example?: unknown;
  /** Every example value it gives: `example`, then each of `examples` in the document's order. */
  examples: unknown[];
}

/** Where a security scheme of type apiKey wants the credential (components.securitySchemes). */
export interface ApiKeyCredential {
  scheme: string;
  name: string;
  in: 'header' | 'query' | 'cookie';
}

/** One row of the error table in info.description (`| Status | Code | When |`). */
export interface ErrorTableRow {
  status: number;
  code: string;
  when: string;
}

/** A documented response, after `$ref`s: the node, its pointer and the key it is documented under (`200`, `4XX`, `default`). */
export interface SpecResponse {
  node: Json;
  pointer: string;
  key: string;
}

export interface SpecOperation {
  operationId: string;
  template: string;
  /** JSON pointer of the GET operation object. */
  pointer: string;
  isPublic: boolean;
  parameters: readonly SpecParameter[];
  /** Documented statuses, e.g. ['200', '400', '401', '405', '500']. */
  statuses: readonly string[];
  /** The apiKey credentials its security requires (empty: public). Alternatives beyond the first requirement are not modelled. */
  credentials: readonly ApiKeyCredential[];
  match(pathname: string): Record<string, string> | undefined;
}

const SPEC_ID = 'openapi.json';

function compileTemplate(template: string): (pathname: string) => Record<string, string> | undefined {
  const names: string[] = [];
  const source = template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{(\w+)\}/g, (_m, name: string) => {
    names.push(name);
    return '([^/]+)';
  });
  const regex = new RegExp(`^${source}$`);
  return (pathname) => {
    const found = regex.exec(pathname);
    if (!found) return undefined;
    return Object.fromEntries(names.map((name, i) => [name, found[i + 1]!]));
  };
}

export class SpecContract {
  readonly spec: OpenApiDocument;
  readonly operations: readonly SpecOperation[];
  private readonly ajv: Ajv2020;
  private readonly validators = new Map<string, ValidateFunction>();
  /** Each pointer after its `$ref`s: the judge asks for the same few on every exchange (the proxy's profile: 9 % of its CPU). */
  private readonly resolved = new Map<string, Readonly<{ node: Json; pointer: string }>>();
  /** response()'s answers by operation and status (statuses are at most 900 per operation). */
  private readonly responses = new Map<string, SpecResponse | undefined>();
  private table: readonly ErrorTableRow[] | undefined;

  constructor(spec: OpenApiDocument = loadSpec()) {
    this.spec = spec;
    // strict off: the document around the schemas is not itself a schema. int32 is checked, not ignored.
    this.ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true, logger: false });
    addFormats(this.ajv);
    // RFC 9562 §4: a uuid is 8-4-4-4-12 hexadecimal digits, any version, either case; ajv-formats also takes a `urn:uuid:` prefix, which is another spelling.
    this.ajv.addFormat('uuid', /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i);
    this.ajv.addFormat('int32', { type: 'number', validate: (n: number) => Number.isInteger(n) && n >= -(2 ** 31) && n < 2 ** 31 });
    this.ajv.addSchema(structuredClone(spec), SPEC_ID);
    this.operations = this.readOperations();
  }

  /** The node at a JSON pointer, following `$ref`s; returns the pointer it ended at. */
  resolve(pointer: string): { node: Json; pointer: string } {
    let resolved = this.resolved.get(pointer);
    if (!resolved) {
      const found = followRefs(this.spec, pointer);
      if (!found) throw new Error(`openapi.yaml has nothing at ${pointer}`);
      resolved = Object.freeze({ node: found.node as Json, pointer: found.pointer });
      this.resolved.set(pointer, resolved);
    }
    return resolved;
  }

  /** A compiled validator for the schema at a pointer (cached). */
  validator(pointer: string): ValidateFunction {
    let validate = this.validators.get(pointer);
    if (!validate) {
      validate = this.ajv.getSchema(`${SPEC_ID}${pointer}`);
      if (!validate) throw new Error(`no schema at ${pointer}`);
      this.validators.set(pointer, validate);
    }
    return validate;
  }

  operation(operationId: string): SpecOperation {
    const found = this.operations.find((operation) => operation.operationId === operationId);
    if (!found) throw new Error(`openapi.yaml has no operation ${operationId}`);
    return found;
  }

  /** The operation whose path template matches a raw (still percent-encoded) path. */
  findOperation(pathname: string): { operation: SpecOperation; params: Record<string, string> } | undefined {
    for (const operation of this.operations) {
      const params = operation.match(pathname);
      if (params) return { operation, params };
    }
    return undefined;
  }

  /** The response documented for a status of an operation (exact, then `4XX`, then `default`), or for a path that is no operation its 404. */
  response(operation: SpecOperation | undefined, status: number): SpecResponse | undefined {
    // One object per operation and status: what the judge derives from a response (its headers' validators) is kept on it.
    const key = `${operation?.operationId ?? ''} ${status}`;
    if (this.responses.has(key)) return this.responses.get(key);
    const response = this.findResponse(operation, status);
    this.responses.set(key, response);
    return response;
  }

  private findResponse(operation: SpecOperation | undefined, status: number): SpecResponse | undefined {
    if (!operation) {
      if (status !== 404) return undefined;
      const found = this.tryResolve('#/components/responses/NotFound');
      return found && { ...found, key: '404' };
    }
    const key = [String(status), `${String(status)[0]}XX`, 'default'].find((candidate) => operation.statuses.includes(candidate));
    if (!key) return undefined;
    return { ...this.resolve(`${operation.pointer}/responses/${pointerSegment(key)}`), key };
  }

  /** The node at a pointer, or undefined when there is none. */
  tryResolve(pointer: string): { node: Json; pointer: string } | undefined {
    try {
      return this.resolve(pointer);
    } catch {
      return undefined;
    }
  }

  /**
   * The error table of info.description, read mechanically: the first
   * markdown table whose header has a `Status` and a `Code` column, one row
   * per status and code (backticks dropped). Empty when the document has none.
   */
  errorTable(): readonly ErrorTableRow[] {
    this.table ??= parseErrorTable(String((this.spec.info as Json | undefined)?.description ?? ''));
    return this.table;
  }

  /** The Codes the table allows for a status. */
  codesFor(status: number): string[] {
    return this.errorTable()
      .filter((row) => row.status === status)
      .map((row) => row.code);
  }

  /**
   * The Codes a documented response names in its description (`(\`UNAUTHORIZED\`)`)
   * among those the table allows for its status; when it names none, every
   * Code the table allows for the status.
   */
  codesOfResponse(response: SpecResponse, status: number): string[] {
    const allowed = this.codesFor(status);
    const description = String(response.node.description ?? '');
    const named = allowed.filter((code) => description.includes(`\`${code}\``));
    return named.length > 0 ? named : allowed;
  }

  private readOperations(): SpecOperation[] {
    const globalSecurity = (this.spec.security as unknown[] | undefined) ?? [];
    return Object.entries(this.spec.paths).map(([template, item]) => {
      const pointer = `#/paths/${pointerSegment(template)}/get`;
      const get = item.get as Json;
      const parameters = ((get.parameters ?? []) as unknown[]).map((_, i) => {
        const resolved = this.resolve(`${pointer}/parameters/${i}`);
        const parameter = resolved.node;
        const examples = Object.values((parameter.examples ?? {}) as Record<string, { value?: unknown }>);
        return {
          name: String(parameter.name),
          in: parameter.in as SpecParameter['in'],
          required: parameter.required === true,
          schema: (parameter.schema ?? {}) as Json,
          allowReserved: parameter.allowReserved === true,
          allowEmptyValue: parameter.allowEmptyValue === true,
          schemaPointer: `${resolved.pointer}/schema`,
          description: typeof parameter.description === 'string' ? parameter.description : '',
          ignoredByDeployment: parameter.in === 'header' && /\bignored\b/i.test(String(parameter.description ?? '')),
          example: 'example' in parameter ? parameter.example : examples[0]?.value,
          examples: [...('example' in parameter ? [parameter.example] : []), ...examples.map((example) => example.value)],
        };
      });
      const requirements = ((get.security as Json[] | undefined) ?? (this.spec.security as Json[] | undefined) ?? []) as Json[];
      const schemes = ((this.spec.components as Json).securitySchemes ?? {}) as Record<string, Json>;
      const credentials = Object.keys(requirements[0] ?? {}).flatMap((scheme): ApiKeyCredential[] => {
        const declared = schemes[scheme];
        if (declared?.type !== 'apiKey') return [];
        return [{ scheme, name: String(declared.name), in: declared.in as ApiKeyCredential['in'] }];
      });
      return {
        operationId: String(get.operationId),
        template,
        pointer,
        isPublic: ((get.security as unknown[] | undefined) ?? globalSecurity).length === 0,
        parameters,
        credentials,
        statuses: Object.keys(get.responses as Json),
        match: compileTemplate(template),
      };
    });
  }
}

/** The first markdown table of a text with `Status` and `Code` columns, as rows. */
export function parseErrorTable(markdown: string): ErrorTableRow[] {
  const lines = markdown.split('\n').map((line) => line.trim());
  for (let start = 0; start < lines.length; start += 1) {
    if (!lines[start]!.startsWith('|')) continue;
    const cells = (line: string) =>
      line
        .replace(/^\||\|$/g, '')
        .split('|')
        .map((cell) => cell.trim().replace(/`/g, ''));
    const header = cells(lines[start]!).map((cell) => cell.toLowerCase());
    const statusColumn = header.indexOf('status');
    const codeColumn = header.indexOf('code');
    const whenColumn = header.indexOf('when');
    if (statusColumn < 0 || codeColumn < 0) continue;
    const rows: ErrorTableRow[] = [];
    for (let i = start + 1; i < lines.length && lines[i]!.startsWith('|'); i += 1) {
      const row = cells(lines[i]!);
      if (row.every((cell) => /^:?-+:?$/.test(cell))) continue;
      const status = Number(row[statusColumn]);
      if (Number.isInteger(status)) rows.push({ status, code: row[codeColumn] ?? '', when: whenColumn < 0 ? '' : (row[whenColumn] ?? '') });
    }
    return rows;
  }
  return [];
}

let shared: SpecContract | undefined;

/** One contract per process: compiling the validators once is enough. */
export function specContract(): SpecContract {
  shared ??= new SpecContract();
  return shared;
}
