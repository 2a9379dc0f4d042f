// Playwright's global set-up for the example frontend: the mock (through the
// package's programmatic API) and the page's dev server each listen on a port
// the system picks (port 0), so two runs on one machine never meet on a fixed
// port. The page's address reaches the tests through the environment
// (E2E_PAGE_URL, which playwright.config.ts reads as baseURL in every worker);
// the function returned stops both.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { startServer } from 'client-records-mock';

const READY = /example frontend on (http:\/\/\S+\/)/;

export default async function globalSetup(): Promise<() => Promise<void>> {
  const mock = await startServer({ seed: 1, clients: 1000, logLevel: 'warn' });
  const page = spawn(process.execPath, [path.join(__dirname, 'serve.mjs')], {
    env: { ...process.env, PORT: '0', API_URL: mock.url },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const pageUrl = await new Promise<string>((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`the page's dev server did not start in 30 s: ${output}`)), 30_000);
    page.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const ready = READY.exec(output);
      if (!ready) return;
      clearTimeout(timer);
      resolve(ready[1]!);
    });
    page.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the page's dev server exited with ${code}: ${output}`));
    });
  }).catch(async (error: unknown) => {
    await mock.close();
    throw error;
  });
  process.env.E2E_PAGE_URL = pageUrl;
  return async () => {
    page.kill();
    await mock.close();
  };
}
