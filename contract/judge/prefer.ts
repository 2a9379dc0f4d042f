// What a `Prefer` header can make the mock answer (openapi.yaml, parameter Prefer), so the judge allows it.
import type { SpecContract, SpecOperation } from '../spec-contract';

type Json = Record<string, unknown>;

export interface PreferPlan {
  statuses: Set<number>;
  mockControlled: boolean;
}

/**
 * What a `Prefer` header can make the mock answer (openapi.yaml, parameter
 * Prefer): a documented `code=NNN`, the status of a named example, or `400`
 * for a bad value. A real deployment ignores the header, so the plain answer
 * stays allowed too.
 */
export function preferPlan(contract: SpecContract, operation: SpecOperation, value: string): PreferPlan {
  const statuses = new Set<number>();
  const preferences = new Map<string, string>();
  for (const part of value.split(/[,;]/)) {
    const at = part.indexOf('=');
    const name = (at < 0 ? part : part.slice(0, at)).trim().toLowerCase();
    if (name !== '' && !preferences.has(name))
      preferences.set(
        name,
        at < 0
          ? ''
          : part
              .slice(at + 1)
              .trim()
              .replace(/^"|"$/g, ''),
      );
  }
  let mockControlled = false;
  const code = preferences.get('code');
  if (code !== undefined) {
    if (/^\d{3}$/.test(code) && operation.statuses.includes(code)) {
      statuses.add(Number(code));
      if (!code.startsWith('2')) mockControlled = true;
    } else statuses.add(400);
  }
  const delay = preferences.get('delay');
  if (delay !== undefined && !(/^\d+$/.test(delay) && Number(delay) <= 10_000)) statuses.add(400);
  const example = preferences.get('example');
  if (example !== undefined) {
    const withExample = operation.statuses.filter((status) => {
      const response = contract.response(operation, Number(status));
      const examples = (response?.node.content as Record<string, { examples?: Json }> | undefined)?.['application/json']?.examples;
      return examples !== undefined && example in examples;
    });
    if (withExample.length === 0) statuses.add(400);
    else {
      mockControlled = true;
      if (code !== undefined && withExample.includes(code)) statuses.add(Number(code));
      else statuses.add(Number(withExample[0]));
    }
  }
  return { statuses, mockControlled };
}
