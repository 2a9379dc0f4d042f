// Export / import of data files, and the start-up refusal of a bad one.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { generateClients } from '../../seeds/client';
import { DataFileError, loadDataFile, writeDataFile } from '../../seeds/data-file';
import { get, MAIN_JS, ROOT, spawnServer } from '../support/servers';

let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'data-file-'));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function writeJson(name: string, value: unknown): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, typeof value === 'string' ? value : JSON.stringify(value));
  return file;
}

/** Starts the built server on a data file and returns how it ended: it must stop at once. */
function startWith(file: string) {
  return spawnSync(process.execPath, [MAIN_JS, '--port', '0', '--data', file], {
    encoding: 'utf8',
    timeout: 20_000,
    env: { ...process.env, LOG_LEVEL: 'silent' },
  });
}

describe('npm run seed → DATA_FILE round trip', () => {
  test('npm run seed --clients 300 --seed 4 → a file that loads back to exactly the generated clients', () => {
    const file = path.join(dir, 'cli.json');

    const result = spawnSync(process.execPath, [path.join(ROOT, 'dist/seeds/cli.js'), '--clients', '300', '--seed', '4', '--out', file], {
      encoding: 'utf8',
    });

    expect(result.status).toBe(0);
    expect(result.stdout).toContain('wrote 300 clients (seed 4)');
    expect(loadDataFile(file)).toEqual(generateClients(4, 300));
  });

  test("DATA_FILE → the server serves the file's clients", async () => {
    const file = path.join(dir, 'served.json');
    await writeDataFile(file, 8, 40);
    const server = await spawnServer(['--data', file]);

    try {
      const response = await get(server.baseUrl, '/api/v1/Client/Simple?pageSize=100');
      const ids = ((await response.json()) as { Results: { IdClient: string }[] }).Results.map((r) => r.IdClient).sort();

      expect(response.headers.get('x-total-count')).toBe('40');
      expect(ids).toEqual(
        generateClients(8, 40)
          .map((c) => c.IdClient)
          .sort(),
      );
      expect(server.stdout()).toContain(`data ${file}`);
    } finally {
      await server.stop();
    }
  });
});

describe('ids in a data file', () => {
  test('upper-case uuids in a data file → found by Detail and the filters in either case', async () => {
    const clients = generateClients(6, 30).map((c) => ({
      ...c,
      IdClient: c.IdClient.toUpperCase(),
      Staff: c.Staff && { ...c.Staff, IdStaff: c.Staff.IdStaff.toUpperCase() },
    }));
    const target = clients.find((c) => c.Staff)!;
    const server = await spawnServer(['--data', writeJson('upper.json', clients)]);

    try {
      const byUpper = await get(server.baseUrl, `/api/v1/Client/Detail/${target.IdClient}`);
      const byLower = await get(server.baseUrl, `/api/v1/Client/Detail/${target.IdClient.toLowerCase()}`);
      const byStaff = await get(server.baseUrl, `/api/v1/Client/Extended?idStaff=${target.Staff!.IdStaff.toLowerCase()}`);

      expect([byUpper.status, byLower.status]).toEqual([200, 200]);
      expect(Number(byStaff.headers.get('x-total-count'))).toBe(clients.filter((c) => c.Staff?.IdStaff === target.Staff!.IdStaff).length);
    } finally {
      await server.stop();
    }
  });

  test('the same uuid twice in different case → a duplicate', () => {
    const [a, b] = generateClients(6, 2);
    const file = writeJson('case-dupes.json', [a, { ...b, IdClient: a!.IdClient.toUpperCase() }]);

    expect(() => loadDataFile(file)).toThrow(/\[1\]\.IdClient duplicates \[0\]\.IdClient$/);
  });
});

describe('a bad data file stops start-up with exit code 2 and one line', () => {
  const good = generateClients(2, 3);

  test.each([
    ['not JSON', () => writeJson('broken.json', '[{"IdClient": '), /broken\.json: is not JSON/],
    ['not an array', () => writeJson('object.json', { clients: [] }), /object\.json: must hold a JSON array/],
    ['empty', () => writeJson('empty.json', []), /empty\.json: holds no clients/],
    [
      'a record breaking the schema',
      () => writeJson('schema.json', [good[0], { ...good[1], PersonalInfo: { ...good[1]!.PersonalInfo, DateOfBirth: '1990-02-31' } }]),
      /schema\.json: \[1\]\.PersonalInfo\.DateOfBirth: must match/,
    ],
    [
      'a missing section',
      () => writeJson('missing.json', [{ ...good[0], Medical: undefined }]),
      /missing\.json: \[0\]\.Medical: is required/,
    ],
    [
      'an undocumented field',
      () => writeJson('extra.json', [{ ...good[0], Nickname: 'x' }]),
      /extra\.json: \[0\]\.Nickname: is not a documented property/,
    ],
    [
      'duplicate ids',
      () => writeJson('dupes.json', [good[0], good[1], { ...good[2], IdClient: good[0]!.IdClient }]),
      /dupes\.json: \[2\]\.IdClient duplicates \[0\]\.IdClient/,
    ],
    ['a missing file', () => path.join(dir, 'nowhere.json'), /nowhere\.json: cannot be read \(ENOENT\)/],
  ])('%s → exit 2 naming the file and the first offending record', (_name, makeFile, message) => {
    const file = makeFile();

    const result = startWith(file);

    expect(result.status).toBe(2);
    expect(result.stdout).toBe('');
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(message);
    expect(lines[0]).toMatch(/^client-records-mock: DATA_FILE /);
  });

  test('loadDataFile → throws DataFileError, never a half-loaded set', () => {
    const file = writeJson('late.json', [...generateClients(2, 50), { IdClient: 'nope' }]);

    expect(() => loadDataFile(file)).toThrow(DataFileError);
  });
});
