// The coverage thresholds' syntax (--coverage-min operations=100,statuses=80), apart from the report
// writer in coverage.ts (which writes files): the settings table parses it, in Node and in the browser
// build of the handlers (server/browser.ts) alike, which must import no Node built-in.

/** The figures a threshold may hold, as percentages. */
export const COVERAGE_METRICS = ['operations', 'statuses', 'parameters', 'scenarios'] as const;
export type CoverageMetric = (typeof COVERAGE_METRICS)[number];
export type CoverageMin = Partial<Record<CoverageMetric, number>>;

/** `operations=100,statuses=80` → {operations: 100, statuses: 80}; throws an Error with a one-line reason. */
export function parseCoverageMin(raw: string): CoverageMin {
  const min: CoverageMin = {};
  const text = raw.trim();
  if (text === '') return min;
  for (const part of text.split(',')) {
    const match = /^\s*([a-z]+)\s*=\s*(\d{1,3}(?:\.\d+)?)\s*%?\s*$/.exec(part);
    const metric = match?.[1] as CoverageMetric | undefined;
    if (!match || !metric || !(COVERAGE_METRICS as readonly string[]).includes(metric) || Number(match[2]) > 100) {
      throw new Error(
        `must be comma-separated name=percent pairs with names from ${COVERAGE_METRICS.join(', ')} and percents 0 to 100, e.g. operations=100,statuses=80`,
      );
    }
    if (min[metric] !== undefined) throw new Error(`names ${metric} twice`);
    min[metric] = Number(match[2]);
  }
  return min;
}
