import type { Database } from '../../db/database.ts';
import { inIdList } from '../../db/id-list.ts';

// What the dependents of an object are, read from the store: the data assets using it, the objects a collection
// holds, the download jobs that would go with it (service.ts turns them into the Dependents answer).

/** The data assets that use a connection or send a credential, by name. */
export async function assetsUsing(
  db: Database,
  column: 'connection_id' | 'credential_id',
  id: number,
): Promise<{ ref: string; name: string }[]> {
  const rows = await db
    .selectFrom('data_sources')
    .select(['uid', 'name'])
    .where(column, '=', id)
    .orderBy('name')
    .execute();
  return rows.map((row) => ({ ref: row.uid, name: row.name }));
}

/** Download jobs of these data assets. */
export async function countJobsOfAssets(db: Database, dataSourceIds: readonly number[]): Promise<number> {
  if (dataSourceIds.length === 0) return 0;
  const row = await db
    .selectFrom('download_jobs')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where(inIdList(db, 'data_source_id', dataSourceIds))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export const findConnectionName = (db: Database, id: number) =>
  db.selectFrom('connections').select('name').where('id', '=', id).executeTakeFirst();

export const findCredentialName = (db: Database, id: number) =>
  db.selectFrom('web_api_credentials').select('name').where('id', '=', id).executeTakeFirst();

/** A Web API connection's credentials, by name. */
export const credentialsOfConnection = (db: Database, connectionId: number) =>
  db
    .selectFrom('web_api_credentials')
    .select(['id', 'name'])
    .where('connection_id', '=', connectionId)
    .orderBy('name')
    .execute();

/** The data assets of a collection with these names, by name. */
export const assetsNamed = (db: Database, collectionId: number, names: readonly string[]) =>
  db
    .selectFrom('data_sources')
    .select(['uid', 'name'])
    .where('collection_id', '=', collectionId)
    .where('name', 'in', names)
    .orderBy('name')
    .execute();

export const assetsOfCollection = (db: Database, collectionId: number) =>
  db
    .selectFrom('data_sources')
    .select(['id', 'uid', 'name'])
    .where('collection_id', '=', collectionId)
    .orderBy('name')
    .execute();

export const connectionsOfCollection = (db: Database, collectionId: number) =>
  db
    .selectFrom('connections')
    .select(['id', 'name', 'kind'])
    .where('collection_id', '=', collectionId)
    .orderBy('name')
    .execute();

/** The credentials of these Web API connections, by name. */
export const credentialsOfConnections = async (db: Database, connectionIds: readonly number[]) =>
  connectionIds.length === 0
    ? []
    : db
        .selectFrom('web_api_credentials')
        .select(['id', 'name'])
        .where(inIdList(db, 'connection_id', connectionIds))
        .orderBy('name')
        .execute();

/** A collection's tokens neither revoked nor expired at `nowIso`, by name. */
export const liveTokensOfCollection = (db: Database, collectionId: number, nowIso: string) =>
  db
    .selectFrom('tokens')
    .select(['id', 'name'])
    .where('collection_id', '=', collectionId)
    .where('revoked_at', 'is', null)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', nowIso)]))
    .orderBy('name')
    .execute();

export async function countJobsOfCollection(db: Database, collectionId: number): Promise<number> {
  const row = await db
    .selectFrom('download_jobs')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('collection_id', '=', collectionId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
