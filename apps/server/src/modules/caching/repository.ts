import type { Database } from '../../db/database.ts';
import { inIdList } from '../../db/id-list.ts';

// The one query of cache management: the data assets that a page of cache entries belongs to.

export function findAssetNames(db: Database, ids: readonly number[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('data_sources')
    .select(['id', 'uid', 'name'])
    .where(inIdList(db, 'id', ids))
    .execute();
}
