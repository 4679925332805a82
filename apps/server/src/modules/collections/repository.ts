import { sql } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { Collection } from '../../db/schema.ts';
import { inIdList } from '../../db/id-list.ts';

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
    .where((eb) => (numeric !== undefined ? eb.or([eb('data_sources.id', '=', numeric), eb('data_sources.uid', '=', idOrUid)]) : eb('data_sources.uid', '=', idOrUid)))
    .executeTakeFirst();
}

export interface CollectionListRow extends Collection {
  asset_count: number;
}

/** One page of the collections a user can see: those where they hold a role, or all for administrators. */
export async function listCollectionsForUser(
  db: Database,
  options: { ranks: ReadonlyMap<number, number>; seeAll: boolean; search?: string | undefined; limit: number; offset: number },
): Promise<{ rows: CollectionListRow[]; total: number }> {
  const visible = [...options.ranks.keys()];
  if (!options.seeAll && visible.length === 0) return { rows: [], total: 0 };
  let query = db.selectFrom('collections');
  if (!options.seeAll) query = query.where(inIdList(db, 'collections.id', visible));
  if (options.search) {
    const pattern = `%${options.search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    query = query.where((eb) =>
      eb.or([
        eb('collections.name_key', 'like', sql<string>`${pattern} escape '\\'`),
        eb(eb.fn('lower', ['collections.description']), 'like', sql<string>`${pattern} escape '\\'`),
      ]),
    );
  }
  // The total comes with the page (a window count), saving a round trip; only a page past the end
  // needs a count of its own.
  const rows = await query
    .selectAll('collections')
    .select((eb) => [
      eb.selectFrom('data_sources').whereRef('data_sources.collection_id', '=', 'collections.id').select(eb.fn.countAll<number>().as('n')).as('asset_count'),
      sql<number>`count(*) over ()`.as('total_count'),
    ])
    .orderBy('collections.name_key')
    .orderBy('collections.id')
    .limit(options.limit)
    .offset(options.offset)
    .execute();
  const total =
    rows.length > 0
      ? Number(rows[0]?.total_count)
      : Number((await query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow()).total);
  return {
    rows: rows.map(({ total_count: _total, ...row }) => ({ ...row, asset_count: Number(row.asset_count) })),
    total,
  };
}


export async function countAssetsAndConnections(db: Database, collectionId: number) {
  const [assets, connections] = await Promise.all([
    db.selectFrom('data_sources').select((eb) => eb.fn.countAll<number>().as('n')).where('collection_id', '=', collectionId).executeTakeFirstOrThrow(),
    db.selectFrom('connections').select((eb) => eb.fn.countAll<number>().as('n')).where('collection_id', '=', collectionId).executeTakeFirstOrThrow(),
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

export function updateCollectionRow(db: Database, id: number, values: { name: string; description: string; at: string }) {
  return db
    .updateTable('collections')
    .set({ name: values.name, name_key: nameKey(values.name), description: values.description, updated_at: values.at })
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
