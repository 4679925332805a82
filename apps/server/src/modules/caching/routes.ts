import { getCacheKeys, getCacheValueByType, purgeCache, removeFromCache } from '@datalab/contract/api/caching';
import type { FastifyInstance } from 'fastify';
import { route } from '../../routing/route.ts';
import { entryValue, listEntries, purgeEntries, removeEntry } from './service.ts';

// The cache-management calls of product §7, for holders of canManageUsers only.

export default async function cachingRoutes(app: FastifyInstance) {
  const access = { permission: 'canManageUsers' } as const;

  route(app, getCacheKeys, access, ({ actor, query }) => listEntries(actor, app.resultCache, query));

  route(app, getCacheValueByType, access, ({ query }) => entryValue(app.resultCache, query.key, query.type));

  route(app, removeFromCache, access, ({ actor, query }) => removeEntry(actor, app.resultCache, query.key));

  route(app, purgeCache, access, ({ actor, body }) => purgeEntries(actor, app.resultCache, body.type));
}
