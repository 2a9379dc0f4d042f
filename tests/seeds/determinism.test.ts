// Same (seed, count) → same bytes, in any process; client i depends only on (seed, i).
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import path from 'node:path';
import { generateClients } from '../../seeds/client';
import { ROOT } from '../support/servers';

/** SHA-256 of the JSON of a generated set, computed in a separate Node process from the built code. */
function digestInChildProcess(seed: number, count: number): string {
  const script = `
    const { generateClients } = require(${JSON.stringify(path.join(ROOT, 'dist/seeds/client.js'))});
    const json = JSON.stringify(generateClients(${seed}, ${count}));
    process.stdout.write(require('node:crypto').createHash('sha256').update(json).digest('hex'));
  `;
  const result = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', timeout: 60_000 });
  if (result.status !== 0) throw new Error(result.stderr);
  return result.stdout;
}

const sha256 = (value: unknown) => crypto.createHash('sha256').update(JSON.stringify(value)).digest('hex');

describe('seeded generation', () => {
  test('two separate processes with the same seed and count → identical JSON bytes', () => {
    const first = digestInChildProcess(7, 2000);
    const second = digestInChildProcess(7, 2000);

    expect(first).toMatch(/^[0-9a-f]{64}$/);
    expect(second).toBe(first);
  });

  test('a separate process and this one → identical JSON bytes (no hidden global state)', () => {
    expect(sha256(generateClients(7, 2000))).toBe(digestInChildProcess(7, 2000));
  });

  test('a different seed → different data', () => {
    const a = generateClients(1, 200);
    const b = generateClients(2, 200);

    expect(sha256(a)).not.toBe(sha256(b));
    expect(a.filter((client, i) => client.IdClient === b[i]!.IdClient)).toHaveLength(0);
  });

  test('the first 100 clients of a 1,000-client set are byte-identical to a 100-client set', () => {
    expect(JSON.stringify(generateClients(3, 1000).slice(0, 100))).toBe(JSON.stringify(generateClients(3, 100)));
  });

  test('a client does not depend on the count: staff, location and insurance stay put as the set grows', () => {
    const small = generateClients(5, 50);
    const large = generateClients(5, 5000);

    small.forEach((client, i) => {
      expect(large[i]).toEqual(client);
    });
  });

  test('generating twice in one process → the same data (no state carried between runs)', () => {
    expect(sha256(generateClients(9, 500))).toBe(sha256(generateClients(9, 500)));
  });
});
