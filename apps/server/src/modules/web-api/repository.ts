import { sql, type Insertable, type Updateable } from 'kysely';
import {
  findCollectionOfConnectionRow,
  findConnectionRow,
  idFromPath,
  insertConnectionRow,
  listConnectionRows,
  updateConnectionRow,
  type ConnectionWithCount,
} from '../../db/connection-rows.ts';
import type { Database } from '../../db/database.ts';
import { inIdList } from '../../db/id-list.ts';
import { isUniqueViolation } from '../../db/unique-violation.ts';
import type { Collection, ConnectionsTable, WebApiCredentialRow, WebApiCredentialsTable } from '../../db/schema.ts';

// Queries on Web API connections (connections of kind 'webapi', db/connection-rows.ts) and their credentials. Rules
// live in the services; the store keeps connection names unique per collection and credential names unique per
// connection (lower case).

export type WebApiConnectionRow = ConnectionWithCount;
export type CredentialRowWithCount = WebApiCredentialRow & { asset_count: number };

export const findWebApiConnection = (db: Database, id: number): Promise<WebApiConnectionRow | undefined> =>
  findConnectionRow(db, 'webapi', id);

export const listWebApiConnections = (db: Database, collectionId: number): Promise<WebApiConnectionRow[]> =>
  listConnectionRows(db, 'webapi', collectionId);

export type WebApiConnectionValues = Pick<
  Insertable<ConnectionsTable>,
  | 'name'
  | 'description'
  | 'base_url'
  | 'default_headers'
  | 'allowed_hosts'
  | 'connect_timeout_ms'
  | 'headers_timeout_ms'
  | 'body_timeout_ms'
  | 'max_reply_bytes'
  | 'max_pages'
  | 'pool_max'
  | 'acquire_timeout_ms'
  | 'retries'
>;

export const insertWebApiConnection = (
  db: Database,
  collectionId: number,
  values: WebApiConnectionValues,
  now: string,
): Promise<number> => insertConnectionRow(db, 'webapi', collectionId, values, now);

export const updateWebApiConnectionRow = (
  db: Database,
  id: number,
  values: WebApiConnectionValues,
  now: string,
): Promise<void> => updateConnectionRow(db, 'webapi', id, values, now);

/**
 * Marks the connection changed (a credential was added, changed or removed): the calling layer reloads the
 * definitions of its assets, whose settings carry the credential (calling/definitions.ts compares this time).
 */
export async function touchConnection(db: Database, id: number, now: string): Promise<void> {
  await db.updateTable('connections').set({ updated_at: now }).where('id', '=', id).execute();
}

export async function deleteWebApiConnectionRow(db: Database, id: number): Promise<void> {
  await db.deleteFrom('web_api_credentials').where('connection_id', '=', id).execute();
  await db.deleteFrom('connections').where('id', '=', id).where('kind', '=', 'webapi').execute();
}

function credentialsWithCount(db: Database) {
  return db
    .selectFrom('web_api_credentials')
    .selectAll('web_api_credentials')
    .select((eb) =>
      eb
        .selectFrom('data_sources')
        .select(sql<number>`count(*)`.as('n'))
        .whereRef('data_sources.credential_id', '=', 'web_api_credentials.id')
        .as('asset_count'),
    );
}

/** The credentials of these connections, by name. */
export async function credentialsOf(db: Database, connectionIds: readonly number[]): Promise<CredentialRowWithCount[]> {
  if (connectionIds.length === 0) return [];
  const rows = await credentialsWithCount(db)
    .where(inIdList(db, 'web_api_credentials.connection_id', connectionIds))
    .orderBy('web_api_credentials.name')
    .orderBy('web_api_credentials.id')
    .execute();
  return rows.map((row) => ({ ...row, asset_count: Number(row.asset_count) }));
}

export async function findCredential(db: Database, id: number): Promise<CredentialRowWithCount | undefined> {
  const row = await credentialsWithCount(db).where('web_api_credentials.id', '=', id).executeTakeFirst();
  return row ? { ...row, asset_count: Number(row.asset_count) } : undefined;
}

export async function insertCredential(db: Database, values: Insertable<WebApiCredentialsTable>): Promise<number> {
  return (await db.insertInto('web_api_credentials').values(values).returning('id').executeTakeFirstOrThrow()).id;
}

export async function updateCredentialRow(db: Database, id: number, values: Updateable<WebApiCredentialsTable>) {
  await db.updateTable('web_api_credentials').set(values).where('id', '=', id).execute();
}

export async function deleteCredentialRow(db: Database, id: number) {
  await db.deleteFrom('web_api_credentials').where('id', '=', id).execute();
}

/** True when a write failed on a name constraint: a connection name of the collection, or a credential name. */
export const isNameTaken = (error: unknown, table: 'connections' | 'web_api_credentials'): boolean =>
  isUniqueViolation(
    error,
    table === 'connections'
      ? { postgres: 'connections_collection', sqlite: 'connections.' }
      : { postgres: 'web_api_credentials_name', sqlite: 'web_api_credentials.' },
  );

// The collection a Web API connection or a credential belongs to (route declarations resolve through these).
export const findCollectionOfWebApiConnection = (db: Database, idText: string): Promise<Collection | undefined> =>
  findCollectionOfConnectionRow(db, idText, 'webapi');

export async function findCollectionOfCredential(db: Database, idText: string): Promise<Collection | undefined> {
  const id = idFromPath(idText);
  if (id === undefined) return undefined;
  return db
    .selectFrom('collections')
    .innerJoin('connections', 'connections.collection_id', 'collections.id')
    .innerJoin('web_api_credentials', 'web_api_credentials.connection_id', 'connections.id')
    .selectAll('collections')
    .where('web_api_credentials.id', '=', id)
    .executeTakeFirst();
}
