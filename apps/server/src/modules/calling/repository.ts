import type { Database } from '../../db/database.ts';
import { inIdList } from '../../db/id-list.ts';
import { preparedQuery } from '../../db/prepared.ts';

// Queries of the calling layer's OpenAPI document: the assets of some collections and their parameters.

export function findAssetsOfCollections(db: Database, collectionIds: readonly number[]) {
  return db
    .selectFrom('data_sources')
    .innerJoin('collections', 'collections.id', 'data_sources.collection_id')
    .select([
      'data_sources.id',
      'data_sources.uid',
      'data_sources.name',
      'data_sources.description',
      'data_sources.connection_id',
      'collections.name as collection_name',
    ])
    .where(inIdList(db, 'data_sources.collection_id', collectionIds))
    .orderBy('collections.name')
    .orderBy('data_sources.name')
    .orderBy('data_sources.id')
    .execute();
}

export function findParametersOfAssets(db: Database, dataSourceIds: readonly number[]) {
  return db
    .selectFrom('parameters')
    .select(['data_source_id', 'definition'])
    .where(inIdList(db, 'data_source_id', dataSourceIds))
    .orderBy('data_source_id')
    .orderBy('position')
    .orderBy('id')
    .execute();
}

/** What changes when an asset or its connection is edited: compared before reusing a loaded definition. */
const assetStamp = preparedQuery(
  (db: Database, uid: string) =>
    db
      .selectFrom('data_sources')
      .leftJoin('connections', 'connections.id', 'data_sources.connection_id')
      .select([
        'data_sources.id',
        'data_sources.version',
        'data_sources.updated_at',
        'data_sources.collection_id',
        'data_sources.connection_id',
        'connections.updated_at as connection_updated_at',
      ])
      .where('data_sources.uid', '=', uid),
  ['sample'],
);

/** Read on every call: compiled once (db/prepared.ts). */
export async function findAssetStamp(db: Database, uid: string) {
  const [row] = await assetStamp(db, uid);
  return row;
}
