import { PostgresAdapter, sql, type ColumnDefinitionBuilder, type Kysely } from 'kysely';

// Frozen. SQL connections and data sources: the columns the engine needs on connections and
// data_sources, and their ordered parameters, transformations (with ordered rules) and client tool
// configurations. JSON is stored as text in both stores. SQLite adds one column per ALTER.

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
  // 'sql' connections name their database engine here; the existing kind column stays 'sql' | 'webapi'.
  ['driver', 'text', (col) => col.check(sql`driver in ('postgres', 'mysql', 'sqlite')`)],
  ['description', 'text', (col) => col.notNull().defaultTo('')],
  ['host', 'text'],
  ['port', 'integer'],
  ['database_name', 'text'],
  ['username', 'text'],
  /** Sealed with lib/secrets.ts; never returned. */
  ['secret', 'text'],
  ['options', 'text', (col) => col.notNull().defaultTo('{}')],
  ['pool_max', 'integer', (col) => col.notNull().defaultTo(5)],
  ['acquire_timeout_ms', 'integer', (col) => col.notNull().defaultTo(2000)],
];

const dataSourceColumns: Column[] = [
  ['description', 'text', (col) => col.notNull().defaultTo('')],
  ['sql_text', 'text', (col) => col.notNull().defaultTo('')],
  ['version', 'integer', (col) => col.notNull().defaultTo(1)],
  ['cache_ttl_seconds', 'integer', (col) => col.notNull().defaultTo(0)],
  ['row_cap', 'integer', (col) => col.notNull().defaultTo(1000)],
  ['timeout_ms', 'integer', (col) => col.notNull().defaultTo(30000)],
  ['max_export_rows', 'integer', (col) => col.notNull().defaultTo(1000000)],
];

export async function up(db: Kysely<unknown>): Promise<void> {
  const id = identity(db);
  for (const [table, columns] of [
    ['connections', connectionColumns],
    ['data_sources', dataSourceColumns],
  ] as const) {
    for (const [name, type, build] of columns) {
      await db.schema
        .alterTable(table)
        .addColumn(name, type, build ?? ((col) => col))
        .execute();
    }
  }
  await db.schema.createIndex('data_sources_connection_index').on('data_sources').column('connection_id').execute();

  await db.schema
    .createTable('parameters')
    .addColumn('id', 'integer', id)
    .addColumn('data_source_id', 'integer', (col) => col.notNull().references('data_sources.id').onDelete('cascade'))
    .addColumn('position', 'integer', (col) => col.notNull())
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('definition', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .addUniqueConstraint('parameters_data_source_name_unique', ['data_source_id', 'name'])
    .execute();

  await db.schema
    .createTable('transformations')
    .addColumn('id', 'integer', id)
    .addColumn('data_source_id', 'integer', (col) => col.notNull().references('data_sources.id').onDelete('cascade'))
    .addColumn('position', 'integer', (col) => col.notNull())
    .addColumn('name', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('transformations_data_source_index')
    .on('transformations')
    .column('data_source_id')
    .execute();

  await db.schema
    .createTable('transformation_rules')
    .addColumn('id', 'integer', id)
    .addColumn('transformation_id', 'integer', (col) =>
      col.notNull().references('transformations.id').onDelete('cascade'),
    )
    .addColumn('position', 'integer', (col) => col.notNull())
    .addColumn('rule', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('transformation_rules_transformation_index')
    .on('transformation_rules')
    .column('transformation_id')
    .execute();

  await db.schema
    .createTable('client_tool_configurations')
    .addColumn('id', 'integer', id)
    .addColumn('data_source_id', 'integer', (col) => col.notNull().references('data_sources.id').onDelete('cascade'))
    .addColumn('tool', 'text', (col) =>
      col.notNull().check(sql`tool in ('curl', 'python', 'r', 'javascript', 'powerquery', 'powerbi')`),
    )
    .addColumn('settings', 'text', (col) => col.notNull().defaultTo('{}'))
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .addUniqueConstraint('client_tool_configurations_unique', ['data_source_id', 'tool'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['client_tool_configurations', 'transformation_rules', 'transformations', 'parameters']) {
    await db.schema.dropTable(table).execute();
  }
  await db.schema.dropIndex('data_sources_connection_index').execute();
  for (const [table, columns] of [
    ['data_sources', dataSourceColumns],
    ['connections', connectionColumns],
  ] as const) {
    for (const [name] of columns) await db.schema.alterTable(table).dropColumn(name).execute();
  }
}
