// npm run request-path: which of our files one uncached list request passes
// through, and how often it comes back into one (issue 27: "21 files, entering
// app.ts four times"). It loads the TypeScript sources of a tree (this one, or
// `--root DIR` for an older checkout) through a require hook that adds one
// call at the start of every function of ours, starts the mock with the
// server as startServer does on port 0, finishes its background work, warms it, and then traces exactly one request
// per URL on an open keep-alive connection (the path every request but a
// connection's first takes), from the socket's request event to the response's
// close. How it counts:
// - a file is *passed* when one of its functions runs;
// - a file is *entered* when one of its functions is called and the nearest
//   frame of our own code below it on the stack is in another file, or there
//   is none (a callback from Node, a package or a promise); a call from within
//   the same file, even through a package (express calling a middleware the
//   same file handed it), is no entry. Re-entries = entries − files passed.
// The measured server writes its log to a pipe this process discards.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import Module from 'node:module';
import path from 'node:path';
import ts from 'typescript';

const URLS = ['/api/v1/Client/Simple?page=2&pageSize=10', '/api/v1/Client/Extended?filter=berg&active=true&page=1&pageSize=25'];
const RESULT_MARK = 'REQUEST-PATH ';

function argument(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at < 0 ? undefined : process.argv[at + 1];
}

interface Trace {
  url: string;
  status: number;
  /** Our files in the order they were first passed. */
  files: string[];
  calls: Record<string, number>;
  entries: Record<string, number>;
  /** The file of each entry, in order. */
  sequence: string[];
}

// ---- the child: instrumented sources, one traced request per URL ----

const files: string[] = [];
const fileIds = new Map<string, number>();
let tracing = false;
let calls = new Map<number, number>();
let entries = new Map<number, number>();
let sequence: number[] = [];

/** The function-entry hook every instrumented function calls first. */
function enter(id: number): void {
  if (!tracing) return;
  calls.set(id, (calls.get(id) ?? 0) + 1);
  const limit = Error.stackTraceLimit;
  const prepare = Error.prepareStackTrace;
  Error.stackTraceLimit = Infinity;
  Error.prepareStackTrace = (_error, frames) => frames;
  const holder: { stack?: NodeJS.CallSite[] } = {};
  Error.captureStackTrace(holder, enter);
  const frames = holder.stack ?? [];
  Error.prepareStackTrace = prepare;
  Error.stackTraceLimit = limit;
  // frames[0] is the instrumented function itself; the caller is the nearest frame of ours below it.
  let caller: number | undefined;
  for (let i = 1; i < frames.length && caller === undefined; i++) caller = fileIds.get(frames[i]!.getFileName() ?? '');
  if (caller !== id) {
    entries.set(id, (entries.get(id) ?? 0) + 1);
    sequence.push(id);
  }
}

/** `__requestPathEnter(id);` as the first statement of every function body in the file. */
function instrument(id: number): ts.TransformerFactory<ts.SourceFile> {
  return (context) => {
    const f = context.factory;
    const call = () =>
      f.createExpressionStatement(
        f.createCallExpression(f.createIdentifier('__requestPathEnter'), undefined, [f.createNumericLiteral(id)]),
      );
    const intoBlock = (body: ts.Block, isConstructor: boolean): ts.Block => {
      const statements = [...body.statements];
      // A derived class's constructor: after its super() call, where `this` exists.
      const superAt = isConstructor
        ? statements.findIndex(
            (s) =>
              ts.isExpressionStatement(s) &&
              ts.isCallExpression(s.expression) &&
              s.expression.expression.kind === ts.SyntaxKind.SuperKeyword,
          )
        : -1;
      statements.splice(superAt + 1, 0, call());
      return f.updateBlock(body, statements);
    };
    const visit = (node: ts.Node): ts.Node => {
      const visited = ts.visitEachChild(node, visit, context);
      if (ts.isArrowFunction(visited)) {
        const body = ts.isBlock(visited.body)
          ? intoBlock(visited.body, false)
          : f.createBlock([call(), f.createReturnStatement(visited.body)], true);
        return f.updateArrowFunction(
          visited,
          visited.modifiers,
          visited.typeParameters,
          visited.parameters,
          visited.type,
          visited.equalsGreaterThanToken,
          body,
        );
      }
      if (
        (ts.isFunctionDeclaration(visited) ||
          ts.isFunctionExpression(visited) ||
          ts.isMethodDeclaration(visited) ||
          ts.isConstructorDeclaration(visited) ||
          ts.isGetAccessorDeclaration(visited) ||
          ts.isSetAccessorDeclaration(visited)) &&
        visited.body
      ) {
        const body = intoBlock(visited.body, ts.isConstructorDeclaration(visited));
        if (ts.isFunctionDeclaration(visited))
          return f.updateFunctionDeclaration(
            visited,
            visited.modifiers,
            visited.asteriskToken,
            visited.name,
            visited.typeParameters,
            visited.parameters,
            visited.type,
            body,
          );
        if (ts.isFunctionExpression(visited))
          return f.updateFunctionExpression(
            visited,
            visited.modifiers,
            visited.asteriskToken,
            visited.name,
            visited.typeParameters,
            visited.parameters,
            visited.type,
            body,
          );
        if (ts.isMethodDeclaration(visited))
          return f.updateMethodDeclaration(
            visited,
            visited.modifiers,
            visited.asteriskToken,
            visited.name,
            visited.questionToken,
            visited.typeParameters,
            visited.parameters,
            visited.type,
            body,
          );
        if (ts.isConstructorDeclaration(visited))
          return f.updateConstructorDeclaration(visited, visited.modifiers, visited.parameters, body);
        if (ts.isGetAccessorDeclaration(visited))
          return f.updateGetAccessorDeclaration(visited, visited.modifiers, visited.name, visited.parameters, visited.type, body);
        return f.updateSetAccessorDeclaration(visited, visited.modifiers, visited.name, visited.parameters, body);
      }
      return visited;
    };
    return (source) => ts.visitEachChild(source, visit, context);
  };
}

/** Loads every `.ts` file of `root` (not node_modules) instrumented. */
function hookTypeScript(root: string): void {
  (globalThis as Record<string, unknown>).__requestPathEnter = enter;
  const extensions = (Module as unknown as { _extensions: Record<string, (module: Module, file: string) => void> })._extensions;
  extensions['.ts'] = (module, file) => {
    const relative = path.relative(root, file);
    const id = files.length;
    files.push(relative);
    fileIds.set(file, id);
    const output = ts.transpileModule(fs.readFileSync(file, 'utf8'), {
      fileName: file,
      compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true, sourceMap: false },
      transformers: { before: [instrument(id)] },
    });
    (module as unknown as { _compile(code: string, file: string): void })._compile(output.outputText, file);
  };
}

function get(port: number, url: string, agent: http.Agent): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port, path: url, agent, headers: { 'X-Api-Key': 'dev-key' } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
  });
}

async function child(root: string): Promise<void> {
  hookTypeScript(root);
  // Paths known at run time, loaded through the hook above: require, not import. startServer's road, taken by hand so
  // that the engine's background work (views, search pieces) is done before any request is traced: a trace it ran
  // into would not be the request's path.
  /* eslint-disable @typescript-eslint/no-require-imports */
  const { createMock } = require(path.join(root, 'server/index.ts')) as {
    createMock(options: Record<string, unknown>): Promise<{
      app: { prebuild(): Promise<void> };
      logger: unknown;
      config: { maxConnections: number };
    }>;
  };
  const { startHttpServer } = require(path.join(root, 'server/listener/http-server.ts')) as {
    startHttpServer(
      app: unknown,
      port: number,
      host: string,
      logger: unknown,
      options: { maxConnections: number },
    ): Promise<{ port: number; stop(): Promise<unknown> }>;
  };
  /* eslint-enable @typescript-eslint/no-require-imports */
  // Info level: the request's log line is part of its path.
  const mock = await createMock({ port: 0, clients: 1000, seed: 1, logLevel: 'info', logFormat: 'json' });
  const running = await startHttpServer(mock.app, 0, '127.0.0.1', mock.logger, { maxConnections: mock.config.maxConnections });
  await mock.app.prebuild();
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  // Warm: the validator compiles each route on its first request, and the connection is opened.
  for (const url of ['/api/v1/Client/Simple?page=1&pageSize=5', '/api/v1/Client/Extended?page=1&pageSize=5', '/api/v1/Diagnostics/Ping'])
    await get(running.port, url, agent);
  const traces: Trace[] = [];
  for (const url of process.argv.includes('--url') ? [argument('--url')!] : URLS) {
    calls = new Map();
    entries = new Map();
    sequence = [];
    tracing = true;
    const status = await get(running.port, url, agent);
    // The response's close (and its log line) comes just after the client has read the end.
    await new Promise((resolve) => setTimeout(resolve, 50));
    tracing = false;
    const named = (counts: Map<number, number>) => Object.fromEntries([...counts].map(([id, count]) => [files[id]!, count]));
    traces.push({
      url,
      status,
      files: [...new Set(sequence.map((id) => files[id]!))],
      calls: named(calls),
      entries: named(entries),
      sequence: sequence.map((id) => files[id]!),
    });
  }
  agent.destroy();
  await running.stop();
  process.stderr.write(`${RESULT_MARK}${JSON.stringify(traces)}\n`);
  process.exit(0);
}

// ---- the parent: runs the child, prints the figures ----

/** The figures of one traced request: the files it passed, its visits (runs of entries into one file) and re-entries. */
export interface PathFigures {
  url: string;
  status: number;
  files: number;
  visits: string[];
  reentries: number;
  /** Files visited more than once, with how often. */
  reentered: string[];
}

function figuresOf(trace: Trace): PathFigures {
  // A visit is a run of entries into one file: a loop calling another file's function once per
  // client (a page's 25 copies out of the slot arena) is one visit, not 25.
  const visits = trace.sequence.filter((file, i) => file !== trace.sequence[i - 1]);
  const visitsOf = new Map<string, number>();
  for (const file of visits) visitsOf.set(file, (visitsOf.get(file) ?? 0) + 1);
  return {
    url: trace.url,
    status: trace.status,
    files: trace.files.length,
    visits,
    reentries: visits.length - trace.files.length,
    reentered: [...visitsOf].filter(([, count]) => count > 1).map(([file, count]) => `${file} ×${count}`),
  };
}

/** Traces one request per URL through the tree at `root` in a child process, and resolves to each one's figures. */
export function traceRequestPath(root: string, url?: string): Promise<PathFigures[]> {
  const script = __filename.endsWith('.ts') ? __filename.replace(/\.ts$/, '.js') : __filename;
  const args = [script, '--child', '--root', root, ...(url ? ['--url', url] : [])];
  return new Promise((resolve, reject) => {
    const run = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    run.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const timer = setTimeout(() => run.kill('SIGKILL'), 120_000);
    run.on('exit', (code) => {
      clearTimeout(timer);
      const line = stderr.split('\n').find((text) => text.startsWith(RESULT_MARK));
      if (code !== 0 || !line) reject(new Error(`request-path: the traced server failed (exit ${code}):\n${stderr.slice(-3000)}`));
      else resolve((JSON.parse(line.slice(RESULT_MARK.length)) as Trace[]).map(figuresOf));
    });
  });
}

function parent(root: string): void {
  traceRequestPath(root, argument('--url')).then(
    (traces) => {
      const out = (text = '') => process.stdout.write(`${text}\n`);
      out(`request path in ${root}`);
      for (const trace of traces) {
        out(`\nGET ${trace.url} → ${trace.status} (uncached, on an open keep-alive connection)`);
        out(`  ${trace.files} of our files passed; ${trace.visits.length} visits, so ${trace.reentries} re-entries`);
        out(`  visited more than once: ${trace.reentered.join(', ') || 'none'}`);
        out(`  path: ${trace.visits.join(' → ')}`);
      }
    },
    (error: Error) => {
      process.stderr.write(`${error.message}\n`);
      process.exitCode = 1;
    },
  );
}

const root = path.resolve(argument('--root') ?? path.join(__dirname, __dirname.includes(`${path.sep}dist${path.sep}`) ? '../..' : '..'));
if (require.main === module) {
  if (process.argv.includes('--child')) void child(root);
  else parent(root);
}
