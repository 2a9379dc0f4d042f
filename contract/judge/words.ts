// How the judge writes values and schemas into one-line messages: quoted and cut, a parameter's schema in
// words, Ajv's first error, an instance path with its array indexes folded (so one fault is one cause).
import type { ErrorObject } from 'ajv';

type Json = Record<string, unknown>;

/** A parameter's schema in words: `an integer from 1 to 100`, `a uuid`, `at most 200 characters`. */
export function describeParameterSchema(schema: Json): string {
  const parts: string[] = [];
  const type = Array.isArray(schema.type) ? (schema.type as string[]).join(' or ') : String(schema.type ?? 'any value');
  if (schema.enum) parts.push(`one of ${(schema.enum as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`);
  else if (type === 'boolean') parts.push('true or false');
  else if (schema.format === 'uuid') parts.push('a uuid (8-4-4-4-12 hexadecimal digits)');
  else if (type === 'integer') parts.push('an integer written in decimal digits');
  else parts.push(`a ${type}${schema.format ? ` (${String(schema.format)})` : ''}`);
  if (typeof schema.minimum === 'number' || typeof schema.maximum === 'number')
    parts.push(`from ${String(schema.minimum ?? '…')} to ${String(schema.maximum ?? '…')}`);
  if (typeof schema.minLength === 'number') parts.push(`at least ${schema.minLength} characters`);
  if (typeof schema.maxLength === 'number' && schema.format !== 'uuid') parts.push(`at most ${schema.maxLength} characters`);
  if (typeof schema.pattern === 'string') parts.push(`matching ${schema.pattern}`);
  return parts.join(', ');
}

export function ajvReason(error: ErrorObject | undefined): string {
  if (!error) return 'is not valid';
  return `${error.keyword}: ${error.message ?? 'is not valid'}`;
}

export function show(value: string, max = 80): string {
  return JSON.stringify(value.length > max ? `${value.slice(0, max)}…` : value);
}

export function wildcard(path: string): string {
  return path.replace(/\/\d+(?=\/|$)/g, '/*') || '/';
}
