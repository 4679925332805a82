import { PostgresAdapter, sql, type ColumnDefinitionBuilder, type Kysely } from 'kysely';

// Frozen: migrations never import application code. Types that differ between SQLite and
// PostgreSQL are chosen through the dialect-neutral builder (integer, text) only.

function identity(db: Kysely<unknown>) {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  return (col: ColumnDefinitionBuilder) =>
    postgres ? col.primaryKey().generatedByDefaultAsIdentity() : col.primaryKey().autoIncrement();
}

export async function up(db: Kysely<unknown>): Promise<void> {
  const id = identity(db);
  await db.schema
    .createTable('users')
    .addColumn('id', 'integer', id)
    .addColumn('issuer', 'text', (col) => col.notNull())
    .addColumn('subject', 'text', (col) => col.notNull())
    .addColumn('username', 'text')
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('email', 'text')
    .addColumn('can_manage_users', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('is_active', 'integer', (col) => col.notNull().defaultTo(1))
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .addColumn('last_seen_at', 'text')
    .addUniqueConstraint('users_issuer_subject_unique', ['issuer', 'subject'])
    .execute();
  await db.schema.createIndex('users_username_index').on('users').column('username').execute();

  await db.schema
    .createTable('application_logs')
    .addColumn('id', 'integer', id)
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('level', 'text', (col) => col.notNull())
    .addColumn('category', 'text', (col) => col.notNull())
    .addColumn('message', 'text', (col) => col.notNull())
    .addColumn('request_id', 'text')
    .addColumn('user_id', 'integer')
    .addColumn('details', 'text')
    .execute();
  await db.schema
    .createIndex('application_logs_created_at_index')
    .on('application_logs')
    .column('created_at')
    .execute();

  await db.schema
    .createTable('demo_accounts')
    .addColumn('username', 'text', (col) => col.primaryKey())
    .addColumn('password_hash', 'text', (col) => col.notNull())
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('email', 'text', (col) => col.notNull())
    .addColumn('description', 'text', (col) => col.notNull())
    .addColumn('can_manage_users', 'integer', (col) => col.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable('oidc_payloads')
    .addColumn('id', 'text', (col) => col.notNull())
    .addColumn('kind', 'text', (col) => col.notNull())
    .addColumn('payload', 'text', (col) => col.notNull())
    .addColumn('grant_id', 'text')
    .addColumn('user_code', 'text')
    .addColumn('uid', 'text')
    .addColumn('expires_at', sql`bigint`)
    .addColumn('consumed_at', sql`bigint`)
    .addPrimaryKeyConstraint('oidc_payloads_pk', ['kind', 'id'])
    .execute();
  await db.schema.createIndex('oidc_payloads_grant_index').on('oidc_payloads').column('grant_id').execute();
  await db.schema.createIndex('oidc_payloads_uid_index').on('oidc_payloads').column('uid').execute();
  await db.schema.createIndex('oidc_payloads_expires_index').on('oidc_payloads').column('expires_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['oidc_payloads', 'demo_accounts', 'application_logs', 'users']) {
    await db.schema.dropTable(table).execute();
  }
}
