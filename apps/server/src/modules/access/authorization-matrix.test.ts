import { expect, it } from 'vitest';
import { describeEachStore } from '../../../test/support/suite.ts';
import { buildMatrixWorld, MATRIX_CREATORS, type MatrixWorld } from './matrix-fixture.ts';
import { matrix, runRow } from './matrix-table.ts';

// Every /api route × every kind of caller, from one table (matrix-table.ts) that sends each route's
// own method and path. A route the app registers but the table lacks fails the suite, and the
// second suite proves the table bites: with one route's requirement dropped, its row fails.

const env = { COLLECTION_CREATOR_GROUPS: MATRIX_CREATORS };

describeEachStore(
  'authorization matrix',
  (ctx) => {
    let world: MatrixWorld | undefined;
    const ready = async () => (world ??= await buildMatrixWorld(ctx()));

    it('has a row for every /api route the app registers, and no row for a route it lacks', () => {
      expect([...ctx().app.apiRoutes].sort()).toEqual(Object.keys(matrix).sort());
    });

    for (const [key, row] of Object.entries(matrix)) {
      it(key, async () => {
        expect(await runRow(ctx().app, await ready(), key, row)).toEqual(row.expected);
      });
    }
  },
  { env },
);

const DROPPED = 'DELETE /api/UserGroup/:id';

describeEachStore(
  'authorization matrix bites',
  (ctx) => {
    it(`fails the ${DROPPED} row when that route's administrator requirement is dropped`, async () => {
      const row = matrix[DROPPED];
      if (!row) throw new Error(`no row for ${DROPPED}`);
      const actual = await runRow(ctx().app, await buildMatrixWorld(ctx()), DROPPED, row);
      expect(actual).not.toEqual(row.expected);
      expect(actual.plain).toBe(200);
    });
  },
  { env, accessOverride: (route, declared) => (route === DROPPED ? { signedIn: true } : declared) },
);
