// The static docs site's script (dist/browser/docs-site.js, bundled by scripts/build-browser.ts with msw
// inside; `client-records-mock docs` copies it): starts msw's service worker with this mock's browser
// handlers for the site's own folder, then runs the page's Swagger UI (init.js), so that "Try it out"
// is answered in the page, by the same pipeline as the server, with no mock server running. The options
// the command was given (seed, clients, apiKeys, …) come in settings.js, before this script.
import { http } from 'msw';
import { setupWorker } from 'msw/browser';
import servedSpec from 'client-records-mock:served-spec';
import { createHandlersWith, type BrowserHandlerOptions } from './browser';

/** What the script uses of the page (the project's types are Node's, without the DOM's). */
interface SiteWindow {
  location: { href: string };
  document: {
    createElement(tag: 'script'): { src: string };
    body: { appendChild(node: { src: string }): unknown };
  };
  CLIENT_RECORDS_MOCK_OPTIONS?: BrowserHandlerOptions;
}

async function start(): Promise<void> {
  const page = globalThis as unknown as SiteWindow;
  // The site's folder, wherever it is served (a root, or a path such as GitHub Pages' /REPO/).
  const base = new URL('.', page.location.href);
  const handlers = createHandlersWith(http, servedSpec, { ...page.CLIENT_RECORDS_MOCK_OPTIONS, baseUrl: base.href });
  await setupWorker(...handlers).start({
    serviceWorker: { url: new URL('mockServiceWorker.js', base).pathname },
    onUnhandledRequest: 'bypass',
    quiet: true,
  });
  const init = page.document.createElement('script');
  init.src = 'init.js';
  page.document.body.appendChild(init);
}

void start();
