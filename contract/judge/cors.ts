// The CORS rules of an answer (openapi.yaml, "CORS"): a preflight allows GET and X-Api-Key, an answer to a
// request with an Origin allows it and exposes the paging and request-id headers.
import { listOf } from '../headers';
import type { Judging } from './judging';

const EXPOSED = ['X-Total-Count', 'Link', 'X-Request-Id'];

export function judgePreflight(j: Judging): void {
  if (j.exchange.status < 200 || j.exchange.status >= 300) return;
  j.apply('cors.preflight');
  const origin = j.requestHeader('origin');
  const allowOrigin = j.header('access-control-allow-origin');
  // No Access-Control-Allow-Origin: the Origin is not one the deployment accepts (an origin list); nothing more to hold.
  if (allowOrigin === undefined) return;
  if (allowOrigin !== '*' && allowOrigin !== origin)
    j.add('cors.allow-origin', 'Access-Control-Allow-Origin', `* or ${origin}`, allowOrigin);
  const methods = listOf(j.header('access-control-allow-methods'));
  if (!methods.includes('get') && !methods.includes('*'))
    j.add('cors.preflight', 'Access-Control-Allow-Methods', 'a list naming GET', j.header('access-control-allow-methods') ?? '(absent)');
  const asked = listOf(j.requestHeader('access-control-request-headers'));
  const allowedHeaders = listOf(j.header('access-control-allow-headers'));
  const needed = asked.includes('x-api-key') || asked.length === 0 ? ['x-api-key'] : [];
  for (const name of needed)
    if (!allowedHeaders.includes(name) && !allowedHeaders.includes('*'))
      j.add(
        'cors.preflight',
        'Access-Control-Allow-Headers',
        'a list naming X-Api-Key',
        j.header('access-control-allow-headers') ?? '(absent)',
      );
}
export function corsRules(j: Judging): void {
  const origin = j.requestHeader('origin');
  const allowOrigin = j.header('access-control-allow-origin');
  if (origin === undefined || allowOrigin === undefined) return;
  j.apply('cors.allow-origin');
  if (allowOrigin !== '*' && allowOrigin !== origin)
    j.add('cors.allow-origin', 'Access-Control-Allow-Origin', `* or ${origin}`, allowOrigin);
  j.apply('cors.expose');
  const exposed = listOf(j.header('access-control-expose-headers'));
  const missing = EXPOSED.filter((name) => !exposed.includes(name.toLowerCase()) && !exposed.includes('*'));
  if (missing.length > 0)
    j.add(
      'cors.expose',
      'Access-Control-Expose-Headers',
      `a list naming ${EXPOSED.join(', ')}`,
      j.header('access-control-expose-headers') ?? '(absent)',
    );
}
