// What a release publishes, stood in for on 127.0.0.1 (issue 38), so the README's install lines run as
// written where the only network is the npm registry: the tarball `npm pack` writes (the file
// .github/workflows/release.yml attaches to the GitHub release) served at the release-download path,
// behind a redirect as GitHub's is, and a bare git repository holding the `dist-vX.Y.Z` tag that
// release.yml pushes (scripts/dist-tag.ts, run on the same tarball). A line's GitHub addresses are
// rewritten to these two; nothing else in it changes.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { commitDist } from './dist-tag';
import { ROOT, runOrFail } from './scratch';

export const REPOSITORY_URL = 'https://github.com/client-records/client-records-mock';
const DOWNLOADS = '/client-records/client-records-mock/releases/download/';

export interface ReleaseStandIn {
  /** The line with the release-download URL and the git URL of GitHub pointed at the stand-ins. */
  rewrite(line: string): string;
  stop(): Promise<void>;
}

/** Serves `tarball` as release `v<version>`'s asset and commits it as the `dist-v<version>` tag of a bare repository in `dir`. */
export async function startReleaseStandIn(tarball: string, dir: string): Promise<ReleaseStandIn> {
  const name = path.basename(tarball);
  const version = /-(\d+\.\d+\.\d+(?:-[\w.]+)?)\.tgz$/.exec(name)?.[1];
  if (!version) throw new Error(`not a packed tarball name: ${name}`);
  const body = fs.readFileSync(tarball);
  const assetPath = `${DOWNLOADS}v${version}/${name}`;
  // GitHub answers the release URL with a redirect to its object store: npm must follow it.
  const server = http.createServer((req, res) => {
    if (req.url === assetPath) res.writeHead(302, { Location: `/objects/${name}` }).end();
    else if (req.url === `/objects/${name}`)
      res.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Length': body.length }).end(body);
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const bare = path.join(dir, 'client-records-mock.git');
  runOrFail('git init --bare', 'git', ['init', '--quiet', '--bare', '--initial-branch=main', bare]);
  // GitHub's repository has its main branch beside the tag (npm's git client reads HEAD's commit first).
  runOrFail('git push of main', 'git', ['push', '--quiet', bare, 'HEAD:refs/heads/main'], { cwd: ROOT });
  commitDist(tarball, bare);
  return {
    rewrite: (line) =>
      line
        .replaceAll(`https://github.com${DOWNLOADS}`, `${base}${DOWNLOADS}`)
        .replaceAll(`git+${REPOSITORY_URL}.git#`, `git+file://${bare}#`),
    // npm keeps its connections alive: close them, or close() would wait for them.
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
