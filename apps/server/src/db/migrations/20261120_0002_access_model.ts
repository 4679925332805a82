import { PostgresAdapter, sql, type ColumnDefinitionBuilder, type Kysely } from 'kysely';

// Frozen. Collections, their data roles for users and groups, and user groups with nesting.
// data_sources and connections start here with the columns the access model needs; their own
// migrations add the rest.

function identity(db: Kysely<unknown>) {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  return (col: ColumnDefinitionBuilder) =>
    postgres ? col.primaryKey().generatedByDefaultAsIdentity() : col.primaryKey().autoIncrement();
}

export async function up(db: Kysely<unknown>): Promise<void> {
  const id = identity(db);
  await db.schema
    .createTable('app_state')
    .addColumn('key', 'text', (col) => col.primaryKey())
    .addColumn('value', 'text', (col) => col.notNull())
    .execute();

  // Bumped in the same transaction as every change to roles, memberships, nesting or collections,
  // so each server instance knows at its next request whether its cached access model is current.
  await db.schema
    .createTable('access_version')
    .addColumn('id', 'integer', (col) => col.primaryKey())
    .addColumn('version', 'integer', (col) => col.notNull())
    .execute();
  await sql`insert into access_version (id, version) values (1, 0)`.execute(db);

  await db.schema
    .createTable('collections')
    .addColumn('id', 'integer', id)
    .addColumn('uid', 'text', (col) => col.notNull().unique())
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('name_key', 'text', (col) => col.notNull().unique())
    .addColumn('description', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('created_by', 'integer', (col) => col.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .execute();

  await db.schema
    .createTable('user_groups')
    .addColumn('id', 'integer', id)
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('name_key', 'text', (col) => col.notNull().unique())
    .addColumn('description', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .execute();

  await db.schema
    .createTable('user_group_members')
    .addColumn('group_id', 'integer', (col) => col.notNull().references('user_groups.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addPrimaryKeyConstraint('user_group_members_pk', ['group_id', 'user_id'])
    .execute();
  await db.schema
    .createIndex('user_group_members_user_index')
    .on('user_group_members')
    .columns(['user_id', 'group_id'])
    .execute();

  await db.schema
    .createTable('user_group_children')
    .addColumn('parent_id', 'integer', (col) => col.notNull().references('user_groups.id').onDelete('cascade'))
    .addColumn('child_id', 'integer', (col) => col.notNull().references('user_groups.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addPrimaryKeyConstraint('user_group_children_pk', ['parent_id', 'child_id'])
    .addCheckConstraint('user_group_children_not_self', sql`parent_id <> child_id`)
    .execute();
  await db.schema
    .createIndex('user_group_children_child_index')
    .on('user_group_children')
    .columns(['child_id', 'parent_id'])
    .execute();

  for (const [table, subject, target] of [
    ['collection_user_roles', 'user_id', 'users.id'],
    ['collection_group_roles', 'group_id', 'user_groups.id'],
  ] as const) {
    await db.schema
      .createTable(table)
      .addColumn('collection_id', 'integer', (col) => col.notNull().references('collections.id').onDelete('cascade'))
      .addColumn(subject, 'integer', (col) => col.notNull().references(target).onDelete('cascade'))
      .addColumn('role', 'text', (col) => col.notNull().check(sql`role in ('Owner', 'Editor', 'Reader')`))
      .addColumn('created_at', 'text', (col) => col.notNull())
      .addPrimaryKeyConstraint(`${table}_pk`, ['collection_id', subject])
      .execute();
    await db.schema.createIndex(`${table}_${subject}_index`).on(table).columns([subject, 'collection_id']).execute();
  }

  await db.schema
    .createTable('connections')
    .addColumn('id', 'integer', id)
    .addColumn('collection_id', 'integer', (col) => col.notNull().references('collections.id').onDelete('cascade'))
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('kind', 'text', (col) => col.notNull().check(sql`kind in ('sql', 'webapi')`))
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .addUniqueConstraint('connections_collection_name_unique', ['collection_id', 'name'])
    .execute();

  await db.schema
    .createTable('data_sources')
    .addColumn('id', 'integer', id)
    .addColumn('uid', 'text', (col) => col.notNull().unique())
    .addColumn('collection_id', 'integer', (col) => col.notNull().references('collections.id').onDelete('cascade'))
    .addColumn('connection_id', 'integer', (col) => col.references('connections.id').onDelete('restrict'))
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('kind', 'text', (col) => col.notNull().check(sql`kind in ('sql', 'webapi')`))
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('data_sources_collection_index').on('data_sources').column('collection_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'data_sources',
    'connections',
    'collection_group_roles',
    'collection_user_roles',
    'user_group_children',
    'user_group_members',
    'user_groups',
    'collections',
    'app_state',
    'access_version',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
