import {
  deleteSqlConnection,
  getSqlConnection,
  getSqlConnectionSchema,
  listSqlConnections,
  postSqlConnection,
  putSqlConnection,
  testSqlConnection,
  testUnsavedSqlConnection,
} from '@datalab/contract/api/sql-connections';
import type { FastifyInstance } from 'fastify';
import { declaredCollection, route, type RouteContext } from '../../routing/route.ts';
import {
  connectionSchema,
  connectionsOf,
  createConnection,
  deleteConnection,
  getConnection,
  testStoredConnection,
  testUnsavedConnection,
  updateConnection,
  type ConnectionServices,
} from './service.ts';
import { explainingSqlTestFailure } from '../../lib/connection-tests.ts';

// SQL connections: Readers see them (never a password), Editors read their schema for completion, Owners
// manage and test them (product §14).

export default async function connectionRoutes(app: FastifyInstance) {
  const services = (context: Pick<RouteContext<never>, 'actor'>): ConnectionServices => ({
    actor: context.actor,
    runtime: app.sqlRuntime,
    connectors: app.connectors,
  });
  const byId = { params: 'id' } as const;

  route(app, listSqlConnections, { collection: 'read', uid: { query: 'collectionUid' } }, async (c) =>
    connectionsOf(c.actor, declaredCollection(c.collection)),
  );
  route(app, getSqlConnection, { collection: 'read', connection: byId }, async (c) =>
    getConnection(c.actor, Number(c.params.id)),
  );
  route(app, postSqlConnection, { collection: 'update', uid: { body: 'collectionUid' } }, async (c) =>
    createConnection(services(c), declaredCollection(c.collection), c.body),
  );
  route(app, putSqlConnection, { collection: 'update', connection: byId }, async (c) =>
    updateConnection(services(c), declaredCollection(c.collection), Number(c.params.id), c.body),
  );
  route(app, deleteSqlConnection, { collection: 'update', connection: byId }, async (c) =>
    deleteConnection(services(c), Number(c.params.id)),
  );
  // A failed test says why, under the field it points at, and leaves a warn record (lib/connection-tests.ts).
  route(app, testSqlConnection, { collection: 'update', connection: byId }, async (c) =>
    explainingSqlTestFailure(app, c.request, { connectionId: Number(c.params.id) }, () =>
      testStoredConnection(services(c), declaredCollection(c.collection), Number(c.params.id)),
    ),
  );
  route(app, testUnsavedSqlConnection, { collection: 'update', uid: { body: 'collectionUid' } }, async (c) => {
    const { kind, host, port, database, username, ssl, connectionId } = c.body;
    const subject = { collectionUid: c.body.collectionUid, connectionId, kind, host, port, database, username, ssl };
    return explainingSqlTestFailure(app, c.request, subject, () =>
      testUnsavedConnection(services(c), declaredCollection(c.collection), c.body),
    );
  });
  route(app, getSqlConnectionSchema, { collection: 'editAssets', connection: byId }, async (c) =>
    connectionSchema(services(c), declaredCollection(c.collection), Number(c.params.id)),
  );
}
