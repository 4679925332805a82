import { chmodSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { Kysely, PostgresDialect, sql } from 'kysely';
import { Migrator, type Migration } from 'kysely/migration';
import pg from 'pg';
import type { Config } from '../config.ts';
import { BooleanPlugin } from './boolean-plugin.ts';
import { migrations } from './migrations/index.ts';
import type { DB } from './schema.ts';
import { WriteCount, createSqliteDialect } from './sqlite-dialect.ts';

export type Database = Kysely<DB>;

/** The pg pool behind each PostgreSQL store, for what Kysely does not speak (COPY … FROM STDIN). */
const postgresPools = new WeakMap<Database, pg.Pool>();

/** The pg pool of a PostgreSQL store; undefined for SQLite. */
export function postgresPoolOf(db: Database): pg.Pool | undefined {
  return postgresPools.get(db);
}

/** The write count of each embedded store (see WriteCount). */
const writeCounts = new WeakMap<Database, WriteCount>();

/** How many writes that count this process made to its embedded store; undefined for PostgreSQL (shared). */
export function storeWriteCount(db: Database): number | undefined {
  return writeCounts.get(db)?.value;
}

export function createDatabase(
  database: Config['database'],
  onIdleClientError: (error: Error) => void = (error) =>
    process.emitWarning(`PostgreSQL: idle connection lost: ${error.message}`),
): Database {
  if (database.kind === 'postgres') {
    const pool = new pg.Pool({
      connectionString: database.url,
      max: database.poolMax,
      // A store that does not answer fails the call fast (503) rather than holding it and its socket.
      connectionTimeoutMillis: database.connectTimeoutMs ?? 5_000,
      idleTimeoutMillis: 30_000,
    });
    // An idle connection the server closes (a restart, a failover) is an event, not a crash: the
    // pool replaces it at the next query.
    pool.on('error', onIdleClientError);
    // A connection lost while checked out (a query or transaction under way) fails that query, which reports it;
    // pg also emits 'error' on the client, where the pool listens only while it is idle: without this listener
    // that event would be an uncaught exception, and a store outage would crash the process.
    pool.on('connect', (client) => client.on('error', () => undefined));
    const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }), plugins: [new BooleanPlugin()] });
    postgresPools.set(db, pool);
    return db;
  }
  // The store holds sign-in sessions and encrypted secrets: its folder is the owner's alone (0700).
  const folder = dirname(database.file);
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  chmodSync(folder, 0o700);
  const writes = new WriteCount();
  const db = new Kysely<DB>({ dialect: createSqliteDialect(database.file, writes), plugins: [new BooleanPlugin()] });
  writeCounts.set(db, writes);
  return db;
}

export class MigrationFailedError extends Error {
  constructor(name: string, cause: unknown) {
    super(`Migration ${name} failed and was rolled back: ${cause instanceof Error ? cause.message : String(cause)}`, {
      cause,
    });
    this.name = 'MigrationFailedError';
  }
}

/** Runs every pending migration in one transaction (both stores run DDL transactionally): a failure leaves the store as it was. */
export async function migrateToLatest(db: Database, set: Record<string, Migration> = migrations): Promise<string[]> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => set } });
  const { error, results = [] } = await migrator.migrateToLatest();
  if (error) {
    const failed = results.find((result) => result.status === 'Error');
    throw new MigrationFailedError(failed?.migrationName ?? 'unknown', error);
  }
  return results.filter((result) => result.status === 'Success').map((result) => result.migrationName);
}

/** A cheap round trip, for readiness. */
export async function pingDatabase(db: Database): Promise<void> {
  await sql`select 1`.execute(db);
}
