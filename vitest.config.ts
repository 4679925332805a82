import { defineConfig } from 'vitest/config';

// Three tiers (code-style habit 13): unit beside the code, integration through inject against real
// stores (apps/server), and end-to-end in Chromium (e2e/, run by Playwright, not here).
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          environment: 'node',
          include: [
            'packages/*/src/**/*.test.ts',
            'apps/server/src/**/*.unit.test.ts',
            'scripts/**/*.test.ts',
            'deploy/**/*.test.ts',
          ],
          // Packages' *.int.test.ts need the database services or a running server: they run with the integration
          // project.
          exclude: ['packages/*/src/**/*.int.test.ts'],
          // Pure functions and lint rules: a worker keeps its modules from file to file.
          isolate: false,
        },
      },
      './apps/web/vite.config.ts',
      {
        test: {
          name: 'integration',
          environment: 'node',
          include: ['apps/server/src/**/*.test.ts', 'packages/*/src/**/*.int.test.ts'],
          exclude: ['apps/server/src/**/*.unit.test.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          // Each file builds its own app against its own freshly created database.
          fileParallelism: true,
          // Files share nothing but the modules they import (every app, database and server is a file's own), so a
          // worker loads the server's module graph once rather than once a file (half a run's time on this machine).
          isolate: false,
        },
      },
    ],
  },
});
