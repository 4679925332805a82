import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp, type BuildOptions } from '../../src/app.ts';
import { loadConfig, type Config } from '../../src/config.ts';
import { injectClient } from './http.ts';
import { signIn } from './sign-in.ts';
import { createPostgresDatabase, type StoreKind } from './stores.ts';

// Builds the whole app against a fresh store for one test file, and signs people in through the
// built-in provider, as the portal would.

export const TEST_PUBLIC_URL = 'http://localhost:8080';
/** What test apps allow SQL connections to reach unless a suite sets its own: public hosts and this machine. */
export const TEST_SQL_HOST_ALLOWLIST = '*,127.0.0.1,localhost,::1';

export interface TestApp {
  app: FastifyInstance;
  config: Config;
  /** A bearer access token for a demo account, obtained through the real sign-in flow. */
  tokenFor: (username: string, password?: string) => Promise<string>;
  close: () => Promise<void>;
}

/**
 * Test apps do not shed load: a machine busy with the rest of the suite would answer 503 to calls the tests are not
 * about. faults/overload.test.ts turns it on for the server it tests.
 */
export const NO_LOAD_SHEDDING = { OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '0' } as const;

export async function createTestApp(
  store: StoreKind,
  env: Record<string, string> = {},
  extend?: BuildOptions['extend'],
  /** `logDestination` turns the app's logger on (at env's LOG_LEVEL) and captures its lines there. */
  build: Pick<BuildOptions, 'accessOverride' | 'resolveHost' | 'metricFamilies' | 'logDestination'> = {},
): Promise<TestApp> {
  const dataDir = mkdtempSync(join(tmpdir(), 'datalab-test-'));
  const database = store === 'postgres' ? await createPostgresDatabase() : undefined;
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    PUBLIC_URL: TEST_PUBLIC_URL,
    LOG_LEVEL: 'silent',
    // A small demo shop: generating the full one costs ~0.6 s per app.
    DEMO_SHOP_ORDERS: '2000',
    WEB_DIST_DIR: join(dataDir, 'no-web-build'),
    // The test databases run on this machine, which SQL connections may not reach unless allowed.
    SQL_HOST_ALLOWLIST: process.env['TEST_SQL_HOST_ALLOWLIST'] ?? TEST_SQL_HOST_ALLOWLIST,
    // Test sources every collection may read (test/support/orders-source.ts).
    SQLITE_SHARED_PATHS: join(dataDir, 'sources'),
    ...NO_LOAD_SHEDDING,
    ...(database ? { DATABASE_URL: database.url } : {}),
    ...env,
  });
  const app = await buildApp(config, {
    ...(build.logDestination ? {} : { logger: false as const }),
    ...(extend ? { extend } : {}),
    ...build,
  });
  await app.ready();
  const tokens = new Map<string, Promise<string>>();
  return {
    app,
    config,
    tokenFor: (username, password = 'datalab') => {
      const key = `${username}:${password}`;
      let token = tokens.get(key);
      if (!token) {
        token = signIn(injectClient(app), { publicUrl: TEST_PUBLIC_URL, username, password }).then(
          (t) => t.access_token,
        );
        tokens.set(key, token);
      }
      return token;
    },
    close: async () => {
      await app.close();
      await database?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * A test app whose logger writes into memory at `LOG_LEVEL` (debug unless env names another), with a small demo shop:
 * `output()` is everything it wrote (the secret-logging and leak-report tests search it).
 */
export async function createLoggedTestApp(
  store: StoreKind,
  env: Record<string, string> = {},
  extend?: BuildOptions['extend'],
): Promise<TestApp & { output: () => string }> {
  const text: string[] = [];
  const capture = { write: (chunk: string) => text.push(chunk) };
  const t = await createTestApp(store, { LOG_LEVEL: 'debug', DEMO_SHOP_ORDERS: '200', ...env }, extend, {
    logDestination: capture,
  });
  return { ...t, output: () => text.join('') };
}
