import type { Database } from '../../db/database.ts';
import type { Collection } from '../../db/schema.ts';
import { requireAsset } from './assets.service.ts';

// The assets that may feed an asset's parameters: the others of its collection, with their parameter names
// (a dependent parameter's source takes its parents' values through parameters of the same names).

export async function parameterDataSources(db: Database, collection: Collection, assetId: string) {
  const source = await requireAsset(db, assetId);
  const [assets, parameters] = await Promise.all([
    db
      .selectFrom('data_sources')
      .select(['id', 'uid', 'name'])
      .where('collection_id', '=', collection.id)
      .where('id', '<>', source.id)
      .orderBy('name')
      .execute(),
    db
      .selectFrom('parameters')
      .innerJoin('data_sources', 'data_sources.id', 'parameters.data_source_id')
      .select(['parameters.data_source_id', 'parameters.name'])
      .where('data_sources.collection_id', '=', collection.id)
      .orderBy('parameters.position')
      .execute(),
  ]);
  return assets.map((a) => ({
    ...a,
    parameterNames: parameters.filter((p) => p.data_source_id === a.id).map((p) => p.name),
  }));
}
