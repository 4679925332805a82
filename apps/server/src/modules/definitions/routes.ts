import { definitionJsonSchema } from '@datalab/contract/api/definition-document';
import {
  applyCollectionDefinition,
  DEFINITION_MAX_BYTES,
  getCollectionDefinition,
  planCollectionDefinition,
} from '@datalab/contract/api/definitions';
import type { FastifyInstance } from 'fastify';
import { declaredCollection, route, type RouteContext } from '../../routing/route.ts';
import { deletionStores } from '../dependents/leftovers.service.ts';
import { applyDefinition, exportDefinition, planDefinition, type DefinitionServices } from './service.ts';

// A collection's definition as code (docs/definitions.md): the Owner (or an administrator who is one) exports it,
// plans a document against it and applies it. Data Lab tokens may call them (pipelines do) within their narrowed
// role; a token cannot change data roles through a document (service.ts). The document's JSON Schema is public,
// beside the OpenAPI document.

export const DEFINITION_SCHEMA_PATH = '/api/docs/definition.schema.json';
/** A document of DEFINITION_MAX_BYTES sent as a JSON string may double in escaping; secrets come beside it. */
const BODY_LIMIT = 2 * DEFINITION_MAX_BYTES + 1024 * 1024;

const wantsYaml = (accept: string | undefined) => /\b(application|text)\/(x-)?yaml\b/i.test(accept ?? '');

export default async function definitionRoutes(app: FastifyInstance) {
  const services = (c: Pick<RouteContext<never>, 'actor' | 'role'>): DefinitionServices => ({
    actor: c.actor,
    runtime: app.sqlRuntime,
    connectors: app.connectors,
    stores: deletionStores(app),
    role: c.role,
  });
  const owner = { collection: 'update', uid: { params: 'uid' } } as const;

  route(app, getCollectionDefinition, owner, async ({ actor, collection, request, reply }) => {
    const yaml = wantsYaml(request.headers.accept);
    const document = await exportDefinition(actor, declaredCollection(collection), yaml);
    if (typeof document !== 'string') return document;
    reply.type('application/yaml; charset=utf-8').serializer((payload: unknown) => payload as string);
    return document as never;
  });

  route(
    app,
    planCollectionDefinition,
    owner,
    async (c) => planDefinition(services(c), declaredCollection(c.collection), c.body),
    { bodyLimit: BODY_LIMIT },
  );

  route(
    app,
    applyCollectionDefinition,
    owner,
    async (c) => {
      const result = await applyDefinition(services(c), declaredCollection(c.collection), c.body);
      c.request.log.info(
        { collection: declaredCollection(c.collection).uid, changes: result.changes.length },
        'definition applied',
      );
      return result;
    },
    { bodyLimit: BODY_LIMIT },
  );

  const schema = JSON.stringify(definitionJsonSchema(), null, 2);
  app.get(DEFINITION_SCHEMA_PATH, { schema: { hide: true } }, async (_request, reply) =>
    reply.type('application/schema+json; charset=utf-8').send(schema),
  );
}
