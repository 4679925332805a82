import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { TEST_READER, TEST_READER_PASSWORD, grantMysqlReader, grantPostgresReader } from './readers.ts';

// Each engine test file gets its own freshly created database on the machine's services. Outside CI a missing
// service skips its suite, loudly; with CI=true it fails the run.

export const TEST_POSTGRES_URL = process.env['TEST_POSTGRES_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const TEST_MYSQL_URL = process.env['TEST_MYSQL_URL'] ?? 'mysql://root@127.0.0.1:3306/';

const uniqueName = () => `datalab_engine_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;

async function probe(service: string, url: string, check: () => Promise<void>): Promise<boolean> {
  try {
    await check();
    return true;
  } catch (error) {
    if (process.env['CI'] === 'true') {
      throw new Error(`${service} is required in CI but did not answer at ${url}: ${String(error)}`, { cause: error });
    }
    process.stderr.write(
      `\n*** WARNING: ${service} is not reachable at ${url}; its engine suites are SKIPPED. ***\n\n`,
    );
    return false;
  }
}

export const postgresAvailable = await probe('PostgreSQL', TEST_POSTGRES_URL, async () => {
  const client = new pg.Client({ connectionString: TEST_POSTGRES_URL, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('select 1');
  } finally {
    await client.end().catch(() => undefined);
  }
});

export const mysqlAvailable = await probe('MySQL/MariaDB', TEST_MYSQL_URL, async () => {
  const connection = await mysql.createConnection({ uri: TEST_MYSQL_URL, connectTimeout: 3000 });
  try {
    await connection.query('select 1');
  } finally {
    await connection.end().catch(() => undefined);
  }
});

export interface TestDatabase {
  /** The reader's settings: an account that may only read (test/support/readers.ts), as data sources must use. */
  settings: { host: string; port: number; database: string; user: string; password: string };
  /** The same database as the service's administrator (a superuser): what the account check refuses. */
  adminSettings: { host: string; port: number; database: string; user: string; password: string };
  /** Runs setup SQL as the administrator (one statement per call). */
  exec(sql: string, values?: unknown[]): Promise<void>;
  drop(): Promise<void>;
}

/** The server's administrator account (from the service URL) on database `name`, and the read-only reader's. */
function accounts(serviceUrl: string, defaultPort: number, name: string) {
  const base = new URL(serviceUrl);
  const adminSettings = {
    host: base.hostname,
    port: Number(base.port || defaultPort),
    database: name,
    user: decodeURIComponent(base.username),
    password: decodeURIComponent(base.password),
  };
  return { adminSettings, settings: { ...adminSettings, user: TEST_READER, password: TEST_READER_PASSWORD } };
}

export async function createPostgresTestDatabase(): Promise<TestDatabase> {
  const name = uniqueName();
  const admin = new pg.Client({ connectionString: TEST_POSTGRES_URL });
  await admin.connect();
  await admin.query(`create database "${name}"`);
  await admin.end();
  const url = new URL(TEST_POSTGRES_URL);
  url.pathname = `/${name}`;
  const setup = new pg.Client({ connectionString: url.href });
  await setup.connect();
  await grantPostgresReader(setup, name);
  return {
    ...accounts(TEST_POSTGRES_URL, 5432, name),
    exec: async (sql, values) => {
      await setup.query(sql, values);
    },
    drop: async () => {
      await setup.end().catch(() => undefined);
      const client = new pg.Client({ connectionString: TEST_POSTGRES_URL });
      await client.connect();
      await client.query(`drop database if exists "${name}" with (force)`);
      await client.end();
    },
  };
}

export async function createMysqlTestDatabase(): Promise<TestDatabase> {
  const name = uniqueName();
  const setup = await mysql.createConnection({ uri: TEST_MYSQL_URL });
  await setup.query(`create database \`${name}\``);
  await setup.query(`use \`${name}\``);
  await grantMysqlReader(setup, name);
  return {
    ...accounts(TEST_MYSQL_URL, 3306, name),
    exec: async (sql, values) => {
      await setup.query(sql, values);
    },
    drop: async () => {
      await setup.query(`revoke select on \`${name}\`.* from '${TEST_READER}'@'%'`).catch(() => undefined);
      await setup.query(`drop database if exists \`${name}\``);
      await setup.end();
    },
  };
}

export interface TestSqliteFile {
  path: string;
  /** A writable handle for setup; the connector under test opens the file read-only. */
  db: DatabaseSync;
  drop(): void;
}

export function createSqliteTestFile(): TestSqliteFile {
  const dir = mkdtempSync(join(tmpdir(), 'datalab-engine-'));
  const path = join(dir, 'test.sqlite');
  const db = new DatabaseSync(path);
  return {
    path,
    db,
    drop: () => {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export { collect } from './collect.ts';
