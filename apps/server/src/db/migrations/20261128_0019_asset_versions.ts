import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen. The history of every data asset: one row per saved state, numbered 1, 2, … per asset, holding the whole
// definition as JSON (name, description, connection, SQL or Web API request, limits, cache, "available to AI
// agents", parameters, transformations with their rules, client tools with their settings), who saved it, when,
// and the fields that differ from the version before. Assets saved before this table existed get their version 1
// lazily, from their state at the first read of their history or before their next save, so this migration
// copies nothing and needs no application code. Rows go with their asset.

export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable('data_source_versions')
    .addColumn('id', 'integer', (col) =>
      postgres ? col.primaryKey().generatedByDefaultAsIdentity() : col.primaryKey().autoIncrement(),
    )
    .addColumn('data_source_id', 'integer', (col) => col.notNull().references('data_sources.id').onDelete('cascade'))
    .addColumn('version', 'integer', (col) => col.notNull())
    .addColumn('definition', 'text', (col) => col.notNull())
    .addColumn('summary', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('saved_by_user_id', 'integer')
    .addColumn('saved_by_name', 'text')
    .addColumn('saved_at', 'text', (col) => col.notNull())
    .execute();
  await sql`create unique index data_source_versions_asset_version on data_source_versions (data_source_id, version)`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('data_source_versions').execute();
}
