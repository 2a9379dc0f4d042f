// The Playwright fixture (`client-records-mock/playwright`): every test gets
// its own session of the mock, so tests running in parallel workers can each
// put the mock in another scenario (one test's "backend down" is not another
// test's failure) and assert on their own requests in the journal. The
// session travels as extra HTTP headers of the test's browser context
// (X-Mock-Session, and X-Mock-Scenario once a scenario is chosen, so that any
// worker or replica of the mock honours it without asking the one that was
// told). @playwright/test is an optional peer: only this entry loads it.
//
// Its global set-up (playwright-setup.ts, mockAndApp) starts the mock and the app's dev server.
//
//   import { test, expect } from 'client-records-mock/playwright';
//   test.use({ mockUrl: 'http://127.0.0.1:4000' });      // or MOCK_URL
//   test('empty state', async ({ page, mock }) => {
//     await mock.use('empty');
//     await page.goto('/');
//     expect(await mock.requests({ operation: 'getClientsExtended' })).toHaveLength(1);
//   });
import { test as base, expect } from '@playwright/test';
import { ControlClient, type JournalEntry, type JournalFilter, type ScenarioRequest, type ScenarioState } from './control/client';

export { expect };
export { mockAndApp, type AppServer, type GlobalSetup, type MockAndAppOptions } from './playwright-setup';
export { ControlClient, ControlError } from './control/client';
export type { JournalEntry, JournalFilter, ScenarioRequest, ScenarioState } from './control/client';

/** The journal filters a session's helpers take (the session is always the test's own). */
export type SessionFilter = Omit<JournalFilter, 'session'>;

export interface MockSession {
  /** This test's session name (unique per test and retry). */
  readonly name: string;
  /** The mock's address. */
  readonly url: string;
  /** The control API, for what concerns more than this session (the server's scenario, coverage). */
  readonly control: ControlClient;
  /** Switches this session to a scenario (`'down'`, `'empty'`, `{ scenario: 'slow', min: 200, max: 800 }`); other tests are not affected. */
  use(scenario: string | ScenarioRequest): Promise<ScenarioState>;
  /** Back to the server's scenario. */
  reset(): Promise<void>;
  /** The headers this session's requests carry: pass them to `request.get(url, { headers })` or to fetch. */
  headers(): Record<string, string>;
  /** This session's journal entries (oldest first) that match `filter`. */
  requests(filter?: SessionFilter): Promise<JournalEntry[]>;
  /**
   * Waits until this session's journal holds at least `count` entries that
   * match `filter` (an entry is written when its answer is done), and returns them.
   */
  waitForRequests(filter?: SessionFilter, options?: { count?: number; timeout?: number }): Promise<JournalEntry[]>;
}

export interface MockFixtures {
  mock: MockSession;
}

export interface MockWorkerOptions {
  /** Where the mock listens; default the MOCK_URL environment variable. */
  mockUrl: string;
}

const POLL_MS = 50;

export const test = base.extend<MockFixtures, MockWorkerOptions>({
  mockUrl: [process.env.MOCK_URL ?? '', { option: true, scope: 'worker' }],
  mock: [
    async ({ context, mockUrl, extraHTTPHeaders }, use, testInfo) => {
      if (!mockUrl) throw new Error('client-records-mock/playwright: set the mock address with test.use({ mockUrl }) or MOCK_URL');
      const control = new ControlClient(mockUrl);
      // Unique per test, retry and repeat: parallel workers never share one.
      const name = `w${testInfo.workerIndex}-${testInfo.testId}-r${testInfo.retry}-${testInfo.repeatEachIndex}`
        .replace(/[^A-Za-z0-9_.:@-]/g, '-')
        .slice(0, 128);
      let sent: Record<string, string> = { 'X-Mock-Session': name };
      const apply = () => context.setExtraHTTPHeaders({ ...(extraHTTPHeaders ?? {}), ...sent });
      await apply();
      const requests = async (filter: SessionFilter = {}) => (await control.journal({ limit: 10_000, ...filter, session: name })).entries;
      const session: MockSession = {
        name,
        url: mockUrl,
        control,
        async use(scenario) {
          const state = await control.setSessionScenario(name, typeof scenario === 'string' ? { scenario } : scenario);
          sent = { ...state.sendHeaders } as Record<string, string>;
          await apply();
          return state;
        },
        async reset() {
          await control.resetSession(name);
          sent = { 'X-Mock-Session': name };
          await apply();
        },
        headers: () => ({ ...sent }),
        requests,
        async waitForRequests(filter = {}, { count = 1, timeout = 10_000 } = {}) {
          const deadline = Date.now() + timeout;
          for (;;) {
            const found = await requests(filter);
            if (found.length >= count || Date.now() >= deadline) return found;
            await new Promise((resolve) => setTimeout(resolve, POLL_MS));
          }
        },
      };
      await use(session);
      // The session is the test's alone: forget it (its journal entries stay for the report, bounded by the ring).
      await control.resetSession(name).catch(() => undefined);
    },
    { auto: true },
  ],
});
