import { sql, type Insertable, type Updateable } from 'kysely';
import type { Database } from '../../db/database.ts';
import { inIdList } from '../../db/id-list.ts';
import { likeContains } from '../../db/like.ts';
import { pageWithTotal, windowTotal } from '../../db/page-total.ts';
import type { DataSource, DataSourcesTable } from '../../db/schema.ts';

// Queries on data assets and what hangs off them (parameters, transformations and rules, client tool
// configurations). Rules live in the services.

export function findDataSource(db: Database, idOrUid: string | number): Promise<DataSource | undefined> {
  const text = String(idOrUid);
  const numeric = /^\d+$/.test(text) ? Number(text) : undefined;
  return db
    .selectFrom('data_sources')
    .selectAll()
    .where((eb) =>
      numeric !== undefined ? eb.or([eb('id', '=', numeric), eb('uid', '=', text)]) : eb('uid', '=', text),
    )
    .executeTakeFirst();
}

export function findParameterRows(db: Database, dataSourceId: number) {
  return db
    .selectFrom('parameters')
    .selectAll()
    .where('data_source_id', '=', dataSourceId)
    .orderBy('position')
    .orderBy('id')
    .execute();
}

export function findTransformationRows(db: Database, dataSourceId: number) {
  return db
    .selectFrom('transformations')
    .selectAll()
    .where('data_source_id', '=', dataSourceId)
    .orderBy('position')
    .orderBy('id')
    .execute();
}

export function findRuleRows(db: Database, dataSourceId: number) {
  return db
    .selectFrom('transformation_rules')
    .innerJoin('transformations', 'transformations.id', 'transformation_rules.transformation_id')
    .selectAll('transformation_rules')
    .where('transformations.data_source_id', '=', dataSourceId)
    .orderBy('transformation_rules.position')
    .orderBy('transformation_rules.id')
    .execute();
}

export function findClientToolRows(db: Database, dataSourceId: number) {
  return db
    .selectFrom('client_tool_configurations')
    .selectAll()
    .where('data_source_id', '=', dataSourceId)
    .orderBy('tool')
    .execute();
}

/** Marks the asset changed: a new version, so results cached for the old one are never served. */
export async function bumpVersion(db: Database, dataSourceId: number, now: string): Promise<void> {
  await db
    .updateTable('data_sources')
    .set({ version: sql<number>`version + 1`, updated_at: now })
    .where('id', '=', dataSourceId)
    .execute();
}

export interface ListedAsset {
  id: number;
  uid: string;
  name: string;
  description: string;
  kind: 'sql' | 'webapi';
  collection_id: number;
  collection_uid: string;
  collection_name: string;
  connection_name: string | null;
  parameter_count: number;
  updated_at: string;
}

/** Assets of the given collections, newest change first; search in name and description. */
export async function listAssets(
  db: Database,
  options: {
    collectionIds: readonly number[];
    search?: string | undefined;
    kind?: 'sql' | 'webapi' | undefined;
    limit: number;
    offset: number;
  },
): Promise<{ rows: ListedAsset[]; total: number }> {
  if (options.collectionIds.length === 0) return { rows: [], total: 0 };
  let query = db
    .selectFrom('data_sources')
    .innerJoin('collections', 'collections.id', 'data_sources.collection_id')
    .leftJoin('connections', 'connections.id', 'data_sources.connection_id')
    .where(inIdList(db, 'data_sources.collection_id', options.collectionIds));
  if (options.kind) query = query.where('data_sources.kind', '=', options.kind);
  if (options.search) {
    const search = options.search;
    query = query.where((eb) =>
      eb.or([
        eb(eb.fn('lower', ['data_sources.name']), 'like', likeContains(search)),
        eb(eb.fn('lower', ['data_sources.description']), 'like', likeContains(search)),
      ]),
    );
  }
  const rows = await query
    .select([
      'data_sources.id',
      'data_sources.uid',
      'data_sources.name',
      'data_sources.description',
      'data_sources.kind',
      'data_sources.collection_id',
      'data_sources.updated_at',
      'collections.uid as collection_uid',
      'collections.name as collection_name',
      'connections.name as connection_name',
    ])
    .select((eb) => [
      eb
        .selectFrom('parameters')
        .whereRef('parameters.data_source_id', '=', 'data_sources.id')
        .select(eb.fn.countAll<number>().as('n'))
        .as('parameter_count'),
      windowTotal(),
    ])
    .orderBy('data_sources.name')
    .orderBy('data_sources.id')
    .limit(options.limit)
    .offset(options.offset)
    .execute();
  const page = await pageWithTotal(
    rows,
    async () => (await query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n,
  );
  return {
    rows: page.rows.map((row) => ({ ...row, parameter_count: Number(row.parameter_count) })),
    total: page.total,
  };
}

export function findAssetByName(db: Database, collectionId: number, name: string) {
  return db
    .selectFrom('data_sources')
    .select(['id', 'uid'])
    .where('collection_id', '=', collectionId)
    .where(sql`lower(name)`, '=', name.toLowerCase())
    .executeTakeFirst();
}

export function findConnectionRow(db: Database, id: number) {
  return db.selectFrom('connections').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function insertAsset(db: Database, values: Insertable<DataSourcesTable>): Promise<number> {
  return (await db.insertInto('data_sources').values(values).returning('id').executeTakeFirstOrThrow()).id;
}

export async function updateAsset(db: Database, id: number, values: Updateable<DataSourcesTable>) {
  await db
    .updateTable('data_sources')
    .set({ ...values, version: sql<number>`version + 1` })
    .where('id', '=', id)
    .execute();
}

export async function deleteAsset(db: Database, id: number) {
  await db.deleteFrom('data_sources').where('id', '=', id).execute();
}

/** Every parameter of a collection's assets, with its asset's name (to find what feeds what). */
export function findParametersOfCollection(db: Database, collectionId: number) {
  return db
    .selectFrom('parameters')
    .innerJoin('data_sources', 'data_sources.id', 'parameters.data_source_id')
    .select(['parameters.data_source_id', 'parameters.definition', 'data_sources.name'])
    .where('data_sources.collection_id', '=', collectionId)
    .execute();
}

/** A collection's data assets other than one, by name. */
export const otherAssetsOfCollection = (db: Database, collectionId: number, exceptId: number) =>
  db
    .selectFrom('data_sources')
    .select(['id', 'uid', 'name'])
    .where('collection_id', '=', collectionId)
    .where('id', '<>', exceptId)
    .orderBy('name')
    .execute();

/** The parameter names of every data asset of a collection, in their order. */
export const parameterNamesOfCollection = (db: Database, collectionId: number) =>
  db
    .selectFrom('parameters')
    .innerJoin('data_sources', 'data_sources.id', 'parameters.data_source_id')
    .select(['parameters.data_source_id', 'parameters.name'])
    .where('data_sources.collection_id', '=', collectionId)
    .orderBy('parameters.position')
    .execute();

/** A parameter's stored definition with its data asset's collection. */
export const findParameterWithCollection = (db: Database, parameterId: number) =>
  db
    .selectFrom('parameters')
    .innerJoin('data_sources', 'data_sources.id', 'parameters.data_source_id')
    .select(['parameters.definition', 'data_sources.collection_id'])
    .where('parameters.id', '=', parameterId)
    .executeTakeFirst();

/** The data asset a parameter belongs to. */
export const findParameterAssetId = (db: Database, parameterId: number) =>
  db.selectFrom('parameters').select('data_source_id').where('id', '=', parameterId).executeTakeFirst();

export const findCollectionRef = (db: Database, collectionId: number) =>
  db.selectFrom('collections').select(['id', 'uid']).where('id', '=', collectionId).executeTakeFirstOrThrow();

export const findCollectionIdByUid = (db: Database, uid: string) =>
  db.selectFrom('collections').select('id').where('uid', '=', uid).executeTakeFirst();
