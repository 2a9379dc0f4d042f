// What express-openapi-validator cannot see once a URL is parsed, checked on the raw URL: a step of
// the API path (app.ts) that both the Express pipeline and the in-process lean path (lean-path.ts) run,
// so it lives apart from the validator and loads nothing of it.
import { ApiError, quoted } from '../errors';
import type { ApiStep } from './request';

/**
 * The validator reads `a[b]=1` as an object and skips a `[b]` that names an
 * Object.prototype member (its prototype-pollution guard), so `x[__proto__]=1`
 * or `page[constructor]=1` would pass as if absent instead of as unknown.
 */
function dropsSilently(name: string): boolean {
  for (const [, segment = ''] of name.matchAll(/\[([^\]]*)\]/g)) {
    if (segment === '__proto__' || Object.prototype.hasOwnProperty.call(Object.prototype, segment)) return true;
  }
  return false;
}

/**
 * What the validator cannot see once Express has parsed the URL: a parameter
 * given twice (it would report a type error instead), percent-encoding that
 * does not decode (the query parser keeps it as literal text), and integers
 * written as anything but decimal digits (its type coercion reads `1e2` and
 * `0x10` as numbers).
 */
export const checkRawQuery: ApiStep = (req, _res, context) => {
  const integerParams = context.route?.operation.integerQueryParams;
  const url = req.url ?? '';
  const at = url.indexOf('?');
  try {
    decodeURIComponent(at < 0 ? url : url.slice(0, at));
  } catch {
    throw new ApiError('VALIDATION_ERROR', undecodablePath(context.route?.params));
  }
  if (at < 0) return;
  const seen = new Set<string>();
  for (const pair of url.slice(at + 1).split('&')) {
    if (pair === '') continue;
    const rawName = pair.split('=', 1)[0]!;
    let name: string;
    let value: string;
    try {
      name = decodeURIComponent(rawName.replace(/\+/g, ' '));
      value = decodeURIComponent(pair.slice(rawName.length + 1).replace(/\+/g, ' '));
    } catch {
      throw new ApiError('VALIDATION_ERROR', `query parameter ${quoted(rawName)} has invalid percent-encoding`);
    }
    if (seen.has(name)) throw new ApiError('VALIDATION_ERROR', `query parameter ${quoted(name)} is given more than once`);
    if (dropsSilently(name)) throw new ApiError('VALIDATION_ERROR', `unknown query parameter ${quoted(name)}`);
    seen.add(name);
    if (integerParams?.has(name) && value !== '' && !/^-?\d+$/.test(value)) {
      throw new ApiError('VALIDATION_ERROR', `query parameter '${name}' must be integer`);
    }
  }
};

/** A path that does not decode: the Message names the path parameter that does not (the error table: "the Message names it"). */
function undecodablePath(params: Readonly<Record<string, string>> | undefined): string {
  const name = Object.keys(params ?? {}).find((key) => !decodes(params![key]!));
  return name === undefined ? 'the path has invalid percent-encoding' : `path parameter ${quoted(name)} has invalid percent-encoding`;
}

function decodes(text: string): boolean {
  try {
    decodeURIComponent(text);
    return true;
  } catch {
    return false;
  }
}
