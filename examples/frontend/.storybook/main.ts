// Storybook for the example app (issue 39): the client list's stories (src/*.stories.tsx), each answered by
// this package's mock inside the page through MSW's service worker (preview.ts), so the static build
// (`storybook build`) is a complete preview from any folder of any static file server, with no mock server.
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { StorybookConfig } from '@storybook/react-vite';
import { mergeConfig } from 'vite';

const require = createRequire(import.meta.url);
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

const config: StorybookConfig = {
  framework: '@storybook/react-vite',
  stories: ['../src/**/*.stories.tsx'],
  // MSW's worker script from the very msw the stories import (so its version always matches), beside iframe.html.
  staticDirs: [{ from: require.resolve('msw/mockServiceWorker.js'), to: '/mockServiceWorker.js' }],
  core: { disableTelemetry: true },
  // This repository only: the package is the repository itself, not installed, so its built browser entry
  // (npm run build) stands in for it. An app that installs client-records-mock needs no viteFinal.
  viteFinal: (vite) =>
    mergeConfig(vite, { resolve: { alias: { 'client-records-mock/browser': path.join(ROOT, 'dist', 'browser', 'index.mjs') } } }),
};

export default config;
