import type { Database } from '../../db/database.ts';
import type { Collection } from '../../db/schema.ts';
import { requireAsset } from './assets.service.ts';
import { otherAssetsOfCollection, parameterNamesOfCollection } from './repository.ts';

// The assets that may feed an asset's parameters: the others of its collection, with their parameter names
// (a dependent parameter's source takes its parents' values through parameters of the same names).

export async function parameterDataSources(db: Database, collection: Collection, assetId: string) {
  const source = await requireAsset(db, assetId);
  const [assets, parameters] = await Promise.all([
    otherAssetsOfCollection(db, collection.id, source.id),
    parameterNamesOfCollection(db, collection.id),
  ]);
  return assets.map((a) => ({
    ...a,
    parameterNames: parameters.filter((p) => p.data_source_id === a.id).map((p) => p.name),
  }));
}
