import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { expect } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import type { TestApp } from '../../../test/support/app.ts';
import { buildTeam, unique, type Person } from '../../../test/support/builders.ts';
import { collectionFilePath } from '../../../test/support/sqlite-files.ts';

// The world of the definition tests: a collection with a SQLite connection "Shop", an asset "Countries" that
// feeds the allowed values of "People"'s parameter, with a transformation and client tools; an Editor and a Reader.

export const SHOP_FILE = 'shop.sqlite';

/** The shop's file in a collection's own folder on `t`'s server. */
export function writeShop(t: TestApp, collectionUid: string) {
  const file = collectionFilePath(t.config.dataDir, collectionUid, SHOP_FILE);
  mkdirSync(dirname(file), { recursive: true });
  const db = new DatabaseSync(file);
  db.exec(`create table countries (code text primary key, name text);
    create table people (id integer primary key, email text, country text);
    insert into countries values ('DE', 'Germany'), ('FR', 'France'), ('JP', 'Japan');
    insert into people values (1, 'ada@example.com', 'DE'), (2, 'ben@example.com', 'FR'), (3, 'jun@example.com', 'JP'),
      (4, 'eva@example.com', 'DE');`);
  db.close();
}

export async function definitionWorld(t: TestApp, ownerSub = unique('owner')) {
  const { owner, editor, reader, collection } = await buildTeam(t, { owner: { sub: ownerSub } });
  writeShop(t, collection.uid);
  const connection = await owner.call('POST', '/api/SqlConnection', {
    collectionUid: collection.uid,
    name: 'Shop',
    kind: 'sqlite',
    database: SHOP_FILE,
  });
  expect(connection.statusCode, connection.body).toBe(201);
  const connectionId = connection.json<{ id: number }>().id;
  const countries = await editor.call('POST', '/api/SqlDataSource', {
    collectionUid: collection.uid,
    connectionId,
    name: 'Countries',
    sql: 'select code, name from countries order by code',
  });
  expect(countries.statusCode, countries.body).toBe(201);
  const countriesUid = countries.json<{ uid: string }>().uid;
  const people = await editor.call('POST', '/api/SqlDataSource', {
    collectionUid: collection.uid,
    connectionId,
    name: 'People',
    sql: 'select id, email, country from people where country in (:country) order by id',
    rowCap: 500,
    parameters: [
      {
        name: 'country',
        type: 'string',
        list: true,
        required: true,
        allowedValues: { kind: 'dataSource', dataSourceId: countriesUid, valueColumn: 'code', labelColumn: 'name' },
      },
    ],
    transformations: [{ name: 'Privacy', rules: [{ type: 'mask', column: 'email', mode: 'full' }] }],
    clientTools: ['python', 'curl'],
  });
  expect(people.statusCode, people.body).toBe(201);
  return { owner, editor, reader, collection, connectionId, peopleUid: people.json<{ uid: string }>().uid };
}

export const definitionUrl = (uid: string, step = '') => `/api/DataSourceCollection/${uid}/Definition${step}`;

/** The collection's definition as YAML text. */
export async function exportYaml(t: TestApp, person: Person, uid: string): Promise<string> {
  const response = await t.app.inject({
    method: 'GET',
    url: definitionUrl(uid),
    headers: { authorization: `Bearer ${person.token}`, accept: 'application/yaml' },
  });
  expect(response.statusCode, response.body).toBe(200);
  expect(response.headers['content-type']).toMatch(/^application\/yaml/);
  return response.body;
}

export async function exportJson(person: Person, uid: string): Promise<Record<string, unknown>> {
  const response = await person.call('GET', definitionUrl(uid));
  expect(response.statusCode, response.body).toBe(200);
  return response.json<Record<string, unknown>>();
}

export interface PlanReply {
  changes: {
    kind: string;
    name: string;
    action: string;
    differences: { path: string; before?: unknown; after?: unknown }[];
  }[];
  missingSecrets: string[];
  applied?: true;
}

export const send = (
  person: Person,
  uid: string,
  step: 'Plan' | 'Apply',
  document: unknown,
  secrets: Record<string, string> = {},
): Promise<LightMyRequestResponse> => person.call('POST', definitionUrl(uid, `/${step}`), { document, secrets });

export async function planOk(person: Person, uid: string, document: unknown, secrets: Record<string, string> = {}) {
  const response = await send(person, uid, 'Plan', document, secrets);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<PlanReply>();
}

export async function applyOk(person: Person, uid: string, document: unknown, secrets: Record<string, string> = {}) {
  const response = await send(person, uid, 'Apply', document, secrets);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<PlanReply>();
}
