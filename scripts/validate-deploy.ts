// npm run lint:deploy: deploy/kubernetes.yaml checked against the Kubernetes
// API schemas (kubernetes-models: the upstream OpenAPI schemas compiled to
// validators; no cluster needed), then the Dockerfile linted (dockerfile-utils).
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
  process.exitCode = failed ? 1 : 0;
}

void main();
