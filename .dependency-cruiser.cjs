// The rules of direction (ARCHITECTURE.md, "Rules of direction"), checked by
// dependency-cruiser in `npm run check` (`npm run lint:deps`): no import
// cycles, and no import that runs back up the house. Type-only imports count
// too (they couple the files as much as any other), except where a rule says
// so. `npm run graph` prints the figures (layers, cycles, imports against the
// direction). A new room gets its line here when it is made.
/** @type {import('dependency-cruiser').IConfiguration} */

/** Our folders, as the first segment of a path relative to the repository. */
const OURS = '^(cli|server|contract|contract-suite|seeds|generated|proxy|mcp|spec-diff|settings|tools|scripts|bench|tests|examples)/';
/** What the HTTP stack is: Node's own modules and the packages that speak HTTP. */
const HTTP_CORE = '^(node:)?(http|https|http2|net|tls)$';
const HTTP_PACKAGES = 'node_modules/(express|express-openapi-validator|cors|helmet|light-my-request|msw|undici)/';
/** The server's public faces at its root, above every room. */
const FACES = '^server/(index|msw|browser|browser-entry|docs-site|docs-site-entry)[.]ts$';
/** Node's own modules, with or without the node: prefix. */
const NODE_CORE =
  '^(node:)?(assert|async_hooks|buffer|child_process|cluster|crypto|dgram|dns|events|fs|http|http2|https|module|net|os|path|perf_hooks|process|querystring|readline|stream|string_decoder|timers|tls|tty|url|util|v8|vm|worker_threads|zlib)($|/)';
const MOCK = '^server/mock[.]ts$';

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment:
        'An import cycle: the files cannot be read, tested or loaded one without the other. Break it by moving what both need below both.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'server-imports-no-product-above-it',
      severity: 'error',
      comment:
        'server/ is imported by the CLI, the contract suite runner, the proxy and the MCP server, never the other way round; tests, benchmarks and scripts are not part of it.',
      from: { path: '^server/' },
      to: { path: '^(contract-suite|proxy|mcp|spec-diff|cli|tests|bench|scripts|tools|examples)/' },
    },
    {
      name: 'contract-suite-imports-no-server',
      severity: 'error',
      comment: 'The contract suite checks any deployment; our own mock is started for it by cli/, which passes it a target.',
      from: { path: '^contract-suite/' },
      to: { path: '^(server|cli|proxy|mcp|spec-diff|tests|bench|scripts)/' },
    },
    {
      name: 'proxy-uses-the-server-faces',
      severity: 'error',
      comment: 'proxy/ may use contract/ and the server through its public faces (index.ts, msw.ts, mock.ts, errors.ts), not its rooms.',
      from: { path: '^proxy/' },
      to: { path: '^server/[^/]+/' },
    },
    {
      name: 'proxy-imports-no-suite',
      severity: 'error',
      comment:
        'The proxy and the suite are two drivers of one judge (contract/judge/): the proxy never loads the suite, its checks or its HTTP client.',
      from: { path: '^proxy/' },
      to: { path: '^(contract-suite|mcp|spec-diff|cli)/' },
    },
    {
      name: 'mcp-uses-the-faces-and-the-control-client',
      severity: 'error',
      comment:
        'mcp/ steers a mock through the control API client (server/control/client.ts) and starts one through server/index.ts; it runs the suite as a child process, never by import.',
      from: { path: '^mcp/' },
      to: {
        path: ['^server/', '^(contract-suite|proxy|spec-diff|cli)/'],
        pathNot: ['^server/index[.]ts$', '^server/control/client[.]ts$'],
      },
    },
    {
      name: 'suite-kit-imports-no-check',
      severity: 'error',
      comment:
        'contract-suite/kit/ (context, HTTP and raw HTTP, target, coverage, the check types) is what every check stands on: it imports no check, no registry, no runner.',
      from: { path: '^contract-suite/kit/' },
      to: { path: ['^contract-suite/(checks|derived|relations|property|cli)/', '^contract-suite/registry[.]ts$'] },
    },
    {
      name: 'suite-checks-and-derived-apart',
      severity: 'error',
      comment:
        'The hand-written checks (checks/) and the checks derived from the document (derived/) stand on the kit, side by side: neither imports the other, the registry or the runner.',
      from: { path: '^contract-suite/(checks|derived)/' },
      to: { path: ['^contract-suite/(property|cli)/', '^contract-suite/registry[.]ts$'] },
    },
    {
      name: 'suite-relations-stand-on-the-kit',
      severity: 'error',
      comment:
        'The metamorphic relations (relations/) stand on the kit, beside checks/ and derived/: they import neither, nor the registry, the property run or the runner.',
      from: { path: '^contract-suite/relations/' },
      to: { path: ['^contract-suite/(checks|derived|property)/', '^contract-suite/registry[.]ts$', '^contract-suite/cli/'] },
    },
    {
      name: 'suite-rooms-import-no-relations',
      severity: 'error',
      comment: 'checks/, derived/ and the property run do not import the relations: what they share belongs in the kit or in contract/.',
      from: { path: '^contract-suite/(checks|derived|property)/' },
      to: { path: '^contract-suite/relations/' },
    },
    {
      name: 'suite-checks-import-no-derived',
      severity: 'error',
      comment: 'checks/ and derived/ do not import each other: what both need belongs in the kit or in contract/.',
      from: { path: '^contract-suite/checks/' },
      to: { path: '^contract-suite/derived/' },
    },
    {
      name: 'suite-derived-imports-no-checks',
      severity: 'error',
      comment: 'checks/ and derived/ do not import each other: what both need belongs in the kit or in contract/.',
      from: { path: '^contract-suite/derived/' },
      to: { path: '^contract-suite/checks/' },
    },
    {
      name: 'suite-property-run-apart',
      severity: 'error',
      comment:
        'The property run (property/) generates requests from the document and judges each: it stands on the kit, not on the checks.',
      from: { path: '^contract-suite/property/' },
      to: { path: ['^contract-suite/(checks|derived|cli)/', '^contract-suite/registry[.]ts$'] },
    },
    {
      name: 'suite-history-room-apart',
      severity: 'error',
      comment:
        "The history room (history/) asks the run's own requests again from the kit's journal: it stands on the kit, not on the checks, the derived checks or the runner.",
      from: { path: '^contract-suite/history/' },
      to: { path: ['^contract-suite/(checks|derived|property|cli)/', '^contract-suite/registry[.]ts$'] },
    },
    {
      name: 'suite-registry-below-the-runner',
      severity: 'error',
      comment: 'The registry lists the checks; the runner (cli/) runs them. The registry never reaches up to the runner.',
      from: { path: '^contract-suite/registry[.]ts$' },
      to: { path: '^contract-suite/(cli|property)/' },
    },
    {
      name: 'contract-imports-only-generated',
      severity: 'error',
      comment: 'contract/ is the spec at run time, shared by everything: it stands on generated/ only.',
      from: { path: '^contract/' },
      to: { path: OURS, pathNot: '^(contract|generated)/' },
    },
    {
      name: 'seeds-import-only-contract',
      severity: 'error',
      comment: 'seeds/ generates data from the contract; nothing of the server, suite or tools (its command line is read by settings/).',
      from: { path: '^seeds/' },
      to: { path: OURS, pathNot: '^(seeds|contract|generated|settings)/' },
    },
    {
      name: 'settings-is-a-leaf',
      severity: 'error',
      comment:
        'settings/ is the one settings machinery (row type, parser, help printer) every command declares its rows in: it imports nothing of ours and no package, and of Node only node:util (argv.ts; table.ts imports nothing, so the browser handlers use it).',
      from: { path: '^settings/' },
      to: { path: [OURS, NODE_CORE, 'node_modules'], pathNot: ['^settings/', '^(node:)?util$'] },
    },
    {
      name: 'settings-table-imports-nothing',
      severity: 'error',
      comment: 'settings/table.ts is reached by the browser handlers (server/process/settings.ts): it imports nothing, not even node:util.',
      from: { path: '^settings/table[.]ts$' },
      to: {},
    },
    {
      name: 'nothing-imports-cli',
      severity: 'error',
      comment: 'cli/main.ts is the bin: the one place that knows every command. Nothing imports it.',
      from: { pathNot: '^cli/' },
      to: { path: '^cli/' },
    },
    {
      name: 'errors-import-nothing-at-run-time',
      severity: 'error',
      comment: 'server/errors.ts is the catalogue (a leaf, as Fastify keeps errors.js): it imports nothing at run time.',
      from: { path: '^server/errors[.]ts$' },
      to: { dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'errors-types-only-from-contract',
      severity: 'error',
      comment: 'server/errors.ts may name the wire types of contract/ (type-only), nothing else.',
      from: { path: '^server/errors[.]ts$' },
      to: { pathNot: '^(contract|generated)/' },
    },
    {
      name: 'engine-knows-no-http',
      severity: 'error',
      comment: 'The data engine answers page(query) and positionOf(id): no HTTP module, no request, no response.',
      from: { path: '^server/engine/' },
      to: { path: [HTTP_CORE, HTTP_PACKAGES, '^server/(pipeline|listener|process|control)/', FACES, MOCK] },
    },
    {
      name: 'pipeline-not-above-itself',
      severity: 'error',
      comment:
        'process → listener → pipeline → engine: the pipeline is given what it needs (settings, spec, store, logger); it does not reach up.',
      from: { path: '^server/pipeline/' },
      to: { path: ['^server/(listener|process)/', FACES, MOCK] },
    },
    {
      name: 'pipeline-uses-control-through-an-interface',
      severity: 'error',
      comment:
        'server/control sits beside the pipeline: the pipeline calls it through an interface it is given (type-only), never by a run-time import.',
      from: { path: '^server/pipeline/' },
      to: { path: '^server/control/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'control-beside-pipeline',
      severity: 'error',
      comment:
        'server/control may implement an interface of the pipeline (type-only), and may not reach up to the listener or the process.',
      from: { path: '^server/control/' },
      to: { path: ['^server/(listener|process)/', FACES, MOCK] },
    },
    {
      name: 'control-no-run-time-pipeline',
      severity: 'error',
      comment: 'server/control sits beside the pipeline, not below it: type-only imports of the pipeline at most.',
      from: { path: '^server/control/' },
      to: { path: '^server/pipeline/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'state-stores-need-no-node',
      severity: 'error',
      comment:
        "The state store's interface and the in-memory store, and the control files they stand on, also run in a browser's service worker (the in-process handlers): no Node built-in.",
      from: { path: '^server/control/(state|memory-state|sessions|journal|coverage|scenarios)[.]ts$' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'state-stores-need-no-express',
      severity: 'error',
      comment: 'The same files never load Express or ioredis: the Redis store is its own file (redis-state.ts), loaded only with --state.',
      from: { path: '^server/control/(state|memory-state|sessions|journal|coverage|scenarios)[.]ts$' },
      to: { path: ['node_modules/(express|express-openapi-validator|ioredis)/', '^server/control/redis-state[.]ts$'] },
    },
    {
      name: 'redis-loaded-only-with-state',
      severity: 'error',
      comment: 'ioredis loads only when --state is given: redis-state.ts is reached by a dynamic import (mock.ts, openState) alone.',
      from: { pathNot: '^server/control/redis-state[.]ts$' },
      to: { path: ['^server/control/redis-state[.]ts$', 'node_modules/ioredis/'], dependencyTypesNot: ['dynamic-import', 'type-only'] },
    },
    {
      name: 'listener-not-above-itself',
      severity: 'error',
      comment: 'The socket layer serves whatever app it is given; the process above it starts it.',
      from: { path: '^server/listener/' },
      to: { path: ['^server/process/', FACES, MOCK] },
    },
    {
      name: 'mock-below-the-process',
      severity: 'error',
      comment: 'server/mock.ts (spec → data → app) is used by the faces and by process/serve; it takes its settings as values.',
      from: { path: MOCK },
      to: { path: ['^server/process/', FACES] },
    },
    {
      name: 'process-below-the-faces',
      severity: 'error',
      comment: 'The process (settings, logger, serve, watch) is used by the public faces, never the other way round.',
      from: { path: '^server/process/' },
      to: { path: FACES },
    },
    {
      name: 'browser-entry-runs-in-a-page',
      severity: 'error',
      comment:
        'client-records-mock/browser and the static docs site run in a page (issue 39): nothing they reach, at any depth, may be a Node built-in, Express, the validator, light-my-request, or a Node-only room (the Express app, the validator step, the Node adapter, the digest key check, the settings reader, mock.ts, the socket layer).',
      from: { path: '^server/(browser|browser-entry|docs-site-entry|browser-globals)[.]ts$' },
      to: {
        reachable: true,
        path: [
          NODE_CORE,
          'node_modules/(express|express-openapi-validator|light-my-request|cors/node_modules)/',
          '^server/pipeline/(app|validator|lean-path|key-digest|docs)[.]ts$',
          '^server/process/(config|serve|watch|logger)[.]ts$',
          '^settings/argv[.]ts$',
          '^server/(mock[.]ts$|listener/)',
        ],
      },
    },
    {
      name: 'shipped-code-imports-no-tools',
      severity: 'error',
      comment: 'tools/ is compiled but not packed (package.json files): what the package ships and runs must not need it.',
      from: { path: '^(cli|server|contract|contract-suite|seeds|generated|proxy|mcp|spec-diff|settings)/' },
      to: { path: '^tools/' },
    },
    {
      name: 'build-depends-on-no-tests-or-bench',
      severity: 'error',
      comment: 'What tsconfig.build.json compiles (and npm pack ships) never needs tests/ or bench/: tool helpers live in tools/.',
      from: { path: '^(cli|server|contract|contract-suite|seeds|generated|proxy|mcp|spec-diff|settings|tools|scripts)/' },
      to: { path: '^(tests|bench|examples)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // `depcruise .` cruises every folder of ours, today's and the rooms to come; not what is built, installed or at the root.
    exclude: { path: ['^(dist|node_modules|coverage|bench-results|test-artifacts|[.][^/]+)/', '^[^/]+[.][cm]?[jt]s$'] },
    // Type-only imports are dependencies too (a cycle of types is still a cycle).
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    moduleSystems: ['cjs', 'es6'],
    reporterOptions: { text: { highlightFocused: true } },
  },
};
