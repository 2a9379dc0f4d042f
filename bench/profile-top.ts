// The top of a V8 CPU profile (`node --cpu-prof`), as text: self time by
// function and by folder of ours, so a benchmark run says where the time went
// without a profiler UI. `node dist/bench/profile-top.js FILE_OR_DIR [N]`
// prints it; bench/proxy.ts calls topOfProfile for our proxy.
import fs from 'node:fs';
import path from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** The newest .cpuprofile in `dir` (or `dir` itself when it is a file). */
function newestProfile(where: string): string {
  if (fs.statSync(where).isFile()) return where;
  const files = fs
    .readdirSync(where)
    .filter((name) => name.endsWith('.cpuprofile'))
    .map((name) => path.join(where, name))
    .sort((a, b) => fs.statSync(b).mtimeMs - fs.statSync(a).mtimeMs);
  if (files.length === 0) throw new Error(`no .cpuprofile in ${where}`);
  return files[0]!;
}

/** Where a frame's code lives: one of our folders, node:internal, a package, or what V8 calls it. */
function placeOf(url: string, name: string): string {
  const ours = /\/dist\/([a-z-]+)\/(.+?)\.js$/.exec(url);
  if (ours) return `${ours[1]}/${ours[2]}.ts`;
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
  if (pkg) return `node_modules/${pkg[1]}`;
  if (url.startsWith('node:')) return url;
  return url === '' ? `(${name || 'native'})` : path.basename(url);
}

/** The top `count` functions by self time, and the self time of each of our folders, as Markdown tables. */
export function topOfProfile(where: string, count = 25): string {
  const profile = JSON.parse(fs.readFileSync(newestProfile(where), 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map<number, number>();
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const total = [...self.values()].reduce((sum, us) => sum + us, 0);
  const idle = [...self].filter(([id]) => byId.get(id)?.callFrame.functionName === '(idle)').reduce((sum, [, us]) => sum + us, 0);
  const busy = total - idle;
  const byFunction = new Map<string, number>();
  const byFolder = new Map<string, number>();
  for (const [id, us] of self) {
    const frame = byId.get(id)!.callFrame;
    if (frame.functionName === '(idle)') continue;
    const place = placeOf(frame.url, frame.functionName);
    const key = `${frame.functionName || '(anonymous)'} — ${place}${frame.url ? `:${frame.lineNumber + 1}` : ''}`;
    byFunction.set(key, (byFunction.get(key) ?? 0) + us);
    const folder = place.includes('/') && !place.startsWith('node') ? place.split('/').slice(0, 2).join('/') : place;
    byFolder.set(folder.replace(/\.ts$/, ''), (byFolder.get(folder.replace(/\.ts$/, '')) ?? 0) + us);
  }
  const share = (us: number) => `${((100 * us) / busy).toFixed(1)} %`;
  const top = (map: Map<string, number>, n: number) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([name, us]) => `| ${name} | ${share(us)} |`);
  return [
    `${(busy / 1e6).toFixed(1)} s busy of ${(total / 1e6).toFixed(1)} s profiled (self time; shares of the busy time)`,
    '',
    '| function — where | self |',
    '|---|---:|',
    ...top(byFunction, count),
    '',
    '| where | self |',
    '|---|---:|',
    ...top(byFolder, 15),
  ].join('\n');
}

if (require.main === module) {
  process.stdout.write(`${topOfProfile(process.argv[2] ?? 'bench-results/profile', Number(process.argv[3] ?? 25))}\n`);
}
