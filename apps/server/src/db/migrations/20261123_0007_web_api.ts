import { PostgresAdapter, sql, type ColumnDefinitionBuilder, type Kysely } from 'kysely';

// Frozen. Web API connections, their credentials and Web API data sources. A 'webapi' connection keeps
// its base URL, default headers and allowed internal hosts (JSON text), its timeouts and reply limits; pool_max and
// acquire_timeout_ms (migration 0003) are its concurrent requests and their wait. Credentials are several per
// connection: kind, non-secret settings (JSON) and the secret sealed with lib/secrets.ts. A data source keeps its
// request definition (JSON) and the credential it sends (one of its connection's, or none).

function identity(db: Kysely<unknown>) {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  return (col: ColumnDefinitionBuilder) =>
    postgres ? col.primaryKey().generatedByDefaultAsIdentity() : col.primaryKey().autoIncrement();
}

type Column = [
  name: string,
  type: 'text' | 'integer',
  build?: (col: ColumnDefinitionBuilder) => ColumnDefinitionBuilder,
];

const connectionColumns: Column[] = [
  ['base_url', 'text'],
  /** JSON object: header name → value, sent with every request. */
  ['default_headers', 'text', (col) => col.notNull().defaultTo('{}')],
  /** JSON array of 'host' or 'host:port' the outbound guard lets through although internal. */
  ['allowed_hosts', 'text', (col) => col.notNull().defaultTo('[]')],
  ['connect_timeout_ms', 'integer', (col) => col.notNull().defaultTo(5000)],
  ['headers_timeout_ms', 'integer', (col) => col.notNull().defaultTo(15000)],
  ['body_timeout_ms', 'integer', (col) => col.notNull().defaultTo(30000)],
  ['max_reply_bytes', 'integer', (col) => col.notNull().defaultTo(16 * 1024 * 1024)],
  ['max_pages', 'integer', (col) => col.notNull().defaultTo(1000)],
  ['retries', 'integer', (col) => col.notNull().defaultTo(2)],
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const [name, type, build] of connectionColumns) {
    await db.schema
      .alterTable('connections')
      .addColumn(name, type, build ?? ((col) => col))
      .execute();
  }

  await db.schema
    .createTable('web_api_credentials')
    .addColumn('id', 'integer', identity(db))
    .addColumn('connection_id', 'integer', (col) => col.notNull().references('connections.id').onDelete('cascade'))
    .addColumn('name', 'text', (col) => col.notNull())
    /** The name in lower case: unique per connection. */
    .addColumn('name_key', 'text', (col) => col.notNull())
    .addColumn('kind', 'text', (col) => col.notNull().check(sql`kind in ('api-key', 'basic', 'bearer', 'oauth2')`))
    /** JSON object of the non-secret settings (header name, user name, token URL, client id, ...). */
    .addColumn('settings', 'text', (col) => col.notNull().defaultTo('{}'))
    /** Sealed; never returned, never logged. */
    .addColumn('secret', 'text')
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .addUniqueConstraint('web_api_credentials_name_unique', ['connection_id', 'name_key'])
    .execute();

  await db.schema.alterTable('data_sources').addColumn('request_definition', 'text').execute();
  // No action (checked at the end of the statement): a collection's deletion removes its assets and, through its
  // connections, their credentials in one cascade; deleting a credential an asset sends is refused (409) before.
  await db.schema
    .alterTable('data_sources')
    .addColumn('credential_id', 'integer', (col) => col.references('web_api_credentials.id'))
    .execute();
  await db.schema.createIndex('data_sources_credential_index').on('data_sources').column('credential_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('data_sources_credential_index').execute();
  await db.schema.alterTable('data_sources').dropColumn('credential_id').execute();
  await db.schema.alterTable('data_sources').dropColumn('request_definition').execute();
  await db.schema.dropTable('web_api_credentials').execute();
  for (const [name] of connectionColumns) await db.schema.alterTable('connections').dropColumn(name).execute();
}
