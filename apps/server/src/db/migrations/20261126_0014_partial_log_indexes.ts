import { sql, type Kysely } from 'kysely';

// Frozen. Most application-log records are calls (one per call of the calling layer, category 'call') and most
// records are at level 'info'; a filter on either of those reads the records in time order and finds a page at
// once, so the level and category indexes (0009) need to hold only the other records. Each call's log record then
// maintains three secondary indexes instead of five (docs/decisions.md 121). The log search adds the matching
// `level <> 'info'` / `category <> 'call'` term to a filter these indexes serve (modules/application-logs).

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('application_logs_level_index').execute();
  await db.schema.dropIndex('application_logs_category_index').execute();
  await sql`create index application_logs_level_index on application_logs (level, created_at) where level <> 'info'`.execute(
    db,
  );
  await sql`create index application_logs_category_index on application_logs (category, created_at) where category <> 'call'`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('application_logs_level_index').execute();
  await db.schema.dropIndex('application_logs_category_index').execute();
  await db.schema
    .createIndex('application_logs_level_index')
    .on('application_logs')
    .columns(['level', 'created_at'])
    .execute();
  await db.schema
    .createIndex('application_logs_category_index')
    .on('application_logs')
    .columns(['category', 'created_at'])
    .execute();
}
