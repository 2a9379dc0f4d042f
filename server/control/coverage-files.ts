// Writing the consumer coverage report at a clean stop (--coverage-out FILE:
// JSON, JUnit and HTML beside it) and holding it to --coverage-min: the part
// of coverage that touches the file system, kept apart from coverage.ts so
// the state stores never load node:fs.
import fs from 'node:fs';
import path from 'node:path';
import { coverageToHtml, coverageToJson, coverageToJunit, type CoverageReport } from '../../contract/coverage-report';
import { coverageShortfalls, coverageSummary, type CoverageMin } from './coverage';

/** The files --coverage-out FILE writes: FILE.json (a trailing .json is not doubled), FILE.junit.xml and FILE.html. */
export function coverageFiles(out: string): { json: string; junit: string; html: string } {
  const base = out.replace(/\.json$/i, '');
  return { json: `${base}.json`, junit: `${base}.junit.xml`, html: `${base}.html` };
}

/**
 * At a clean stop: writes the report (when `out` is given) and says whether
 * every minimum is met. Returns the lines to print (the figures, the files,
 * one line per figure below its minimum) and whether the exit code turns to 1.
 */
export function finishCoverage(report: CoverageReport, out: string | undefined, min: CoverageMin): { lines: string[]; belowMin: boolean } {
  const lines = [`coverage: ${coverageSummary(report)}`];
  if (out !== undefined) {
    const files = coverageFiles(out);
    try {
      fs.mkdirSync(path.dirname(path.resolve(files.json)), { recursive: true });
      fs.writeFileSync(files.json, coverageToJson(report));
      fs.writeFileSync(files.junit, coverageToJunit(report));
      fs.writeFileSync(files.html, coverageToHtml(report));
      lines[0] += `; written to ${files.json}, ${files.junit}, ${files.html}`;
    } catch (error) {
      lines.push(`cannot write the coverage report to ${out} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
    }
  }
  const shortfalls = coverageShortfalls(report, min);
  for (const shortfall of shortfalls) lines.push(`coverage below --coverage-min: ${shortfall}`);
  return { lines, belowMin: shortfalls.length > 0 };
}
