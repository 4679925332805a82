import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen. A download job may be Cancelled by its owner (POST /api/Download/{id}/Cancel): the state's check gains
// that value. PostgreSQL replaces the column's check constraint; SQLite cannot change a constraint, so the table
// is rebuilt with the same columns and indexes (0011) and the rows copied.

const STATES = sql`('Queued', 'Running', 'Completed', 'Failed', 'Expired', 'Cancelled')`;
const OLD_STATES = sql`('Queued', 'Running', 'Completed', 'Failed', 'Expired')`;

async function rebuildSqlite(db: Kysely<unknown>, states: typeof STATES): Promise<void> {
  await db.schema
    .createTable('download_jobs_next')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('owner_user_id', 'integer')
    .addColumn('owner_token_id', 'integer')
    .addColumn('token_id', 'integer')
    .addColumn('data_source_id', 'integer', (col) => col.notNull())
    .addColumn('data_source_uid', 'text', (col) => col.notNull())
    .addColumn('data_source_version', 'integer', (col) => col.notNull())
    .addColumn('collection_id', 'integer', (col) => col.notNull())
    .addColumn('asset_name', 'text', (col) => col.notNull())
    .addColumn('format', 'text', (col) => col.notNull())
    .addColumn('parameters', 'text', (col) => col.notNull())
    .addColumn('dedupe_key', 'text', (col) => col.notNull())
    .addColumn('state', 'text', (col) => col.notNull().check(sql`state in ${states}`))
    .addColumn('row_count', 'bigint', (col) => col.notNull().defaultTo(0))
    .addColumn('size', 'bigint')
    .addColumn('truncated', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('message', 'text')
    .addColumn('file_name', 'text', (col) => col.notNull())
    .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('request_id', 'text')
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('started_at', 'text')
    .addColumn('heartbeat_at', 'text')
    .addColumn('finished_at', 'text')
    .addColumn('expires_at', 'text')
    .execute();
  await sql`insert into download_jobs_next select * from download_jobs`.execute(db);
  await db.schema.dropTable('download_jobs').execute();
  await sql`alter table download_jobs_next rename to download_jobs`.execute(db);
  await sql`create unique index download_jobs_active_dedupe on download_jobs (dedupe_key) where state in ('Queued', 'Running')`.execute(
    db,
  );
  await db.schema
    .createIndex('download_jobs_owner_index')
    .on('download_jobs')
    .columns(['owner_user_id', 'created_at'])
    .execute();
  await db.schema.createIndex('download_jobs_state_index').on('download_jobs').columns(['state']).execute();
}

async function replaceCheck(db: Kysely<unknown>, states: typeof STATES): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`alter table download_jobs drop constraint download_jobs_state_check`.execute(db);
    await sql`alter table download_jobs add constraint download_jobs_state_check check (state in ${states})`.execute(
      db,
    );
    return;
  }
  await rebuildSqlite(db, states);
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await replaceCheck(db, STATES);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`delete from download_jobs where state = 'Cancelled'`.execute(db);
  await replaceCheck(db, OLD_STATES);
}
