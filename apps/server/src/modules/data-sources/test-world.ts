import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { expect } from 'vitest';
import { dataSourceDetail } from '@datalab/contract/api/data-sources';
import type { TestApp } from '../../../test/support/app.ts';
import { buildTeam, unique, type Person } from '../../../test/support/builders.ts';
import { collectionFilePath } from '../../../test/support/sqlite-files.ts';

// The world of the data source tests: an Owner, an Editor and a Reader of one collection with a SQLite
// connection "Shop" to a small file of regions, countries and people.

export async function world(t: TestApp) {
  const { owner, editor, reader, collection } = await buildTeam(t);
  const name = `${unique('shop')}.sqlite`;
  const file = collectionFilePath(t.config.dataDir, collection.uid, name);
  mkdirSync(dirname(file), { recursive: true });
  const db = new DatabaseSync(file);
  db.exec(`create table regions (id integer primary key, name text);
    create table countries (code text primary key, name text, region_id integer);
    create table people (id integer primary key, email text, country text, score real);
    insert into regions values (1, 'Europe'), (2, 'Asia');
    insert into countries values ('DE', 'Germany', 1), ('FR', 'France', 1), ('JP', 'Japan', 2);
    insert into people values (1, 'ada@example.com', 'DE', 1.5), (2, 'ben@example.com', 'FR', 2.5),
      (3, 'jun@example.com', 'JP', 3.5);`);
  db.close();
  const connection = await owner.call('POST', '/api/SqlConnection', {
    collectionUid: collection.uid,
    name: 'Shop',
    kind: 'sqlite',
    database: name,
  });
  return { owner, editor, reader, collection, file, connectionId: connection.json<{ id: number }>().id };
}

export const PEOPLE_SQL = 'select id, email, country from people where country in (:country) order by id';

export async function createPeople(
  editor: Person,
  collectionUid: string,
  connectionId: number,
  extra: Record<string, unknown> = {},
) {
  const response = await editor.call('POST', '/api/SqlDataSource', {
    collectionUid,
    connectionId,
    name: unique('People'),
    sql: PEOPLE_SQL,
    parameters: [{ name: 'country', type: 'string', list: true, required: true }],
    transformations: [{ name: 'Privacy', rules: [{ type: 'mask', column: 'email', mode: 'full' }] }],
    ...extra,
  });
  expect(response.statusCode, response.body).toBe(201);
  return dataSourceDetail.parse(response.json());
}

/** An asset "Countries" of the shop (code and name, no parameters), to feed a parameter's allowed values. */
export async function createCountries(editor: Person, collectionUid: string, connectionId: number) {
  const response = await editor.call('POST', '/api/SqlDataSource', {
    collectionUid,
    connectionId,
    name: unique('Countries'),
    sql: 'select code, name from countries',
  });
  expect(response.statusCode, response.body).toBe(201);
  return dataSourceDetail.parse(response.json());
}
