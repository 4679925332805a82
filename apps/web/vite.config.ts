import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

// In development the Data Lab server runs on 8080 and serves everything the SPA talks to; the dev
// server keeps the browser's Host header (no changeOrigin) so the server's OIDC issuer and
// redirect URIs resolve to this origin, exactly as they do in production (same origin).
const server = 'http://127.0.0.1:8080';
const proxied = ['/api', '/oidc', '/portal-config.json', '/health'];

export default defineConfig({
  plugins: [react()],
  server: {
    port: 5173,
    proxy: Object.fromEntries(proxied.map((prefix) => [prefix, { target: server }])),
  },
  preview: {
    port: 4173,
    proxy: Object.fromEntries(proxied.map((prefix) => [prefix, { target: server }])),
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // The server's CSP is script-src 'self': no inlined assets that would need data: URIs for scripts.
    assetsInlineLimit: 0,
    rolldownOptions: {
      output: {
        // Everything the first page needs (`$initial`: statically reached from index.html) goes in one
        // chunk. Left alone, rolldown hoists whatever the lazy screens' shared chunks also use out of
        // the entry into a dozen small preloaded files, which compress worse (~+6 kB gzip).
        codeSplitting: { groups: [{ name: 'app', tags: ['$initial'] }] },
      },
    },
  },
  test: {
    name: 'web',
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['./src/test/setup.ts'],
    // Screen tests type and click through whole flows; on a shared, busy machine 5 s is too tight.
    testTimeout: 20_000,
    // One jsdom and one module graph per worker rather than per file: setup.ts resets what a screen leaves behind
    // (rendered trees, storage, notifications, the session flag) after every test.
    isolate: false,
  },
});
