import { deleteCreated, editors, owners, readers, seeing } from './matrix-expected.ts';
import type { Expected, Row } from './matrix-row.ts';
import { MATRIX_SQLITE } from './sql-matrix-world.ts';

// The authorization matrix's rows for SQL connections and data assets (spread into access/matrix-table.ts).
// Readers see and call, Editors change assets and what hangs off them, Owners manage connections (product §14);
// hidden → 404 (plain, partner), visible but not allowed → 403. An administrator without a role may read a
// collection but neither call nor change its assets.

const callers: Expected = { ...readers, admin: 403 };
const everyone: Expected = { ...seeing(200), plain: 200, partner: 200 };

const sqlite = (name: string) => ({ name, kind: 'sqlite', database: MATRIX_SQLITE });

export const sqlMatrixRows: Record<string, Row> = {
  'GET /api/SqlConnection': { query: (fx) => ({ collectionUid: fx.collection }), expected: readers },
  'GET /api/SqlConnection/:id': { params: (fx) => ({ id: fx.sql.connectionId }), expected: readers },
  'POST /api/SqlConnection': {
    payload: (fx, h) => ({ collectionUid: fx.collection, ...sqlite(`New ${h.unique()}`) }),
    expected: owners(201),
    undo: deleteCreated('connections'),
  },
  'PUT /api/SqlConnection/:id': {
    params: (fx) => ({ id: fx.sql.connectionId }),
    payload: (_fx, h) => sqlite(`Renamed ${h.unique()}`),
    expected: owners(200),
  },
  'DELETE /api/SqlConnection/:id': {
    params: async (_fx, h) => ({ id: await h.sql.freshConnection() }),
    expected: owners(200),
  },
  'GET /api/SqlConnection/:id/Dependents': { params: (fx) => ({ id: fx.sql.connectionId }), expected: owners(200) },
  'POST /api/SqlConnection/:id/Test': { params: (fx) => ({ id: fx.sql.connectionId }), expected: owners(200) },
  'POST /api/SqlConnection/Test': {
    payload: (fx) => ({ collectionUid: fx.collection, ...sqlite('Unsaved') }),
    expected: owners(200),
  },
  'GET /api/SqlConnection/:id/Schema': { params: (fx) => ({ id: fx.sql.connectionId }), expected: editors(200) },

  'GET /api/DataSource/GetAll': { expected: everyone },
  'GET /api/DataSource': { query: (fx) => ({ collectionUid: fx.collection }), expected: readers },
  'GET /api/DataSource/:id/Dependents': { params: (fx) => ({ id: fx.assetUid }), expected: editors(200) },
  'GET /api/DataSource/GetByUid/:uid': { params: (fx) => ({ uid: fx.assetUid }), expected: readers },
  'GET /api/DataSource/:uid/Versions': { params: (fx) => ({ uid: fx.assetUid }), expected: editors(200) },
  'GET /api/DataSource/:uid/Versions/:version': {
    params: (fx) => ({ uid: fx.assetUid, version: 1 }),
    expected: editors(200),
  },
  // On an asset of its own: restoring the fixture asset would put back the transformations other rows rely on.
  'POST /api/DataSource/:uid/Versions/:version/Restore': {
    params: async (_fx, h) => ({ uid: await h.sql.freshAsset(), version: 1 }),
    expected: editors(200),
  },
  'POST /api/SqlDataSource': {
    payload: (fx, h) => ({
      collectionUid: fx.collection,
      connectionId: fx.sql.connectionId,
      name: `Asset ${h.unique()}`,
      sql: 'select code from regions',
    }),
    expected: editors(201),
    undo: deleteCreated('data_sources'),
  },
  'PUT /api/SqlDataSource': {
    payload: (fx) => ({ uid: fx.assetUid, connectionId: fx.sql.connectionId, name: 'Orders', sql: 'select 1 as one' }),
    expected: editors(200),
  },
  'DELETE /api/SqlDataSource': {
    params: async (_fx, h) => ({ uid: await h.sql.freshAsset() }),
    expected: editors(200),
  },
  'POST /api/SqlDataSource/Preview': {
    payload: (fx) => ({
      collectionUid: fx.collection,
      connectionId: fx.sql.connectionId,
      sql: 'select * from regions',
    }),
    expected: editors(200),
  },

  'POST /api/DataSource/:id/Parameters': {
    params: (fx) => ({ id: fx.assetUid }),
    payload: (_fx, h) => ({ name: `q_${h.unique().replace(/\W/g, '_')}`, type: 'integer' }),
    expected: editors(201),
  },
  'PUT /api/DataSource/:id/Parameters': {
    params: async (_fx, h) => ({ id: await h.sql.freshAsset() }),
    payload: () => ({ parameters: [{ name: 'region', type: 'string' }] }),
    expected: editors(200),
  },
  'DELETE /api/DataSource/Parameters/:id': {
    params: async (_fx, h) => ({ id: await h.sql.freshParameter() }),
    expected: editors(200),
  },
  'GET /api/DataSource/:id/ParameterDataSources': { params: (fx) => ({ id: fx.assetUid }), expected: readers },
  'GET /api/DataSource/ParameterData/:id': { params: (fx) => ({ id: fx.sql.parameterId }), expected: callers },
  'POST /api/DataSource/ParameterData/Preview': {
    // Columns only: other rows change the fixture asset's SQL.
    payload: (fx) => ({ collectionUid: fx.collection, dataSourceId: fx.assetUid }),
    expected: editors(200),
  },
  'POST /api/DataSource/:id/BoundValues': {
    params: (fx) => ({ id: fx.assetUid }),
    payload: () => ({}),
    expected: callers,
  },
  'GET /api/DataSource/:id/RecentCalls': {
    params: (fx) => ({ id: fx.assetUid }),
    query: () => ({ take: 5 }),
    expected: readers,
  },

  'GET /api/DataSource/Transformations/:id': { params: (fx) => ({ id: fx.assetUid }), expected: readers },
  'POST /api/DataSource/:id/Transformations': {
    params: (fx) => ({ id: fx.assetUid }),
    payload: () => ({ name: 'Mask', rules: [{ type: 'mask', column: 'name', mode: 'full' }] }),
    expected: editors(201),
  },
  'PUT /api/DataSource/:id/Transformations': {
    params: async (_fx, h) => ({ id: await h.sql.freshAsset() }),
    payload: () => ({ transformations: [{ name: 'Limit', rules: [{ type: 'limit', count: 1 }] }] }),
    expected: editors(200),
  },
  'DELETE /api/DataSource/:id/Transformations/:tid': {
    params: async (fx, h) => ({ id: fx.assetUid, tid: await h.sql.freshTransformation() }),
    expected: editors(200),
  },
  'POST /api/DataSource/:id/Transformations/:tid/TransformationRules': {
    params: (fx) => ({ id: fx.assetUid, tid: fx.sql.transformationId }),
    payload: () => ({ type: 'limit', count: 3 }),
    expected: editors(201),
  },
  'PUT /api/DataSource/:id/Transformations/:tid/TransformationRules': {
    params: async (fx, h) => ({ id: fx.assetUid, tid: await h.sql.freshTransformation() }),
    payload: () => ({ rules: [{ type: 'limit', count: 2 }] }),
    expected: editors(200),
  },
  'DELETE /api/DataSource/:id/Transformations/:tid/TransformationRules/:rid': {
    params: async (fx, h) => ({ id: fx.assetUid, tid: fx.sql.transformationId, rid: await h.sql.freshRule() }),
    expected: editors(200),
  },

  'POST /api/DataSource/:id/ClientToolConfiguration': {
    params: (fx) => ({ id: fx.assetUid }),
    payload: () => ({ tool: 'python', settings: { pandas: true } }),
    expected: editors(201),
    undo: async (_body, app) => {
      await app.db.deleteFrom('client_tool_configurations').where('tool', '=', 'python').execute();
    },
  },
  'PUT /api/DataSource/:id/ClientToolConfiguration': {
    params: (fx) => ({ id: fx.assetUid }),
    payload: () => ({ tool: 'curl', settings: { silent: true } }),
    expected: editors(200),
  },
  'DELETE /api/DataSource/:id/ClientToolConfiguration/:cid': {
    params: async (fx, h) => ({ id: fx.assetUid, cid: await h.sql.freshClientTool() }),
    expected: editors(200),
  },
};
