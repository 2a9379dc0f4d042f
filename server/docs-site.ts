// `client-records-mock docs --out DIR` (issue 39 item 5): the API reference as static files that any
// static file server can serve (GitHub Pages, a pull request's preview, `python3 -m http.server`), with
// the control document beside it as /docs shows it, and "Try it out" answered in the page by the browser
// handlers (server/browser.ts) under msw's service worker: no mock server runs. The page is /docs's own
// (pipeline/docs.ts: the same HTML, style and Swagger UI set-up), its files relative to the site's folder.
// Every failure is one line on stderr and exit code 2, as the other commands do.
import fs from 'node:fs';
import path from 'node:path';
import { bundledSpec, SPEC_PATH } from '../contract/spec';
import { loadSettings } from '../settings/argv';
import { SettingError, type Rows } from '../settings/table';
import { controlDocument } from './control/document';
import { ASSETS, DOCS_CSS, docsHtml, docsInit, swaggerUiDir } from './pipeline/docs';
import { ConfigError, configFromOptions } from './process/config';

const USAGE =
  'usage: client-records-mock docs --out DIR [--seed S] [--clients N] [--api-keys K1,K2] [--latency-ms MIN-MAX] [--error-rate R]';

/** The handler options the site's page is given, as flags (the settings table checks each value). */
const FLAGS = { seed: 'seed', clients: 'clients', 'api-keys': 'apiKeys', 'latency-ms': 'latencyMs', 'error-rate': 'errorRate' } as const;

// The command's rows of the one settings machinery (settings/): --out, then the page's handler options as given
// (undefined: the handlers' default); their values are checked by the server's own table (configFromOptions).
const ROWS: Rows<Record<string, string | undefined>> = [
  {
    key: 'out',
    flag: '--out',
    fallback: '',
    help: 'the folder to write the site into',
    parse: (raw) => {
      if (raw === '') throw new SettingError('--out DIR is required');
      return raw;
    },
  },
  ...Object.entries(FLAGS).map(([flag, key]) => ({
    key,
    flag: `--${flag}`,
    fallback: '',
    help: `the page's ${key}`,
    parse: (raw: string) => (raw === '' ? undefined : raw),
  })),
];

class UsageError extends Error {}

/** The package's browser files (scripts/build-browser.ts): dist/browser beside dist/server. */
function browserDir(): string {
  const dir = path.join(path.dirname(SPEC_PATH), 'dist', 'browser');
  if (!fs.existsSync(path.join(dir, 'docs-site.js'))) throw new UsageError(`${dir} has no docs-site.js: run npm run build first`);
  return dir;
}

/** Writes the site into `out`; returns the files written, relative to it. */
export function writeDocsSite(out: string, options: Readonly<Record<string, string>>): string[] {
  const browser = browserDir();
  const documents = [
    { url: 'openapi.json', name: 'Client Records API (openapi.yaml)' },
    { url: 'control.openapi.json', name: 'Mock control API (control.openapi.yaml): needs a running mock' },
  ];
  const files: Record<string, string | Buffer> = {
    'index.html': docsHtml('', ['settings.js', 'docs-site.js']),
    'page.css': DOCS_CSS,
    // "Try it out" talks to the site's own folder, where the service worker answers.
    'init.js': docsInit(documents, "new URL('.', window.location.href).href.replace(/\\/$/, '')"),
    'settings.js': `window.CLIENT_RECORDS_MOCK_OPTIONS = ${JSON.stringify(options)};\n`,
    'openapi.yaml': bundledSpec().text,
    'openapi.json': JSON.stringify(bundledSpec().document, null, 2),
    'control.openapi.json': JSON.stringify(controlDocument().document, null, 2),
    'docs-site.js': fs.readFileSync(path.join(browser, 'docs-site.js')),
    'mockServiceWorker.js': fs.readFileSync(path.join(browser, 'mockServiceWorker.js')),
  };
  const assets = swaggerUiDir();
  for (const asset of ASSETS) files[`assets/${asset}`] = fs.readFileSync(path.join(assets, asset));
  for (const [name, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(out, name)), { recursive: true });
    fs.writeFileSync(path.join(out, name), content);
  }
  return Object.keys(files);
}

/** Runs the docs command for `argv` (without the command name); resolves to the exit code. */
export function runDocsCli(argv: readonly string[]): number {
  try {
    const read = loadSettings(ROWS, argv, {}, { help: true, wording: { unknown: (rawName) => `unknown option ${rawName}` } });
    if (read.help) {
      process.stdout.write(`${USAGE}\n`);
      return 0;
    }
    const { out, ...given } = read.values as Readonly<Record<string, string | undefined>>;
    const options = Object.fromEntries(Object.entries(given).filter(([, value]) => value !== undefined)) as Record<string, string>;
    // The settings table's own parsers: a bad value is named here, not in the page.
    configFromOptions(options);
    const written = writeDocsSite(out!, options);
    process.stdout.write(
      `wrote the API reference with its in-page mock to ${out!} (${written.length} files); serve it with any static file server\n`,
    );
    return 0;
  } catch (error) {
    const { code, message } = error as NodeJS.ErrnoException;
    if (error instanceof UsageError || error instanceof ConfigError) {
      process.stderr.write(`docs: ${message.split('\n')[0]}\n${USAGE}\n`);
    } else if (code === 'ENOENT' || code === 'EACCES' || code === 'EISDIR' || code === 'ENOTDIR' || code === 'ENOSPC' || code === 'EROFS') {
      process.stderr.write(`docs: cannot write ${String(argv[argv.indexOf('--out') + 1] ?? '')} (${code})\n`);
    } else {
      throw error;
    }
    return 2;
  }
}
