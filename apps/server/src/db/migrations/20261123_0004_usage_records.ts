import { PostgresAdapter, type ColumnDefinitionBuilder, type Kysely } from 'kysely';

// Frozen. One row per call of a data source (product §15 "Usage"), appended in batches off the request path.
// No foreign keys: the records outlive the users, assets and collections they name (the metrics read history),
// and an append-only table written in batches should not check three other tables per row.

function identity(db: Kysely<unknown>) {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  return (col: ColumnDefinitionBuilder) =>
    postgres ? col.primaryKey().generatedByDefaultAsIdentity() : col.primaryKey().autoIncrement();
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('usage_records')
    .addColumn('id', 'integer', identity(db))
    .addColumn('at', 'text', (col) => col.notNull())
    .addColumn('user_id', 'integer')
    .addColumn('token_id', 'integer')
    .addColumn('data_source_id', 'integer')
    .addColumn('data_source_uid', 'text', (col) => col.notNull())
    .addColumn('collection_id', 'integer')
    .addColumn('channel', 'text', (col) => col.notNull())
    .addColumn('format', 'text', (col) => col.notNull())
    .addColumn('status', 'integer', (col) => col.notNull())
    .addColumn('duration_ms', 'integer', (col) => col.notNull())
    .addColumn('row_count', 'bigint', (col) => col.notNull())
    .addColumn('byte_count', 'bigint', (col) => col.notNull())
    .addColumn('cache_hit', 'integer', (col) => col.notNull())
    .addColumn('request_id', 'text')
    .execute();
  await db.schema.createIndex('usage_records_at_index').on('usage_records').column('at').execute();
  await db.schema
    .createIndex('usage_records_data_source_index')
    .on('usage_records')
    .columns(['data_source_id', 'at'])
    .execute();
  await db.schema.createIndex('usage_records_user_index').on('usage_records').columns(['user_id', 'at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('usage_records').execute();
}
