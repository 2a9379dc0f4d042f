// Why this file exists: the decider must switch the very mutants Stryker ran. It reads stryker.config.mjs's
// `mutate` list (globs, `!` exclusions, `file:start-end` line ranges) and `mutator` options, instruments the same
// files with Stryker's own instrumenter (@stryker-mutator/instrumenter: every mutant behind a
// `stryMutAct_9fa48(id)` switch, every reach counted by `stryCov_9fa48`), and bundles tools/mutation/roads.ts with
// esbuild, the mutated files replaced by their instrumented text. A mutant is matched to Stryker's report by what
// it is (file, location, mutator, replacement), not by its number, so a report of a part of the scope
// (`--mutate file:10-20`) matches too.
import fs from 'node:fs';
import path from 'node:path';
import { build, type Plugin } from 'esbuild';

/** A mutant as the decider knows it: its own id (the switch in the bundle) and what identifies it in any report. */
export interface DeciderMutant {
  id: string;
  /** Repository-relative, with `/`. */
  file: string;
  /** 1-based, as Stryker's report gives them. */
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  mutatorName: string;
  replacement: string;
}

/** What identifies a mutant across runs and reports. */
export function mutantKey(
  m: Pick<DeciderMutant, 'file' | 'line' | 'column' | 'endLine' | 'endColumn' | 'mutatorName' | 'replacement'>,
): string {
  return `${m.file}:${m.line}:${m.column}-${m.endLine}:${m.endColumn} ${m.mutatorName} ${m.replacement}`;
}

interface Range {
  start: { line: number; column: number };
  end: { line: number; column: number };
}

interface StrykerConfig {
  mutate: string[];
  mutator?: { excludedMutations?: string[]; plugins?: unknown[] | null };
}

export function readStrykerConfig(root: string): Promise<StrykerConfig> {
  // require() of an ES module (Node 22.12+): TypeScript's CommonJS output would turn import() into require() anyway.
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the configuration, by path
  const loaded = require(path.join(root, 'stryker.config.mjs')) as { default: StrykerConfig };
  return Promise.resolve(loaded.default);
}

/** Node's fs.globSync (Node 22+), which the project's @types/node does not declare yet. */
const globSync = (fs as unknown as { globSync(pattern: string, options: { cwd: string }): string[] }).globSync;

const RANGE = /(.*?):((\d+)(?::(\d+))?-(\d+)(?::(\d+))?)$/;

/**
 * The files to mutate and each one's ranges (true: all of it), as Stryker's project reader resolves `mutate`:
 * patterns in order, a later `!pattern` unmarking, ranges of the same file joined; in path order.
 */
export function filesToMutate(root: string, patterns: readonly string[]): Map<string, true | Range[]> {
  const files = new Map<string, true | Range[]>();
  for (const raw of patterns) {
    const negated = raw.startsWith('!');
    const pattern = negated ? raw.slice(1) : raw;
    const match = RANGE.exec(pattern);
    const glob = match ? match[1]! : pattern;
    const range: Range | undefined = match
      ? {
          start: { line: Number(match[3]) - 1, column: Number(match[4] ?? 0) },
          end: { line: Number(match[5]) - 1, column: Number(match[6] ?? Number.MAX_SAFE_INTEGER) },
        }
      : undefined;
    for (const file of globSync(glob, { cwd: root }).sort()) {
      if (negated) {
        files.delete(file);
        continue;
      }
      const known = files.get(file);
      if (!range || known === true) files.set(file, true);
      else files.set(file, [...(known ?? []), range]);
    }
  }
  // Stryker walks the project's files in path order and numbers the mutants file by file: so does the decider,
  // which makes its ids Stryker's for a whole-scope run.
  return new Map([...files].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** A logger for the instrumenter: its warnings to stderr, nothing else. */
const quietLogger = {
  isTraceEnabled: () => false,
  isDebugEnabled: () => false,
  isInfoEnabled: () => false,
  isWarnEnabled: () => true,
  isErrorEnabled: () => true,
  isFatalEnabled: () => true,
  trace: () => undefined,
  debug: () => undefined,
  info: () => undefined,
  warn: (message: string) => process.stderr.write(`instrumenter: ${message}\n`),
  error: (message: string) => process.stderr.write(`instrumenter: ${message}\n`),
  fatal: (message: string) => process.stderr.write(`instrumenter: ${message}\n`),
};

interface Instrumented {
  /** Absolute path of each mutated file → its instrumented text. */
  texts: Map<string, string>;
  mutants: DeciderMutant[];
}

/** Instruments the scope of stryker.config.mjs (or `patterns`) as Stryker does. */
export async function instrumentScope(root: string, patterns?: readonly string[]): Promise<Instrumented> {
  const config = await readStrykerConfig(root);
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- an ES module package, required (Node 22.12+)
  const { Instrumenter } = require('@stryker-mutator/instrumenter') as typeof import('@stryker-mutator/instrumenter');
  const scope = filesToMutate(root, patterns ?? config.mutate);
  const input = [...scope].map(([file, mutate]) => ({
    name: path.join(root, file),
    content: fs.readFileSync(path.join(root, file), 'utf8'),
    mutate,
  }));
  const instrumenter = new Instrumenter(quietLogger as never);
  const result = await instrumenter.instrument(input, {
    plugins: config.mutator?.plugins ?? null,
    excludedMutations: config.mutator?.excludedMutations ?? [],
    ignorers: [],
  });
  const texts = new Map(result.files.map((file) => [path.resolve(file.name), file.content]));
  const mutants = result.mutants.map((api): DeciderMutant => {
    return {
      id: api.id,
      file: path.relative(root, api.fileName).split(path.sep).join('/'),
      line: api.location.start.line + 1,
      column: api.location.start.column + 1,
      endLine: api.location.end.line + 1,
      endColumn: api.location.end.column + 1,
      mutatorName: api.mutatorName,
      replacement: api.replacement ?? '',
    };
  });
  return { texts, mutants };
}

/** An esbuild plugin that loads each mutated file's instrumented text instead of its own. */
function instrumentedFiles(texts: ReadonlyMap<string, string>): Plugin {
  return {
    name: 'stryker-instrumented',
    setup(builder) {
      builder.onLoad({ filter: /\.ts$/ }, (args) => {
        const text = texts.get(path.resolve(args.path));
        return text === undefined ? undefined : { contents: text, loader: 'ts' };
      });
    },
  };
}

/**
 * Bundles roads.ts with the instrumented files into `outDir/roads.js` (libraries stay external, loaded from
 * node_modules), beside a copy of the build's parsed spec and validators (dist/contract/derived/, when built),
 * which contract/spec.ts finds next to the module that reads it.
 */
export async function bundleRoads(root: string, texts: ReadonlyMap<string, string>, outDir: string): Promise<string> {
  fs.mkdirSync(outDir, { recursive: true });
  const outfile = path.join(outDir, 'roads.js');
  await build({
    entryPoints: [path.join(root, 'tools/mutation/roads.ts')],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node22',
    packages: 'external',
    outfile,
    logLevel: 'warning',
    plugins: [instrumentedFiles(texts)],
  });
  const derived = path.join(root, 'dist/contract/derived');
  if (fs.existsSync(derived)) fs.cpSync(derived, path.join(outDir, 'derived'), { recursive: true });
  return outfile;
}

/**
 * As a command (for what cannot load the instrumenter itself, an ES module: jest's module system):
 *   node dist/tools/mutation/instrument.js OUT_DIR [PATTERN...]
 * bundles the scope (or the patterns) into OUT_DIR and writes OUT_DIR/mutants.json.
 */
async function command(argv: readonly string[]): Promise<void> {
  const [outDir, ...patterns] = argv;
  if (!outDir) throw new Error('usage: instrument.js OUT_DIR [PATTERN...]');
  const root = path.dirname(path.dirname(path.dirname(__dirname)));
  const { texts, mutants } = await instrumentScope(root, patterns.length > 0 ? patterns : undefined);
  const bundle = await bundleRoads(root, texts, path.resolve(outDir));
  fs.writeFileSync(path.join(outDir, 'mutants.json'), JSON.stringify({ bundle, mutants }));
}

if (require.main === module) {
  command(process.argv.slice(2)).catch((error: unknown) => {
    console.error(`instrument: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 2;
  });
}
