// The target a jest run checks: the deployment named by CONTRACT_BASE_URL and
// CONTRACT_API_KEY, or else our own server, in-process on 127.0.0.1 and port 0.
import { API_KEY, startTestServer } from '../support/servers';
import { targetFromEnv, type Target } from '../../contract-suite/kit/target';

export interface OpenTarget {
  target: Target;
  /** `in-process …` or the deployment's URL, for the test output. */
  description: string;
  close(): Promise<void>;
}

export async function openTarget(): Promise<OpenTarget> {
  const fromEnv = targetFromEnv();
  if (fromEnv) return { target: fromEnv, description: `deployment ${fromEnv.baseUrl}`, close: async () => undefined };
  const server = await startTestServer();
  return {
    target: { baseUrl: server.baseUrl, apiKey: API_KEY },
    description: `our server in-process at ${server.baseUrl}`,
    close: () => server.stop(),
  };
}
