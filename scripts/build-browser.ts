// After `tsc` and build-extras: the package's browser files, bundled with esbuild (why esbuild: it is already
// the project's bundler for tests/reach, it bundles TypeScript and CommonJS dependencies into one ES module,
// and its metafile says what the bundle holds). Into dist/browser/:
// - index.mjs (`client-records-mock/browser`, issue 39): server/browser-entry.ts with everything it imports
//   but msw (the page's own), the package's openapi.yaml parsed into it, and Buffer from the `buffer` package
//   (the only Node global the engine uses), so Vite, webpack and esbuild bundle it with no polyfill;
//   index.d.mts its types; index.meta.json esbuild's metafile (tests/browser/bundle-size.test.ts reads it);
// - docs-site.js, the static docs site's script (`client-records-mock docs`, cli/docs-site.ts): msw's
//   setupWorker and the handlers in one file, with mockServiceWorker.js from the same msw beside it.
import fs from 'node:fs';
import path from 'node:path';
import * as esbuild from 'esbuild';
import { bundledSpec } from '../contract/spec';
import { copyIfChanged, writeIfChanged } from './write-if-changed';

// dist/scripts/build-browser.js → the repository root.
const ROOT = path.resolve(__dirname, '..', '..');
export const BROWSER_DIR = path.join(ROOT, 'dist', 'browser');

/** `client-records-mock:served-spec`: the package's own openapi.yaml, as contract/spec.ts reads it at build time. */
const servedSpec: esbuild.Plugin = {
  name: 'served-spec',
  setup(build) {
    build.onResolve({ filter: /^client-records-mock:served-spec$/ }, (args) => ({ path: args.path, namespace: 'served-spec' }));
    build.onLoad({ filter: /.*/, namespace: 'served-spec' }, () => {
      const { document } = bundledSpec();
      // The text is what /openapi.yaml serves; the handlers never read it.
      return { contents: JSON.stringify({ path: 'openapi.yaml', text: '', document }), loader: 'json' };
    });
  },
};

const common: esbuild.BuildOptions = {
  bundle: true,
  platform: 'browser',
  target: 'es2022',
  minify: true,
  legalComments: 'external',
  inject: [path.join(ROOT, 'server', 'browser-globals.ts')],
  plugins: [servedSpec],
  logLevel: 'warning',
  absWorkingDir: ROOT,
  // Kept in memory and written by writeIfChanged: an up-to-date build rewrites nothing.
  write: false,
};

/** esbuild's output files, each written only when its bytes change. */
function written(result: esbuild.BuildResult): void {
  for (const file of result.outputFiles ?? []) writeIfChanged(file.path, file.contents);
}

const TYPES = `// Types of client-records-mock/browser (dist/browser/index.mjs): createHandlers for msw's setupWorker.
import type { HttpHandler } from 'msw';
import type { BrowserHandlerOptions, BrowserHandlers } from '../server/browser.js';

export { ConfigError, type BrowserHandlerOptions, type BrowserHandlers } from '../server/browser.js';

/** Handlers for msw's setupWorker: the mock answers in the page, with no server (docs/frontend.md, "In the browser"). */
export declare function createHandlers(options?: Readonly<BrowserHandlerOptions>): BrowserHandlers<HttpHandler>;
`;

async function main(): Promise<void> {
  fs.mkdirSync(BROWSER_DIR, { recursive: true });
  const entry = await esbuild.build({
    ...common,
    entryPoints: [path.join(ROOT, 'server', 'browser-entry.ts')],
    format: 'esm',
    external: ['msw'],
    metafile: true,
    outfile: path.join(BROWSER_DIR, 'index.mjs'),
  });
  written(entry);
  writeIfChanged(path.join(BROWSER_DIR, 'index.meta.json'), JSON.stringify(entry.metafile));
  writeIfChanged(path.join(BROWSER_DIR, 'index.d.mts'), TYPES);
  written(
    await esbuild.build({
      ...common,
      entryPoints: [path.join(ROOT, 'server', 'docs-site-entry.ts')],
      format: 'iife',
      outfile: path.join(BROWSER_DIR, 'docs-site.js'),
    }),
  );
  const msw = path.dirname(require.resolve('msw/package.json'));
  copyIfChanged(path.join(msw, 'lib', 'mockServiceWorker.js'), path.join(BROWSER_DIR, 'mockServiceWorker.js'));
}

main().catch((error: unknown) => {
  process.stderr.write(`build-browser: ${(error as Error).message}\n`);
  process.exit(1);
});
