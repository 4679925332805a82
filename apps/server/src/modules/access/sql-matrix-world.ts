import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { Database } from '../../db/database.ts';
import { collectionFilePath } from '../../../test/support/sqlite-files.ts';
import { collectionObjects } from './matrix-objects.ts';

// The SQL part of the authorization matrix's world: a SQLite connection (a real file in the collection's folder, so Test
// and Schema answer) in the target collection, the fixture asset on it with a parameter, a transformation with a
// rule and a client tool configuration; and makers of fresh ones for the rows that delete.

export interface SqlFixture {
  connectionId: number;
  parameterId: number;
  transformationId: number;
}

export interface SqlHelpers {
  freshConnection: () => Promise<number>;
  freshAsset: () => Promise<string>;
  freshParameter: () => Promise<number>;
  freshTransformation: () => Promise<number>;
  freshRule: () => Promise<number>;
  freshClientTool: () => Promise<number>;
}

export const MATRIX_SQLITE = 'matrix/world.sqlite';

export async function buildSqlWorld(
  db: Database,
  dataDir: string,
  collectionId: number,
  assetUid: string,
  unique: () => string,
): Promise<{ fixture: SqlFixture; helpers: SqlHelpers }> {
  const { uid } = await db
    .selectFrom('collections')
    .select('uid')
    .where('id', '=', collectionId)
    .executeTakeFirstOrThrow();
  const path = collectionFilePath(dataDir, uid, MATRIX_SQLITE);
  mkdirSync(dirname(path), { recursive: true });
  const file = new DatabaseSync(path);
  file.exec('create table if not exists regions (code text, name text); delete from regions;');
  file.exec("insert into regions values ('EU', 'Europe'), ('AS', 'Asia')");
  file.close();
  const objects = collectionObjects(db, collectionId);
  const { stamps } = objects;
  const freshConnection = (name = `Conn ${unique()}`) =>
    objects.connection({ name, kind: 'sql', driver: 'sqlite', database_name: MATRIX_SQLITE });
  const connectionId = await freshConnection();
  const asset = await db
    .updateTable('data_sources')
    .set({ connection_id: connectionId, sql_text: 'select code, name from regions' })
    .where('uid', '=', assetUid)
    .returning('id')
    .executeTakeFirstOrThrow();
  const freshParameter = async () => {
    const name = `p_${unique().replace(/\W/g, '_')}`;
    const definition = JSON.stringify({
      name,
      type: 'string',
      list: false,
      required: false,
      allowedValues: { kind: 'fixed', options: [{ value: 'EU', label: 'Europe' }] },
    });
    return (
      await db
        .insertInto('parameters')
        .values({ data_source_id: asset.id, position: 0, name, definition, ...stamps })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  };
  const freshTransformation = async () =>
    (
      await db
        .insertInto('transformations')
        .values({ data_source_id: asset.id, position: 0, name: 'T', ...stamps })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  const transformationId = await freshTransformation();
  const freshRule = async () =>
    (
      await db
        .insertInto('transformation_rules')
        .values({
          transformation_id: transformationId,
          position: 9,
          rule: JSON.stringify({ type: 'limit', count: 5 }),
          ...stamps,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  const freshClientTool = async () => {
    await db
      .deleteFrom('client_tool_configurations')
      .where('data_source_id', '=', asset.id)
      .where('tool', '=', 'r')
      .execute();
    return (
      await db
        .insertInto('client_tool_configurations')
        .values({ data_source_id: asset.id, tool: 'r', settings: '{}', ...stamps })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  };
  const freshAsset = () => {
    const uid = `asset-${unique()}`;
    return objects.asset({
      uid,
      connection_id: connectionId,
      name: `A ${uid}`,
      kind: 'sql',
      sql_text: 'select code from regions',
    });
  };
  return {
    fixture: { connectionId, parameterId: await freshParameter(), transformationId },
    helpers: { freshConnection, freshAsset, freshParameter, freshTransformation, freshRule, freshClientTool },
  };
}
