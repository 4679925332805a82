import { defineConfig, devices } from '@playwright/test';

// End-to-end tests: the real server as `npm start` runs it (its JavaScript bundle, rebuilt first; embedded mode,
// fresh data folder) and Debian's Chromium.

const PORT = Number(process.env['E2E_PORT'] ?? 8099);
export const BASE_URL = `http://localhost:${PORT}`;
// Each lane of `npm test` (scripts/test.ts) has its own port, hence its own server, data folder and artifacts.
const DATA_DIR = `test-results/e2e-data-${PORT}-${Date.now()}`;

export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export default defineConfig({
  testDir: 'e2e',
  // Budgets for a slow two-core machine running two lanes at once, where a page load costs seconds of CPU: a test that
  // fails still fails, only later.
  timeout: 60_000,
  expect: { timeout: 15_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  forbidOnly: Boolean(process.env['CI']),
  outputDir: `test-results/e2e-artifacts-${PORT}`,
  use: {
    baseURL: BASE_URL,
    // The steps, the network and the console of a failed test; no screencast or DOM snapshots, which cost a quarter
    // of the browsers' CPU. The failure's screenshot and error context show the page as it was.
    trace: { mode: 'retain-on-failure', screenshots: false, snapshots: false },
    screenshot: 'only-on-failure',
    launchOptions: { executablePath: '/usr/bin/chromium', args: CHROMIUM_FLAGS },
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'], channel: undefined } }],
  webServer: {
    command: 'node scripts/server-build.ts --if-stale && node apps/server/dist/server.js',
    url: `${BASE_URL}/health/ready`,
    reuseExistingServer: false,
    timeout: 60_000,
    // The usage summaries are written every 5 s instead of the default 30 s, so e2e/usage.spec.ts waits less.
    // SQL connections may reach this machine's PostgreSQL (e2e/sql-asset.spec.ts) and no other local port
    // (e2e/sql-hosts.spec.ts).
    env: {
      PORT: String(PORT),
      DATA_DIR,
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      USAGE_ROLLUP_FLUSH_MS: '5000',
      SQL_HOST_ALLOWLIST: '127.0.0.1:5432,localhost',
    },
    stdout: 'pipe',
    stderr: 'pipe',
  },
});
