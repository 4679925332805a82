import type { Database } from '../../db/database.ts';
import { inIdList } from '../../db/id-list.ts';

// The MCP endpoint's queries.

/** The data assets offered as tools in these collections: available to AI agents, in a collection with MCP on. */
export function findToolAssets(db: Database, collectionIds: readonly number[]) {
  return db
    .selectFrom('data_sources')
    .innerJoin('collections', 'collections.id', 'data_sources.collection_id')
    .select([
      'data_sources.id',
      'data_sources.uid',
      'data_sources.version',
      'data_sources.name',
      'data_sources.description',
      'collections.name as collection_name',
    ])
    .where(inIdList(db, 'data_sources.collection_id', collectionIds))
    .where('data_sources.mcp_available', '=', 1)
    .where('collections.mcp_enabled', '=', 1)
    .where('data_sources.connection_id', 'is not', null)
    .orderBy('collections.name')
    .orderBy('data_sources.name')
    .orderBy('data_sources.id')
    .execute();
}
