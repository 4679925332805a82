import { LRUCache } from 'lru-cache';
import { storeWriteCount, type Database } from '../../db/database.ts';
import { loadDefinition, type DataSourceDefinition } from '../data-sources/definition.service.ts';
import { findAssetStamp } from './repository.ts';

// Loaded definitions, reused while the asset and its connection are unchanged. A call reads one row (the
// asset's version and both rows' update times) instead of the seven reads of a whole definition; any edit of
// the asset, its parameters, transformations or client tools bumps its version, and an edit of the connection
// moves its update time, so the next call loads afresh — on every instance, since each compares with the store.
// The embedded store is this process's alone: there the stamp is read again only after a write.

type SqlRuntime = Parameters<typeof loadDefinition>[2];

const MAX_DEFINITIONS = 2_000;
/** A bound on how long anything the stamp does not cover could be reused. */
const REUSE_MS = 10 * 60_000;

interface Entry {
  stamp: string;
  definition: DataSourceDefinition;
  /** The embedded store's write count when the stamp was read (storeWriteCount). */
  writes: number | undefined;
}

export class DefinitionCache {
  readonly #entries = new LRUCache<string, Entry>({ max: MAX_DEFINITIONS, ttl: REUSE_MS });

  async load(db: Database, uid: string, runtime: SqlRuntime): Promise<DataSourceDefinition | undefined> {
    // The embedded store belongs to this process: with no write since the stamp was read, the stamp is the same.
    const writes = storeWriteCount(db);
    const reused = this.#entries.get(uid);
    if (reused && writes !== undefined && reused.writes === writes) return reused.definition;
    const row = await findAssetStamp(db, uid);
    if (!row) return undefined;
    const stamp = [
      row.id,
      row.version,
      row.updated_at,
      row.collection_id,
      row.connection_id,
      row.connection_updated_at,
    ].join('|');
    const known = this.#entries.get(uid);
    if (known?.stamp === stamp) {
      known.writes = writes;
      return known.definition;
    }
    // Read after the stamp: the definition is at least as new as the stamp it is kept under.
    const definition = await loadDefinition(db, uid, runtime);
    if (definition) this.#entries.set(uid, { stamp, definition, writes });
    return definition;
  }
}
