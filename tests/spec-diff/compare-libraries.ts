// Why: the library comparison behind docs/spec-diff.md, kept so that it can be
// run again (a newer library version, a new edit). Not a test and not a
// dependency of the package: the libraries are installed in a scratch folder.
//
//   mkdir /tmp/difflab && cd /tmp/difflab && npm init -y && npm i openapi-diff@0.24.1 \
//     @useoptic/openapi-utilities@1.0.9 @useoptic/rulesets-base@1.0.9 @useoptic/standard-rulesets@1.0.9 api-smart-diff@1.0.6 \
//     @apiture/openapi-down-convert@0.14.2   (with "overrides": {"ajv": "8.17.1"} in package.json: Optic's spectral otherwise
//     loads a second ajv and fails to compile its rules)
//   npx esbuild tests/spec-diff/compare-libraries.ts --bundle --platform=node --packages=external --outfile=/tmp/compare.js
//   node /tmp/compare.js /tmp/difflab > /tmp/compare.md     (from the repository root)
//
// Prints one Markdown row per edit: the right answer, then each library's verdict and what it said.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import YAML from 'yaml';
import { EDITS, applyEdit, editBase } from './edits';
import { diffSpecTexts } from '../../spec-diff/diff';

type Verdict = { breaking: boolean | 'error'; said: string };
type Library = { name: string; judge(oldText: string, newText: string): Promise<Verdict> };

const libs = process.argv[2];
if (!libs) throw new Error('usage: node compare.js LIBRARY_FOLDER');
const load = createRequire(path.join(path.resolve(libs), 'package.json'));

interface OpenapiDiffResult {
  breakingDifferencesFound: boolean;
  breakingDifferences?: {
    code: string;
    action: string;
    sourceSpecEntityDetails?: { location: string }[];
    destinationSpecEntityDetails?: { location: string }[];
  }[];
}
interface OpticResult {
  passed: boolean;
  exempted?: boolean;
  severity?: number;
  name: string;
  error?: string;
  location?: { jsonPath?: string };
}
interface SmartDiff {
  type: string;
  action: string;
  path: (string | number)[];
  description?: string;
}

const short = (text: string) => text.replace(/\|/g, '\\|').replace(/\s+/g, ' ').slice(0, 110);

const openapiDiff: Library = {
  name: 'openapi-diff 0.24.1 (Atlassian)',
  async judge(oldText, newText) {
    const lib = load('openapi-diff') as {
      diffSpecs(options: unknown): Promise<OpenapiDiffResult>;
    };
    try {
      const result = await lib.diffSpecs({
        sourceSpec: { content: oldText, location: 'old.yaml', format: 'openapi3' },
        destinationSpec: { content: newText, location: 'new.yaml', format: 'openapi3' },
      });
      const said = (result.breakingDifferences ?? []).map(
        (d) => `${d.code} ${(d.sourceSpecEntityDetails?.[0] ?? d.destinationSpecEntityDetails?.[0])?.location ?? ''}`,
      );
      return { breaking: result.breakingDifferencesFound, said: said.join('; ') };
    } catch (error) {
      return { breaking: 'error', said: (error as Error).message.split('\n')[0]! };
    }
  },
};

/** openapi-diff reads OpenAPI 3.0 only: the same edit, both sides converted to 3.0 by @apiture/openapi-down-convert. */
const openapiDiff30: Library = {
  name: 'openapi-diff 0.24.1 on 3.0 copies',
  async judge(oldText, newText) {
    const { Converter } = load('@apiture/openapi-down-convert') as {
      Converter: new (doc: object, options?: object) => { convert(): object };
    };
    const down = (text: string) => JSON.stringify(new Converter(YAML.parse(text) as object, { allOfTransform: false }).convert());
    return openapiDiff.judge(down(oldText), down(newText));
  },
};

const optic: Library = {
  name: 'Optic 1.0.9 (BreakingChangesRuleset)',
  async judge(oldText, newText) {
    const parser = load('@apidevtools/json-schema-ref-parser') as { dereference(doc: unknown): Promise<unknown> };
    const base = load('@useoptic/rulesets-base') as {
      TestHelpers: { runRulesWithInputs(rules: unknown[], a: unknown, b: unknown): Promise<OpticResult[]> };
    };
    const rulesets = load('@useoptic/standard-rulesets') as { BreakingChangesRuleset: new () => unknown };
    try {
      const before = await parser.dereference(YAML.parse(oldText));
      const after = await parser.dereference(YAML.parse(newText));
      const results = await base.TestHelpers.runRulesWithInputs([new rulesets.BreakingChangesRuleset()], before, after);
      const failed = results.filter((r) => !r.passed && !r.exempted);
      return {
        breaking: failed.length > 0,
        said: failed.map((r) => `${r.name}: ${r.error ?? ''} ${r.location?.jsonPath ?? ''}`).join('; '),
      };
    } catch (error) {
      return { breaking: 'error', said: (error as Error).message.split('\n')[0]! };
    }
  },
};

const smartDiff: Library = {
  name: 'api-smart-diff 1.0.6',
  async judge(oldText, newText) {
    const lib = load('api-smart-diff') as { apiCompare(a: unknown, b: unknown): { diffs: SmartDiff[] } };
    try {
      const { diffs } = lib.apiCompare(YAML.parse(oldText), YAML.parse(newText));
      const breaking = diffs.filter((d) => d.type === 'breaking');
      return { breaking: breaking.length > 0, said: breaking.map((d) => `${d.action} ${d.path.join('.')}`).join('; ') };
    } catch (error) {
      return { breaking: 'error', said: (error as Error).message.split('\n')[0]! };
    }
  },
};

const ours: Library = {
  name: 'client-records-mock diff',
  async judge(oldText, newText) {
    const report = diffSpecTexts({ path: 'old.yaml', text: oldText }, { path: 'new.yaml', text: newText });
    return {
      breaking: report.breaking,
      said: report.changes
        .filter((c) => c.breaking)
        .map((c) => c.message)
        .join('; '),
    };
  },
};

async function main(): Promise<void> {
  const spec = fs.readFileSync(path.resolve('openapi.yaml'), 'utf8'); // run from the repository's root;
  const libraries = [openapiDiff, openapiDiff30, optic, smartDiff, ours];
  const right = new Map<string, number>(libraries.map((lib) => [lib.name, 0]));
  const mark = (verdict: Verdict, expected: boolean) =>
    verdict.breaking === 'error' ? 'error' : verdict.breaking === expected ? 'right' : 'WRONG';
  process.stdout.write(
    `| edit | right answer | ${libraries.map((lib) => lib.name).join(' | ')} |\n|---|---|${libraries.map(() => '---').join('|')}|\n`,
  );
  const notes: string[] = [];
  for (const edit of EDITS) {
    const oldText = editBase(spec, edit);
    const newText = applyEdit(spec, edit);
    const cells: string[] = [];
    for (const lib of libraries) {
      const verdict = await lib.judge(oldText, newText);
      const result = mark(verdict, edit.breaking);
      if (result === 'right') right.set(lib.name, right.get(lib.name)! + 1);
      const word = verdict.breaking === 'error' ? 'error' : verdict.breaking ? 'breaking' : 'not breaking';
      cells.push(result === 'right' ? word : `**${word}** (${result})`);
      if (verdict.said) notes.push(`- ${edit.id}, ${lib.name}: ${short(verdict.said)}`);
    }
    process.stdout.write(`| ${edit.id} ${edit.title} | ${edit.breaking ? 'breaking' : 'not breaking'} | ${cells.join(' | ')} |\n`);
  }
  process.stdout.write(
    `| **right** | ${EDITS.length} | ${libraries.map((lib) => `${right.get(lib.name)}/${EDITS.length}`).join(' | ')} |\n\n`,
  );
  process.stdout.write(notes.join('\n') + '\n');
}

void main();
