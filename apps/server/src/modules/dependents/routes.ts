import {
  getCollectionDependents,
  getCredentialDependents,
  getDataSourceDependents,
  getSqlConnectionDependents,
  getWebApiConnectionDependents,
} from '@datalab/contract/api/dependents';
import type { FastifyInstance } from 'fastify';
import { declaredCollection, route } from '../../routing/route.ts';
import {
  collectionDependents,
  credentialDependents,
  dataSourceDependents,
  sqlConnectionDependents,
  webApiConnectionDependents,
} from './service.ts';

// "What goes with it" before a deletion: asked with the very right the deletion needs (Owners for connections,
// credentials and collections, Editors for data assets), through the same route declarations.

export default async function dependentsRoutes(app: FastifyInstance) {
  const byId = { params: 'id' } as const;
  route(app, getSqlConnectionDependents, { collection: 'update', connection: byId }, async (c) =>
    sqlConnectionDependents(app.db, Number(c.params.id)),
  );
  route(app, getWebApiConnectionDependents, { collection: 'update', webApiConnection: byId }, async (c) =>
    webApiConnectionDependents(app.db, Number(c.params.id)),
  );
  route(app, getCredentialDependents, { collection: 'update', credential: byId }, async (c) =>
    credentialDependents(app.db, Number(c.params.id)),
  );
  route(app, getDataSourceDependents, { collection: 'editAssets', dataAsset: byId }, async (c) =>
    dataSourceDependents(app.db, app.resultCache, c.params.id),
  );
  route(app, getCollectionDependents, { collection: 'delete', uid: { params: 'uid' } }, async (c) =>
    collectionDependents(app.db, app.resultCache, declaredCollection(c.collection)),
  );
}
