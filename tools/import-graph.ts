// npm run graph: the import graph's figures, the numbers ARCHITECTURE.md and
// issue 27 quote. dependency-cruiser reads the imports (type-only ones
// included) with the rule set of .dependency-cruiser.cjs; this prints, for our
// own modules: how many there are, the longest import chain (layers), the
// import cycles, and the imports that break a rule of direction. The same run
// over an older tree (`--root DIR`) gives the "before" figures.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

interface Dependency {
  resolved: string;
  dependencyTypes: string[];
}
interface Module {
  source: string;
  dependencies: Dependency[];
}
interface Violation {
  from: string;
  to: string;
  rule: { name: string };
  cycle?: { name: string }[];
}
interface CruiseResult {
  modules: Module[];
  summary: { violations: Violation[] };
}

const FOLDERS = [
  'cli',
  'server',
  'contract',
  'contract-suite',
  'seeds',
  'generated',
  'proxy',
  'mcp',
  'spec-diff',
  'settings',
  'tools',
  'scripts',
  'bench',
  'tests',
  'examples',
];
const OURS = new RegExp(`^(${FOLDERS.join('|')})/`);

function argument(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at < 0 ? undefined : process.argv[at + 1];
}

/** The tree to read: this repository (found from this module, in src or dist), or `--root DIR`. */
function rootDir(): string {
  const given = argument('--root');
  if (given) return path.resolve(given);
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, '.dependency-cruiser.cjs'))) return dir;
    if (path.dirname(dir) === dir) throw new Error('no .dependency-cruiser.cjs above ' + __dirname);
  }
}

function cruise(root: string, config: string): CruiseResult {
  // The package exports no bin path: its folder is found as Node would find it, from the config's folder up.
  let bin = '';
  for (let dir = path.dirname(config); !bin; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs');
    if (fs.existsSync(candidate)) bin = candidate;
    else if (path.dirname(dir) === dir) throw new Error('dependency-cruiser is not installed (npm ci)');
  }
  const run = spawnSync(process.execPath, [bin, '--config', config, '--output-type', 'json', '.'], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 256 * 2 ** 20,
  });
  if (run.status === null || !run.stdout.startsWith('{')) throw new Error(`dependency-cruiser failed: ${run.stderr.split('\n')[0]}`);
  return JSON.parse(run.stdout) as CruiseResult;
}

/** Strongly connected components (Tarjan): each cycle's modules, in one component. */
function components(nodes: readonly string[], edges: ReadonlyMap<string, readonly string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, next);
    low.set(node, next++);
    stack.push(node);
    onStack.add(node);
    for (const to of edges.get(node) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node)!, low.get(to)!));
      } else if (onStack.has(to)) low.set(node, Math.min(low.get(node)!, index.get(to)!));
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      found.push(component);
    }
  };
  for (const node of nodes) if (!index.has(node)) visit(node);
  return found;
}

/** The longest import chain, counted in modules (a cycle counts as one step), and one chain of that length. */
function longestChain(nodes: readonly string[], edges: ReadonlyMap<string, readonly string[]>): string[] {
  const componentOf = new Map<string, number>();
  const parts = components(nodes, edges);
  parts.forEach((part, i) => part.forEach((node) => componentOf.set(node, i)));
  const best = new Map<number, string[]>();
  // Tarjan emits components in reverse topological order: every import of a component is already done.
  parts.forEach((part, i) => {
    let chain: string[] = [];
    for (const node of part) {
      for (const to of edges.get(node) ?? []) {
        const below = componentOf.get(to)!;
        if (below !== i && (best.get(below)?.length ?? 0) > chain.length) chain = best.get(below)!;
      }
    }
    best.set(i, [part.length > 1 ? `{${part.sort().join(', ')}}` : part[0]!, ...chain]);
  });
  let longest: string[] = [];
  for (const chain of best.values()) if (chain.length > longest.length) longest = chain;
  return longest;
}

export interface GraphFigures {
  modules: number;
  imports: number;
  chain: string[];
  cycles: string[][];
}

function figures(result: CruiseResult, scope: RegExp): GraphFigures {
  const nodes = result.modules.map((module) => module.source).filter((source) => OURS.test(source) && scope.test(source));
  const inScope = new Set(nodes);
  const edges = new Map<string, string[]>();
  let imports = 0;
  for (const module of result.modules) {
    if (!inScope.has(module.source)) continue;
    const targets = [...new Set(module.dependencies.map((d) => d.resolved).filter((to) => inScope.has(to)))];
    imports += targets.length;
    edges.set(module.source, targets);
  }
  const cycles = components(nodes, edges).filter((part) => part.length > 1);
  return { modules: nodes.length, imports, chain: longestChain(nodes, edges), cycles };
}

/**
 * The graph of rooms: every module mapped to its room (`roomOf`; undefined leaves it out), an arrow wherever a module
 * of one room imports one of another. Its layers are the house's real depth: how many rooms a change can ripple
 * through, whatever number of files each room is split into.
 */
export function roomGraph(
  root: string,
  roomOf: (module: string) => string | undefined,
  config = path.join(root, '.dependency-cruiser.cjs'),
): GraphFigures {
  const result = cruise(root, config);
  const edges = new Map<string, Set<string>>();
  for (const module of result.modules) {
    const from = OURS.test(module.source) ? roomOf(module.source) : undefined;
    if (from === undefined) continue;
    if (!edges.has(from)) edges.set(from, new Set());
    for (const dependency of module.dependencies) {
      const to = OURS.test(dependency.resolved) ? roomOf(dependency.resolved) : undefined;
      if (to !== undefined && to !== from) edges.get(from)!.add(to);
    }
  }
  const nodes = [...edges.keys()];
  const lists = new Map([...edges].map(([from, to]) => [from, [...to]]));
  const imports = [...lists.values()].reduce((sum, to) => sum + to.length, 0);
  return {
    modules: nodes.length,
    imports,
    chain: longestChain(nodes, lists),
    cycles: components(nodes, lists).filter((part) => part.length > 1),
  };
}

/** The figures of a tree: per scope (all our modules, and each room given), and the imports against the direction. */
export function importGraph(
  root: string,
  scopes: readonly (readonly [string, RegExp])[] = [
    ['all our modules', /./],
    ['server/ only', /^server\//],
  ],
  config = path.join(root, '.dependency-cruiser.cjs'),
): { scopes: { label: string; figures: GraphFigures }[]; against: Map<string, string[]> } {
  const result = cruise(root, config);
  // One line per import, with every rule it breaks.
  const against = new Map<string, string[]>();
  for (const violation of result.summary.violations) {
    if (violation.rule.name === 'no-circular') continue;
    const edge = `${violation.from} → ${violation.to}`;
    against.set(edge, [...(against.get(edge) ?? []), violation.rule.name]);
  }
  return { scopes: scopes.map(([label, scope]) => ({ label, figures: figures(result, scope) })), against };
}

function main(): void {
  const root = rootDir();
  const config = path.resolve(argument('--config') ?? path.join(root, '.dependency-cruiser.cjs'));
  const graph = importGraph(root, undefined, config);
  const out = (line = '') => process.stdout.write(`${line}\n`);
  out(`import graph of ${root}`);
  for (const {
    label,
    figures: { modules, imports, chain, cycles },
  } of graph.scopes) {
    out(`\n${label}: ${modules} modules, ${imports} imports between them`);
    out(`  layers (longest import chain): ${chain.length}`);
    out(`    ${chain.join(' → ')}`);
    out(`  cycles: ${cycles.length}`);
    for (const cycle of cycles) out(`    ${cycle.sort().join(' ↔ ')}`);
  }
  out(`\nimports against the direction (rules of .dependency-cruiser.cjs, cycles aside): ${graph.against.size}`);
  for (const [edge, rules] of graph.against) out(`  ${edge}  (${rules.join(', ')})`);
}

if (require.main === module) main();
