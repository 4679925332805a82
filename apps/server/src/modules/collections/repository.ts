import { sql } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { Collection } from '../../db/schema.ts';
import { inIdList } from '../../db/id-list.ts';
import { likeContains } from '../../db/like.ts';
import { pageWithTotal, windowTotal } from '../../db/page-total.ts';
import type { SortDirection } from '@datalab/contract/paging';

export const nameKey = (name: string) => name.trim().toLowerCase();

export function findCollectionByUid(db: Database, uid: string): Promise<Collection | undefined> {
  return db.selectFrom('collections').selectAll().where('uid', '=', uid).executeTakeFirst();
}

export function findCollectionByName(db: Database, name: string): Promise<Collection | undefined> {
  return db.selectFrom('collections').selectAll().where('name_key', '=', nameKey(name)).executeTakeFirst();
}

export async function findCollectionByDataAsset(db: Database, idOrUid: string): Promise<Collection | undefined> {
  const numeric = /^\d+$/.test(idOrUid) ? Number(idOrUid) : undefined;
  return db
    .selectFrom('collections')
    .innerJoin('data_sources', 'data_sources.collection_id', 'collections.id')
    .selectAll('collections')
    .where((eb) =>
      numeric !== undefined
        ? eb.or([eb('data_sources.id', '=', numeric), eb('data_sources.uid', '=', idOrUid)])
        : eb('data_sources.uid', '=', idOrUid),
    )
    .executeTakeFirst();
}

const SORT_COLUMNS = {
  name: 'collections.name_key',
  createdAt: 'collections.created_at',
  updatedAt: 'collections.updated_at',
} as const;

export interface CollectionListRow extends Collection {
  asset_count: number;
}

/** One page of the collections a user can see: those where they hold a role, or all for administrators. */
export async function listCollectionsForUser(
  db: Database,
  options: {
    ranks: ReadonlyMap<number, number>;
    seeAll: boolean;
    search?: string | undefined;
    sortBy: 'name' | 'createdAt' | 'updatedAt';
    sortDirection: SortDirection;
    limit: number;
    offset: number;
  },
): Promise<{ rows: CollectionListRow[]; total: number }> {
  const visible = [...options.ranks.keys()];
  if (!options.seeAll && visible.length === 0) return { rows: [], total: 0 };
  let query = db.selectFrom('collections');
  if (!options.seeAll) query = query.where(inIdList(db, 'collections.id', visible));
  if (options.search) {
    const search = options.search;
    query = query.where((eb) =>
      eb.or([
        eb('collections.name_key', 'like', likeContains(search)),
        eb(eb.fn('lower', ['collections.description']), 'like', likeContains(search)),
      ]),
    );
  }
  const rows = await query
    .selectAll('collections')
    .select((eb) => [
      eb
        .selectFrom('data_sources')
        .whereRef('data_sources.collection_id', '=', 'collections.id')
        .select(eb.fn.countAll<number>().as('n'))
        .as('asset_count'),
      windowTotal(),
    ])
    .orderBy(SORT_COLUMNS[options.sortBy], options.sortDirection)
    .orderBy('collections.id', options.sortDirection)
    .limit(options.limit)
    .offset(options.offset)
    .execute();
  const page = await pageWithTotal(
    rows,
    async () => (await query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n,
  );
  return {
    rows: page.rows.map((row) => ({ ...row, asset_count: Number(row.asset_count) })),
    total: page.total,
  };
}

export async function countAssetsAndConnections(db: Database, collectionId: number) {
  const [assets, connections] = await Promise.all([
    db
      .selectFrom('data_sources')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('collection_id', '=', collectionId)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('connections')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('collection_id', '=', collectionId)
      .executeTakeFirstOrThrow(),
  ]);
  return { assetCount: Number(assets.n), connectionCount: Number(connections.n) };
}

export function insertCollection(
  db: Database,
  values: { uid: string; name: string; description: string; createdBy: number; at: string },
): Promise<Collection> {
  return db
    .insertInto('collections')
    .values({
      uid: values.uid,
      name: values.name,
      name_key: nameKey(values.name),
      description: values.description,
      created_by: values.createdBy,
      created_at: values.at,
      updated_at: values.at,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export function updateCollectionRow(
  db: Database,
  id: number,
  values: { name: string; description: string; mcpEnabled?: boolean | undefined; at: string },
) {
  return db
    .updateTable('collections')
    .set({
      name: values.name,
      name_key: nameKey(values.name),
      description: values.description,
      ...(values.mcpEnabled === undefined ? {} : { mcp_enabled: values.mcpEnabled ? 1 : 0 }),
      updated_at: values.at,
    })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export function deleteCollectionRow(db: Database, id: number) {
  return db.deleteFrom('collections').where('id', '=', id).execute();
}

export function findUserRef(db: Database, id: number | null) {
  if (id === null) return Promise.resolve(undefined);
  return db.selectFrom('users').select(['id', 'name', 'username']).where('id', '=', id).executeTakeFirst();
}

/** Direct Owners and groups holding Owner, by name. */
export async function findOwners(db: Database, collectionId: number) {
  const [users, groups] = await Promise.all([
    db
      .selectFrom('collection_user_roles')
      .innerJoin('users', 'users.id', 'collection_user_roles.user_id')
      .select(['users.id', 'users.name', 'users.username'])
      .where('collection_user_roles.collection_id', '=', collectionId)
      .where('collection_user_roles.role', '=', 'Owner')
      .orderBy(sql`lower(users.name)`)
      .execute(),
    db
      .selectFrom('collection_group_roles')
      .innerJoin('user_groups', 'user_groups.id', 'collection_group_roles.group_id')
      .select(['user_groups.id', 'user_groups.name'])
      .where('collection_group_roles.collection_id', '=', collectionId)
      .where('collection_group_roles.role', '=', 'Owner')
      .orderBy('user_groups.name_key')
      .execute(),
  ]);
  return { users, groups };
}

export function insertOwnerRole(db: Database, collectionId: number, userId: number, at: string) {
  return db
    .insertInto('collection_user_roles')
    .values({ collection_id: collectionId, user_id: userId, role: 'Owner', created_at: at })
    .execute();
}

/** The ids of a collection's data assets. */
export const assetIdsOfCollection = (db: Database, collectionId: number) =>
  db.selectFrom('data_sources').select('id').where('collection_id', '=', collectionId).execute();
