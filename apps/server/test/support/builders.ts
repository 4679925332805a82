import type { LightMyRequestResponse } from 'fastify';
import { BUILT_IN_AUDIENCE } from '../../src/config.ts';
import type { RoleName } from '../../src/db/schema.ts';
import { TEST_PUBLIC_URL, type TestApp } from './app.ts';
import { signWithServerKey } from './tokens.ts';

// Test data builders with overrides (code-style habit 12): each call creates what it needs.

let sequence = 0;
export const unique = (prefix = 'x') => `${prefix}-${Date.now().toString(36)}-${(sequence += 1)}`;

export interface Person {
  id: number;
  token: string;
  call: (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) => Promise<LightMyRequestResponse>;
}

/** Requests to `t` that carry `credential` as their bearer: a person's access token, a Data Lab token or any string. */
export const callAs =
  (t: TestApp, credential: string): Person['call'] =>
  (method, url, payload) =>
    t.app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${credential}` },
      ...(payload !== undefined ? { payload: payload as object } : {}),
    });

export interface PersonOverrides {
  sub?: string;
  name?: string;
  canManageUsers?: boolean;
  /** member of a COLLECTION_CREATOR_GROUPS group */ creator?: boolean;
}

/** A signed-in user with a valid access token, provisioned through the API itself. */
export async function buildPerson(t: TestApp, overrides: PersonOverrides = {}): Promise<Person> {
  const sub = overrides.sub ?? unique('person');
  const now = Math.floor(Date.now() / 1000);
  const token = await signWithServerKey(t.config.dataDir, {
    iss: `${TEST_PUBLIC_URL}/oidc`,
    aud: BUILT_IN_AUDIENCE,
    sub,
    name: overrides.name ?? sub,
    preferred_username: sub,
    iat: now,
    exp: now + 3600,
  });
  const call = callAs(t, token);
  const response = await call('GET', '/api/Account/GetCurrentUser');
  if (response.statusCode !== 200) throw new Error(`buildPerson: ${response.statusCode} ${response.body}`);
  const id = response.json<{ id: number }>().id;
  if (overrides.canManageUsers) {
    await t.app.db.updateTable('users').set({ can_manage_users: 1 }).where('id', '=', id).execute();
    await t.app.access.bump(t.app.db);
  }
  if (overrides.creator) await joinCreatorGroup(t, id);
  return { id, token, call };
}

/** Puts a user in the first group COLLECTION_CREATOR_GROUPS names (made if missing). */
async function joinCreatorGroup(t: TestApp, userId: number) {
  const name = t.config.collectionCreatorGroups[0];
  if (!name) throw new Error('buildPerson({ creator: true }) needs COLLECTION_CREATOR_GROUPS');
  const db = t.app.db;
  const at = new Date().toISOString();
  const existing = await db
    .selectFrom('user_groups')
    .select('id')
    .where('name_key', '=', name.toLowerCase())
    .executeTakeFirst();
  const group =
    existing ??
    (await db
      .insertInto('user_groups')
      .values({ name, name_key: name.toLowerCase(), description: '', created_at: at, updated_at: at })
      .returning('id')
      .executeTakeFirstOrThrow());
  await db.insertInto('user_group_members').values({ group_id: group.id, user_id: userId, created_at: at }).execute();
  await t.app.access.bump(db);
}

/**
 * A collection owned by `owner`, with extra roles granted directly. Written to the store, since not
 * everyone may create collections through the API (the collections tests cover that path).
 */
export async function buildCollection(
  t: TestApp,
  owner: Person,
  overrides: { name?: string; description?: string; roles?: [Person, RoleName][] } = {},
) {
  const name = overrides.name ?? unique('Collection');
  const at = new Date().toISOString();
  const collection = await t.app.db
    .insertInto('collections')
    .values({
      uid: unique('c'),
      name,
      name_key: name.trim().toLowerCase(),
      description: overrides.description ?? '',
      created_by: owner.id,
      created_at: at,
      updated_at: at,
    })
    .returning(['id', 'uid', 'name'])
    .executeTakeFirstOrThrow();
  await t.app.db
    .insertInto('collection_user_roles')
    .values({ collection_id: collection.id, user_id: owner.id, role: 'Owner', created_at: at })
    .execute();
  for (const [person, role] of overrides.roles ?? []) {
    await t.app.db
      .insertInto('collection_user_roles')
      .values({ collection_id: collection.id, user_id: person.id, role, created_at: at })
      .execute();
  }
  await t.app.access.bump(t.app.db);
  return collection;
}

export interface Team {
  owner: Person;
  editor: Person;
  reader: Person;
  collection: Awaited<ReturnType<typeof buildCollection>>;
}

/** An Owner, an Editor and a Reader of one new collection, each person built with its own overrides. */
export async function buildTeam(
  t: TestApp,
  roles: { owner?: PersonOverrides; editor?: PersonOverrides; reader?: PersonOverrides } = {},
): Promise<Team> {
  const owner = await buildPerson(t, roles.owner);
  const editor = await buildPerson(t, roles.editor);
  const reader = await buildPerson(t, roles.reader);
  const collection = await buildCollection(t, owner, {
    roles: [
      [editor, 'Editor'],
      [reader, 'Reader'],
    ],
  });
  return { owner, editor, reader, collection };
}

export async function buildGroup(t: TestApp, admin: Person, overrides: { name?: string; members?: Person[] } = {}) {
  const response = await admin.call('POST', '/api/UserGroup', { name: overrides.name ?? unique('Group') });
  if (response.statusCode !== 201) throw new Error(`buildGroup: ${response.statusCode} ${response.body}`);
  const group = response.json<{ id: number; name: string }>();
  for (const member of overrides.members ?? [])
    await admin.call('POST', `/api/UserGroup/${group.id}/User/${member.id}`);
  return group;
}

export async function auditRecords(t: TestApp, action: string) {
  const rows = await t.app.db
    .selectFrom('application_logs')
    .selectAll()
    .where('category', '=', 'audit')
    .orderBy('id')
    .execute();
  return rows
    .map((row) => ({
      ...row,
      details: JSON.parse(row.details ?? '{}') as {
        action: string;
        before: unknown;
        after: unknown;
        actor: { id: number };
      },
    }))
    .filter((row) => row.details.action === action);
}
