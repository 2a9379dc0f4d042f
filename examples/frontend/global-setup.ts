// Playwright's global set-up for the example frontend: the mock (through the
// package's programmatic API) and the page's dev server each listen on a port
// the system picks (port 0), so two runs on one machine never meet on a fixed
// port. The page's address reaches the tests through the environment
// (E2E_PAGE_URL, which playwright.config.ts reads as baseURL in every worker),
// and the mock's to the client-records-mock/playwright fixture (MOCK_URL), which
// gives every test its own session. The function returned stops both; stopping
// the mock writes the coverage of what the tests exercised
// (test-artifacts/frontend-coverage.json, .junit.xml and .html).
// E2E_MOCK_URL set: the tests run against that mock as it is (none is started
// here), e.g. three replicas behind a load balancer sharing their state
// through Redis (tests/state/replicas.test.ts).
import { spawn } from 'node:child_process';
import path from 'node:path';
import { startServer } from 'client-records-mock';

const READY = /example frontend on (http:\/\/\S+\/)/;

export default async function globalSetup(): Promise<() => Promise<void>> {
  const coverageOut = path.resolve(__dirname, '../../test-artifacts/frontend-coverage.json');
  const external = process.env.E2E_MOCK_URL;
  const mock = external
    ? { url: external.replace(/\/+$/, ''), close: () => Promise.resolve() }
    : await startServer({ seed: 1, clients: 1000, logLevel: 'warn', coverageOut });
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
  process.env.MOCK_URL = mock.url;
  return async () => {
    page.kill();
    await mock.close();
  };
}
