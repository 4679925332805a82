import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { NO_LOAD_SHEDDING, TEST_PUBLIC_URL, TEST_SQL_HOST_ALLOWLIST, type TestApp } from './app.ts';
import { createPostgresDatabase } from './stores.ts';

// Several server instances on one freshly created PostgreSQL store, as behind a load balancer (product §12): each
// builds the whole app from its own configuration, so whatever they share goes through the store (and Redis, when
// the environment names one). The multi-instance tests of the access model, tokens and the cache start them here.

export interface Instances {
  /** The instances, in the order they were started. */
  apps: TestApp[];
  /** Starts one more on the same store with the same environment (plus `extra`). */
  add(extra?: Record<string, string>): Promise<TestApp>;
  /** Closes every instance, drops the database and removes the data directory. */
  close(): Promise<void>;
}

export async function startInstances(count: number, env: Record<string, string> = {}): Promise<Instances> {
  const dataDir = mkdtempSync(join(tmpdir(), 'datalab-instances-'));
  const database = await createPostgresDatabase();
  const apps: TestApp[] = [];
  const add = async (extra: Record<string, string> = {}): Promise<TestApp> => {
    const config = loadConfig({
      NODE_ENV: 'test',
      DATA_DIR: dataDir,
      PUBLIC_URL: TEST_PUBLIC_URL,
      LOG_LEVEL: 'silent',
      DATABASE_URL: database.url,
      WEB_DIST_DIR: join(dataDir, 'none'),
      SQL_HOST_ALLOWLIST: process.env['TEST_SQL_HOST_ALLOWLIST'] ?? TEST_SQL_HOST_ALLOWLIST,
      SQLITE_SHARED_PATHS: join(dataDir, 'sources'),
      ...NO_LOAD_SHEDDING,
      ...env,
      ...extra,
    });
    const app = await buildApp(config, { logger: false });
    await app.ready();
    const instance: TestApp = {
      app,
      config,
      tokenFor: () => Promise.reject(new Error('sign in through the builders')),
      close: () => app.close(),
    };
    apps.push(instance);
    return instance;
  };
  for (let i = 0; i < count; i += 1) await add();
  return {
    apps,
    add,
    close: async () => {
      await Promise.allSettled(apps.map((instance) => instance.close()));
      await database.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
