import type { LightMyRequestResponse } from 'fastify';
import type { TestApp } from '../../../test/support/app.ts';
import { buildCollection, buildPerson, callAs, unique, type Person } from '../../../test/support/builders.ts';
import { collectionSqliteFile } from '../../../test/support/sqlite-files.ts';

// The world of the token tests: two collections, each with a SQLite connection and one data asset of regions,
// made through the management API by their Owner; an administrator, a Reader of the first and a stranger.

export interface Place {
  id: number;
  uid: string;
  assetUid: string;
}

/** A collection owned by `owner` with one callable asset (`select code, name from regions`). */
export async function buildPlace(t: TestApp, owner: Person, roles: [Person, 'Owner' | 'Editor' | 'Reader'][] = []) {
  const collection = await buildCollection(t, owner, { roles });
  const file = collectionSqliteFile(
    t.config.dataDir,
    collection.uid,
    `tokens/${unique('regions')}.sqlite`,
    "create table regions (code text, name text); insert into regions values ('EU', 'Europe'), ('AS', 'Asia');",
  );
  const connection = await owner.call('POST', '/api/SqlConnection', {
    collectionUid: collection.uid,
    name: unique('Regions'),
    kind: 'sqlite',
    database: file,
  });
  if (connection.statusCode !== 201) throw new Error(`connection: ${connection.statusCode} ${connection.body}`);
  const asset = await owner.call('POST', '/api/SqlDataSource', {
    collectionUid: collection.uid,
    connectionId: connection.json<{ id: number }>().id,
    name: unique('Regions'),
    sql: 'select code, name from regions order by code',
  });
  if (asset.statusCode !== 201) throw new Error(`asset: ${asset.statusCode} ${asset.body}`);
  return { id: collection.id, uid: collection.uid, assetUid: asset.json<{ uid: string }>().uid } satisfies Place;
}

export async function buildWorld(t: TestApp) {
  const [owner, reader, stranger, admin] = [
    await buildPerson(t),
    await buildPerson(t),
    await buildPerson(t),
    await buildPerson(t, { canManageUsers: true }),
  ];
  const first = await buildPlace(t, owner, [[reader, 'Reader']]);
  const second = await buildPlace(t, owner);
  return { owner, reader, stranger, admin, first, second };
}

export interface TokenReply {
  id: number;
  kind: string;
  name: string;
  secret?: string;
  status: string;
  roles: { collection: { uid: string }; role: string }[];
  expiresAt: string | null;
  collection: { uid: string } | null;
}

/** Creates a token through the API (as `person`), expecting 201. */
export async function createToken(
  person: Person,
  body: { kind?: 'personal' | 'collection'; name?: string; [key: string]: unknown },
): Promise<TokenReply & { secret: string }> {
  const response = await person.call('POST', '/api/Token', {
    kind: 'personal',
    name: unique('Token'),
    ...body,
  });
  if (response.statusCode !== 201) throw new Error(`createToken: ${response.statusCode} ${response.body}`);
  return response.json<TokenReply & { secret: string }>();
}

/** Makes token `id` expired a second ago, written to the store behind the API's back. */
export async function expireToken(t: TestApp, id: number) {
  await t.app.db
    .updateTable('tokens')
    .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
    .where('id', '=', id)
    .execute();
  await t.app.access.bump(t.app.db); // a direct write (tests only): the embedded store caches rows per version
}

/** A request with a Data Lab token (or any bearer credential). */
export function withToken(
  t: TestApp,
  secret: string,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  payload?: object,
): Promise<LightMyRequestResponse> {
  return callAs(t, secret)(method, url, payload);
}

/** A reply's body without its request id, to compare refusals. */
export const shape = (response: LightMyRequestResponse) => {
  const { requestId: _id, ...rest } = response.json<Record<string, unknown>>();
  return { status: response.statusCode, ...rest };
};
