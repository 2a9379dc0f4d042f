// The docs page (Swagger UI, served from node_modules: it works offline) and
// the spec itself as YAML and JSON. "Try it out" talks to the server that
// serves the page, whatever host and port it runs on. With the control API on,
// the page's selector (Swagger UI's `urls`) shows its document
// (control.openapi.yaml) beside the API's. Every file the page asks
// for is served from here (no CDN, no web font, no online validator badge), so
// it loads under its own strict CSP (DOCS_CSP, below) with no failed request.
import fs from 'node:fs';
import path from 'node:path';
import { Router, type Request, type RequestHandler } from 'express';
import { SPEC_PATH, type SpecSource } from '../../contract/spec';
import { labelRoute } from './request';

/** The page, its files under `base` (`/docs/` here, the site's own folder in the static copy, docs-site.ts), then `scripts`. */
export function docsHtml(base: string, scripts: readonly string[]): string {
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Client Records and Diagnostics Service — API reference</title>
  <link rel="icon" type="image/png" href="${base}assets/favicon-32x32.png">
  <link rel="stylesheet" href="${base}assets/swagger-ui.css">
  <link rel="stylesheet" href="${base}page.css">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="${base}assets/swagger-ui-bundle.js"></script>
  <script src="${base}assets/swagger-ui-standalone-preset.js"></script>
${scripts.map((script) => `  <script src="${script}"></script>\n`).join('')}</body>
</html>
`;
}

const DOCS_HTML = docsHtml('/docs/', ['/docs/init.js']);

/**
 * The docs page's Content-Security-Policy, in place of the API's (`default-src 'none'`, errors.ts's API_CSP),
 * which would block the page's own scripts and styles. Only the HTML page needs it: a policy governs
 * what a document loads, and the scripts, styles and spec the page loads are not documents.
 */
const DOCS_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  // Swagger UI sets inline style attributes.
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

// Tighter spacing above the operations than Swagger UI's own (its info block and server bar take
// half of a 1280x800 screen): with the folded introduction, all five operations are on the first screen.
export const DOCS_CSS = `.swagger-ui .info { margin: 16px 0 8px; }
.swagger-ui .info .title { font-size: 28px; }
.swagger-ui .info .description p { margin: 6px 0; }
.swagger-ui .info details > summary { cursor: pointer; margin: 4px 0; }
.swagger-ui .info a { font-size: 13px; }
.swagger-ui .scheme-container { padding: 10px 0; margin: 0 0 8px; }
.swagger-ui .opblock-tag { padding: 2px 20px 2px 10px; margin: 0 0 4px; }
.swagger-ui .opblock-tag-section h3 { margin: 4px 0; }
.swagger-ui .topbar { padding: 4px 0; }
`;

/** The documents the page offers, first the API's; the control API's when it is on. */
export function documentsOf(withControl: boolean): { url: string; name: string }[] {
  return [
    { url: '/openapi.json', name: 'Client Records API (openapi.yaml)' },
    ...(withControl ? [{ url: '/__control/openapi.json', name: 'Mock control API (control.openapi.yaml)' }] : []),
  ];
}

// A separate script, not an inline one, so the page runs under a CSP without 'unsafe-inline' scripts.
// Each document is fetched by Swagger UI (its selector switches between them); its servers are set to
// this server as it arrives, so "Try it out" talks to the server that serves the page. The API's document
// is also shaped for a first visit (issue 26), the spec itself unchanged:
// - the introduction's first paragraph stays on top, the rest folds into a <details> named after its
//   sections, so the operations start within the first screen;
// - "Try it out" is pre-filled only with what a first call needs: a required parameter keeps its
//   example (Detail's idClient), an optional one shows it in its description instead of in the
//   input (Swagger UI has no option for this: it pre-fills every parameter example), so trying
//   Extended with only a filter does not AND it with three other example filters.
// `serverUrl` is the script expression of the address "Try it out" talks to: this server's origin, or the static copy's folder.
export const docsInit = (
  documents: readonly { url: string; name: string }[],
  serverUrl = 'window.location.origin',
) => `var DOCUMENTS = ${JSON.stringify(documents)};

function foldIntroduction(info) {
  var text = info.description || '';
  var cut = text.indexOf('\\n\\n');
  if (cut < 0) return;
  var rest = text.slice(cut + 2);
  var sections = (rest.match(/^#+ .+$/gm) || []).map(function (heading) { return heading.replace(/^#+ /, ''); });
  var summary = sections.length ? 'More: ' + sections.join(', ') : 'More about this API';
  info.description = text.slice(0, cut) + '\\n\\n<details class="introduction-rest"><summary>' + summary + '</summary>\\n\\n' + rest + '\\n\\n</details>\\n';
}

function exampleIntoDescription(parameter) {
  if (parameter.required || parameter.example === undefined) return parameter;
  var copy = Object.assign({}, parameter);
  delete copy.example;
  copy.description = (copy.description ? copy.description + '\\n\\n' : '') + 'Example: \`' + String(parameter.example) + '\`';
  return copy;
}

function forFirstCall(spec) {
  foldIntroduction(spec.info);
  var shared = (spec.components && spec.components.parameters) || {};
  Object.keys(shared).forEach(function (name) { shared[name] = exampleIntoDescription(shared[name]); });
  Object.keys(spec.paths).forEach(function (route) {
    var item = spec.paths[route];
    Object.keys(item).forEach(function (method) {
      if (item[method] && Array.isArray(item[method].parameters)) {
        item[method].parameters = item[method].parameters.map(function (parameter) {
          return parameter.$ref ? parameter : exampleIntoDescription(parameter);
        });
      }
    });
  });
  return spec;
}

function pathOf(url) {
  return new URL(url, window.location.href).pathname;
}

function isDocument(url) {
  return DOCUMENTS.some(function (document) { return pathOf(url) === pathOf(document.url); });
}

window.ui = SwaggerUIBundle({
  urls: DOCUMENTS,
  'urls.primaryName': DOCUMENTS[0].name,
  dom_id: '#swagger-ui',
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
  layout: 'StandaloneLayout',
  responseInterceptor: function (response) {
    if (response.ok && typeof response.text === 'string' && isDocument(response.url)) {
      var spec = JSON.parse(response.text);
      spec.servers = [{ url: ${serverUrl}, description: 'This server' }];
      if (pathOf(response.url) === pathOf(DOCUMENTS[0].url)) forFirstCall(spec);
      response.text = JSON.stringify(spec);
      response.data = response.text;
      response.body = spec;
      response.obj = spec;
    }
    return response;
  },
  deepLinking: true,
  displayOperationId: true,
  displayRequestDuration: true,
  defaultModelsExpandDepth: 1,
  defaultModelExpandDepth: 2,
  persistAuthorization: true,
  tryItOutEnabled: false,
  // The default posts the spec to validator.swagger.io: an external request, and the spec is linted in CI anyway.
  validatorUrl: null
});
`;

// No source map: the package's copy of swagger-ui.css names none (scripts/build-extras.ts), so dev tools ask for none.
export const ASSETS = ['swagger-ui.css', 'swagger-ui-bundle.js', 'swagger-ui-standalone-preset.js', 'favicon-32x32.png'];

/**
 * Swagger UI's files: the copy the package carries (dist/swagger-ui, written by the build from the
 * swagger-ui-dist dev dependency, so an installed package depends on neither swagger-ui-dist nor
 * its install-time analytics, @scarf/scarf), or, in a checkout not built yet, swagger-ui-dist itself.
 * The package root is where openapi.yaml is, from the sources and from dist/ alike.
 */
export function swaggerUiDir(): string {
  const shipped = path.join(path.dirname(SPEC_PATH), 'dist', 'swagger-ui');
  if (ASSETS.every((asset) => fs.existsSync(path.join(shipped, asset)))) return shipped;
  // Resolve the folder without loading the package: its index requires the whole browser bundle.
  return path.dirname(require.resolve('swagger-ui-dist/package.json'));
}

/** A Host header fit to be echoed as an address (a name or IP, an optional port); anything else is not used. */
const PLAIN_HOST = /^[\w.-]+(?::\d{1,5})?$|^\[[\da-fA-F:.]+\](?::\d{1,5})?$/;

/**
 * The spec as JSON, naming the address it was fetched from (or PUBLIC_URL) as
 * its server, so a code generator or Postman pointed at /openapi.json talks to
 * this server rather than the spec's example address.
 */
function specJsonFor(spec: SpecSource, publicUrl: string | undefined): (req: Request) => string {
  const byOrigin = new Map<string, string>();
  const fallback = JSON.stringify(spec.document, null, 2);
  return (req) => {
    const host = req.headers.host;
    const origin = publicUrl ?? (host && PLAIN_HOST.test(host) ? `http://${host}` : undefined);
    if (!origin) return fallback;
    let text = byOrigin.get(origin);
    if (!text) {
      text = JSON.stringify({ ...spec.document, servers: [{ url: origin, description: 'This server' }] }, null, 2);
      // Bounded: a client cycling Host values must not grow memory.
      if (byOrigin.size < 16) byOrigin.set(origin, text);
    }
    return text;
  };
}

export function docsRoutes(spec: SpecSource, publicUrl?: string, withControl = false): Router {
  const init = docsInit(documentsOf(withControl));
  const router = Router({ caseSensitive: true, strict: true });
  const yamlText = spec.text;
  const jsonFor = specJsonFor(spec, publicUrl);
  // Each route here is a fixed path, so the request line may name it (the API's lines name their template).
  const get = (route: string, handler: RequestHandler) =>
    router.get(route, (req, res, next) => {
      labelRoute(req, route);
      return handler(req, res, next);
    });
  const assetsDir = swaggerUiDir();

  // A newcomer opening the server's address in a browser lands on the API reference, not a 404.
  get('/', (_req, res) => {
    res.redirect(302, '/docs');
  });
  get('/docs', (_req, res) => {
    res.setHeader('Content-Security-Policy', DOCS_CSP);
    res.type('html').send(DOCS_HTML);
  });
  get('/docs/page.css', (_req, res) => {
    res.type('text/css').send(DOCS_CSS);
  });
  get('/docs/init.js', (_req, res) => {
    res.type('application/javascript').send(init);
  });
  for (const asset of ASSETS) {
    const file = path.join(assetsDir, asset);
    get(`/docs/assets/${asset}`, (_req, res) => {
      res.sendFile(file);
    });
  }
  // Browsers ask for /favicon.ico on any page without an icon link (e.g. /openapi.json opened directly).
  get('/favicon.ico', (_req, res) => {
    res.type('image/png').sendFile(path.join(assetsDir, 'favicon-32x32.png'));
  });
  get('/openapi.yaml', (_req, res) => {
    res.type('application/yaml').send(yamlText);
  });
  get('/openapi.json', (req, res) => {
    res.type('application/json').send(jsonFor(req));
  });
  return router;
}
