import {
  getDataSourceMetricsSummaries,
  getUserMetricsSummaries,
  type metricsQuery,
} from '@datalab/contract/api/reporting';
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import type { AuthUser } from '../../lib/auth-user.ts';
import { forbidden, invalid, notFound } from '../../lib/errors.ts';
import { route } from '../../routing/route.ts';
import { findCollection, findCollectionOfAsset } from '../collections/service.ts';
import { authorizeCollection, collectionNotFound, hasPermission } from '../access/policy.ts';
import { findAssetId, type RollupScope } from './service.ts';
import { dataSourceSummaries, userSummaries, type SummaryRequest } from './service.ts';

// The Reporting calls of product §7. Who may read depends on the scope the query names, so the route declares
// "signed in, no Data Lab token" and the scope is authorized here through the one policy: one data asset or one
// collection → editAssets on its collection (Editors, Owners) or an administrator; everything → administrators.
// Hidden → 404, visible but not allowed → 403, as everywhere.

export const SCOPE_CONFLICT = 'Give either collectionUid or dataAssetUid, not both';

type Query = z.output<typeof metricsQuery>;

async function authorizedScope(
  app: FastifyInstance,
  user: AuthUser,
  query: { collectionUid?: string | undefined; dataAssetUid?: string | undefined },
): Promise<RollupScope> {
  const { collectionUid, dataAssetUid } = query;
  if (collectionUid !== undefined && dataAssetUid !== undefined)
    throw invalid('querystring.dataAssetUid', SCOPE_CONFLICT);
  const isAdministrator = await hasPermission(app.access, user, 'canManageUsers');
  if (dataAssetUid !== undefined) {
    // By uid only (the collection lookup also takes numeric ids): the rollups are read by this very uid.
    const asset = await findAssetId(app.db, dataAssetUid);
    const collection = asset ? await findCollectionOfAsset(app.db, String(asset.id)) : undefined;
    if (!collection) throw notFound('Data asset', dataAssetUid);
    if (!isAdministrator) {
      await authorizeCollection(app.access, user, collection, 'editAssets').catch((error: unknown) => {
        throw (error as { status?: number }).status === 404 ? notFound('Data asset', dataAssetUid) : error;
      });
    }
    return { dataSourceUid: dataAssetUid };
  }
  if (collectionUid !== undefined) {
    const collection = await findCollection(app.db, collectionUid);
    if (!collection) throw collectionNotFound(collectionUid);
    if (!isAdministrator) await authorizeCollection(app.access, user, collection, 'editAssets');
    return { collectionId: collection.id };
  }
  if (!isAdministrator) throw forbidden();
  return {};
}

export default async function reportingRoutes(app: FastifyInstance) {
  const access = { signedIn: true, refusesTokens: true } as const;

  async function summaryRequest(user: AuthUser, query: Query): Promise<SummaryRequest> {
    const scope = await authorizedScope(app, user, query);
    const { from, to, granularity, page, pageSize } = query;
    return { from, to, granularity, page, pageSize, scope };
  }

  route(app, getDataSourceMetricsSummaries, access, async ({ user, query }) =>
    dataSourceSummaries(app.db, await summaryRequest(user, query)),
  );

  route(app, getUserMetricsSummaries, access, async ({ user, query }) =>
    userSummaries(app.db, await summaryRequest(user, query)),
  );
}
