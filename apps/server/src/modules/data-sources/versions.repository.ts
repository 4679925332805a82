import type { Insertable } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { DataSourceVersionsTable } from '../../db/schema.ts';

// Queries on the versions of data assets (data_source_versions, migration 0019).

export function findLatestVersion(db: Database, dataSourceId: number) {
  return db
    .selectFrom('data_source_versions')
    .selectAll()
    .where('data_source_id', '=', dataSourceId)
    .orderBy('version', 'desc')
    .limit(1)
    .executeTakeFirst();
}

export function findVersion(db: Database, dataSourceId: number, version: number) {
  return db
    .selectFrom('data_source_versions')
    .selectAll()
    .where('data_source_id', '=', dataSourceId)
    .where('version', '=', version)
    .executeTakeFirst();
}

/** Versions newest first, without their definitions, and how many there are. */
export async function listVersions(db: Database, dataSourceId: number, limit: number, offset: number) {
  const [rows, count] = await Promise.all([
    db
      .selectFrom('data_source_versions')
      .select(['version', 'summary', 'saved_by_user_id', 'saved_by_name', 'saved_at'])
      .where('data_source_id', '=', dataSourceId)
      .orderBy('version', 'desc')
      .limit(limit)
      .offset(offset)
      .execute(),
    db
      .selectFrom('data_source_versions')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('data_source_id', '=', dataSourceId)
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

/** Inserts a version; a second insert of the same asset and number (two first reads at once) is dropped. */
export async function insertVersion(db: Database, values: Insertable<DataSourceVersionsTable>) {
  await db
    .insertInto('data_source_versions')
    .values(values)
    .onConflict((oc) => oc.columns(['data_source_id', 'version']).doNothing())
    .execute();
}
