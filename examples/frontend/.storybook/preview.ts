// Every story starts MSW's service worker once (msw-storybook-addon's loader) and answers with the handlers
// its parameters.msw names: client-records-mock/browser's createHandlers in the story's scenario.
import type { Preview } from '@storybook/react-vite';
import { setupWorker } from 'msw/browser';
import { mswLoader } from 'msw-storybook-addon/csf3';
import '../src/index.css';

const preview: Preview = {
  loaders: [
    mswLoader(async () => {
      const worker = setupWorker();
      // The worker script relative to iframe.html, not at the server's root: the static build works from any
      // folder (a pull request's preview at https://host/pr-42/storybook/). Storybook's own files go to the network.
      await worker.start({ serviceWorker: { url: './mockServiceWorker.js' }, onUnhandledRequest: 'bypass', quiet: true });
      return worker;
    }),
  ],
};

export default preview;
