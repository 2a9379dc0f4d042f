// After a build: removes what dist/ still holds from sources that are gone.
// `tsc -b` writes outputs but never deletes them, so a module moved or removed
// would otherwise live on in dist/ and ship in the next `npm pack` of this tree.
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from '../tools/processes';

const DIST = path.join(ROOT, 'dist');
/** Written after tsc, not outputs of sources: Swagger UI's files and the derived JSON and validators of the shipped
 * documents (scripts/build-extras.ts), the browser bundle and the static docs site's files (scripts/build-browser.ts). */
const WRITTEN_AFTER_TSC = [path.join(DIST, 'swagger-ui'), path.join(DIST, 'contract', 'derived'), path.join(DIST, 'browser')];

/** The TypeScript source an output was compiled from: dist/a/b.js and dist/a/b.d.ts → a/b.ts. */
function sourceOf(output: string): string {
  return path.join(ROOT, path.relative(DIST, output).replace(/(\.d\.ts|\.js)$/, '.ts'));
}

function prune(dir: string): number {
  let removed = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory() && WRITTEN_AFTER_TSC.includes(full)) continue;
    if (entry.isDirectory()) {
      removed += prune(full);
      if (fs.readdirSync(full).length === 0) fs.rmdirSync(full);
    } else if (/(\.d\.ts|\.js)$/.test(entry.name) && !fs.existsSync(sourceOf(full))) {
      fs.rmSync(full);
      removed++;
    }
  }
  return removed;
}

if (fs.existsSync(DIST)) {
  const removed = prune(DIST);
  if (removed > 0) process.stdout.write(`prune-dist: removed ${removed} output(s) of deleted sources\n`);
}
