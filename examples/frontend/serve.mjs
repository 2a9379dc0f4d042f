/* global URL, process, console -- a Node script; the lint config gives plain .mjs files no environment */
// The example's dev server: bundles src/main.ts with esbuild (as Vite would)
// and serves the page on 127.0.0.1:PORT (0: a free port, printed in the
// start-up line). API_URL is the mock it talks to.
// Usage: PORT=5173 API_URL=http://127.0.0.1:4000 node examples/frontend/serve.mjs
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const here = fileURLToPath(new URL('.', import.meta.url));
const port = Number(process.env.PORT ?? 5173);
const apiUrl = process.env.API_URL ?? 'http://127.0.0.1:4000';
const apiKey = process.env.API_KEY ?? 'dev-key';

const bundle = await build({
  entryPoints: [`${here}src/main.ts`],
  bundle: true,
  format: 'esm',
  target: 'es2022',
  write: false,
  define: { API_URL: JSON.stringify(apiUrl), API_KEY: JSON.stringify(apiKey) },
  logLevel: 'warning',
});

const files = {
  '/': { type: 'text/html; charset=utf-8', body: await readFile(`${here}index.html`) },
  '/app.js': { type: 'text/javascript; charset=utf-8', body: bundle.outputFiles[0].contents },
  '/style.css': { type: 'text/css; charset=utf-8', body: await readFile(`${here}style.css`) },
};

const server = createServer((req, res) => {
  const file = files[new URL(req.url ?? '/', 'http://localhost').pathname];
  if (!file) {
    res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found');
    return;
  }
  res.writeHead(200, { 'Content-Type': file.type, 'Cache-Control': 'no-store' }).end(file.body);
});
server.listen(port, '127.0.0.1', () => console.log(`example frontend on http://127.0.0.1:${server.address().port}/ (API ${apiUrl})`));
