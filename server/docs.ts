// The docs page (Swagger UI, served from node_modules: it works offline) and
// the spec itself as YAML and JSON. "Try it out" talks to the server that
// serves the page, whatever host and port it runs on. Every file the page asks
// for is served from here (no CDN, no web font, no online validator badge), so
// it loads under the strict CSP of http-hygiene.ts with no failed request.
import fs from 'node:fs';
import path from 'node:path';
import { Router } from 'express';
import { SPEC_PATH, type OpenApiDocument } from '../contract/spec';

const DOCS_HTML = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Client Records and Diagnostics Service — API reference</title>
  <link rel="icon" type="image/png" href="/docs/assets/favicon-32x32.png">
  <link rel="stylesheet" href="/docs/assets/swagger-ui.css">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="/docs/assets/swagger-ui-bundle.js"></script>
  <script src="/docs/init.js"></script>
</body>
</html>
`;

// A separate script, not an inline one, so the page runs under a CSP without 'unsafe-inline' scripts.
const DOCS_INIT = `fetch('/openapi.json')
  .then(function (response) {
    if (!response.ok) throw new Error('GET /openapi.json answered ' + response.status);
    return response.json();
  })
  .then(function (spec) {
    spec.servers = [{ url: window.location.origin, description: 'This server' }];
    window.ui = SwaggerUIBundle({
      spec: spec,
      dom_id: '#swagger-ui',
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
  })
  .catch(function (error) {
    document.getElementById('swagger-ui').textContent = 'Could not load the API reference: ' + error.message;
  });
`;

// The source map is served too: swagger-ui.css names it, and browser dev tools would otherwise log a 404.
const ASSETS = ['swagger-ui.css', 'swagger-ui.css.map', 'swagger-ui-bundle.js', 'favicon-32x32.png'];

export function docsRoutes(spec: OpenApiDocument): Router {
  const router = Router({ caseSensitive: true, strict: true });
  const yamlText = fs.readFileSync(SPEC_PATH, 'utf8');
  const jsonText = JSON.stringify(spec, null, 2);
  // Resolve the folder without loading the package: its index requires the whole browser bundle.
  const assetsDir = path.dirname(require.resolve('swagger-ui-dist/package.json'));

  router.get('/docs', (_req, res) => {
    res.type('html').send(DOCS_HTML);
  });
  router.get('/docs/init.js', (_req, res) => {
    res.type('application/javascript').send(DOCS_INIT);
  });
  for (const asset of ASSETS) {
    const file = path.join(assetsDir, asset);
    router.get(`/docs/assets/${asset}`, (_req, res) => {
      res.sendFile(file);
    });
  }
  // Browsers ask for /favicon.ico on any page without an icon link (e.g. /openapi.json opened directly).
  router.get('/favicon.ico', (_req, res) => {
    res.type('image/png').sendFile(path.join(assetsDir, 'favicon-32x32.png'));
  });
  router.get('/openapi.yaml', (_req, res) => {
    res.type('application/yaml').send(yamlText);
  });
  router.get('/openapi.json', (_req, res) => {
    res.type('application/json').send(jsonText);
  });
  return router;
}

export const DOCS_PATHS: readonly string[] = [
  '/docs',
  '/docs/init.js',
  '/favicon.ico',
  '/openapi.yaml',
  '/openapi.json',
  ...ASSETS.map((a) => `/docs/assets/${a}`),
];
