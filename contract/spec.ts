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
import type { ValidateFunction } from 'ajv/dist/2020';
import type { default as StandaloneFunction } from 'ajv/dist/standalone';
import {
  precompiled,
  resolvePointer,
  SPEC_ID,
  SpecSchemas as DocumentSchemas,
  specAjv,
  type OpenApiDocument,
  type SpecSource,
} from './spec-document';

export {
  describeSchemaError,
  followRefs,
  pointerSegment,
  pointerToken,
  resolvePointer,
  type OpenApiDocument,
  type SpecSource,
} from './spec-document';

/* eslint-disable @typescript-eslint/no-require-imports -- loaded on first use, not by every process that imports the spec. */
const yaml = (): typeof YamlModule => require('yaml') as typeof YamlModule;
const ajvStandalone = (): typeof StandaloneFunction => (require('ajv/dist/standalone') as { default: typeof StandaloneFunction }).default;
/* eslint-enable @typescript-eslint/no-require-imports */

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

/** The build's module text: Ajv's standalone code for every component schema of `document`, stamped with the hash of `text`. */
export function standaloneValidators(document: OpenApiDocument, text: string): string {
  const ajv = specAjv(document, { code: { source: true }, logger: false });
  const pointers = Object.fromEntries(Object.keys(document.components.schemas).map((name, i) => [`#/components/schemas/${name}`, `v${i}`]));
  const exported = Object.fromEntries(Object.entries(pointers).map(([pointer, name]) => [name, `${SPEC_ID}${pointer}`]));
  const code = ajvStandalone()(ajv, exported);
  return `${code}\nexports.pointers = ${JSON.stringify(pointers)};\nexports.sha256 = ${JSON.stringify(sha256(text))};\n`;
}

/** Compiles validators for `#/components/...` pointers of a spec: the package's own by default. */
export class SpecSchemas extends DocumentSchemas {
  constructor(spec: OpenApiDocument = loadSpec()) {
    super(spec);
  }
}
