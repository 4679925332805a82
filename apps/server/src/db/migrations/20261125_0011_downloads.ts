import { sql, type Kysely } from 'kysely';

// Frozen. Download jobs (product §15 "Downloads"): one row per job, the same in both queue modes (the queue carries
// only ids). The id is random and URL-safe, never sequential. Owner: the user, or for a collection token (which
// acts for no person) the token itself. At most one active job per dedupe key: a unique index over the active
// states, which both stores support (a partial index), so two identical requests at the same instant make one row.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('download_jobs')
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
    .addColumn('state', 'text', (col) =>
      col.notNull().check(sql`state in ('Queued', 'Running', 'Completed', 'Failed', 'Expired')`),
    )
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

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('download_jobs').execute();
}
