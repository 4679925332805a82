import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen. Indexes for the log screen's filters (GetApplicationLogs): each filter with the time order the list
// is read in, so a filtered page is read from its index newest first. On PostgreSQL the message search
// (`lower(message) like '%…%'`) uses a trigram index when the pg_trgm extension is available and the role may
// install it (it is a trusted extension from PostgreSQL 13 on); elsewhere the search reads the records in
// time order and stops at the page and count limits.

export async function up(db: Kysely<unknown>): Promise<void> {
  const indexes: [name: string, columns: string[]][] = [
    ['application_logs_level_index', ['level', 'created_at']],
    ['application_logs_category_index', ['category', 'created_at']],
    ['application_logs_user_index', ['user_id', 'created_at']],
    ['application_logs_request_index', ['request_id', 'created_at']],
  ];
  for (const [name, columns] of indexes) {
    await db.schema.createIndex(name).on('application_logs').columns(columns).execute();
  }
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  const { rows } = await sql<{ installable: boolean }>`
    select exists (select 1 from pg_extension where extname = 'pg_trgm')
        or (exists (select 1 from pg_available_extensions where name = 'pg_trgm')
            and has_database_privilege(current_database(), 'CREATE')) as installable`.execute(db);
  if (!rows[0]?.installable) return;
  await sql`create extension if not exists pg_trgm`.execute(db);
  await sql`create index application_logs_message_trgm_index on application_logs using gin (lower(message) gin_trgm_ops)`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists application_logs_message_trgm_index`.execute(db);
  for (const name of [
    'application_logs_level_index',
    'application_logs_category_index',
    'application_logs_user_index',
    'application_logs_request_index',
  ]) {
    await db.schema.dropIndex(name).execute();
  }
}
