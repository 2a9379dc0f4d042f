// Vite, as its react-ts template writes it, plus the dev server's proxy to the mock: the page asks its
// own origin for /api (no CORS), and the proxy adds the key, so the app's code carries none. MOCK_URL is
// the mock (the Playwright set-up sets it to the one it started); else `npx client-records-mock`'s default.
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  plugins: [react()],
  server: {
    proxy: {
      '/api': {
        target: process.env.MOCK_URL ?? 'http://127.0.0.1:4000',
        changeOrigin: true,
        headers: { 'X-Api-Key': process.env.MOCK_API_KEY ?? 'dev-key' },
      },
    },
  },
});
