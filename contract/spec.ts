// openapi.yaml at run time: the parsed document, and JSON-Schema validators
// compiled from its component schemas. Used to validate a data file at load,
// by the server (validator middleware, docs) and by the tests.
//
// The package's own YAML documents are parsed at build time too (scripts/build-extras.ts
// writes derived/<name>.json beside this module in dist/, with the SHA-256 of the text it was
// parsed from): a fresh process reads that instead of loading and running the YAML parser
// (~0.4 s of an in-process set-up, issue 26 item 6). The YAML stays the one source: the JSON
// is used only while its hash matches the text read, anything else parses the YAML, and a
// test proves the JSON form loses nothing. The build also writes Ajv's standalone code for every
// component schema of openapi.yaml (derived/openapi.yaml.validators.js, stamped with the same hash):
// SpecSchemas hands those out for the package's own spec instead of loading Ajv and compiling
// (~0.1 s of an in-process first answer). The YAML parser and Ajv are loaded when first used.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type * as YamlModule from 'yaml';
import type { default as Ajv2020Class, ErrorObject, ValidateFunction } from 'ajv/dist/2020';
import type { default as addFormatsFunction } from 'ajv-formats';
import type { default as StandaloneFunction } from 'ajv/dist/standalone';

/* eslint-disable @typescript-eslint/no-require-imports -- loaded on first use, not by every process that imports the spec. */
const yaml = (): typeof YamlModule => require('yaml') as typeof YamlModule;
const ajv2020 = (): typeof Ajv2020Class => (require('ajv/dist/2020') as { default: typeof Ajv2020Class }).default;
const ajvFormats = (): typeof addFormatsFunction => (require('ajv-formats') as { default: typeof addFormatsFunction }).default;
const ajvStandalone = (): typeof StandaloneFunction => (require('ajv/dist/standalone') as { default: typeof StandaloneFunction }).default;
/* eslint-enable @typescript-eslint/no-require-imports */

export type OpenApiDocument = Record<string, unknown> & {
  paths: Record<string, Record<string, unknown>>;
  components: { schemas: Record<string, unknown> } & Record<string, unknown>;
};

/** The project root is the nearest folder above this module that holds openapi.yaml (works from src and dist). */
function findSpecPath(): string {
  let dir = __dirname;
  for (;;) {
    const candidate = path.join(dir, 'openapi.yaml');
    if (fs.existsSync(candidate)) return candidate;
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('openapi.yaml not found above ' + __dirname);
    dir = parent;
  }
}

export const SPEC_PATH = findSpecPath();

/** A spec as served: where it came from, its text (served as /openapi.yaml) and the parsed document. */
export interface SpecSource {
  path: string;
  text: string;
  document: OpenApiDocument;
}

/**
 * Reads and parses a spec file afresh (SPEC_FILE, every reload of --watch, and
 * both sides of `diff`). Throws an Error with a one-line message when the file
 * cannot be read, is not YAML (naming the line and column), is not an OpenAPI
 * document with paths and component schemas, or has a `$ref` to nothing
 * (naming the reference and where it is).
 */
export function readSpec(file: string): SpecSource {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new Error(`cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`, { cause: error });
  }
  return parseSpec(text, file);
}

/** Where a YAML node starts, as an editor shows it (1-based). */
function position(lineCounter: YamlModule.LineCounter, offset: number | undefined): string {
  const { line, col } = lineCounter.linePos(offset ?? 0);
  return `line ${line}, column ${col}`;
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

/** Parses a spec's text (see readSpec); `file` only names it in messages. */
export function parseSpec(text: string, file: string): SpecSource {
  const YAML = yaml();
  const lineCounter = new YAML.LineCounter();
  const parsed = YAML.parseDocument(text, { lineCounter, prettyErrors: false });
  const [yamlError] = parsed.errors;
  if (yamlError) {
    throw new Error(`${file} is not valid YAML: ${position(lineCounter, yamlError.pos[0])}: ${yamlError.message.split('\n')[0]}`, {
      cause: yamlError,
    });
  }
  const document: unknown = parsed.toJS();
  const candidate = document as Partial<OpenApiDocument> | null;
  if (typeof candidate !== 'object' || candidate === null || typeof candidate.openapi !== 'string') {
    throw new Error(`${file} is not an OpenAPI document (no openapi version)`);
  }
  if (typeof candidate.paths !== 'object' || candidate.paths === null || typeof candidate.components?.schemas !== 'object') {
    throw new Error(`${file} has no paths or no components.schemas`);
  }
  // A `$ref` to nothing would otherwise surface later as a validator's stack trace that never names it.
  YAML.visit(parsed, {
    Pair(_, pair) {
      if (!YAML.isScalar(pair.key) || pair.key.value !== '$ref' || !YAML.isScalar(pair.value)) return;
      const ref = pair.value.value;
      if (typeof ref !== 'string' || !ref.startsWith('#')) return;
      if (resolvePointer(document, ref.slice(1)) === undefined) {
        throw new Error(`${file}: $ref '${ref}' at ${position(lineCounter, pair.value.range?.[0])} points to nothing`);
      }
    },
  });
  return { path: file, text, document: candidate as OpenApiDocument };
}

/** Where the build keeps a shipped YAML document's parsed form (dist/contract/derived/; absent when run from source). */
export function derivedPath(yamlPath: string): string {
  return path.join(__dirname, 'derived', `${path.basename(yamlPath)}.json`);
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** The derived file's text: the document, and the hash of the YAML text it was parsed from. */
export function derivedJson(text: string, document: unknown): string {
  return JSON.stringify({ sha256: sha256(text), document });
}

/** The build's parse of `text`, when the build made one from this very text; otherwise undefined (parse the YAML). */
export function derivedDocument(yamlPath: string, text: string): unknown {
  let derived: { sha256?: unknown; document?: unknown };
  try {
    derived = JSON.parse(fs.readFileSync(derivedPath(yamlPath), 'utf8')) as typeof derived;
  } catch {
    return undefined;
  }
  return derived.sha256 === sha256(text) ? derived.document : undefined;
}

/** Where the build keeps the standalone validators of a shipped document's component schemas. */
export function derivedValidatorsPath(yamlPath: string): string {
  return path.join(__dirname, 'derived', `${path.basename(yamlPath)}.validators.js`);
}

/** The standalone module's shape: validators `v0`, `v1`, … and which pointer each validates, with the text's hash. */
interface StandaloneModule {
  sha256: string;
  pointers: Record<string, string>;
  [exported: string]: unknown;
}

/** Documents the build compiled validators for, each with the loader of its module (loaded when first asked). */
const precompiled = new WeakMap<OpenApiDocument, () => Readonly<Record<string, ValidateFunction>>>();

function precompiledLoader(yamlPath: string, text: string): () => Readonly<Record<string, ValidateFunction>> {
  let validators: Record<string, ValidateFunction> | undefined;
  return () => {
    if (!validators) {
      validators = {};
      let module: StandaloneModule | undefined;
      try {
        // eslint-disable-next-line @typescript-eslint/no-require-imports -- the build's output, by path, read on first use.
        module = require(derivedValidatorsPath(yamlPath)) as StandaloneModule;
      } catch {
        module = undefined;
      }
      if (module?.sha256 === sha256(text)) {
        for (const [pointer, name] of Object.entries(module.pointers)) validators[pointer] = module[name] as ValidateFunction;
      }
    }
    return validators;
  };
}

let bundled: SpecSource | undefined;

/** The package's own openapi.yaml, read once (its build-time parse when that is of the same text: checked then). */
export function bundledSpec(): SpecSource {
  if (!bundled) {
    const text = fs.readFileSync(SPEC_PATH, 'utf8');
    const document = derivedDocument(SPEC_PATH, text) as OpenApiDocument | undefined;
    bundled = document ? { path: SPEC_PATH, text, document } : parseSpec(text, SPEC_PATH);
    precompiled.set(bundled.document, precompiledLoader(SPEC_PATH, text));
  }
  return bundled;
}

/** The parsed spec. Callers must not mutate it; tools that do (the validator middleware) get a deep copy. */
export function loadSpec(): OpenApiDocument {
  return bundledSpec().document;
}

const SPEC_ID = 'openapi.json';

/** An Ajv for the spec's schemas; `extra` adds options that change no validator's behaviour (the build's `code`, `logger`). */
function specAjv(spec: OpenApiDocument, extra: Record<string, unknown> = {}): Ajv2020Class {
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

/** The build's module text: Ajv's standalone code for every component schema of `document`, stamped with the hash of `text`. */
export function standaloneValidators(document: OpenApiDocument, text: string): string {
  const ajv = specAjv(document, { code: { source: true }, logger: false });
  const pointers = Object.fromEntries(Object.keys(document.components.schemas).map((name, i) => [`#/components/schemas/${name}`, `v${i}`]));
  const exported = Object.fromEntries(Object.entries(pointers).map(([pointer, name]) => [name, `${SPEC_ID}${pointer}`]));
  const code = ajvStandalone()(ajv, exported);
  return `${code}\nexports.pointers = ${JSON.stringify(pointers)};\nexports.sha256 = ${JSON.stringify(sha256(text))};\n`;
}

/** Compiles validators for `#/components/...` pointers of the spec (JSON Schema 2020-12, as OAS 3.1 uses). */
export class SpecSchemas {
  private ajv: Ajv2020Class | undefined;

  constructor(private readonly spec: OpenApiDocument = loadSpec()) {}

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
