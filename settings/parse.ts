// The value parsers more than one command's rows use, so a setting of one kind
// reads and fails alike in the server and the proxy. No imports: the server's
// table reaches the browser handlers.

// Numbers are plain decimals: Number() would also read 0x1, 1e0, 0b1 and ' ', which nobody means in a setting.
const WHOLE = /^\d+$/;

/** A whole number in [min, max], in plain decimals. */
export function wholeNumber(min: number, max: number) {
  return (raw: string): number => {
    const value = Number(raw.trim());
    if (!WHOLE.test(raw.trim()) || value < min || value > max) throw new Error(`must be a whole number from ${min} to ${max}`);
    return value;
  };
}

/** The words a toggle reads: on/off and their usual spellings. */
export const TOGGLE_WORDS = ['on', 'off', 'true', 'false', '1', '0', 'yes', 'no'] as const;

export function toggle(raw: string): boolean {
  const value = raw.trim().toLowerCase();
  if (['on', 'true', '1', 'yes'].includes(value)) return true;
  if (['off', 'false', '0', 'no'].includes(value)) return false;
  throw new Error('must be on or off');
}

/** A host name or IP address to bind (the server's and the proxy's --host). */
export function hostName(raw: string): string {
  if (!/^[\w.:-]+$/.test(raw)) throw new Error('must be a host name or IP address');
  return raw;
}
