// The named response examples of openapi.yaml, per operation and status: what
// `Prefer: example=NAME` answers (openapi.yaml, parameter Prefer). Read from the
// document, so an example added there is served with no code change.
import type { OpenApiDocument } from './spec-document';

export interface StatusExamples {
  /** Example name → its value, in the document's order. */
  examples: ReadonlyMap<string, unknown>;
  /** The response documents X-Total-Count (a list): an example answer sets the paging headers too. */
  isList: boolean;
}

interface ResponseObject {
  $ref?: string;
  headers?: Record<string, unknown>;
  content?: Record<string, { examples?: Record<string, { value?: unknown }> }>;
}

const RESPONSE_REF = '#/components/responses/';

/** Status → named examples of the GET operation at `template`; statuses without named examples are left out. */
export function responseExamples(spec: OpenApiDocument, template: string): ReadonlyMap<number, StatusExamples> {
  const shared = (spec.components.responses ?? {}) as Record<string, ResponseObject>;
  const operation = spec.paths[template]?.get as { responses?: Record<string, ResponseObject> } | undefined;
  const byStatus = new Map<number, StatusExamples>();
  for (const [status, documented] of Object.entries(operation?.responses ?? {})) {
    const response = documented.$ref ? shared[documented.$ref.slice(RESPONSE_REF.length)] : documented;
    const named = response?.content?.['application/json']?.examples ?? {};
    const examples = new Map(Object.entries(named).map(([name, example]) => [name, example.value]));
    if (examples.size > 0) byStatus.set(Number(status), { examples, isList: 'X-Total-Count' in (response?.headers ?? {}) });
  }
  return byStatus;
}
