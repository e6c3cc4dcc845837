/**
 * Vite builds the dashboard (renderer/) into dist/renderer, which the cockpit server serves at `/`.
 * In development the dev server forwards the API and the state socket to a cockpit on its default
 * port, so the dashboard talks to the server exactly as it does in production (same origin).
 */
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { defineConfig } from 'vite';

const cockpit = 'http://127.0.0.1:8097';

export default defineConfig({
  root: 'renderer',
  // No svelte.config.js: Svelte 5 reads TypeScript natively, so the defaults are all we need.
  plugins: [svelte({ configFile: false })],
  build: {
    outDir: '../dist/renderer',
    emptyOutDir: true,
    target: 'es2022',
    // One small bundle is the goal (≤ 150 KB gzipped); a warning here means a dependency crept in.
    chunkSizeWarningLimit: 400,
  },
  server: {
    proxy: {
      '/api': { target: cockpit, changeOrigin: false },
      '/ws': { target: cockpit, ws: true, changeOrigin: false },
    },
  },
});
