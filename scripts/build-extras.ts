// After `tsc`: the files of the package that tsc does not write. The ES-module entry of
// `client-records-mock/msw` (server/msw.mjs and its types server/msw.d.mts, hand-written: tsc
// here compiles to CommonJS) is copied beside the CommonJS output it imports; Swagger UI's files
// for /docs are copied from the swagger-ui-dist dev dependency, with its licence, to dist/swagger-ui,
// so the installed package needs neither swagger-ui-dist nor its dependency @scarf/scarf, whose
// install script (analytics) npm would list for every user (issue 26). The shipped YAML documents
// are parsed once here, to dist/contract/derived/ (contract/spec.ts): a fresh process reads their
// JSON instead of loading the YAML parser, while the hash of the text matches (issue 26 item 6), and
// openapi.yaml's component schemas are compiled to Ajv's standalone code beside it.
import fs from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';
import { derivedJson, derivedPath, derivedValidatorsPath, parseSpec, SPEC_PATH, standaloneValidators } from '../contract/spec';
import { CONTROL_SPEC_PATH } from '../server/control/document';
import { copyIfChanged, writeIfChanged } from './write-if-changed';

// dist/scripts/build-extras.js → the repository root.
const ROOT = path.resolve(__dirname, '..', '..');
const COPIED = ['server/msw.mjs', 'server/msw.d.mts'];

/** What server/pipeline/docs.ts serves (its ASSETS), and the licence and notice that must travel with them. */
const SWAGGER_UI = ['swagger-ui.css', 'swagger-ui-bundle.js', 'swagger-ui-standalone-preset.js', 'favicon-32x32.png', 'LICENSE', 'NOTICE'];

for (const file of COPIED) copyIfChanged(path.join(ROOT, file), path.join(ROOT, 'dist', file));
const swaggerUi = path.dirname(require.resolve('swagger-ui-dist/package.json'));
for (const file of SWAGGER_UI.filter((name) => name !== 'swagger-ui.css'))
  copyIfChanged(path.join(swaggerUi, file), path.join(ROOT, 'dist', 'swagger-ui', file));
// The stylesheet without its source map (288 kB no user reads): without the comment naming it, dev tools ask for none.
const css = fs.readFileSync(path.join(swaggerUi, 'swagger-ui.css'), 'utf8');
writeIfChanged(path.join(ROOT, 'dist', 'swagger-ui', 'swagger-ui.css'), css.replace(/\n?\/\*# sourceMappingURL=\S+ ?\*\/\s*$/, '\n'));
fs.rmSync(path.join(ROOT, 'dist', 'swagger-ui', 'swagger-ui.css.map'), { force: true });
const { version } = JSON.parse(fs.readFileSync(path.join(swaggerUi, 'package.json'), 'utf8')) as { version: string };
writeIfChanged(path.join(ROOT, 'dist', 'swagger-ui', 'VERSION'), `swagger-ui-dist ${version}\n`);

// openapi.yaml through parseSpec (its checks fail the build as they would fail a start); the control
// document as server/control/document.ts parses it.
const specText = fs.readFileSync(SPEC_PATH, 'utf8');
const controlText = fs.readFileSync(CONTROL_SPEC_PATH, 'utf8');
const specDocument = parseSpec(specText, SPEC_PATH).document;
// Ajv's standalone code of openapi.yaml's component schemas (contract/spec.ts, SpecSchemas): no Ajv compile at run time.
writeIfChanged(derivedValidatorsPath(SPEC_PATH), standaloneValidators(specDocument, specText));
for (const [yamlPath, text, document] of [
  [SPEC_PATH, specText, specDocument],
  [CONTROL_SPEC_PATH, controlText, YAML.parse(controlText) as unknown],
] as const) {
  writeIfChanged(derivedPath(yamlPath), derivedJson(text, document));
}
