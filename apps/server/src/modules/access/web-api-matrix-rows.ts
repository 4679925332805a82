import { deleteCreated, editors, owners, readers } from './matrix-expected.ts';
import type { Row } from './matrix-row.ts';
import { MATRIX_BASE_URL, MATRIX_REQUEST } from './web-api-matrix-world.ts';

// The authorization matrix's rows for Web API connections, their credentials and Web API assets (spread into
// access/matrix-table.ts): Readers see connections (secrets masked), Owners manage connections and credentials and
// test them, Editors manage Web API assets, pick their credential and Try (product §14). Hidden → 404 (plain,
// partner), visible but not allowed → 403; an administrator without a role reads but changes nothing.

export const webApiMatrixRows: Record<string, Row> = {
  'GET /api/WebApiConnection': { query: (fx) => ({ collectionUid: fx.collection }), expected: readers },
  'GET /api/WebApiConnection/:id': { params: (fx) => ({ id: fx.webApi.connectionId }), expected: readers },
  'POST /api/WebApiConnection': {
    payload: (fx, h) => ({ collectionUid: fx.collection, name: `New web ${h.unique()}`, baseUrl: MATRIX_BASE_URL }),
    expected: owners(201),
    undo: deleteCreated('connections'),
  },
  'PUT /api/WebApiConnection/:id': {
    params: (fx) => ({ id: fx.webApi.connectionId }),
    payload: (_fx, h) => ({ name: `Renamed web ${h.unique()}`, baseUrl: MATRIX_BASE_URL, retries: 0 }),
    expected: owners(200),
  },
  'DELETE /api/WebApiConnection/:id': {
    params: async (_fx, h) => ({ id: await h.webApi.freshConnection() }),
    expected: owners(200),
  },
  'GET /api/WebApiConnection/:id/Dependents': {
    params: (fx) => ({ id: fx.webApi.connectionId }),
    expected: owners(200),
  },
  'GET /api/WebApiDataSource/Credentials/:id/Dependents': {
    params: (fx) => ({ id: fx.webApi.credentialId }),
    expected: owners(200),
  },
  'POST /api/WebApiConnection/:id/Test': { params: (fx) => ({ id: fx.webApi.connectionId }), expected: owners(200) },
  'POST /api/WebApiConnection/Test': {
    payload: (fx) => ({ collectionUid: fx.collection, name: 'Unsaved', baseUrl: MATRIX_BASE_URL }),
    expected: owners(200),
  },
  'POST /api/WebApiConnection/:id/Credentials/:credId': {
    params: (fx) => ({ id: fx.webApi.connectionId, credId: fx.webApi.credentialId }),
    expected: owners(200),
  },
  'DELETE /api/WebApiConnection/:id/Credentials/:credId': {
    params: async (fx, h) => ({ id: fx.webApi.connectionId, credId: await h.webApi.freshCredential() }),
    expected: owners(200),
  },

  'POST /api/WebApiDataSource/Credentials': {
    payload: (fx, h) => ({
      connectionId: fx.webApi.connectionId,
      name: `Token ${h.unique()}`,
      kind: 'bearer',
      secret: 'matrix-token',
    }),
    expected: owners(201),
    undo: deleteCreated('web_api_credentials'),
  },
  'PUT /api/WebApiDataSource/Credentials': {
    payload: async (_fx, h) => ({
      id: await h.webApi.freshCredential(),
      name: `Renamed key ${h.unique()}`,
      kind: 'api-key',
      settings: { in: 'query', name: 'key' },
    }),
    expected: owners(200),
  },
  'DELETE /api/WebApiDataSource/Credentials/:id': {
    params: async (_fx, h) => ({ id: await h.webApi.freshCredential() }),
    expected: owners(200),
  },

  'POST /api/WebApiDataSource': {
    payload: (fx, h) => ({
      collectionUid: fx.collection,
      connectionId: fx.webApi.connectionId,
      name: `Web asset ${h.unique()}`,
      request: MATRIX_REQUEST,
    }),
    expected: editors(201),
    undo: deleteCreated('data_sources'),
  },
  'PUT /api/WebApiDataSource': {
    payload: (fx, h) => ({
      uid: fx.webApi.assetUid,
      connectionId: fx.webApi.connectionId,
      name: `Web asset ${h.unique()}`,
      request: MATRIX_REQUEST,
    }),
    expected: editors(200),
  },
  'DELETE /api/WebApiDataSource': {
    params: async (_fx, h) => ({ uid: await h.webApi.freshAsset() }),
    expected: editors(200),
  },
  'PUT /api/WebApiDataSource/:id/Credentials': {
    params: (fx) => ({ id: fx.webApi.assetUid }),
    payload: (fx) => ({ credentialId: fx.webApi.credentialId }),
    expected: editors(200),
  },
  'POST /api/WebApiDataSource/Preview': {
    payload: (fx) => ({ collectionUid: fx.collection, connectionId: fx.webApi.connectionId, request: MATRIX_REQUEST }),
    expected: editors(200),
  },
};
