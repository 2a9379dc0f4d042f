// npm run dev [-- options]: the spec-first loop in one command.
// - the server with --watch: openapi.yaml and DATA_FILE edits reload in place
//   (a bad edit is reported in one line; the last good version keeps serving);
// - tsc in watch mode, and Node restarting the server when its compiled code changes;
// - generated/ rewritten (npm run gen) after each openapi.yaml edit that parses.
// Ctrl-C stops all three.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';
import { ROOT } from '../tools/processes';

const root = ROOT;
const spec = path.join(root, 'openapi.yaml');
const children: ChildProcess[] = [];

function start(command: string, args: readonly string[]): ChildProcess {
  const child = spawn(command, args, { cwd: root, stdio: 'inherit' });
  children.push(child);
  return child;
}

const tsc = require.resolve('typescript/bin/tsc', { paths: [root] });
// Its exports map rewrites `*.js` to `*.mjs`: resolve the package folder, then its bin.
const openapiTypescript = path.join(path.dirname(require.resolve('openapi-typescript/package.json', { paths: [root] })), 'bin', 'cli.js');
start(process.execPath, [tsc, '-b', 'tsconfig.build.json', '--watch', '--preserveWatchOutput']);
// Code changes restart the process; spec and data changes are the server's own --watch (no restart, no lost state).
const watchPaths = ['dist/cli', 'dist/server', 'dist/contract', 'dist/seeds'].map((dir) => `--watch-path=${dir}`);
start(process.execPath, [...watchPaths, 'dist/cli/main.js', '--watch', ...process.argv.slice(2)]);

let generating = false;
fs.watchFile(spec, { interval: 250 }, (now, before) => {
  if (now.mtimeMs === before.mtimeMs || generating) return;
  try {
    YAML.parse(fs.readFileSync(spec, 'utf8'));
  } catch {
    return; // The server reports the parse error; generated/ keeps the last good types.
  }
  generating = true;
  const gen = spawn(process.execPath, [openapiTypescript, 'openapi.yaml', '-o', 'generated/openapi.ts'], { cwd: root, stdio: 'ignore' });
  gen.on('exit', (code) => {
    generating = false;
    process.stderr.write(code === 0 ? 'dev: generated/openapi.ts updated\n' : `dev: npm run gen failed (exit ${code})\n`);
  });
});

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    fs.unwatchFile(spec);
    for (const child of children) child.kill('SIGTERM');
  });
}
