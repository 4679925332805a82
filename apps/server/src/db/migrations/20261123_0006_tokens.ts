import { PostgresAdapter, sql, type ColumnDefinitionBuilder, type Kysely } from 'kysely';

// Frozen. Data Lab tokens (product §14): personal access tokens (a user's, with data roles per collection in
// token_data_roles) and collection tokens (one collection's, Reader). Only a hash of each secret is kept; the
// lookup id (the secret's first characters, random and not secret) finds the row. A collection's deletion revokes
// its tokens in the same transaction, so `collection_id` is set null rather than the row deleted: the token stays
// listed, revoked, for its audit trail. Also: an optional calls-per-minute limit per data source.

function identity(db: Kysely<unknown>) {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  return (col: ColumnDefinitionBuilder) =>
    postgres ? col.primaryKey().generatedByDefaultAsIdentity() : col.primaryKey().autoIncrement();
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('tokens')
    .addColumn('id', 'integer', identity(db))
    .addColumn('kind', 'text', (col) => col.notNull().check(sql`kind in ('personal', 'collection')`))
    .addColumn('name', 'text', (col) => col.notNull())
    /** Lower-cased, trimmed name: unique per owner (or collection) among tokens not revoked. */
    .addColumn('name_key', 'text', (col) => col.notNull())
    .addColumn('owner_user_id', 'integer', (col) => col.references('users.id').onDelete('cascade'))
    .addColumn('collection_id', 'integer', (col) => col.references('collections.id').onDelete('set null'))
    .addColumn('created_by', 'integer', (col) => col.references('users.id').onDelete('set null'))
    .addColumn('lookup_id', 'text', (col) => col.notNull().unique())
    /** SHA-256 of the whole secret, hex. */
    .addColumn('secret_hash', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('expires_at', 'text')
    .addColumn('revoked_at', 'text')
    .addColumn('revoked_by', 'integer', (col) => col.references('users.id').onDelete('set null'))
    .addColumn('last_used_at', 'text')
    .addColumn('last_used_address', 'text')
    .addCheckConstraint(
      'tokens_owner_by_kind',
      sql`(kind = 'personal' and owner_user_id is not null and collection_id is null) or (kind = 'collection' and owner_user_id is null)`,
    )
    .execute();
  await db.schema.createIndex('tokens_owner_index').on('tokens').columns(['owner_user_id', 'created_at']).execute();
  await db.schema
    .createIndex('tokens_collection_index')
    .on('tokens')
    .columns(['collection_id', 'created_at'])
    .execute();
  await db.schema
    .createIndex('tokens_personal_name_unique')
    .on('tokens')
    .columns(['owner_user_id', 'name_key'])
    .unique()
    .where(sql.ref('revoked_at'), 'is', null)
    .execute();
  await db.schema
    .createIndex('tokens_collection_name_unique')
    .on('tokens')
    .columns(['collection_id', 'name_key'])
    .unique()
    .where(sql.ref('revoked_at'), 'is', null)
    .execute();

  await db.schema
    .createTable('token_data_roles')
    .addColumn('token_id', 'integer', (col) => col.notNull().references('tokens.id').onDelete('cascade'))
    .addColumn('collection_id', 'integer', (col) => col.notNull().references('collections.id').onDelete('cascade'))
    .addColumn('role', 'text', (col) => col.notNull().check(sql`role in ('Owner', 'Editor', 'Reader')`))
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addPrimaryKeyConstraint('token_data_roles_pk', ['token_id', 'collection_id'])
    .execute();
  await db.schema
    .createIndex('token_data_roles_collection_index')
    .on('token_data_roles')
    .column('collection_id')
    .execute();

  // Null: the server's RATE_LIMIT_PER_MINUTE applies.
  await db.schema
    .alterTable('data_sources')
    .addColumn('rate_limit_per_minute', 'integer', (col) => col.check(sql`rate_limit_per_minute > 0`))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('data_sources').dropColumn('rate_limit_per_minute').execute();
  await db.schema.dropTable('token_data_roles').execute();
  await db.schema.dropTable('tokens').execute();
}
