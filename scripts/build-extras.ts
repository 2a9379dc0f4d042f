// After `tsc`: the files of the package that tsc does not write. The ES-module entry of
// `client-records-mock/msw` (server/msw.mjs and its types server/msw.d.mts, hand-written: tsc
// here compiles to CommonJS) is copied beside the CommonJS output it imports; Swagger UI's files
// for /docs are copied from the swagger-ui-dist dev dependency, with its licence, to dist/swagger-ui,
// so the installed package needs neither swagger-ui-dist nor its dependency @scarf/scarf, whose
// install script (analytics) npm would list for every user (issue 26).
import fs from 'node:fs';
import path from 'node:path';

// dist/scripts/build-extras.js → the repository root.
const ROOT = path.resolve(__dirname, '..', '..');
const COPIED = ['server/msw.mjs', 'server/msw.d.mts'];

/** What server/pipeline/docs.ts serves (its ASSETS), and the licence and notice that must travel with them. */
const SWAGGER_UI = [
  'swagger-ui.css',
  'swagger-ui.css.map',
  'swagger-ui-bundle.js',
  'swagger-ui-standalone-preset.js',
  'favicon-32x32.png',
  'LICENSE',
  'NOTICE',
];

function copy(from: string, to: string): void {
  fs.mkdirSync(path.dirname(to), { recursive: true });
  fs.copyFileSync(from, to);
}

for (const file of COPIED) copy(path.join(ROOT, file), path.join(ROOT, 'dist', file));
const swaggerUi = path.dirname(require.resolve('swagger-ui-dist/package.json'));
for (const file of SWAGGER_UI) copy(path.join(swaggerUi, file), path.join(ROOT, 'dist', 'swagger-ui', file));
const { version } = JSON.parse(fs.readFileSync(path.join(swaggerUi, 'package.json'), 'utf8')) as { version: string };
fs.writeFileSync(path.join(ROOT, 'dist', 'swagger-ui', 'VERSION'), `swagger-ui-dist ${version}\n`);
