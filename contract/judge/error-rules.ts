// An ErrorDto against the error table of openapi.yaml: the Code its status and request call for, a Message
// naming the bad parameter or the unknown id, never a stack trace.
import type { SpecResponse } from '../spec-contract';
import type { Judging } from './judging';
import { show } from './words';

type Json = Record<string, unknown>;

const STACK_TRACE = /\n\s*at\s|\bat\s+\S+\s+\([^)]*:\d+:\d+\)|\bat\s+[^\s()]+:\d+:\d+/;

export function errorRules(j: Judging, response: SpecResponse, body: unknown): void {
  if (typeof body !== 'object' || body === null || typeof (body as Json).Code !== 'string') return;
  const { Code: code, Message: message } = body as { Code: string; Message?: unknown };
  const status = j.exchange.status;
  const table = j.contract.codesFor(status);
  if (table.length === 0) return; // a status the table does not list: response.status says so
  j.apply('error.code');
  const expected = j.contract.codesOfResponse(response, status);
  if (!expected.includes(code))
    j.add(
      'error.code',
      String(status),
      `Code ${expected.join(' or ')} (the error table for ${status}${j.operation ? '' : ' on a path that is no operation'})`,
      `Code ${code}`,
    );
  if (typeof message !== 'string') return;
  if (status >= 500) {
    j.apply('error.no-stack');
    if (STACK_TRACE.test(message)) j.add('error.no-stack', 'Message', 'a generic Message, never a stack trace', show(message, 120));
  }
  const preferred = j.requestHeader('prefer') !== undefined;
  if (status === 400 && !preferred) {
    // `filter[]` is `filter` in the array syntax many query parsers read (qs, PHP, Rails): a Message naming either names it.
    const names = j.judged.offending.flatMap((name) => [name, ...(/^(.+?)\[[^\]]*\]$/.exec(name)?.slice(1) ?? [])]);
    if (names.length > 0) {
      j.apply('error.message');
      if (!names.some((name) => message.includes(name)))
        j.add('error.message', '400', `a Message naming ${names.join(' or ')}`, show(message, 120));
    }
  }
  if (status === 404 && !preferred && j.operation) {
    const values = Object.values(j.judged.pathParams);
    if (values.length > 0 && expected.length === 1 && expected[0] === code && code !== 'NOT_FOUND') {
      j.apply('error.message');
      if (!values.some((value) => message.toLowerCase().includes(value.toLowerCase())))
        j.add('error.message', '404', `a Message naming ${values.join(', ')}`, show(message, 120));
    }
  }
}
