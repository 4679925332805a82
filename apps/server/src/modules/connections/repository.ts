import { sql } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { Collection, Connection } from '../../db/schema.ts';
import { isUniqueViolation } from '../../db/unique-violation.ts';

// Queries on connections. Rules (secrets, paths, uniqueness messages) live in service.ts; the store itself keeps
// names unique per collection, regardless of case.

export type ConnectionWithCount = Connection & { asset_count: number; collection_uid: string };

function withCount(db: Database) {
  return db
    .selectFrom('connections')
    .innerJoin('collections', 'collections.id', 'connections.collection_id')
    .selectAll('connections')
    .select('collections.uid as collection_uid')
    .select((eb) =>
      eb
        .selectFrom('data_sources')
        .select(sql<number>`count(*)`.as('n'))
        .whereRef('data_sources.connection_id', '=', 'connections.id')
        .as('asset_count'),
    )
    .where('connections.kind', '=', 'sql');
}

export async function findConnection(db: Database, id: number): Promise<ConnectionWithCount | undefined> {
  const row = await withCount(db).where('connections.id', '=', id).executeTakeFirst();
  return row ? { ...row, asset_count: Number(row.asset_count) } : undefined;
}

export async function listConnections(db: Database, collectionId: number): Promise<ConnectionWithCount[]> {
  const rows = await withCount(db)
    .where('connections.collection_id', '=', collectionId)
    .orderBy('connections.name')
    .execute();
  return rows.map((row) => ({ ...row, asset_count: Number(row.asset_count) }));
}

/** What makes two names of a collection the same name (migration 0005 keeps it unique per collection). */
export const nameKey = (name: string) => name.toLowerCase();

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
> & { secret?: string | null };

export async function insertConnection(
  db: Database,
  collectionId: number,
  values: ConnectionValues,
  now: string,
): Promise<number> {
  const row = await db
    .insertInto('connections')
    .values({
      ...values,
      name_key: nameKey(values.name),
      collection_id: collectionId,
      kind: 'sql',
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function updateConnectionRow(db: Database, id: number, values: ConnectionValues, now: string) {
  await db
    .updateTable('connections')
    .set({ ...values, name_key: nameKey(values.name), updated_at: now })
    .where('id', '=', id)
    .execute();
}

export async function deleteConnectionRow(db: Database, id: number) {
  await db.deleteFrom('connections').where('id', '=', id).execute();
}

// The collection a connection or a parameter belongs to (route declarations resolve through these).
const asId = (text: string) => (/^\d{1,15}$/.test(text) ? Number(text) : undefined);

export async function findCollectionOfConnection(db: Database, idText: string): Promise<Collection | undefined> {
  const id = asId(idText);
  if (id === undefined) return undefined;
  return db
    .selectFrom('collections')
    .innerJoin('connections', 'connections.collection_id', 'collections.id')
    .selectAll('collections')
    .where('connections.id', '=', id)
    .executeTakeFirst();
}

export async function findCollectionOfParameter(db: Database, idText: string): Promise<Collection | undefined> {
  const id = asId(idText);
  if (id === undefined) return undefined;
  return db
    .selectFrom('collections')
    .innerJoin('data_sources', 'data_sources.collection_id', 'collections.id')
    .innerJoin('parameters', 'parameters.data_source_id', 'data_sources.id')
    .selectAll('collections')
    .where('parameters.id', '=', id)
    .executeTakeFirst();
}
