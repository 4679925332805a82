import { expect, it } from 'vitest';
import { TEST_PUBLIC_URL } from '../../testing/app.ts';
import { describeEachStore } from '../../testing/suite.ts';
import { signWithServerKey } from '../../testing/tokens.ts';
import { BUILT_IN_AUDIENCE } from '../../config.ts';
import type { TestApp } from '../../testing/app.ts';

// Every /api route × every kind of caller, from one table. A route the app registers but the table
// lacks fails the suite, so no route escapes the policy unnoticed.

const personas = ['signedOut', 'noRole', 'reader', 'editor', 'owner', 'otherOwner', 'admin'] as const;
type Persona = (typeof personas)[number];
type Expected = Record<Persona, number>;

interface Fixture {
  collection: string;
  assetUid: string;
  group: number;
  child: number;
  grantee: number;
  bystander: number;
  ids: Record<Persona, number>;
}

interface Row {
  request: (fx: Fixture, helpers: Helpers) => Promise<{ method: 'GET' | 'POST' | 'PUT' | 'DELETE'; url: string; payload?: unknown }>;
  expected: Expected;
  /** Undoes what a successful cell created, so rows do not change each other's callers. */
  undo?: (body: string, t: TestApp) => Promise<void>;
}

interface Helpers {
  freshCollection: () => Promise<string>;
  freshGroup: () => Promise<number>;
  unique: () => string;
}

const all = (signedIn: number): Expected => ({ signedOut: 401, noRole: signedIn, reader: signedIn, editor: signedIn, owner: signedIn, otherOwner: signedIn, admin: signedIn });
const adminOnly = (ok: number): Expected => ({ signedOut: 401, noRole: 403, reader: 403, editor: 403, owner: 403, otherOwner: 403, admin: ok });
const ownerOrAdminPicker: Expected = { signedOut: 401, noRole: 403, reader: 403, editor: 403, owner: 200, otherOwner: 200, admin: 200 };
const readCollection: Expected = { signedOut: 401, noRole: 404, reader: 200, editor: 200, owner: 200, otherOwner: 404, admin: 200 };
const ownerOnly = (ok: number): Expected => ({ signedOut: 401, noRole: 404, reader: 403, editor: 403, owner: ok, otherOwner: 404, admin: 403 });
const manageRoles: Expected = { signedOut: 401, noRole: 404, reader: 403, editor: 403, owner: 200, otherOwner: 404, admin: 200 };

const matrix: Record<string, Row> = {
  'GET /api/Account/GetCurrentUser': { request: async () => ({ method: 'GET', url: '/api/Account/GetCurrentUser' }), expected: all(200) },
  'POST /api/ApplicationLog/ClientErrors': {
    request: async () => ({ method: 'POST', url: '/api/ApplicationLog/ClientErrors', payload: { message: 'boom', path: '/' } }),
    expected: all(202),
  },
  'GET /api/DataSourceCollection/GetAll': { request: async () => ({ method: 'GET', url: '/api/DataSourceCollection/GetAll' }), expected: all(200) },
  'POST /api/DataSourceCollection': {
    request: async (_fx, h) => ({ method: 'POST', url: '/api/DataSourceCollection', payload: { name: `New ${h.unique()}` } }),
    expected: all(201),
    undo: async (body, t) => {
      const { uid } = JSON.parse(body) as { uid?: string };
      if (uid) await t.app.db.deleteFrom('collections').where('uid', '=', uid).execute();
      await t.app.access.bump(t.app.db);
    },
  },
  'PUT /api/DataSourceCollection': {
    request: async (_fx, h) => ({ method: 'PUT', url: '/api/DataSourceCollection', payload: { uid: await h.freshCollection(), name: `Renamed ${h.unique()}` } }),
    expected: ownerOnly(200),
  },
  'DELETE /api/DataSourceCollection': {
    request: async (_fx, h) => ({ method: 'DELETE', url: `/api/DataSourceCollection?uid=${await h.freshCollection()}` }),
    expected: ownerOnly(200),
  },
  'GET /api/DataSourceCollection/GetByUid/:uid': {
    request: async (fx) => ({ method: 'GET', url: `/api/DataSourceCollection/GetByUid/${fx.collection}` }),
    expected: readCollection,
  },
  'GET /api/DataSourceCollection/GetByDataAssetId/:id': {
    request: async (fx) => ({ method: 'GET', url: `/api/DataSourceCollection/GetByDataAssetId/${fx.assetUid}` }),
    expected: readCollection,
  },
  'GET /api/DataRole/:id/UserDataRoles': {
    // The reader asks about themselves; everybody else about the reader.
    request: async (fx) => ({ method: 'GET', url: `/api/DataRole/${fx.ids.reader}/UserDataRoles` }),
    expected: { ...adminOnly(200), reader: 200 },
  },
  'PUT /api/DataRole/:id/UserDataRoles': {
    request: async (fx) => ({ method: 'PUT', url: `/api/DataRole/${fx.grantee}/UserDataRoles`, payload: { collectionUid: fx.collection, role: 'Reader' } }),
    expected: manageRoles,
  },
  'GET /api/DataRole/:id/UserGroupDataRoles': { request: async (fx) => ({ method: 'GET', url: `/api/DataRole/${fx.group}/UserGroupDataRoles` }), expected: adminOnly(200) },
  'PUT /api/DataRole/:id/UserGroupDataRoles': {
    request: async (fx) => ({ method: 'PUT', url: `/api/DataRole/${fx.group}/UserGroupDataRoles`, payload: { collectionUid: fx.collection, role: 'Reader' } }),
    expected: manageRoles,
  },
  'GET /api/DataRole/:id/DataSourceCollectionDataRoles': {
    request: async (fx) => ({ method: 'GET', url: `/api/DataRole/${fx.collection}/DataSourceCollectionDataRoles` }),
    expected: manageRoles,
  },
  'GET /api/User': { request: async () => ({ method: 'GET', url: '/api/User' }), expected: adminOnly(200) },
  'GET /api/User/Autocomplete': { request: async () => ({ method: 'GET', url: '/api/User/Autocomplete?search=a' }), expected: ownerOrAdminPicker },
  'PUT /api/User/:id/SystemPermissions': {
    request: async (fx) => ({ method: 'PUT', url: `/api/User/${fx.bystander}/SystemPermissions`, payload: { canManageUsers: false } }),
    expected: adminOnly(200),
  },
  'GET /api/UserGroup': { request: async () => ({ method: 'GET', url: '/api/UserGroup' }), expected: adminOnly(200) },
  'POST /api/UserGroup': { request: async (_fx, h) => ({ method: 'POST', url: '/api/UserGroup', payload: { name: `Group ${h.unique()}` } }), expected: adminOnly(201) },
  'GET /api/UserGroup/Autocomplete': { request: async () => ({ method: 'GET', url: '/api/UserGroup/Autocomplete?search=g' }), expected: ownerOrAdminPicker },
  'GET /api/UserGroup/:id': { request: async (fx) => ({ method: 'GET', url: `/api/UserGroup/${fx.group}` }), expected: adminOnly(200) },
  'DELETE /api/UserGroup/:id': { request: async (_fx, h) => ({ method: 'DELETE', url: `/api/UserGroup/${await h.freshGroup()}` }), expected: adminOnly(200) },
  'GET /api/UserGroup/:id/UserGroups': { request: async (fx) => ({ method: 'GET', url: `/api/UserGroup/${fx.group}/UserGroups` }), expected: adminOnly(200) },
  'GET /api/UserGroup/:id/Users': { request: async (fx) => ({ method: 'GET', url: `/api/UserGroup/${fx.group}/Users` }), expected: adminOnly(200) },
  'POST /api/UserGroup/:id/User/:userId': { request: async (fx) => ({ method: 'POST', url: `/api/UserGroup/${fx.group}/User/${fx.bystander}` }), expected: adminOnly(200) },
  'DELETE /api/UserGroup/:id/User/:userId': { request: async (fx) => ({ method: 'DELETE', url: `/api/UserGroup/${fx.group}/User/${fx.bystander}` }), expected: adminOnly(200) },
  'POST /api/UserGroup/:id/UserGroup/:childId': { request: async (fx) => ({ method: 'POST', url: `/api/UserGroup/${fx.group}/UserGroup/${fx.child}` }), expected: adminOnly(200) },
  'DELETE /api/UserGroup/:id/UserGroup/:childId': { request: async (fx) => ({ method: 'DELETE', url: `/api/UserGroup/${fx.group}/UserGroup/${fx.child}` }), expected: adminOnly(200) },
  'GET /api/UserGroup/:id/Hierarchy': { request: async (fx) => ({ method: 'GET', url: `/api/UserGroup/${fx.group}/Hierarchy` }), expected: adminOnly(200) },
};

async function setUp(t: TestApp) {
  const { app, config } = t;
  const now = Math.floor(Date.now() / 1000);
  const tokens = new Map<Persona, string>();
  const ids = {} as Record<Persona, number>;
  const provision = async (sub: string) => {
    const token = await signWithServerKey(config.dataDir, { iss: `${TEST_PUBLIC_URL}/oidc`, aud: BUILT_IN_AUDIENCE, sub, name: sub, iat: now, exp: now + 3600 });
    const response = await app.inject({ method: 'GET', url: '/api/Account/GetCurrentUser', headers: { authorization: `Bearer ${token}` } });
    return { token, id: response.json<{ id: number }>().id };
  };
  for (const persona of personas.filter((p) => p !== 'signedOut')) {
    const { token, id } = await provision(`matrix-${persona}`);
    tokens.set(persona, token);
    ids[persona] = id;
  }
  await app.db.updateTable('users').set({ can_manage_users: 1 }).where('id', '=', ids.admin).execute();
  await app.access.bump(app.db);
  const grantee = (await provision('matrix-grantee')).id;
  const bystander = (await provision('matrix-bystander')).id;
  let counter = 0;
  const unique = () => `${Date.now().toString(36)}-${(counter += 1)}`;
  const at = new Date().toISOString();
  const makeCollection = async (owner: number, withPersonas: boolean) => {
    const name = `Matrix ${unique()}`;
    const row = await app.db
      .insertInto('collections')
      .values({ uid: `m-${unique()}`, name, name_key: name.toLowerCase(), description: '', created_by: owner, created_at: at, updated_at: at })
      .returningAll()
      .executeTakeFirstOrThrow();
    const roles: [number, 'Owner' | 'Editor' | 'Reader'][] = withPersonas ? [[ids.owner, 'Owner'], [ids.editor, 'Editor'], [ids.reader, 'Reader']] : [[owner, 'Owner']];
    for (const [userId, role] of roles) await app.db.insertInto('collection_user_roles').values({ collection_id: row.id, user_id: userId, role, created_at: at }).execute();
    await app.access.bump(app.db);
    return row;
  };
  const target = await makeCollection(ids.owner, true);
  await makeCollection(ids.otherOwner, false);
  const assetUid = `asset-${unique()}`;
  await app.db.insertInto('data_sources').values({ uid: assetUid, collection_id: target.id, name: 'Orders', kind: 'sql', created_at: at, updated_at: at }).execute();
  const makeGroup = async () => {
    const name = `Matrix group ${unique()}`;
    return (await app.db.insertInto('user_groups').values({ name, name_key: name.toLowerCase(), description: '', created_at: at, updated_at: at }).returning('id').executeTakeFirstOrThrow()).id;
  };
  const fixture: Fixture = { collection: target.uid, assetUid, group: await makeGroup(), child: await makeGroup(), grantee, bystander, ids };
  const helpers: Helpers = {
    freshCollection: async () => (await makeCollection(ids.owner, true)).uid,
    freshGroup: makeGroup,
    unique,
  };
  return { tokens, fixture, helpers };
}

describeEachStore('authorization matrix', (ctx) => {
  let setup: Awaited<ReturnType<typeof setUp>> | undefined;
  const ready = async () => (setup ??= await setUp(ctx()));

  it('has a row for every /api route the app registers, and no row for a route it lacks', () => {
    expect([...ctx().app.apiRoutes].sort()).toEqual(Object.keys(matrix).sort());
  });

  for (const [route, row] of Object.entries(matrix)) {
    it(`${route}`, async () => {
      const { tokens, fixture, helpers } = await ready();
      const actual = {} as Record<Persona, number>;
      for (const persona of personas) {
        const request = await row.request(fixture, helpers);
        const token = tokens.get(persona);
        const response = await ctx().app.inject({
          method: request.method,
          url: request.url,
          headers: token ? { authorization: `Bearer ${token}` } : {},
          ...(request.payload !== undefined ? { payload: request.payload as object } : {}),
        });
        actual[persona] = response.statusCode;
        if (response.statusCode < 300) await row.undo?.(response.body, ctx());
      }
      expect(actual).toEqual(row.expected);
    });
  }
});
