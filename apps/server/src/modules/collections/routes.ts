import {
  deleteCollection as deleteCall,
  getAllCollections,
  getCollectionByDataAssetId,
  getCollectionByUid,
  postCollection,
  putCollection,
} from '@datalab/contract/api/collections';
import type { FastifyInstance } from 'fastify';
import { declaredCollection, route } from '../../routing/route.ts';
import { deletionStores } from '../dependents/leftovers.service.ts';
import { collectionDetail, createCollection, deleteCollection, listCollections, updateCollection } from './service.ts';

// Each route declares what it needs; route() resolves and authorizes the collection before the handler. Changes
// refuse Data Lab tokens (refusesTokens).

export default async function collectionRoutes(app: FastifyInstance) {
  route(app, getAllCollections, { signedIn: true }, async ({ actor, query }) => listCollections(actor, query));

  route(app, getCollectionByUid, { collection: 'read', uid: { params: 'uid' } }, async ({ user, collection, role }) =>
    collectionDetail(app.db, user, declaredCollection(collection), role),
  );

  route(
    app,
    getCollectionByDataAssetId,
    { collection: 'read', dataAsset: { params: 'id' } },
    async ({ user, collection, role }) => collectionDetail(app.db, user, declaredCollection(collection), role),
  );

  route(app, postCollection, { permission: 'canCreateCollections', refusesTokens: true }, async ({ actor, body }) =>
    createCollection(actor, body),
  );

  route(
    app,
    putCollection,
    { collection: 'update', uid: { body: 'uid' }, refusesTokens: true },
    async ({ actor, collection, role, body }) => updateCollection(actor, declaredCollection(collection), role, body),
  );

  route(
    app,
    deleteCall,
    { collection: 'delete', uid: { query: 'uid' }, refusesTokens: true },
    async ({ actor, collection }) => deleteCollection(actor, declaredCollection(collection), deletionStores(app)),
  );
}
