// The docs page (Swagger UI, served from node_modules: it works offline) and
// the spec itself as YAML and JSON. "Try it out" talks to the server that
// serves the page, whatever host and port it runs on. Every file the page asks
// for is served from here (no CDN, no web font, no online validator badge), so
// it loads under the strict CSP of http-hygiene.ts with no failed request.
import path from 'node:path';
import { Router, type Request, type RequestHandler } from 'express';
import type { SpecSource } from '../../contract/spec';
import { labelRoute } from './request';

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

export function docsRoutes(spec: SpecSource, publicUrl?: string): Router {
  const router = Router({ caseSensitive: true, strict: true });
  const yamlText = spec.text;
  const jsonFor = specJsonFor(spec, publicUrl);
  // Each route here is a fixed path, so the request line may name it (the API's lines name their template).
  const get = (route: string, handler: RequestHandler) =>
    router.get(route, (req, res, next) => {
      labelRoute(req, route);
      return handler(req, res, next);
    });
  // Resolve the folder without loading the package: its index requires the whole browser bundle.
  const assetsDir = path.dirname(require.resolve('swagger-ui-dist/package.json'));

  // A newcomer opening the server's address in a browser lands on the API reference, not a 404.
  get('/', (_req, res) => {
    res.redirect(302, '/docs');
  });
  get('/docs', (_req, res) => {
    res.type('html').send(DOCS_HTML);
  });
  get('/docs/init.js', (_req, res) => {
    res.type('application/javascript').send(DOCS_INIT);
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
