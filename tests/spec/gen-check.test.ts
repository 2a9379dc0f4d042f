// `npm run gen:check` must fail when openapi.yaml changes without regeneration.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROOT } from '../support/servers';

const CLI = path.join(ROOT, 'node_modules/.bin/openapi-typescript');

function genCheck(dir: string): number | null {
  const result = spawnSync(CLI, [path.join(dir, 'openapi.yaml'), '-o', path.join(dir, 'generated/openapi.ts'), '--check'], {
    cwd: dir,
    encoding: 'utf8',
    timeout: 60_000,
  });
  return result.status;
}

describe('npm run gen:check', () => {
  let dir: string;

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gen-check-'));
    fs.mkdirSync(path.join(dir, 'generated'));
    fs.copyFileSync(path.join(ROOT, 'openapi.yaml'), path.join(dir, 'openapi.yaml'));
    fs.copyFileSync(path.join(ROOT, 'generated/openapi.ts'), path.join(dir, 'generated/openapi.ts'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  test('gen:check → passes when generated/ matches openapi.yaml', () => {
    expect(genCheck(dir)).toBe(0);
  });

  test('gen:check → fails when openapi.yaml gains a field without regeneration', () => {
    const spec = fs.readFileSync(path.join(dir, 'openapi.yaml'), 'utf8');
    const changed = spec.replace(
      "        Status:\n          $ref: '#/components/schemas/ClientStatus'\n    ClientSimplePage:",
      "        Status:\n          $ref: '#/components/schemas/ClientStatus'\n        Nickname:\n          type: string\n          maxLength: 40\n    ClientSimplePage:",
    );
    expect(changed).not.toBe(spec);
    fs.writeFileSync(path.join(dir, 'openapi.yaml'), changed);

    expect(genCheck(dir)).not.toBe(0);
  });

  test('gen:check → fails when generated/ was edited by hand', () => {
    fs.appendFileSync(path.join(dir, 'generated/openapi.ts'), '\nexport type HandWritten = string;\n');

    expect(genCheck(dir)).not.toBe(0);
  });
});
