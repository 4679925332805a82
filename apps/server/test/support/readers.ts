import mysql from 'mysql2/promise';
import pg from 'pg';
import {
  TEST_READER,
  TEST_READER_PASSWORD,
  ensureMysqlReader,
  ensurePostgresReader,
  grantMysqlReader,
  grantPostgresReader,
  readerUrl,
} from '@datalab/engine/testing/readers';
import { unique } from './builders.ts';
import { TEST_POSTGRES_URL } from './stores.ts';

// The account test connections sign in with: `datalab_test_reader`, which may only read — the server refuses the
// services' superusers as a data source's account (docs/operations.md, "Read-only database accounts"). Creating it is
// idempotent and safe when test files run at once.

export { TEST_READER, TEST_READER_PASSWORD, grantPostgresReader, readerUrl };

export const TEST_MYSQL_URL = process.env['TEST_MYSQL_URL'] ?? 'mysql://root@127.0.0.1:3306/';

/** Makes sure the reader role exists on the test PostgreSQL service (it may connect to any database there). */
export async function ensureTestReader(): Promise<void> {
  const admin = new pg.Client({ connectionString: TEST_POSTGRES_URL });
  await admin.connect();
  try {
    await ensurePostgresReader(admin);
  } finally {
    await admin.end();
  }
}

/** Grants the reader SELECT on the tables of a PostgreSQL database given by its administrator's URL. */
export async function grantReaderOn(adminUrl: string): Promise<URL> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await grantPostgresReader(admin, new URL(adminUrl).pathname.slice(1));
  } finally {
    await admin.end();
  }
  return readerUrl(adminUrl);
}

/** Makes sure the reader account exists on the test MariaDB service (information_schema is all it reads). */
export async function ensureTestMysqlReader(): Promise<void> {
  const admin = await mysql.createConnection({ uri: TEST_MYSQL_URL });
  try {
    await ensureMysqlReader(admin);
  } finally {
    await admin.end();
  }
}

/** Grants the reader SELECT on one MariaDB database. */
export async function grantMysqlReaderOn(database: string): Promise<void> {
  const admin = await mysql.createConnection({ uri: TEST_MYSQL_URL });
  try {
    await grantMysqlReader(admin, database);
  } finally {
    await admin.end();
  }
}

/**
 * A body of POST /api/SqlConnection (and of its tests) for a PostgreSQL connection of `collectionUid` to the test
 * service's `postgres` database as the reader, with no password; `overrides` change or add fields.
 */
export const postgresConnectionBody = (collectionUid: string, overrides: Record<string, unknown> = {}) => ({
  collectionUid,
  name: unique('Warehouse'),
  kind: 'postgres',
  host: '127.0.0.1',
  port: 5432,
  database: 'postgres',
  username: TEST_READER,
  ...overrides,
});

/** The reader's connection fields for a SQL connection to a database of the PostgreSQL test service. */
export const readerConnection = { username: TEST_READER, password: TEST_READER_PASSWORD } as const;
