// Before any check, the ways a run cannot start, each one line (exit 2): nothing answers, the base URL is not
// this API, the key is rejected.
import type { SpecContract } from '../../contract/spec-contract';
import { fetchAnswer } from '../kit/http';
import type { Target } from '../kit/target';
import { StartError } from './errors';

const PROBE_TIMEOUT_MS = 4_000;

/** Why a request could not be made, in words (connection refused, no such host, timeout). */
function unreachable(error: unknown, baseUrl: string): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  const code = cause?.code ?? (error as { name?: string }).name;
  if (code === 'ECONNREFUSED') return `connection refused to ${baseUrl}: nothing listens there`;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return `cannot resolve the host of ${baseUrl}`;
  if (code === 'TimeoutError' || code === 'UND_ERR_CONNECT_TIMEOUT' || code === 'AbortError')
    return `no answer from ${baseUrl} within ${PROBE_TIMEOUT_MS / 1000} s`;
  return `cannot reach ${baseUrl}: ${cause?.message ?? (error as Error).message}`;
}

/**
 * Before any check, the three ways a run cannot start, each one line (exit 2):
 * nothing answers, the base URL points at something that is not this API (a
 * redirect, a 404 that is not even JSON, or 404 on both a public and a keyed
 * operation: a wrong host or prefix), the key is rejected. Anything else the probes see, even a broken Ping, is left to
 * the checks, which report it as a contract violation (exit 1).
 */
export async function probeTarget(target: Target, contract: SpecContract): Promise<void> {
  const paths = Object.fromEntries(contract.operations.map((o) => [o.operationId, o.template]));
  const get = async (path: string, key?: string) => {
    try {
      return await fetchAnswer(
        target.baseUrl + path,
        { headers: key ? { 'X-Api-Key': key, Accept: 'application/json' } : { Accept: 'application/json' }, redirect: 'manual' },
        PROBE_TIMEOUT_MS,
      );
    } catch (error) {
      throw new StartError(unreachable(error, target.baseUrl));
    }
  };
  // The server answered: a body it then breaks (a bad chunked encoding, a reset) is the checks' to report (exit 1).
  const body = (response: Response) => response.text().catch(() => '');
  const ping = await get(paths.ping!);
  await body(ping);
  const json = /^application\/(.+\+)?json\b/i.test(ping.headers.get('content-type') ?? '');
  if (ping.status >= 300 && ping.status < 400)
    throw new StartError(
      `${target.baseUrl} redirects GET ${paths.ping} to ${ping.headers.get('location') ?? '(no Location)'}: give the URL it redirects to`,
    );
  if (ping.status === 404 && !json)
    throw new StartError(
      `${target.baseUrl} does not look like this API: GET ${paths.ping} answered 404 ${ping.headers.get('content-type') ?? 'without a Content-Type'} (wrong host or path prefix?)`,
    );
  const keyed = await get(`${paths.getClientsSimple}?pageSize=1`, target.apiKey);
  const keyedBody = await body(keyed);
  // Neither a public nor a keyed operation is there: a wrong host or path prefix, not a broken contract (a
  // deployment that serves some operations and not others is the checks' to report).
  if (ping.status === 404 && keyed.status === 404)
    throw new StartError(
      `${target.baseUrl} serves none of the document's paths: GET ${paths.ping} and GET ${paths.getClientsSimple} answered 404 (wrong host or path prefix?)`,
    );
  if (keyed.status === 401)
    throw new StartError(
      `key rejected by ${target.baseUrl}: GET ${paths.getClientsSimple} answered 401 ${keyedBody.includes('UNAUTHORIZED') ? 'UNAUTHORIZED' : ''}`.trim(),
    );
}
