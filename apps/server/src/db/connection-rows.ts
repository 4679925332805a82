import { sql, type Insertable } from 'kysely';
import type { Database } from './database.ts';
import type { Collection, Connection, ConnectionsTable } from './schema.ts';

// The rows of the connections table for both kinds: SQL connections (modules/connections) and Web API connections
// (modules/web-api) ask here for their own kind. Names are unique per collection in lower case (migration 0005),
// whatever the kind.

export type ConnectionKind = ConnectionsTable['kind'];

/** A connection with its collection's uid and how many data assets use it. */
export type ConnectionWithCount = Connection & { asset_count: number; collection_uid: string };

/** What a create or an edit writes: the columns of one kind; the name key, owner, kind and times are added here. */
export type ConnectionColumns = Omit<
  Insertable<ConnectionsTable>,
  'id' | 'collection_id' | 'name_key' | 'kind' | 'created_at' | 'updated_at'
>;

/** What makes two names of a collection the same name. */
const nameKey = (name: string) => name.toLowerCase();

function withCount(db: Database, kind: ConnectionKind) {
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
    .where('connections.kind', '=', kind);
}

export async function findConnectionRow(
  db: Database,
  kind: ConnectionKind,
  id: number,
): Promise<ConnectionWithCount | undefined> {
  const row = await withCount(db, kind).where('connections.id', '=', id).executeTakeFirst();
  return row ? { ...row, asset_count: Number(row.asset_count) } : undefined;
}

export async function listConnectionRows(
  db: Database,
  kind: ConnectionKind,
  collectionId: number,
): Promise<ConnectionWithCount[]> {
  const rows = await withCount(db, kind)
    .where('connections.collection_id', '=', collectionId)
    .orderBy('connections.name')
    .execute();
  return rows.map((row) => ({ ...row, asset_count: Number(row.asset_count) }));
}

export async function insertConnectionRow(
  db: Database,
  kind: ConnectionKind,
  collectionId: number,
  values: ConnectionColumns,
  now: string,
): Promise<number> {
  const row = await db
    .insertInto('connections')
    .values({
      ...values,
      name_key: nameKey(values.name),
      collection_id: collectionId,
      kind,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Writes an edit to a connection of this kind (none of another kind is touched). */
export async function updateConnectionRow(
  db: Database,
  kind: ConnectionKind,
  id: number,
  values: ConnectionColumns,
  now: string,
): Promise<void> {
  await db
    .updateTable('connections')
    .set({ ...values, name_key: nameKey(values.name), updated_at: now })
    .where('id', '=', id)
    .where('kind', '=', kind)
    .execute();
}

/** An id in a route's path: digits only (anything else finds nothing). */
export const idFromPath = (text: string) => (/^\d{1,15}$/.test(text) ? Number(text) : undefined);

/**
 * The collection a connection belongs to, for route declarations: of the given kind only, or of any kind (a route
 * of the other kind then finds no such connection in its service and answers 404).
 */
export async function findCollectionOfConnectionRow(
  db: Database,
  idText: string,
  kind?: ConnectionKind,
): Promise<Collection | undefined> {
  const id = idFromPath(idText);
  if (id === undefined) return undefined;
  let query = db
    .selectFrom('collections')
    .innerJoin('connections', 'connections.collection_id', 'collections.id')
    .selectAll('collections')
    .where('connections.id', '=', id);
  if (kind) query = query.where('connections.kind', '=', kind);
  return query.executeTakeFirst();
}
