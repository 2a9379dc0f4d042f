// Export / import of data files, and the start-up refusal of a bad one.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ClientDetail } from '../../contract/wire-types';
import { generateClients } from '../../seeds/client';
import { DataFileError, loadDataFile, writeDataFile } from '../../seeds/data-file';
import net from 'node:net';
import { get, MAIN_JS, ROOT, spawnServer, startTestServer } from '../support/servers';

/** The limit tests load with: far above any file they write. */
const NO_LIMIT = 2 ** 30;

let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'data-file-'));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** What a terminal would act on: control characters other than the final newline. */
function controlCharacters(text: string): string[] {
  return [...text.trimEnd()].filter((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f);
}

function makeFifo(): string {
  const file = path.join(dir, 'fifo');
  if (!fs.existsSync(file)) spawnSync('mkfifo', [file]);
  return file;
}

function writeJson(name: string, value: unknown): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, typeof value === 'string' ? value : JSON.stringify(value));
  return file;
}

/** Starts the built server on a data file and returns how it ended: it must stop at once. */
function startWith(file: string, ...args: string[]) {
  return spawnSync(process.execPath, [MAIN_JS, '--port', '0', '--data', file, ...args], {
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
    expect(loadDataFile(file, NO_LIMIT)).toEqual(generateClients(4, 300));
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

describe('what a data file may hold', () => {
  test('a leading UTF-8 byte order mark → read as if absent', () => {
    const clients = generateClients(5, 3);
    const file = writeJson('bom.json', `\ufeff${JSON.stringify(clients, null, 2)}`);

    expect(loadDataFile(file, NO_LIMIT)).toEqual(clients);
  });

  test('[] → an empty data set', () => {
    expect(loadDataFile(writeJson('empty.json', []), NO_LIMIT)).toEqual([]);
  });

  test('DATA_FILE_MAX_MB → a file just under it loads', () => {
    const file = writeJson('fits.json', `[${' '.repeat(2 ** 20 - 10)}]`);

    expect(loadDataFile(file, 2 ** 20)).toEqual([]);
  });
});

describe('an empty data set (CLIENTS=0 or a file holding [])', () => {
  test.each(['/api/v1/Client/Simple', '/api/v1/Client/Extended?active=true'])(
    'GET %s → 200, Results [], X-Total-Count 0, Link first and last on page 1',
    async (pathAndQuery) => {
      const server = await startTestServer({ clients: 0 });

      try {
        const response = await get(server.baseUrl, pathAndQuery);
        const body = (await response.json()) as { Page: number; Results: unknown[] };
        const listPath = pathAndQuery.split('?')[0]!;

        expect(response.status).toBe(200);
        expect(body.Results).toEqual([]);
        expect(body.Page).toBe(1);
        expect(response.headers.get('x-total-count')).toBe('0');
        expect(response.headers.get('link')).toMatch(
          new RegExp(`^<${listPath}\\?page=1&pageSize=25[^>]*>; rel="first", <${listPath}\\?page=1&pageSize=25[^>]*>; rel="last"$`),
        );
      } finally {
        await server.stop();
      }
    },
  );

  test('GET /Client/Detail/{idClient} on an empty set → 404 CLIENT_NOT_FOUND', async () => {
    const server = await startTestServer({ clients: 0 });

    try {
      const response = await get(server.baseUrl, '/api/v1/Client/Detail/3f1c2a5e-0b7d-4c1e-9a8f-2d6b5e4c3a21');

      expect(response.status).toBe(404);
      expect(((await response.json()) as { Code: string }).Code).toBe('CLIENT_NOT_FOUND');
    } finally {
      await server.stop();
    }
  });

  test('a data file holding [] → the CLI starts and says clients 0', async () => {
    const server = await spawnServer(['--data', writeJson('none.json', [])]);

    try {
      const response = await get(server.baseUrl, '/api/v1/Client/Simple');

      expect(response.headers.get('x-total-count')).toBe('0');
      expect(server.stdout()).toContain('clients 0');
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

    expect(() => loadDataFile(file, NO_LIMIT)).toThrow(/\[1\]\.IdClient duplicates \[0\]\.IdClient$/);
  });
});

/** A copy of the client with some PersonalInfo fields replaced. */
function withPersonalInfo(
  client: ClientDetail,
  change: (info: ClientDetail['PersonalInfo']) => Partial<ClientDetail['PersonalInfo']>,
): ClientDetail {
  return { ...client, PersonalInfo: { ...client.PersonalInfo, ...change(client.PersonalInfo) } };
}

describe('a bad data file stops start-up with exit code 2 and one line', () => {
  const good = generateClients(2, 3);

  test.each([
    ['not JSON', () => writeJson('broken.json', '[{"IdClient": '), /broken\.json:1:15: unexpected end of file \(not valid JSON\)$/],
    ['not an array', () => writeJson('object.json', { clients: [] }), /object\.json: must hold a JSON array/],
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
    [
      'a PersonalId whose last digit is not its Luhn digit',
      () =>
        writeJson('luhn.json', [
          good[0],
          withPersonalInfo(good[1]!, (info) => ({
            PersonalId: info.PersonalId.slice(0, -1) + String((Number(info.PersonalId.slice(-1)) + 1) % 10),
          })),
        ]),
      /luhn\.json: \[1\]\.PersonalInfo\.PersonalId breaks record\.luhn: its last digit is not the Luhn check digit of YYMMDDNNN$/,
    ],
    [
      'a FullName that is not FirstName LastName',
      () => writeJson('full-name.json', [withPersonalInfo(good[0]!, (info) => ({ FullName: `${info.LastName} ${info.FirstName}` }))]),
      /full-name\.json: \[0\]\.PersonalInfo\.FullName breaks record\.full-name: FullName is not FirstName, one space, LastName$/,
    ],
    [
      'a PersonalId that does not begin with DateOfBirth',
      () => writeJson('birth.json', [good[0], good[1], withPersonalInfo(good[2]!, () => ({ DateOfBirth: '1901-01-01' }))]),
      /birth\.json: \[2\]\.PersonalInfo\.PersonalId breaks record\.birth-date: its first eight digits are not DateOfBirth without its dashes$/,
    ],
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

  test.each([
    ['a directory', () => dir, /: is a directory, not a regular file$/],
    ['a device that never ends', () => '/dev/zero', /\/dev\/zero: is a device, not a regular file$/],
    ['a FIFO nobody writes to', () => makeFifo(), /fifo: is a FIFO, not a regular file$/],
    ['a file above DATA_FILE_MAX_MB', () => writeJson('big.json', `[${' '.repeat(2 * 2 ** 20)}]`), /big\.json: is 3 MB; the limit is 1 MB/],
  ])('%s → exit 2 at once, nothing read', (_name, makeFile, message) => {
    const file = makeFile();

    const result = startWith(file, '--data-max-mb', '1');

    expect(result.status).toBe(2);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr.trim()).toMatch(message);
  });

  test('a socket → exit 2 naming it', async () => {
    const socketPath = path.join(dir, 'sock');
    const listener = net.createServer().listen(socketPath);
    await new Promise((resolve) => listener.once('listening', resolve));

    try {
      const result = startWith(socketPath);

      expect(result.status).toBe(2);
      expect(result.stderr.trim()).toMatch(/sock: is a socket, not a regular file$/);
    } finally {
      listener.close();
    }
  });

  test('a syntax error → line:column, no byte of the file echoed (control bytes, PersonalIds)', () => {
    const [client] = generateClients(3, 1);
    const text = `[\n${JSON.stringify(client)},\n{"Title": \u001b]0;owned\u0007 "${client!.PersonalInfo.PersonalId}"}\n]`;
    const file = writeJson('hostile.json', text);

    const result = startWith(file);

    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/hostile\.json:3:11: unexpected byte 0x1b \(not valid JSON\)\n$/);
    expect(controlCharacters(result.stderr)).toEqual([]);
    expect(result.stderr).not.toContain('owned');
    expect(result.stderr).not.toContain(client!.PersonalInfo.PersonalId);
  });

  test('a member name twice in one record → an error naming it, not last-one-wins', () => {
    const [client] = generateClients(3, 1);
    const text = JSON.stringify([client]).replace('"PersonalInfo":{', '"PersonalInfo":{"FirstName":"Eve",');
    const file = writeJson('twice.json', text);

    expect(() => loadDataFile(file, NO_LIMIT)).toThrow(
      /twice\.json:1:\d+: member 'FirstName' appears twice in \[0\]\.PersonalInfo \(not valid JSON\)$/,
    );
  });

  test('a control character in a member name → shown escaped, never raw', () => {
    const [client] = generateClients(3, 1);
    const file = writeJson('named.json', [{ ...client, ['Nick\u001b]0;x\u0007']: 1 }]);

    const result = startWith(file);

    expect(result.status).toBe(2);
    expect(result.stderr).toContain('[0].Nick\\u001b]0;x\\u0007: is not a documented property');
    expect(controlCharacters(result.stderr)).toEqual([]);
  });

  test('loadDataFile → throws DataFileError, never a half-loaded set', () => {
    const file = writeJson('late.json', [...generateClients(2, 50), { IdClient: 'nope' }]);

    expect(() => loadDataFile(file, NO_LIMIT)).toThrow(DataFileError);
  });
});
