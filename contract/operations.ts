// The route table, read from openapi.yaml: which path templates exist, which
// operation answers each, and which operations are public. Requests are
// matched exactly (case-sensitive, no trailing slash), as the spec writes them.
import type { operations } from '../generated/openapi';
import { responseExamples, type StatusExamples } from './response-examples';
import type { OpenApiDocument } from './spec-document';

/** The spec's operationIds, as openapi-typescript generated them. */
export type OperationId = keyof operations;

export interface Operation {
  operationId: OperationId;
  /** The spec's template, e.g. `/api/v1/Client/Detail/{idClient}`; what logs show instead of the raw URL. */
  template: string;
  isPublic: boolean;
  /** Statuses openapi.yaml documents for this operation. */
  statuses: ReadonlySet<number>;
  /** Its named response examples per status, for `Prefer: example=NAME`: from the served document, so an edited spec serves its new examples. */
  examples: ReadonlyMap<number, StatusExamples>;
  /** Query parameters of type integer: their raw text must be plain decimal digits. */
  integerQueryParams: ReadonlySet<string>;
  /** Its parameters as the spec declares them, `$ref`s resolved (the path item's, then the operation's, which win by name and place). */
  parameters: readonly Parameter[];
  match(path: string): Record<string, string> | undefined;
}

function compileTemplate(template: string): (path: string) => Record<string, string> | undefined {
  const names: string[] = [];
  const pattern = template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{(\w+)\}/g, (_m, name: string) => {
    names.push(name);
    return '([^/]+)';
  });
  if (names.length === 0) return (path) => (path === template ? {} : undefined);
  const regex = new RegExp(`^${pattern}$`);
  return (path) => {
    const match = regex.exec(path);
    if (!match) return undefined;
    return Object.fromEntries(names.map((name, i) => [name, match[i + 1]!]));
  };
}

/** A parameter object of openapi.yaml: the fields read here, the rest kept as the spec writes them. */
export interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  allowEmptyValue?: boolean;
  schema?: Record<string, unknown> & { type?: string };
  $ref?: string;
  [keyword: string]: unknown;
}

export function readOperations(spec: OpenApiDocument): readonly Operation[] {
  const globalSecurity = spec.security as unknown[] | undefined;
  const sharedParameters = (spec.components.parameters ?? {}) as Record<string, Parameter>;
  const resolve = (parameter: Parameter) =>
    parameter.$ref ? sharedParameters[parameter.$ref.replace('#/components/parameters/', '')]! : parameter;
  return Object.entries(spec.paths).map(([template, item]) => {
    const get = item.get as {
      operationId: OperationId;
      security?: unknown[];
      responses: Record<string, unknown>;
      parameters?: Parameter[];
    };
    const security = get.security ?? globalSecurity ?? [];
    const own = (get.parameters ?? []).map(resolve);
    const inherited = ((item.parameters ?? []) as Parameter[])
      .map(resolve)
      .filter((shared) => !own.some((p) => p.name === shared.name && p.in === shared.in));
    const parameters = [...inherited, ...own];
    return {
      operationId: get.operationId,
      template,
      isPublic: security.length === 0,
      statuses: new Set(Object.keys(get.responses).map(Number)),
      examples: responseExamples(spec, template),
      integerQueryParams: new Set(parameters.filter((p) => p.in === 'query' && p.schema?.type === 'integer').map((p) => p.name)),
      parameters,
      match: compileTemplate(template),
    };
  });
}

export interface RouteMatch {
  operation: Operation;
  params: Record<string, string>;
}

export function findOperation(operations: readonly Operation[], path: string): RouteMatch | undefined {
  for (const operation of operations) {
    const params = operation.match(path);
    if (params) return { operation, params };
  }
  return undefined;
}
