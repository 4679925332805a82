import * as calls from '@datalab/contract/api/web-api';
import type { FastifyInstance } from 'fastify';
import { declaredCollection, route, type RouteContext } from '../../routing/route.ts';
import {
  createWebApiAsset,
  deleteWebApiAsset,
  pickCredential,
  tryWebApiRequest,
  updateWebApiAsset,
} from '../data-sources/web-api-assets.service.ts';
import {
  createWebApiConnectionFor,
  deleteWebApiConnectionById,
  getWebApiConnection,
  testStoredWebApiConnection,
  testUnsavedWebApiConnection,
  updateWebApiConnectionById,
  webApiConnectionsOf,
  type WebApiServices,
} from './service.ts';
import { explainedWebApiTest } from '../../lib/connection-tests.ts';
import { deletionStores } from '../dependents/leftovers.service.ts';
import { createCredential, deleteCredential, updateCredential } from './credentials.service.ts';

// Web API connections and data assets (product §7, docs/decisions.md for the credential calls): Readers see
// connections (secrets masked), Owners manage connections and their credentials and test them, Editors manage
// Web API assets, pick their credential and Try drafts (product §14). Hidden → 404, visible but not allowed → 403.

export default async function webApiRoutes(app: FastifyInstance) {
  const services = (context: Pick<RouteContext<never>, 'actor'>): WebApiServices => ({
    actor: context.actor,
    runtime: app.sqlRuntime,
    connectors: app.connectors,
  });
  const byId = { webApiConnection: { params: 'id' } } as const;

  route(app, calls.listWebApiConnections, { collection: 'read', uid: { query: 'collectionUid' } }, async (c) =>
    webApiConnectionsOf(c.actor, declaredCollection(c.collection), c.role),
  );
  route(app, calls.getWebApiConnection, { collection: 'read', ...byId }, async (c) =>
    getWebApiConnection(c.actor, Number(c.params.id), c.role),
  );
  route(app, calls.postWebApiConnection, { collection: 'update', uid: { body: 'collectionUid' } }, async (c) =>
    createWebApiConnectionFor(services(c), declaredCollection(c.collection), c.role, c.body),
  );
  route(app, calls.putWebApiConnection, { collection: 'update', ...byId }, async (c) =>
    updateWebApiConnectionById(services(c), Number(c.params.id), c.role, c.body),
  );
  route(app, calls.deleteWebApiConnection, { collection: 'update', ...byId }, async (c) =>
    deleteWebApiConnectionById(services(c), Number(c.params.id)),
  );
  // A failed test leaves a warn record in the application log (lib/connection-tests.ts).
  route(app, calls.testWebApiConnection, { collection: 'update', ...byId }, async (c) => {
    const result = await testStoredWebApiConnection(services(c), Number(c.params.id));
    return explainedWebApiTest(app, c.request, { webApiConnectionId: Number(c.params.id) }, result);
  });
  route(app, calls.testUnsavedWebApiConnection, { collection: 'update', uid: { body: 'collectionUid' } }, async (c) => {
    const result = await testUnsavedWebApiConnection(services(c), declaredCollection(c.collection), c.role, c.body);
    const subject = { collectionUid: c.body.collectionUid, connectionId: c.body.connectionId, baseUrl: c.body.baseUrl };
    return explainedWebApiTest(app, c.request, subject, result);
  });
  route(app, calls.testWebApiCredential, { collection: 'update', ...byId }, async (c) => {
    const [id, credentialId] = [Number(c.params.id), Number(c.params.credId)];
    const result = await testStoredWebApiConnection(services(c), id, credentialId);
    return explainedWebApiTest(app, c.request, { webApiConnectionId: id, credentialId }, result);
  });
  route(app, calls.deleteWebApiConnectionCredential, { collection: 'update', ...byId }, async (c) => {
    const id = Number(c.params.id);
    await deleteCredential(services(c), Number(c.params.credId), id);
    return getWebApiConnection(c.actor, id, c.role);
  });

  route(
    app,
    calls.postWebApiCredential,
    { collection: 'update', webApiConnection: { body: 'connectionId' } },
    async (c) => createCredential(services(c), declaredCollection(c.collection), c.body),
  );
  route(app, calls.putWebApiCredential, { collection: 'update', credential: { body: 'id' } }, async (c) =>
    updateCredential(services(c), c.body),
  );
  route(app, calls.deleteWebApiCredential, { collection: 'update', credential: { params: 'id' } }, async (c) =>
    deleteCredential(services(c), Number(c.params.id)),
  );

  route(app, calls.postWebApiDataSource, { collection: 'editAssets', uid: { body: 'collectionUid' } }, async (c) =>
    createWebApiAsset(c.actor, declaredCollection(c.collection), c.role, c.body),
  );
  route(app, calls.putWebApiDataSource, { collection: 'editAssets', dataAsset: { body: 'uid' } }, async (c) =>
    updateWebApiAsset(c.actor, declaredCollection(c.collection), c.role, c.body),
  );
  route(app, calls.deleteWebApiDataSource, { collection: 'editAssets', dataAsset: { query: 'uid' } }, async (c) =>
    deleteWebApiAsset(c.actor, declaredCollection(c.collection), c.query.uid, deletionStores(app)),
  );
  route(
    app,
    calls.putWebApiDataSourceCredential,
    { collection: 'editAssets', dataAsset: { params: 'id' } },
    async (c) => pickCredential(c.actor, declaredCollection(c.collection), c.role, c.params.id, c.body.credentialId),
  );
  route(app, calls.previewWebApiDataSource, { collection: 'editAssets', uid: { body: 'collectionUid' } }, async (c) =>
    tryWebApiRequest(
      { db: app.db, runtime: app.sqlRuntime, connectors: app.connectors },
      declaredCollection(c.collection),
      c.body,
    ),
  );
}
