import { randomBytes } from 'node:crypto';
import pg from 'pg';

// Integration tests run against both metadata stores. PostgreSQL comes from TEST_POSTGRES_URL (the
// machine's server by default); each test file gets its own freshly created database.

export const TEST_POSTGRES_URL = process.env['TEST_POSTGRES_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export type StoreKind = 'sqlite' | 'postgres';

let postgresAvailable: Promise<boolean> | undefined;

/** Whether PostgreSQL answers. In CI a missing service fails the run; elsewhere the suite skips, loudly. */
export function isPostgresAvailable(): Promise<boolean> {
  postgresAvailable ??= (async () => {
    const client = new pg.Client({ connectionString: TEST_POSTGRES_URL, connectionTimeoutMillis: 3000 });
    try {
      await client.connect();
      await client.query('select 1');
      return true;
    } catch (error) {
      if (process.env['CI'] === 'true') {
        throw new Error(`PostgreSQL is required in CI but did not answer at ${TEST_POSTGRES_URL}: ${String(error)}`, {
          cause: error,
        });
      }
      process.stderr.write(
        `\n*** WARNING: PostgreSQL is not reachable at ${TEST_POSTGRES_URL}; the PostgreSQL integration suites are SKIPPED. ***\n` +
          `*** Start it with: pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start ***\n\n`,
      );
      return false;
    } finally {
      await client.end().catch(() => undefined);
    }
  })();
  return postgresAvailable;
}

/** Creates an empty database and returns its URL and a function that drops it. */
export async function createPostgresDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `datalab_test_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: TEST_POSTGRES_URL });
  await admin.connect();
  try {
    await admin.query(`create database "${name}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(TEST_POSTGRES_URL);
  url.pathname = `/${name}`;
  return {
    url: url.href,
    drop: async () => {
      const client = new pg.Client({ connectionString: TEST_POSTGRES_URL });
      await client.connect();
      try {
        await client.query(`drop database if exists "${name}" with (force)`);
      } finally {
        await client.end();
      }
    },
  };
}
