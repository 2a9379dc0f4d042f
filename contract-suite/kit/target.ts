// What the contract checks talk to: a base URL and a key, nothing else. The
// same checks run against our server in-process, a separately started one, a
// staging backend, a mutant proxy (tests/contract/mutation.test.ts) or Prism.
// The Target type itself is declared beside the exchanges sent to it
// (http.ts), which its onExchange hook receives: declared here, the two
// modules imported each other.
import type { Target } from './http';

export type { Target };

/** The key our server accepts by default (`API_KEYS`); what the in-process target uses. */
export const DEFAULT_API_KEY = 'dev-key';

/** The target named by CONTRACT_BASE_URL and CONTRACT_API_KEY, or undefined when neither is set. */
export function targetFromEnv(env: NodeJS.ProcessEnv = process.env): Target | undefined {
  const baseUrl = env.CONTRACT_BASE_URL?.trim();
  if (!baseUrl) return undefined;
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new Error(`CONTRACT_BASE_URL is not a URL: ${baseUrl}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`CONTRACT_BASE_URL must be http(s): ${baseUrl}`);
  return { baseUrl: baseUrl.replace(/\/+$/, ''), apiKey: env.CONTRACT_API_KEY ?? DEFAULT_API_KEY };
}
