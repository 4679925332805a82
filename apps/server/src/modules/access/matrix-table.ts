import { callPath } from '@datalab/contract/call';
import type { FastifyInstance } from 'fastify';
import type { MatrixWorld, Persona } from './matrix-fixture.ts';
import type { Expected, Row } from './matrix-row.ts';
import { personas } from './matrix-fixture.ts';
import { administrators, owners, readers } from './matrix-expected.ts';
import { logMatrixRows } from './log-matrix-rows.ts';
import { cachingMatrixRows } from './caching-matrix-rows.ts';
import { downloadMatrixRows } from './download-matrix-rows.ts';
import { reportingMatrixRows } from './reporting-matrix-rows.ts';
import { sqlMatrixRows } from './sql-matrix-rows.ts';
import { tokenMatrixRows } from './token-matrix-rows.ts';
import { webApiMatrixRows } from './web-api-matrix-rows.ts';

// One row per /api route, keyed 'METHOD /path' exactly as the app registers it. A row gives only
// what fills the route (path parameters, query, body); the method and path come from the key, so a
// row cannot test one route while naming another.

const all = (ok: number): Expected => ({
  signedOut: 401,
  plain: ok,
  reader: ok,
  editor: ok,
  owner: ok,
  nestedOwner: ok,
  admin: ok,
  partner: ok,
});
const pickers: Expected = { ...administrators(200), owner: 200, nestedOwner: 200 };
const creators: Expected = { ...administrators(201), editor: 201 };
const manageRoles: Expected = { ...owners(200), admin: 200 };
const adminOrSelf: Expected = { ...administrators(200), reader: 200 };
/** A definition document that only names the collection. */
const definitionRenaming = (name: string) => ({
  apiVersion: 'datalab.io/v1',
  kind: 'CollectionDefinition',
  collection: { name },
});

export const matrix: Record<string, Row> = {
  'GET /api/Account/GetCurrentUser': { expected: all(200) },
  'POST /api/ApplicationLog/ClientErrors': { payload: () => ({ message: 'boom', path: '/' }), expected: all(202) },

  'GET /api/DataSourceCollection/GetAll': {
    query: () => ({ sortBy: 'name', sortDirection: 'desc' }),
    expected: all(200),
  },
  'POST /api/DataSourceCollection': {
    payload: (_fx, h) => ({ name: `New ${h.unique()}` }),
    expected: creators,
    undo: async (body, app) => {
      const { uid } = JSON.parse(body) as { uid?: string };
      if (uid) await app.db.deleteFrom('collections').where('uid', '=', uid).execute();
      await app.access.bump(app.db);
    },
  },
  'PUT /api/DataSourceCollection': {
    payload: async (_fx, h) => ({ uid: await h.freshCollection(), name: `Renamed ${h.unique()}` }),
    expected: owners(200),
  },
  // Values that are not path parameters go to the query: a fresh collection per caller.
  'DELETE /api/DataSourceCollection': {
    params: async (_fx, h) => ({ uid: await h.freshCollection() }),
    expected: owners(200),
  },
  'GET /api/DataSourceCollection/:uid/Dependents': { params: (fx) => ({ uid: fx.collection }), expected: owners(200) },
  'GET /api/DataSourceCollection/GetByUid/:uid': { params: (fx) => ({ uid: fx.collection }), expected: readers },
  'GET /api/DataSourceCollection/:uid/Definition': { params: (fx) => ({ uid: fx.collection }), expected: owners(200) },
  'POST /api/DataSourceCollection/:uid/Definition/Plan': {
    params: (fx) => ({ uid: fx.collection }),
    payload: (_fx, h) => ({ document: definitionRenaming(h.unique()) }),
    expected: owners(200),
  },
  // Renames the collection (and nothing else): rows name it by uid.
  'POST /api/DataSourceCollection/:uid/Definition/Apply': {
    params: (fx) => ({ uid: fx.collection }),
    payload: (_fx, h) => ({ document: definitionRenaming(`Matrix ${h.unique()}`) }),
    expected: owners(200),
  },

  'GET /api/DataSourceCollection/GetByDataAssetId/:id': {
    params: (fx) => ({ id: fx.assetUid }),
    expected: readers,
  },

  // The reader asks about themselves; everybody else about the reader.
  'GET /api/DataRole/:id/UserDataRoles': { params: (fx) => ({ id: fx.ids.reader }), expected: adminOrSelf },
  'PUT /api/DataRole/:id/UserDataRoles': {
    params: (fx) => ({ id: fx.grantee }),
    payload: (fx) => ({ collectionUid: fx.collection, role: 'Reader' }),
    expected: manageRoles,
  },
  'GET /api/DataRole/:id/UserGroupDataRoles': { params: (fx) => ({ id: fx.group }), expected: administrators(200) },
  'PUT /api/DataRole/:id/UserGroupDataRoles': {
    params: (fx) => ({ id: fx.group }),
    payload: (fx) => ({ collectionUid: fx.collection, role: 'Reader' }),
    expected: manageRoles,
  },
  'GET /api/DataRole/:id/DataSourceCollectionDataRoles': {
    params: (fx) => ({ id: fx.collection }),
    expected: manageRoles,
  },

  'GET /api/User': { query: () => ({ sortBy: 'lastSeenAt', sortDirection: 'desc' }), expected: administrators(200) },
  'GET /api/User/Autocomplete': { query: () => ({ search: 'matrix' }), expected: pickers },
  'PUT /api/User/:id/SystemPermissions': {
    params: (fx) => ({ id: fx.bystander }),
    payload: () => ({ canManageUsers: false }),
    expected: administrators(200),
  },
  'PUT /api/User/:id/Active': {
    params: (fx) => ({ id: fx.bystander }),
    payload: () => ({ active: true }),
    expected: administrators(200),
  },
  'GET /api/User/:id/Groups': { params: (fx) => ({ id: fx.ids.reader }), expected: adminOrSelf },

  'GET /api/UserGroup': { query: () => ({ sortBy: 'memberCount' }), expected: administrators(200) },
  'POST /api/UserGroup': { payload: (_fx, h) => ({ name: `Group ${h.unique()}` }), expected: administrators(201) },
  'GET /api/UserGroup/Autocomplete': { query: () => ({ search: 'matrix' }), expected: pickers },
  'GET /api/UserGroup/:id': { params: (fx) => ({ id: fx.group }), expected: administrators(200) },
  'PUT /api/UserGroup/:id': {
    params: async (_fx, h) => ({ id: await h.freshGroup() }),
    payload: (_fx, h) => ({ name: `Renamed group ${h.unique()}`, description: 'renamed' }),
    expected: administrators(200),
  },
  'DELETE /api/UserGroup/:id': {
    params: async (_fx, h) => ({ id: await h.freshGroup() }),
    expected: administrators(200),
  },
  'GET /api/UserGroup/:id/UserGroups': { params: (fx) => ({ id: fx.group }), expected: administrators(200) },
  'GET /api/UserGroup/:id/Users': { params: (fx) => ({ id: fx.group }), expected: administrators(200) },
  'POST /api/UserGroup/:id/User/:userId': {
    params: (fx) => ({ id: fx.group, userId: fx.bystander }),
    expected: administrators(200),
  },
  'DELETE /api/UserGroup/:id/User/:userId': {
    params: (fx) => ({ id: fx.group, userId: fx.bystander }),
    expected: administrators(200),
  },
  'POST /api/UserGroup/:id/UserGroup/:childId': {
    params: (fx) => ({ id: fx.group, childId: fx.child }),
    expected: administrators(200),
  },
  'DELETE /api/UserGroup/:id/UserGroup/:childId': {
    params: (fx) => ({ id: fx.group, childId: fx.child }),
    expected: administrators(200),
  },
  'GET /api/UserGroup/:id/NestingCandidates': { params: (fx) => ({ id: fx.group }), expected: administrators(200) },
  'GET /api/UserGroup/:id/Hierarchy': { params: (fx) => ({ id: fx.group }), expected: administrators(200) },
  ...cachingMatrixRows,
  ...reportingMatrixRows,
  ...sqlMatrixRows,
  ...tokenMatrixRows,
  ...webApiMatrixRows,
  ...logMatrixRows,
  ...downloadMatrixRows,
};

/**
 * Sends the route's own method and path, filled from the row, once per caller (or per caller of `only`); returns the
 * statuses.
 */
export async function runRow(
  app: FastifyInstance,
  world: MatrixWorld,
  key: string,
  row: Row,
  only: readonly Persona[] = personas,
): Promise<Partial<Expected>> {
  const [method, path] = key.split(' ') as ['GET' | 'POST' | 'PUT' | 'DELETE', string];
  const actual: Partial<Expected> = {};
  for (const persona of only) {
    const { fixture: fx, helpers: h } = world;
    const values = (await row.params?.(fx, h)) ?? {};
    const pathParams = Object.fromEntries(Object.entries(values).filter(([name]) => path.includes(`:${name}`)));
    const queryValues = {
      ...row.query?.(fx, h),
      ...Object.fromEntries(Object.entries(values).filter(([name]) => !path.includes(`:${name}`))),
    };
    const query = new URLSearchParams(
      Object.entries(queryValues).map(([k, v]): [string, string] => [k, String(v)]),
    ).toString();
    const payload = await row.payload?.(fx, h);
    const token = world.tokens.get(persona);
    const response = await app.inject({
      method,
      url: `${callPath(path, pathParams)}${query ? `?${query}` : ''}`,
      headers: token ? { authorization: `Bearer ${token}` } : {},
      ...(payload !== undefined ? { payload } : {}),
    });
    actual[persona] = response.statusCode;
    if (response.statusCode < 300) await row.undo?.(response.body, app);
  }
  return actual;
}
