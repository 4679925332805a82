import type mysql from 'mysql2/promise';
import type pg from 'pg';

// The accounts tests connect data sources with: `datalab_test_reader`, which may only read (SELECT), on PostgreSQL
// and MariaDB — the account check refuses the services' superusers (connectors/account.ts). Creating the role is
// idempotent and safe when test files run at once; each test database then grants it SELECT on its tables.

export const TEST_READER = 'datalab_test_reader';
export const TEST_READER_PASSWORD = 'datalab-test-reader';

/** PostgreSQL: duplicate_object, or unique_violation when two sessions create the role at the same instant. */
const alreadyThere = (error: unknown) => ['42710', '23505'].includes((error as { code?: string }).code ?? '');

/** Creates the reader role once (with the given administrator's connection). */
export async function ensurePostgresReader(admin: pg.Client): Promise<void> {
  try {
    await admin.query(`create role ${TEST_READER} login password '${TEST_READER_PASSWORD}'`);
  } catch (error) {
    if (!alreadyThere(error)) throw error;
  }
}

/**
 * Lets the reader read a database: SELECT on its tables and sequences in schema public, now and those created later by the
 * administrator connected to it (`admin` must be connected to that database).
 */
export async function grantPostgresReader(admin: pg.Client, database: string): Promise<void> {
  await ensurePostgresReader(admin);
  await admin.query(`grant connect on database "${database.replaceAll('"', '""')}" to ${TEST_READER}`);
  await admin.query(`grant usage on schema public to ${TEST_READER}`);
  await admin.query(`grant select on all tables in schema public to ${TEST_READER}`);
  await admin.query(`grant select on all sequences in schema public to ${TEST_READER}`);
  await admin.query(`alter default privileges in schema public grant select on tables to ${TEST_READER}`);
  await admin.query(`alter default privileges in schema public grant select on sequences to ${TEST_READER}`);
}

/** MariaDB: creates the reader account once (it holds no privilege of its own). */
export async function ensureMysqlReader(admin: mysql.Connection): Promise<void> {
  try {
    await admin.query(`create user if not exists '${TEST_READER}'@'%' identified by '${TEST_READER_PASSWORD}'`);
  } catch (error) {
    // 1396: another session created it in the same instant.
    if ((error as { errno?: number }).errno !== 1396) throw error;
  }
}

/** MariaDB: grants the reader SELECT on one database (tables now and later). */
export async function grantMysqlReader(admin: mysql.Connection, database: string): Promise<void> {
  await ensureMysqlReader(admin);
  await admin.query(`grant select on \`${database.replaceAll('`', '``')}\`.* to '${TEST_READER}'@'%'`);
}

/** The URL with the reader's name and password instead of the administrator's. */
export function readerUrl(url: string | URL): URL {
  const reader = new URL(url);
  reader.username = TEST_READER;
  reader.password = TEST_READER_PASSWORD;
  return reader;
}
