// npm run lint:deploy: deploy/kubernetes.yaml checked against the Kubernetes
// API schemas (kubernetes-models: the upstream OpenAPI schemas compiled to
// validators; no cluster needed), then the Dockerfile linted (dockerfile-utils), then the release
// workflow (.github/workflows/release.yml) held to what a release needs: a version tag triggers it, CI
// runs first, npm publish --provenance with the id-token permission provenance needs, and an image push.
// Not checked here: that the image builds and runs (no container engine on
// this machine), and admission policies a real cluster would add.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';
import { ROOT } from '../tools/processes';

interface Manifest {
  apiVersion: string;
  kind: string;
  metadata?: { name?: string };
}

interface Model {
  validate(): void;
}

/** `apps/v1` + `Deployment` → `kubernetes-models/apps/v1/Deployment`; the core group has no prefix. */
async function modelOf(manifest: Manifest): Promise<new (data: Manifest) => Model> {
  const module = (await import(`kubernetes-models/${manifest.apiVersion}/${manifest.kind}`)) as Record<
    string,
    new (data: Manifest) => Model
  >;
  const model = module[manifest.kind];
  if (!model) throw new Error(`no schema for ${manifest.apiVersion} ${manifest.kind}`);
  return model;
}

async function main(): Promise<void> {
  const root = ROOT;
  const file = path.join(root, 'deploy', 'kubernetes.yaml');
  let failed = false;
  for (const document of YAML.parseAllDocuments(fs.readFileSync(file, 'utf8'))) {
    const manifest = document.toJS() as Manifest;
    const name = `${manifest.kind}/${manifest.metadata?.name ?? '?'}`;
    try {
      const Model = await modelOf(manifest);
      new Model(manifest).validate();
      console.log(`deploy/kubernetes.yaml: ${name} matches the ${manifest.apiVersion} schema`);
    } catch (error) {
      failed = true;
      console.error(`deploy/kubernetes.yaml: ${name}: ${(error as Error).message.split('\n')[0]}`);
    }
  }

  const linter = path.join(path.dirname(require.resolve('dockerfile-utils/package.json', { paths: [root] })), 'bin', 'dockerfile-utils');
  try {
    execFileSync(process.execPath, [linter, 'lint', path.join(root, 'Dockerfile')], { stdio: 'inherit' });
    console.log('Dockerfile: no problems (dockerfile-utils lint)');
  } catch {
    failed = true;
  }
  for (const problem of imageProblems(root)) {
    failed = true;
    console.error(`Dockerfile: ${problem}`);
  }
  if (!failed) console.log('Dockerfile: copies every folder the build compiles and every file the package ships to run');
  for (const problem of releaseProblems(path.join(root, '.github', 'workflows', 'release.yml'))) {
    failed = true;
    console.error(`.github/workflows/release.yml: ${problem}`);
  }
  if (!failed)
    console.log('.github/workflows/release.yml: tag trigger, CI first, npm publish --provenance, image push, release tarball and dist tag');
  process.exitCode = failed ? 1 : 0;
}

/**
 * What the image misses of what the package is, derived rather than listed, since no container
 * engine here builds it: stage 1 must COPY every folder tsconfig.build.json compiles (else tsc
 * fails inside docker build), and the final stage every dist/ folder and every spec document the
 * package's `files` ships (else a command fails inside the container). A new room or document is
 * caught the day it is added to the build or the package.
 */
function imageProblems(root: string): string[] {
  const dockerfile = fs.readFileSync(path.join(root, 'Dockerfile'), 'utf8');
  const stages = dockerfile.split(/^FROM /m).slice(1);
  const copies = (stage: string) =>
    new Set(
      [...stage.matchAll(/^COPY (?:--from=\S+ )?(.+)$/gm)].flatMap((match) => {
        const parts = match[1]!.trim().split(/\s+/);
        return parts.slice(0, -1).map((source) => source.replace(/^\/app\//, '').replace(/\/$/, ''));
      }),
    );
  const build = copies(stages[0] ?? '');
  const final = copies(stages.at(-1) ?? '');
  const tsconfig = JSON.parse(fs.readFileSync(path.join(root, 'tsconfig.build.json'), 'utf8')) as { include: string[] };
  const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { files: string[] };
  const problems: string[] = [];
  for (const folder of tsconfig.include) {
    if (!build.has(folder)) problems.push(`the build stage does not COPY ${folder}/, which tsconfig.build.json compiles`);
  }
  for (const shipped of pkg.files) {
    const needed = shipped.startsWith('dist/') || /\.ya?ml$/.test(shipped);
    if (needed && !shipped.startsWith('!') && !final.has(shipped))
      problems.push(`the final stage does not COPY ${shipped}, which the package ships to run`);
  }
  return problems;
}

interface Workflow {
  on?: { push?: { tags?: string[] } };
  jobs?: Record<
    string,
    {
      needs?: string | string[];
      permissions?: Record<string, string>;
      steps?: { run?: string; uses?: string; with?: Record<string, unknown> }[];
    }
  >;
}

/** What the release workflow must hold; an empty list when it does. */
function releaseProblems(file: string): string[] {
  if (!fs.existsSync(file)) return ['missing'];
  const workflow = YAML.parse(fs.readFileSync(file, 'utf8')) as Workflow;
  const jobs = Object.entries(workflow.jobs ?? {});
  const problems: string[] = [];
  if (!workflow.on?.push?.tags?.some((tag) => tag.startsWith('v'))) problems.push('no push-tag trigger v*');
  const ci = jobs.find(([, job]) => job.steps?.some((step) => step.run?.includes('.ci/run')));
  if (!ci) problems.push('no job runs .ci/run');
  for (const [name, job] of jobs) {
    const needs = [job.needs ?? []].flat();
    for (const need of needs) if (!workflow.jobs?.[need]) problems.push(`${name} needs an unknown job ${need}`);
    if (ci && name !== ci[0] && !needs.includes(ci[0])) problems.push(`${name} does not wait for ${ci[0]}`);
  }
  const publish = jobs.find(([, job]) => job.steps?.some((step) => /npm publish --provenance/.test(step.run ?? '')));
  if (!publish) problems.push('no npm publish --provenance');
  else if (publish[1].permissions?.['id-token'] !== 'write') problems.push(`${publish[0]}: provenance needs permissions id-token: write`);
  const push = jobs.find(([, job]) =>
    job.steps?.some((step) => step.uses?.startsWith('docker/build-push-action') && step.with?.push === true),
  );
  if (!push) problems.push('no image push (docker/build-push-action with push: true)');
  else if (push[1].permissions?.packages !== 'write') problems.push(`${push[0]}: pushing to ghcr.io needs permissions packages: write`);
  // The README's installs before the registry: the release's tarball and the dist-vX.Y.Z tag (scripts/dist-tag.ts).
  const attach = jobs.find(([, job]) =>
    job.steps?.some((step) => /gh release create .*client-records-mock-\$VERSION\.tgz/.test(step.run ?? '')),
  );
  if (!attach)
    problems.push('no job attaches the packed tarball to the GitHub release (gh release create … client-records-mock-$VERSION.tgz)');
  else {
    const script = attach[1].steps?.map((step) => step.run ?? '').join('\n') ?? '';
    if (!/dist\/scripts\/dist-tag\.js/.test(script) || !/git push origin dist "dist-v\$VERSION"/.test(script))
      problems.push(`${attach[0]}: does not commit and push the dist-vX.Y.Z tag (scripts/dist-tag.ts)`);
    if (attach[1].permissions?.contents !== 'write')
      problems.push(`${attach[0]}: a release and a pushed tag need permissions contents: write`);
  }
  return problems;
}

void main();
