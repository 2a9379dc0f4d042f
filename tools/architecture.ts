// npm run map: the parts of ARCHITECTURE.md that are facts about the tree, generated into it so the map cannot
// fall behind the house: the rooms (every top-level folder and the rooms inside server/, contract/ and
// contract-suite/, with their files and one line of purpose each; no line counts, which every edit would change), the import figures (dependency-cruiser,
// the rules of .dependency-cruiser.cjs), the rules of direction (written from the rule set itself, so every rule
// the map claims is one the linter enforces), and the files one request passes (tools/request-path.ts).
// `npm run map -- --check` (part of `npm run check`) fails, naming the section, when the file differs from what
// the tree says, and when a folder has no row here or a row names no folder: a new room is described when made.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import prettier from 'prettier';
import { importGraph, roomGraph } from './import-graph';
import { traceRequestPath } from './request-path';

/** Every room: a top-level folder, or a folder inside one of ROOMED. Its purpose is the one line the map gives it. */
const ROOMS: Readonly<Record<string, string>> = {
  cli: 'the bin (`client-records-mock`): a table of commands, each loaded when asked for; nothing imports it',
  server:
    'the mock; its faces at the root: `index.ts` (startServer, createMock), `msw.ts` (the MSW handlers), `browser.ts` (the handlers in a page: `client-records-mock/browser`, bundled from `browser-entry.ts`), `docs-site.ts` (the static docs site), `playwright.ts` (the fixture), `mock.ts` (the one road spec → data → app), `errors.ts` (the error catalogue, a leaf)',
  'server/process':
    "the process: the server's settings rows (settings.ts) read by the shared parser (config.ts), logger, crash policy, --watch, serve.ts (workers, signals, the start-up line)",
  'server/listener': 'the socket layer: the HTTP server, the connection cap, the raw-socket answers to malformed HTTP, the rejection log',
  'server/pipeline':
    'the request: one pipeline over a neutral request and answer (exchange.ts) with three drivers (the Express app, the lean path, the neutral road in a page); route, auth, raw-query checks, the validator, mock controls and Prefer, dispatch to handlers/ (one file per tag), paging headers, the response cache, the lean path, the docs page, the error handler',
  'server/engine': 'the data engine, no HTTP: store, list order, client source, records off the heap, projections, the search index',
  'server/control':
    'beside the pipeline: the control API (control.openapi.yaml): scenarios, sessions, the journal, consumer coverage; their state behind one StateStore, in memory (no Node built-in) or in Redis with --state',
  contract:
    'the contract at run time: spec loading, wire types, operations, examples, text folding, record rules, the exchange types, SpecContract, the header-field (RFC 9110), JSON-text and Link readers, the coverage format, the JUnit writer',
  'contract/judge':
    "the judge, the one per-exchange rule engine the suite and the proxy share: one file per rule family, the catalogue of every rule id (rules.ts), openapi.yaml's sentences and their map",
  'contract-suite': 'the contract suite, a product part that checks any deployment; registry.ts lists the checks in run order',
  'contract-suite/kit':
    'what every check stands on: the context, the HTTP and raw-socket clients, the target, the coverage recorder, list helpers; imports no check',
  'contract-suite/checks': 'the hand-written checks: rules that need several exchanges or the deployment’s own data',
  'contract-suite/derived': 'the checks derived from the document alone: methods, paths, parameters, security, framing',
  'contract-suite/property': 'the property run: requests generated from the document, each held to the judge',
  'contract-suite/relations':
    "the metamorphic relations: sentences of the document read as relations between the deployment's own answers (a filter narrows, folding keeps a match, paging partitions), so no verdict hangs on the data met",
  'contract-suite/history':
    "the history room: the run's own requests asked again in a seeded order, some after a conditional form of themselves, each held to its first answer (every operation is a read)",
  'contract-suite/cli': 'the contract command: options, the target probe, the run, causes, the report and its exit code',
  seeds: 'deterministic data: the generator (a pure function of seed and index) and data files; imports contract/ only',
  generated: 'TypeScript types of the three OpenAPI documents (`npm run gen`) and the Faker word lists; never edited by hand',
  proxy:
    'the validating proxy (`client-records-mock proxy`): forwarding and how an answer ended (forward.ts), the upstream clock (--upstream-timeout, --answer-deadline), the judge on both sides, fallback to the mock, its journal and reports',
  mcp: 'the MCP server: the control API and the contract suite as tools for coding agents',
  'spec-diff': 'does an edit of openapi.yaml break clients: the diff, its rules and its report',
  settings:
    'the one settings machinery (a leaf): the row type, the parser (argv and environment → a typed frozen object, or one line naming the option) and the help printer; every command declares its rows',
  tools:
    'helpers scripts/, bench/ and tests/ share, compiled but not shipped: the import graph, the request path, this map, mutants, ports',
  scripts: 'build and CI steps: build extras, the consumer check, every doc line run, the Prism and Specmatic runs, the deployment lint',
  bench: 'benchmarks (`npm run bench*`): side by side in one run, rotating order, medians of per-round ratios',
  tests: 'the jest suites, one folder per room they test; support/ starts real servers on port 0',
  examples:
    'example consumers of the package, tested in CI: frontend/ (unit tests with MSW, end-to-end tests with Playwright, Storybook stories of the client list, built statically and opened in Chromium)',
  deploy: 'the Kubernetes manifest, checked against the Kubernetes schemas (`npm run lint:deploy`)',
  docs: 'the user docs: frontend, browser, contract, control, proxy, spec-diff, CI, data, reliability, performance, decisions',
  '.ci': 'what CI runs (`bash .ci/run`): install, the check on Node 24 and 22, the package as users get it',
  '.github': 'the release workflow: the tarball, the image',
};

/** Folders whose sub-folders are rooms of their own. */
const ROOMED = ['server', 'contract', 'contract-suite'];
const IGNORED = /^(node_modules|dist|coverage|bench-results|test-artifacts|reports|\.git|\.stryker-tmp)$/;

function argument(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at < 0 ? undefined : process.argv[at + 1];
}

/**
 * The files of the checkout as git would commit them (tracked, or new and not ignored), relative to `root`: what a
 * run writes into the tree (Playwright's test-results/, an app's node_modules/) is ignored, so a clean clone after
 * `npm run check` counts what the author's tree counts. Undefined outside a git checkout.
 */
function checkoutFiles(root: string): string[] | undefined {
  const listed = spawnSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], { cwd: root, encoding: 'utf8' });
  if (listed.status !== 0) return undefined;
  return listed.stdout.split('\0').filter((file) => file !== '' && fs.existsSync(path.join(root, file)));
}

/** Every file under `dir`, recursively (the ignored folders left out): the checkout's files, else those on disk. */
function filesUnder(root: string, dir: string, checkout: readonly string[] | undefined): string[] {
  if (checkout) {
    const prefix = `${path.relative(root, dir).split(path.sep).join('/')}/`;
    return checkout
      .filter((file) => file.startsWith(prefix) && !file.split('/').some((part) => IGNORED.test(part)))
      .map((file) => path.join(root, file));
  }
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (IGNORED.test(entry.name)) return [];
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(root, full, undefined) : [full];
  });
}

/** The folders that are rooms in this tree: every top-level folder, and the folders inside ROOMED. */
function roomsInTree(root: string): string[] {
  const folders = (dir: string) =>
    fs
      .readdirSync(path.join(root, dir), { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && !IGNORED.test(entry.name))
      .map((entry) => (dir === '.' ? entry.name : `${dir}/${entry.name}`));
  const top = folders('.').filter((dir) => !['.husky', '.stryker-tmp'].includes(dir));
  return [...top, ...ROOMED.flatMap((dir) => (fs.existsSync(path.join(root, dir)) ? folders(dir) : []))].sort();
}

function roomsSection(root: string): { text: string; problems: string[] } {
  const found = roomsInTree(root);
  const problems = [
    ...found.filter((room) => ROOMS[room] === undefined).map((room) => `${room}/ has no row in tools/architecture.ts ROOMS`),
    ...Object.keys(ROOMS)
      .filter((room) => !found.includes(room))
      .map((room) => `ROOMS names ${room}/, which is not in the tree`),
  ];
  const checkout = checkoutFiles(root);
  const rows = Object.entries(ROOMS)
    .filter(([room]) => found.includes(room))
    .map(([room, purpose]) => {
      // A room's own files: those below it that no deeper room holds.
      const deeper = found.filter((other) => other.startsWith(`${room}/`));
      const files = filesUnder(root, path.join(root, room), checkout).filter(
        (file) => !deeper.some((other) => file.startsWith(path.join(root, other) + path.sep)),
      );
      return `| \`${room}/\` | ${files.length} | ${purpose} |`;
    });
  return { text: ['| room | files | what it is |', '|---|---:|---|', ...rows].join('\n'), problems };
}

function importsSection(root: string): { text: string; problems: string[] } {
  const graph = importGraph(root, [
    ['all our folders', /./],
    ['server/', /^server\//],
    ['contract/', /^contract\//],
    ['contract-suite/', /^contract-suite\//],
    ['proxy/', /^proxy\//],
  ]);
  const rows = graph.scopes.map(
    ({ label, figures }) =>
      `| ${label} | ${figures.modules} | ${figures.imports} | ${figures.chain.length} | ${figures.cycles.length} | ${figures.chain.map((file) => `\`${file}\``).join(' → ')} |`,
  );
  // The rooms as nodes: a module belongs to the deepest room of ROOMS that holds it (tests/, bench/ … are rooms too);
  // the files at the root of server/ each stand alone, as the map describes them: the faces above the rooms, mock.ts
  // below the process, errors.ts a leaf every room may use.
  const rooms = Object.keys(ROOMS).sort((a, b) => b.length - a.length);
  const byRoom = roomGraph(root, (module) => {
    const room = rooms.find((candidate) => module.startsWith(`${candidate}/`));
    return room === 'server' ? module : room;
  });
  rows.unshift(
    `| the rooms (a room is a node) | ${byRoom.modules} | ${byRoom.imports} | ${byRoom.chain.length} | ${byRoom.cycles.length} | ${byRoom.chain.map((room) => `\`${/\.ts$/.test(room) ? room : `${room}/`}\``).join(' → ')} |`,
  );
  const problems = [
    ...(byRoom.cycles.length > 0
      ? [`rooms import each other in a cycle: ${byRoom.cycles.map((cycle) => cycle.join(' ↔ ')).join('; ')}`]
      : []),
    ...graph.scopes.filter(({ figures }) => figures.cycles.length > 0).map(({ label }) => `import cycles in ${label}`),
    ...[...graph.against].map(([edge, rules]) => `${edge} breaks ${rules.join(', ')}`),
  ];
  return {
    text: [
      `Imports against the direction: ${graph.against.size}. Type-only imports count.`,
      '',
      '| scope | modules (rooms) | imports (arrows) between them | layers (longest chain) | cycles | the longest chain |',
      '|---|---:|---:|---:|---:|---|',
      ...rows,
    ].join('\n'),
    problems,
  };
}

function rulesSection(root: string): { text: string; problems: string[] } {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the rule set is CommonJS, read as dependency-cruiser reads it
  const config = require(path.join(root, '.dependency-cruiser.cjs')) as { forbidden: { name: string; comment: string }[] };
  return { text: config.forbidden.map((rule) => `- \`${rule.name}\`: ${rule.comment}`).join('\n'), problems: [] };
}

/** Traces of each request taken: a trace can only gain files (a timer's work that fell inside it), never lose one. */
const TRACES = 3;

async function requestSection(root: string): Promise<{ text: string; problems: string[] }> {
  const runs: Awaited<ReturnType<typeof traceRequestPath>>[] = [];
  for (let run = 0; run < TRACES; run += 1) runs.push(await traceRequestPath(root));
  // Each request's leanest trace: its own path, without background work a loaded machine let in.
  const traces = runs[0]!.map((_, at) => runs.map((run) => run[at]!).sort((a, b) => a.files - b.files || a.reentries - b.reentries)[0]!);
  const rows = traces.map(
    (trace) =>
      `| \`GET ${trace.url}\` | ${trace.status} | ${trace.files} | ${trace.reentries} | ${trace.reentered.map((entry) => `\`${entry}\``).join(', ') || 'none'} |`,
  );
  return {
    text: [
      '| request (uncached, on an open connection) | status | our files passed | re-entries | files entered more than once |',
      '|---|---:|---:|---:|---|',
      ...rows,
    ].join('\n'),
    problems: [],
  };
}

const SECTIONS: Readonly<
  Record<string, (root: string) => { text: string; problems: string[] } | Promise<{ text: string; problems: string[] }>>
> = {
  rooms: roomsSection,
  imports: importsSection,
  rules: rulesSection,
  'request-path': requestSection,
};

const begin = (name: string) => `<!-- generated by npm run map: ${name} -->`;
const end = (name: string) => `<!-- end of ${name} -->`;

async function main(): Promise<void> {
  const root = path.resolve(argument('--root') ?? path.join(__dirname, __dirname.includes(`${path.sep}dist${path.sep}`) ? '../..' : '..'));
  const file = path.join(root, 'ARCHITECTURE.md');
  const check = process.argv.includes('--check');
  const current = fs.readFileSync(file, 'utf8');
  let text = current;
  const problems: string[] = [];
  const differing: string[] = [];
  // Tables as the formatter pads them or not: the same cells are the same section.
  const cells = (part: string) =>
    part
      .replace(/-{3,}:?/g, '-')
      .replace(/[ \t]+/g, ' ')
      .replace(/ ?\| ?/g, '|')
      .trim();
  for (const [name, make] of Object.entries(SECTIONS)) {
    const from = text.indexOf(begin(name));
    const to = text.indexOf(end(name));
    if (from < 0 || to < from) {
      problems.push(`ARCHITECTURE.md has no section ${begin(name)} … ${end(name)}`);
      continue;
    }
    const committed = cells(text.slice(from + begin(name).length, to));
    let made = await make(root);
    // The request path is traced on a live server: on a loaded machine a trace can take in a timer's work (the
    // engine's background slices) that a quiet one does not. The section is each request's leanest of TRACES traces,
    // and a check makes it up to three times before it differs.
    for (let trace = 2; check && name === 'request-path' && cells(made.text) !== committed && trace <= 3; trace += 1)
      made = await make(root);
    problems.push(...made.problems);
    if (committed !== cells(made.text)) differing.push(name);
    text = `${text.slice(0, from + begin(name).length)}\n${made.text}\n${text.slice(to)}`;
  }
  // As the formatter writes it (npm run format:check holds the file to it), so a check compares like with like.
  const written = await prettier.format(text, { ...(await prettier.resolveConfig(file)), filepath: file });
  if (written !== current) {
    if (check) problems.push(`ARCHITECTURE.md differs from the tree in ${differing.join(', ') || 'its layout'}: run npm run map`);
    else fs.writeFileSync(file, written);
  }
  for (const problem of problems) process.stderr.write(`map: ${problem}\n`);
  if (problems.length > 0) process.exitCode = 1;
  else process.stdout.write(`map: ARCHITECTURE.md ${check ? 'matches the tree' : 'written'}\n`);
}

void main();
