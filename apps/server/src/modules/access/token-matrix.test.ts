import { expect, it } from 'vitest';
import type { RouteAccess } from './route-access.ts';
import { describeApp } from '../../../test/support/suite.ts';
import { buildMatrixWorld, MATRIX_CREATORS, type MatrixWorld } from './matrix-fixture.ts';
import { matrix, runRow } from './matrix-table.ts';

// Every /api route called with a personal access token of the matrix's Owner, carrying Owner on the target
// collection: the token reaches what its owner reaches there, except what no token may do — the changes to tokens,
// roles, users, groups, memberships and collections (403, declared per route by `refusesTokens`) and the system
// abilities (pickers, creating collections: a token holds none). The second suite gives the Owner's token only
// Reader: it reaches what a Reader reaches. The third drops one route's refusal and expects its row to fail.

const env = { COLLECTION_CREATOR_GROUPS: MATRIX_CREATORS };

/** The routes a Data Lab token may never call, whatever its roles. */
const REFUSED = new Set([
  'POST /api/Token',
  'PUT /api/Token/:id/UserDataRoles',
  'PUT /api/Token/:id/Revoke',
  'POST /api/DataSourceCollection',
  'PUT /api/DataSourceCollection',
  'DELETE /api/DataSourceCollection',
  'PUT /api/DataRole/:id/UserDataRoles',
  'PUT /api/DataRole/:id/UserGroupDataRoles',
  'PUT /api/User/:id/SystemPermissions',
  'PUT /api/User/:id/Active',
  'POST /api/UserGroup',
  'PUT /api/UserGroup/:id',
  'DELETE /api/UserGroup/:id',
  'POST /api/UserGroup/:id/User/:userId',
  'DELETE /api/UserGroup/:id/User/:userId',
  'POST /api/UserGroup/:id/UserGroup/:childId',
  'DELETE /api/UserGroup/:id/UserGroup/:childId',
  // Usage reporting is for people in the portal, not for scripts holding a token.
  'GET /api/Reporting/GetDataSourceMetricsSummaries',
  'GET /api/Reporting/GetUserMetricsSummaries',
  // System abilities the Owner holds as a person, which a token never carries.
  'GET /api/User/Autocomplete',
  'GET /api/UserGroup/Autocomplete',
]);

async function tokenWorld(
  world: MatrixWorld,
  app: Parameters<typeof runRow>[0],
  role: 'Owner' | 'Reader' = 'Owner',
): Promise<MatrixWorld> {
  const response = await app.inject({
    method: 'POST',
    url: '/api/Token',
    headers: { authorization: `Bearer ${world.tokens.get('owner')}` },
    payload: {
      kind: 'personal',
      name: 'Matrix PAT',
      roles: [{ collectionUid: world.fixture.collection, role }],
    },
  });
  if (response.statusCode !== 201) throw new Error(`the matrix PAT: ${response.statusCode} ${response.body}`);
  const tokens = new Map(world.tokens);
  tokens.set('owner', response.json<{ secret: string }>().secret);
  return { ...world, tokens };
}

describeApp(
  'authorization matrix with a personal access token',
  (ctx) => {
    let world: MatrixWorld | undefined;
    const ready = async () => (world ??= await tokenWorld(await buildMatrixWorld(ctx()), ctx().app));

    for (const [key, row] of Object.entries(matrix)) {
      const expected = REFUSED.has(key) ? 403 : row.expected.owner;
      it(`${key} → ${expected}`, async () => {
        expect(await runRow(ctx().app, await ready(), key, row, ['owner'])).toEqual({ owner: expected });
      });
    }
  },
  { env },
);

/**
 * Rows whose object is the reader persona's own (its user id, its download job): whoever else calls them gets what
 * the matrix's Owner gets, whatever their role.
 */
const READERS_OWN = new Set([
  'GET /api/DataRole/:id/UserDataRoles',
  'GET /api/User/:id/Groups',
  'GET /api/Download/:id/Status',
  'GET /api/Download/:id/File',
  'POST /api/Download/:id/Cancel',
]);

// The Owner's token narrowed to Reader on the collection: refused wherever a Reader is refused.
describeApp(
  'authorization matrix with a personal access token narrowed to Reader',
  (ctx) => {
    let world: MatrixWorld | undefined;
    const ready = async () => (world ??= await tokenWorld(await buildMatrixWorld(ctx()), ctx().app, 'Reader'));

    for (const [key, row] of Object.entries(matrix)) {
      const expected = REFUSED.has(key) ? 403 : READERS_OWN.has(key) ? row.expected.owner : row.expected.reader;
      it(`${key} → ${expected}`, async () => {
        expect(await runRow(ctx().app, await ready(), key, row, ['owner'])).toEqual({ owner: expected });
      });
    }
  },
  { env },
);

const DROPPED = 'PUT /api/Token/:id/Revoke';

describeApp(
  'authorization matrix with a personal access token bites',
  (ctx) => {
    it(`lets a token revoke when ${DROPPED} no longer refuses tokens`, async () => {
      const row = matrix[DROPPED];
      if (!row) throw new Error(`no row for ${DROPPED}`);
      const world = await tokenWorld(await buildMatrixWorld(ctx()), ctx().app);
      expect(await runRow(ctx().app, world, DROPPED, row, ['owner'])).toEqual({ owner: 200 });
    });
  },
  {
    env,
    accessOverride: (route, declared): RouteAccess => {
      if (route !== DROPPED) return declared;
      const { refusesTokens: _dropped, ...rest } = declared;
      return rest;
    },
  },
);
