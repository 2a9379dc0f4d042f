// The Prefer header (openapi.yaml, parameter Prefer; RFC 7240): which of its
// preferences this mock implements (code, delay, example), and their checks.
// Every other preference is ignored, as RFC 7240 asks of a server.
import { ApiError, quoted } from '../errors';
import type { Operation } from '../../contract/operations';

/** openapi.yaml, parameter `Prefer`: `delay=MS` from 0 to 10000. */
export const MAX_PREFER_DELAY_MS = 10_000;

export interface PreferDirectives {
  code?: number;
  delayMs?: number;
  /** The named example to answer, already found in openapi.yaml. */
  example?: { name: string; status: number; value: unknown; isList: boolean };
}

/**
 * RFC 7240 preferences as `name → value`: comma-separated `name[=value]`, names
 * compared in lower case, quoted values unquoted, only the first instance of a
 * repeated preference kept (RFC 7240 section 2). A `;` also separates: this
 * mock has always read `delay=300;code=500` as two preferences.
 */
export function parsePrefer(header: string | string[] | undefined): Map<string, string> {
  const preferences = new Map<string, string>();
  const text = Array.isArray(header) ? header.join(',') : header;
  if (!text) return preferences;
  for (const part of text.split(/[,;]/)) {
    const equals = part.indexOf('=');
    const name = (equals < 0 ? part : part.slice(0, equals)).trim().toLowerCase();
    const value =
      equals < 0
        ? ''
        : part
            .slice(equals + 1)
            .trim()
            .replace(/^"(.*)"$/, '$1');
    if (name && !preferences.has(name)) preferences.set(name, value);
  }
  return preferences;
}

const invalid = (message: string) => new ApiError('VALIDATION_ERROR', `header 'Prefer' ${message}`);

function findExample(name: string, code: number | undefined, operation: Operation): PreferDirectives['example'] {
  const byStatus = operation.examples;
  const statuses = code !== undefined ? [code] : [...byStatus.keys()].sort((a, b) => a - b);
  for (const status of statuses) {
    const found = byStatus.get(status);
    if (found?.examples.has(name)) return { name, status, value: found.examples.get(name), isList: found.isList };
  }
  const known = statuses
    .filter((status) => byStatus.has(status))
    .map((status) => `${[...byStatus.get(status)!.examples.keys()].join(', ')} (${status})`);
  const where = code !== undefined ? `status ${code} of ${operation.template}` : operation.template;
  return invalidExample(name, where, known);
}

function invalidExample(name: string, where: string, known: string[]): never {
  throw invalid(`example ${quoted(name)} is not a named example of ${where}; known: ${known.join('; ') || 'none'}`);
}

/** Our three preferences, checked: only their bad values are a 400; every other preference is ignored (RFC 7240). */
export function readPrefer(header: string | string[] | undefined, operation: Operation): PreferDirectives {
  const preferences = parsePrefer(header);
  const directives: PreferDirectives = {};
  const code = preferences.get('code');
  if (code !== undefined) {
    if (!/^\d{3}$/.test(code)) throw invalid(`code must be a three-digit status, e.g. code=404`);
    directives.code = Number(code);
    if (!operation.statuses.has(directives.code)) {
      const documented = [...operation.statuses].sort((a, b) => a - b).join(', ');
      throw invalid(`asks for status ${code}, which ${operation.template} does not document (${documented})`);
    }
  }
  const delay = preferences.get('delay');
  if (delay !== undefined) {
    if (!/^\d{1,5}$/.test(delay) || Number(delay) > MAX_PREFER_DELAY_MS) {
      throw invalid(`delay must be from 0 to ${MAX_PREFER_DELAY_MS} ms`);
    }
    directives.delayMs = Number(delay);
  }
  const example = preferences.get('example');
  if (example !== undefined) {
    if (example === '') throw invalid('example needs a name, e.g. example=empty');
    directives.example = findExample(example, directives.code, operation);
  }
  return directives;
}
