// The served OpenAPI document as a value, with what reads it and needs no file system: its types,
// JSON pointers and `$ref`s, and JSON-Schema validators compiled from it (Ajv, loaded when first used).
// Split from spec.ts (which reads and parses files, and hashes them with node:crypto) so that the
// browser handlers (server/browser.ts) read the very same document the same way with no Node built-in.
import type { default as Ajv2020Class, ErrorObject, ValidateFunction } from 'ajv/dist/2020';
import type { default as addFormatsFunction } from 'ajv-formats';

/* eslint-disable @typescript-eslint/no-require-imports -- loaded on first use, not by every process that imports the spec. */
const ajv2020 = (): typeof Ajv2020Class => (require('ajv/dist/2020') as { default: typeof Ajv2020Class }).default;
const ajvFormats = (): typeof addFormatsFunction => (require('ajv-formats') as { default: typeof addFormatsFunction }).default;
/* eslint-enable @typescript-eslint/no-require-imports */

export type OpenApiDocument = Record<string, unknown> & {
  paths: Record<string, Record<string, unknown>>;
  components: { schemas: Record<string, unknown> } & Record<string, unknown>;
};

/** A spec as served: where it came from, its text (served as /openapi.yaml) and the parsed document. */
export interface SpecSource {
  path: string;
  text: string;
  document: OpenApiDocument;
}

/** One reference token of a JSON pointer, escaped (RFC 6901 section 3: `~` → `~0`, `/` → `~1`). */
export function pointerSegment(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** The reference token an escaped segment stands for (RFC 6901 section 4: `~1` first, then `~0`). */
export function pointerToken(segment: string): string {
  return segment.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** The value at a local JSON pointer (`/components/schemas/X`), or undefined when there is none. */
export function resolvePointer(document: unknown, pointer: string): unknown {
  if (pointer === '') return document;
  let node = document;
  for (const raw of pointer.split('/').slice(1)) {
    const key = pointerToken(decodeURIComponent(raw));
    if (typeof node !== 'object' || node === null || !Object.prototype.hasOwnProperty.call(node, key)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

/**
 * The node at a local JSON pointer (`#/paths/…/responses/500`) after the `$ref`s it holds, one after another
 * (`#/components/responses/InternalError`), with the pointer it ended at; undefined when there is nothing there.
 * Ajv, and a pointer walked through the document, cannot see through a `$ref`: this is the one road through them.
 */
export function followRefs(document: unknown, pointer: string): { node: object; pointer: string } | undefined {
  for (let at = pointer, hops = 0; hops <= 32; hops++) {
    const local = at.replace(/^#/, '');
    const node = resolvePointer(document, local === '' || local.startsWith('/') ? local : `/${local}`);
    if (typeof node !== 'object' || node === null) return undefined;
    const ref = (node as { $ref?: unknown }).$ref;
    if (typeof ref !== 'string' || !ref.startsWith('#')) return { node, pointer: at };
    at = ref;
  }
  return undefined; // a cycle of $refs: nothing at the end of it
}

/** Documents the build compiled validators for (spec.ts registers the package's own), each with the loader of its module. */
export const precompiled = new WeakMap<OpenApiDocument, () => Readonly<Record<string, ValidateFunction>>>();

export const SPEC_ID = 'openapi.json';

/** An Ajv for the spec's schemas; `extra` adds options that change no validator's behaviour (the build's `code`, `logger`). */
export function specAjv(spec: OpenApiDocument, extra: Record<string, unknown> = {}): Ajv2020Class {
  // strict off: the spec document around the schemas is not itself a schema.
  const Ajv2020 = ajv2020();
  const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: true, ...extra });
  ajvFormats()(ajv, ['uuid', 'email', 'date']);
  // Not checked against the JSON Schema meta-schema: the document's top level (openapi, info, paths,
  // components, ...) holds no schema keyword, so that check tested nothing and cost ~0.13 s of every
  // first client view (compiling the meta-schema; issue 26 item 6). Each schema is still compiled when asked for.
  ajv.addSchema(structuredClone(spec), SPEC_ID, undefined, false);
  return ajv;
}

/** Compiles validators for `#/components/...` pointers of the spec (JSON Schema 2020-12, as OAS 3.1 uses). */
export class SpecSchemas {
  private ajv: Ajv2020Class | undefined;

  constructor(private readonly spec: OpenApiDocument) {}

  /** A validator for `components/schemas/<name>`, or for any other JSON pointer into the spec. */
  validator(pointer: string): ValidateFunction {
    const ref = pointer.startsWith('#') ? pointer : `#/components/schemas/${pointer}`;
    // The build's standalone code of this very schema (same Ajv, same options), when this is the package's own spec.
    const ready = precompiled.get(this.spec)?.()[ref];
    if (ready) return ready;
    this.ajv ??= specAjv(this.spec);
    const validate = this.ajv.getSchema(`${SPEC_ID}${ref}`);
    if (!validate) throw new Error(`no schema at ${ref}`);
    return validate;
  }
}

/** An Ajv error as `.PersonalInfo.DateOfBirth: must match format "date"` (a missing property is named in the path). */
export function describeSchemaError(error: ErrorObject | undefined): string {
  if (!error) return ': is not valid';
  let where = error.instancePath.replace(/\/([^/]*)/g, (_, key: string) => (/^\d+$/.test(key) ? `[${key}]` : `.${key}`));
  let message = error.message ?? 'is not valid';
  if (error.keyword === 'required') {
    where += `.${String((error.params as { missingProperty?: string }).missingProperty)}`;
    message = 'is required';
  }
  if (error.keyword === 'additionalProperties') {
    where += `.${String((error.params as { additionalProperty?: string }).additionalProperty)}`;
    message = 'is not a documented property';
  }
  return `${where}: ${message}`;
}
