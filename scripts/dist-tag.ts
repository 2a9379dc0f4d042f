// The git install line without a build (issue 38): a commit holding exactly what `npm pack` put in the
// tarball, on the branch `dist`, tagged `dist-vX.Y.Z`. npm builds a git dependency (installing every dev
// dependency, about 1,300 packages) only when its package.json has a build script (prepare, prepack,
// build, install, ...); the packed package.json here has no scripts and no devDependencies, so
// `npm install git+https://…#dist-vX.Y.Z` takes the files as they are, like a registry install.
// .github/workflows/release.yml runs it on the tarball it attaches to the release, then pushes the branch
// and the tag; scripts/doc-lines.ts runs it on the same tarball into a local bare repository, which
// stands in for GitHub when it tests the README's git line.
// Usage: node dist/scripts/dist-tag.js TARBALL [--repo DIR]   (DIR: a git repository, bare or not; default .)
// Prints the tag and the commit. Exit 0, or 1 with the failing step's output (the tag exists already, say).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const BRANCH = 'refs/heads/dist';

/** The tag that holds version X.Y.Z; `v*.*.*` would match release.yml's trigger, so the prefix comes first. */
export const distTagOf = (version: string): string => `dist-v${version}`;

/** What a git dependency's package.json must not carry: any of these makes npm build it with its dev dependencies. */
const DROPPED = ['scripts', 'devDependencies'] as const;

function git(args: string[], env: NodeJS.ProcessEnv = process.env): string {
  return execFileSync('git', args, { encoding: 'utf8', env, stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

/** Commits the tarball's contents on `dist` (after its last commit, if any) and tags it; returns the tag and commit. */
export function commitDist(tarball: string, repo: string): { tag: string; commit: string } {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'crm-dist-tag-'));
  try {
    execFileSync('tar', ['-xzf', path.resolve(tarball), '-C', work]);
    const root = path.join(work, 'package');
    const manifestPath = path.join(root, 'package.json');
    const manifest = JSON.parse(fs.readFileSync(manifestPath, 'utf8')) as Record<string, unknown> & { version: string };
    for (const key of DROPPED) delete manifest[key];
    fs.writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
    const tag = distTagOf(manifest.version);
    // A private index and the unpacked folder as the work tree: the repository's own checkout is left as it is.
    const env = {
      ...process.env,
      GIT_INDEX_FILE: path.join(work, 'index'),
      GIT_AUTHOR_NAME: process.env.GIT_AUTHOR_NAME ?? 'client-records-mock release',
      GIT_AUTHOR_EMAIL: process.env.GIT_AUTHOR_EMAIL ?? 'release@client-records-mock.invalid',
      GIT_COMMITTER_NAME: process.env.GIT_COMMITTER_NAME ?? 'client-records-mock release',
      GIT_COMMITTER_EMAIL: process.env.GIT_COMMITTER_EMAIL ?? 'release@client-records-mock.invalid',
    };
    const inRepo = [`--git-dir=${git(['-C', repo, 'rev-parse', '--absolute-git-dir'])}`, `--work-tree=${root}`, '-C', root];
    git([...inRepo, 'add', '--all', '--force', '.'], env);
    const tree = git([...inRepo, 'write-tree'], env);
    let parent = '';
    try {
      parent = git([...inRepo, 'rev-parse', '--verify', '--quiet', BRANCH]);
    } catch {
      // the first release: no dist branch yet
    }
    const message = `client-records-mock ${manifest.version}, as npm pack wrote it (no scripts, no devDependencies)`;
    const commit = git([...inRepo, 'commit-tree', tree, ...(parent ? ['-p', parent] : []), '-m', message], env);
    // The tag first: an existing one (a release made twice) fails here, before the branch moves.
    git([...inRepo, 'tag', tag, commit]);
    git([...inRepo, 'update-ref', BRANCH, commit]);
    return { tag, commit };
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

function main(): void {
  const args = process.argv.slice(2);
  const repoAt = args.indexOf('--repo');
  const repo = repoAt >= 0 ? args[repoAt + 1] : '.';
  const tarball = args.find((arg, index) => !arg.startsWith('--') && index !== repoAt + 1);
  if (!tarball || !repo || !fs.existsSync(tarball)) {
    process.stderr.write('Usage: node dist/scripts/dist-tag.js TARBALL [--repo DIR]\n');
    process.exit(2);
  }
  try {
    const { tag, commit } = commitDist(tarball, repo);
    process.stdout.write(`dist-tag: ${tag} ${commit}\n`);
  } catch (error) {
    const { stderr, message } = error as { stderr?: string; message: string };
    process.stderr.write(`dist-tag: ${(stderr || message).trim()}\n`);
    process.exit(1);
  }
}

if (require.main === module) main();
