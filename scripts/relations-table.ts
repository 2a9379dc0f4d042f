// The table of metamorphic relations in docs/contract.md, written from the relations themselves
// (contract-suite/relations/) between the page's two relation markers, so the page cannot list a relation the
// suite no longer checks or miss one it does: tests/contract/relations.test.ts fails while the page differs.
// Usage: npm run gen:relations
import fs from 'node:fs';
import path from 'node:path';
import { relationsMarkdown } from '../contract-suite/relations';
import { specContract } from '../contract/spec-contract';

/** The page, from the built script (dist/scripts/). */
const PAGE = path.resolve(__dirname, '../../docs/contract.md');
const START = '<!-- relations: written by npm run gen:relations -->';
const END = '<!-- /relations -->';

/** The page with the table between its markers replaced by `table`; the page as it is when it has no markers. */
export function withRelationTable(page: string, table: string): string {
  const start = page.indexOf(START);
  const end = page.indexOf(END);
  if (start < 0 || end < start) return page;
  return `${page.slice(0, start + START.length)}\n\n${table}\n\n${page.slice(end)}`;
}

/** The table for the bundled openapi.yaml. */
export function relationTable(): string {
  return relationsMarkdown(specContract());
}

if (require.main === module) {
  const page = fs.readFileSync(PAGE, 'utf8');
  const written = withRelationTable(page, relationTable());
  if (written === page && !page.includes(START)) {
    process.stderr.write(`relations-table: ${PAGE} has no ${START} … ${END} markers\n`);
    process.exitCode = 2;
  } else fs.writeFileSync(PAGE, written);
}
