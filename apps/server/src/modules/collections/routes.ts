import {
  deleteCollection as deleteCall,
  getAllCollections,
  getCollectionByDataAssetId,
  getCollectionByUid,
  postCollection,
  putCollection,
} from '@datalab/contract/api/collections';
import type { FastifyInstance } from 'fastify';
import { route } from '../../lib/route.ts';
import { authorizeCollection } from '../access/policy.ts';
import { notFound } from '../../lib/errors.ts';
import { presentCollectionSummary } from './presenter.ts';
import { roleFromRank } from '../access/repository.ts';
import { findCollectionByDataAsset, listCollectionsForUser } from './repository.ts';
import { collectionDetail, createCollection, deleteCollection, loadCollection, updateCollection } from './service.ts';

export default async function collectionRoutes(app: FastifyInstance) {
  route(app, getAllCollections, async ({ user, query }) => {
    const { ranks } = await app.access.forUser(user.id, user.accessVersion);
    const { rows, total } = await listCollectionsForUser(app.db, {
      ranks,
      seeAll: user.canManageUsers,
      search: query.search,
      limit: query.pageSize,
      offset: (query.page - 1) * query.pageSize,
    });
    return {
      items: rows.map((row) => presentCollectionSummary(row, roleFromRank(ranks.get(row.id)), row.asset_count)),
      totalCount: total,
      page: query.page,
      pageSize: query.pageSize,
    };
  });

  route(app, getCollectionByUid, async ({ user, params }) => {
    const { collection, role } = await loadCollection(app, user, params.uid, 'read');
    return collectionDetail(app.db, user, collection, role);
  });

  route(app, getCollectionByDataAssetId, async ({ user, params }) => {
    const collection = await findCollectionByDataAsset(app.db, params.id);
    if (!collection) throw notFound('Data asset', params.id);
    const role = await authorizeCollection(app.access, user, collection, 'read').catch((error: unknown) => {
      throw (error as { status?: number }).status === 404 ? notFound('Data asset', params.id) : error;
    });
    return collectionDetail(app.db, user, collection, role);
  });

  route(app, postCollection, async ({ request, user, body }) => createCollection(app, request, user, body));
  route(app, putCollection, async ({ request, user, body }) => updateCollection(app, request, user, body));
  route(app, deleteCall, async ({ request, user, query }) => deleteCollection(app, request, user, query.uid));
}
