import type { Database } from '../../db/database.ts';
import {
  findCollectionOfConnectionRow,
  findConnectionRow,
  idFromPath,
  insertConnectionRow,
  listConnectionRows,
  updateConnectionRow as updateRow,
  type ConnectionWithCount,
} from '../../db/connection-rows.ts';
import type { Collection, Connection } from '../../db/schema.ts';
import { isUniqueViolation } from '../../db/unique-violation.ts';

// Queries on SQL connections (connections of kind 'sql', db/connection-rows.ts). Rules (secrets, paths, uniqueness
// messages) live in service.ts; the store itself keeps names unique per collection, regardless of case.

export type { ConnectionWithCount } from '../../db/connection-rows.ts';

export const findConnection = (db: Database, id: number): Promise<ConnectionWithCount | undefined> =>
  findConnectionRow(db, 'sql', id);

export const listConnections = (db: Database, collectionId: number): Promise<ConnectionWithCount[]> =>
  listConnectionRows(db, 'sql', collectionId);

/**
 * True when a write failed on one of the connection name constraints: a name taken in the collection, perhaps by
 * a creation at the same instant (PostgreSQL unique_violation, SQLite SQLITE_CONSTRAINT_UNIQUE).
 */
export const isNameTaken = (error: unknown): boolean =>
  isUniqueViolation(error, {
    postgres: 'connections_collection',
    sqlite: 'connections.collection_id, connections.name',
  });

export type ConnectionValues = Pick<
  Connection,
  | 'name'
  | 'description'
  | 'driver'
  | 'host'
  | 'port'
  | 'database_name'
  | 'username'
  | 'options'
  | 'pool_max'
  | 'acquire_timeout_ms'
> & { secret?: string | null; allow_privileged_account?: number };

export const insertConnection = (db: Database, collectionId: number, values: ConnectionValues, now: string) =>
  insertConnectionRow(db, 'sql', collectionId, values, now);

export const updateConnectionRow = (db: Database, id: number, values: ConnectionValues, now: string) =>
  updateRow(db, 'sql', id, values, now);

export async function deleteConnectionRow(db: Database, id: number) {
  await db.deleteFrom('connections').where('id', '=', id).execute();
}

// The collection a connection or a parameter belongs to (route declarations resolve through these).
export const findCollectionOfConnection = (db: Database, idText: string): Promise<Collection | undefined> =>
  findCollectionOfConnectionRow(db, idText);

export async function findCollectionOfParameter(db: Database, idText: string): Promise<Collection | undefined> {
  const id = idFromPath(idText);
  if (id === undefined) return undefined;
  return db
    .selectFrom('collections')
    .innerJoin('data_sources', 'data_sources.collection_id', 'collections.id')
    .innerJoin('parameters', 'parameters.data_source_id', 'data_sources.id')
    .selectAll('collections')
    .where('parameters.id', '=', id)
    .executeTakeFirst();
}
