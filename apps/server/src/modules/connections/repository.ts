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

/** A value the app keeps between starts (app_state), by key. */
export const findAppState = (db: Database, key: string) =>
  db.selectFrom('app_state').select('value').where('key', '=', key).executeTakeFirst();

export async function writeAppState(db: Database, key: string, value: string, exists: boolean): Promise<void> {
  if (exists) await db.updateTable('app_state').set({ value }).where('key', '=', key).execute();
  else await db.insertInto('app_state').values({ key, value }).execute();
}

/** Every SQLite connection's path, with its collection's uid (reach.ts looks for files left where they were). */
export const sqliteConnectionPaths = (db: Database) =>
  db
    .selectFrom('connections')
    .innerJoin('collections', 'collections.id', 'connections.collection_id')
    .select([
      'connections.id as id',
      'connections.name as name',
      'connections.database_name as path',
      'collections.uid as uid',
    ])
    .where('connections.driver', '=', 'sqlite')
    .execute();
