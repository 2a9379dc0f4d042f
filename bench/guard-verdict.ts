// What `npm run bench:guard` holds each measured ratio to (issue 37 item 3): the values committed in
// bench/guard-baseline.json, read and checked here, and the verdict a CI log shows, one line per ratio.
// Apart from bench/guard.ts (which starts servers and loads them) so the rule itself is a pure function.
import fs from 'node:fs';

/** The ratios the guard measures, each the median of per-round ratios of two targets run side by side. */
export const GUARDED_RATIOS = {
  ping: 'Ping (cached path), ours / Express hello',
  varied: 'varied mix, ours / Prism static',
} as const;
export type RatioName = keyof typeof GUARDED_RATIOS;

/** A ratio fails when it falls more than this share below its committed value (issue 37: 25 %). */
export const ALLOWED_DROP = 0.25;

/**
 * A ratio this far above its committed value is worth a new baseline (said, never failed on). Beyond the widest
 * spread of normal runs' medians seen in calibration (varied: 3.21-5.52×, a factor of 1.72), so a lucky run is
 * not taken for a speed-up.
 */
const WORTH_RAISING = 1.75;

export type Baseline = Record<RatioName, number>;

/** The committed values; throws one line naming the file and what is wrong with it. */
export function readBaseline(file: string): Baseline {
  let parsed: unknown;
  try {
    parsed = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Error(`${file}: ${(error as Error).message}`, { cause: error });
  }
  const ratios = (parsed as { ratios?: unknown } | null)?.ratios;
  if (typeof ratios !== 'object' || ratios === null) throw new Error(`${file}: no "ratios" object`);
  const baseline: Partial<Baseline> = {};
  for (const name of Object.keys(GUARDED_RATIOS) as RatioName[]) {
    const value = (ratios as Record<string, unknown>)[name];
    if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
      throw new Error(`${file}: ratios.${name} must be a positive number (${GUARDED_RATIOS[name]}), got ${JSON.stringify(value)}`);
    }
    baseline[name] = value;
  }
  const unknown = Object.keys(ratios).filter((name) => !(name in GUARDED_RATIOS));
  if (unknown.length > 0) throw new Error(`${file}: ratios has names the guard does not measure: ${unknown.join(', ')}`);
  return baseline as Baseline;
}

export interface Verdict {
  failed: boolean;
  lines: string[];
}

/** One line per ratio: measured against committed and the floor; failed when any is below its floor. */
export function judge(measured: Record<RatioName, number>, baseline: Baseline): Verdict {
  const x = (value: number) => `${value.toFixed(2)}×`;
  const lines: string[] = [];
  let failed = false;
  for (const name of Object.keys(GUARDED_RATIOS) as RatioName[]) {
    const floor = baseline[name] * (1 - ALLOWED_DROP);
    const below = !(measured[name] >= floor);
    failed ||= below;
    const head = `${below ? 'FAIL' : 'ok  '} ${GUARDED_RATIOS[name]}: measured ${x(measured[name])}, committed ${x(baseline[name])}, floor ${x(floor)}`;
    const drop = `${Math.round((1 - measured[name] / baseline[name]) * 100)} % below the committed value`;
    if (below) lines.push(`${head} (${drop})`);
    else if (measured[name] >= baseline[name] * WORTH_RAISING)
      lines.push(`${head} (more than 75 % above the committed value: if a change made it so, raise it in a commit that says why)`);
    else lines.push(head);
  }
  return { failed, lines };
}
