// The build's JSON parse of the shipped YAML documents (contract/spec.ts, derivedDocument) stands in
// for the YAML parser in a fresh process (issue 26 item 6): it must say exactly what the YAML says,
// and must never be used for a text other than the one it was parsed from. The standalone validators
// the build compiles from openapi.yaml must judge as a run-time compile does.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import YAML from 'yaml';
import { derivedDocument, derivedJson, derivedPath, parseSpec, SPEC_PATH, SpecSchemas } from '../../contract/spec';
import { generateClients } from '../../seeds/client';
import { toExtended, toSimple } from '../../server/engine/projections';
import { CONTROL_SPEC_PATH } from '../../server/control/document';

const documents = [
  ['openapi.yaml', SPEC_PATH, (text: string) => parseSpec(text, SPEC_PATH).document as unknown],
  ['control.openapi.yaml', CONTROL_SPEC_PATH, (text: string) => YAML.parse(text) as unknown],
] as const;

describe.each(documents)('%s', (_name, yamlPath, parse) => {
  const text = fs.readFileSync(yamlPath, 'utf8');

  test('its JSON form holds the parsed document whole (nothing JSON cannot carry)', () => {
    expect((JSON.parse(derivedJson(text, parse(text))) as { document: unknown }).document).toStrictEqual(parse(text));
  });

  test('the built file, when there is one, is the parse of the YAML in the tree', () => {
    const built = path.join(__dirname, '..', '..', 'dist', 'contract', 'derived', path.basename(derivedPath(yamlPath)));
    if (!fs.existsSync(built)) return;
    expect(JSON.parse(fs.readFileSync(built, 'utf8'))).toStrictEqual(JSON.parse(derivedJson(text, parse(text))));
  });
});

test('a derived file is used only for the text it was made from', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'derived-'));
  const yamlPath = path.join(dir, 'x.yaml');
  const target = derivedPath(yamlPath);
  const made = !fs.existsSync(path.dirname(target));
  fs.mkdirSync(path.dirname(target), { recursive: true });
  fs.writeFileSync(target, derivedJson('a: 1\n', { a: 1 }));
  try {
    expect(derivedDocument(yamlPath, 'a: 1\n')).toStrictEqual({ a: 1 });
    expect(derivedDocument(yamlPath, 'a: 2\n')).toBeUndefined();
    expect(derivedDocument(path.join(dir, 'none.yaml'), 'a: 1\n')).toBeUndefined();
  } finally {
    fs.rmSync(target);
    if (made) fs.rmdirSync(path.dirname(target));
    fs.rmSync(dir, { recursive: true });
  }
});

test('the documents the schema compilers skip the meta-schema check for hold no JSON Schema keyword at their top level', () => {
  // contract/spec.ts and server/control/document.ts add each document whole without that check: it would test nothing.
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the meta-schema's own keyword lists, as Ajv has them.
  const Ajv2020 = (require('ajv/dist/2020') as { default: new (options: object) => { RULES: { keywords: Record<string, unknown> } } })
    .default;
  const keywords = new Set(Object.keys(new Ajv2020({ strict: false }).RULES.keywords));
  for (const [, yamlPath, parse] of documents) {
    const topLevel = Object.keys(parse(fs.readFileSync(yamlPath, 'utf8')) as object);
    expect(topLevel.filter((key) => keywords.has(key) || key.startsWith('$'))).toEqual([]);
  }
});

describe("the build's standalone validators of openapi.yaml's component schemas", () => {
  const built = path.join(__dirname, '..', '..', 'dist', 'contract', 'derived', 'openapi.yaml.validators.js');
  const text = fs.readFileSync(SPEC_PATH, 'utf8');
  const document = parseSpec(text, SPEC_PATH).document;
  type Built = { sha256: string; pointers: Record<string, string> } & Record<string, unknown>;
  // The build's output, by path, when there is one.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const module = fs.existsSync(built) ? (require(built) as Built) : undefined;

  test('are made from the YAML in the tree, one for every component schema', () => {
    if (!module) return;
    expect(module.sha256).toBe(crypto.createHash('sha256').update(text).digest('hex'));
    expect(Object.keys(module.pointers).sort()).toEqual(
      Object.keys(document.components.schemas)
        .map((name) => `#/components/schemas/${name}`)
        .sort(),
    );
  });

  test('give the verdict of a run-time compile on valid and broken client views, pages and errors', () => {
    if (!module) return;
    const compiled = new SpecSchemas(structuredClone(document));
    const clients = generateClients(5, 30);
    const samples: unknown[] = [
      ...clients.flatMap((client) => [client, toSimple(client), toExtended(client)]),
      { Page: 1, PageSize: 25, Results: clients.slice(0, 3).map(toSimple) },
      { Code: 'NOT_FOUND', Message: 'No route GET /x' },
      'Pong',
    ];
    const broken = samples.flatMap((sample): unknown[] => {
      if (typeof sample !== 'object' || sample === null) return [7, null];
      const [first] = Object.keys(sample);
      const without = { ...(sample as Record<string, unknown>) };
      delete without[first!];
      return [
        without,
        { ...(sample as Record<string, unknown>), [first!]: { wrong: true } },
        { ...(sample as Record<string, unknown>), Extra: 1 },
      ];
    });
    const disagreements: string[] = [];
    let rejected = 0;
    for (const [pointer, name] of Object.entries(module.pointers)) {
      const standalone = module[name] as (value: unknown) => boolean;
      const runtime = compiled.validator(pointer);
      for (const sample of [...samples, ...broken]) {
        const verdict = standalone(sample);
        if (!verdict) rejected++;
        if (verdict !== runtime(sample)) disagreements.push(`${pointer}: ${JSON.stringify(sample).slice(0, 80)}`);
      }
    }
    expect(disagreements).toEqual([]);
    // The samples really test something: most are rejected by most schemas.
    expect(rejected).toBeGreaterThan(1000);
  });
});
