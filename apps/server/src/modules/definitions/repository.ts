import type { Database } from '../../db/database.ts';
import type { Collection } from '../../db/schema.ts';

// A collection's whole state in a fixed number of queries, whatever its size (an export or a plan of 500 assets
// reads seven result sets, not 2,000): connections, credentials, assets with their parameters, transformations,
// rules and client tools, and the roles held on it with the group names and usernames they name.

export async function loadCollectionState(db: Database, collection: Collection) {
  const assetIds = db.selectFrom('data_sources').select('id').where('collection_id', '=', collection.id);
  const [connections, credentials, assets, parameters, transformations, rules, tools, users, groups] =
    await Promise.all([
      db.selectFrom('connections').selectAll().where('collection_id', '=', collection.id).orderBy('id').execute(),
      db
        .selectFrom('web_api_credentials')
        .selectAll()
        .where(
          'connection_id',
          'in',
          db.selectFrom('connections').select('id').where('collection_id', '=', collection.id),
        )
        .orderBy('id')
        .execute(),
      db.selectFrom('data_sources').selectAll().where('collection_id', '=', collection.id).orderBy('id').execute(),
      db
        .selectFrom('parameters')
        .selectAll()
        .where('data_source_id', 'in', assetIds)
        .orderBy('data_source_id')
        .orderBy('position')
        .orderBy('id')
        .execute(),
      db
        .selectFrom('transformations')
        .selectAll()
        .where('data_source_id', 'in', assetIds)
        .orderBy('data_source_id')
        .orderBy('position')
        .orderBy('id')
        .execute(),
      db
        .selectFrom('transformation_rules')
        .innerJoin('transformations', 'transformations.id', 'transformation_rules.transformation_id')
        .select(['transformation_rules.transformation_id', 'transformation_rules.rule'])
        .where('transformations.data_source_id', 'in', assetIds)
        .orderBy('transformation_rules.transformation_id')
        .orderBy('transformation_rules.position')
        .orderBy('transformation_rules.id')
        .execute(),
      db
        .selectFrom('client_tool_configurations')
        .selectAll()
        .where('data_source_id', 'in', assetIds)
        .orderBy('id')
        .execute(),
      db
        .selectFrom('collection_user_roles')
        .innerJoin('users', 'users.id', 'collection_user_roles.user_id')
        .select(['users.id', 'users.username', 'collection_user_roles.role'])
        .where('collection_user_roles.collection_id', '=', collection.id)
        .execute(),
      db
        .selectFrom('collection_group_roles')
        .innerJoin('user_groups', 'user_groups.id', 'collection_group_roles.group_id')
        .select(['user_groups.id', 'user_groups.name', 'collection_group_roles.role'])
        .where('collection_group_roles.collection_id', '=', collection.id)
        .execute(),
    ]);
  return { collection, connections, credentials, assets, parameters, transformations, rules, tools, users, groups };
}

export type CollectionState = Awaited<ReturnType<typeof loadCollectionState>>;

/** Groups by name (case-insensitive), for the roles a document grants. */
export function findGroupsByName(db: Database, names: readonly string[]) {
  if (names.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('user_groups')
    .select(['id', 'name', 'name_key'])
    .where(
      'name_key',
      'in',
      names.map((n) => n.toLowerCase()),
    )
    .execute();
}

/** Active users by username. */
export function findUsersByUsername(db: Database, usernames: readonly string[]) {
  if (usernames.length === 0) return Promise.resolve([]);
  return db.selectFrom('users').select(['id', 'username']).where('username', 'in', usernames).execute();
}

/** Deletes a SQL connection (apply checked that no asset that stays uses it). */
export async function deleteSqlConnectionRow(db: Database, id: number) {
  await db.deleteFrom('connections').where('id', '=', id).where('kind', '=', 'sql').execute();
}
