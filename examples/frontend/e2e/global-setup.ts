// The mock on a free port (seed 1, 1,000 clients; its coverage of what the tests exercised written at the
// end), and the app's dev server on another with MOCK_URL set to the mock: the package's own set-up.
// With MOCK_URL already set, that running mock is used instead of starting one.
import { mockAndApp } from 'client-records-mock/playwright';

export default mockAndApp({
  mock: { seed: 1, clients: 1000, coverageOut: 'test-results/mock-coverage.json' },
  app: { command: 'npm run dev -- --port {port} --strictPort --host 127.0.0.1' },
});
