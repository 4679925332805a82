import { z } from 'zod';
import { defineCall } from '../call.ts';
import { nameText, text } from '../text.ts';
import { isoDateTime } from '../dates.ts';
import { pageOf, pageQuery, sortQuery } from '../paging.ts';
import { dataRole, groupRef, userRef } from './data-roles.ts';

export const COLLECTION_NAME_MAX = 100;

const name = nameText(COLLECTION_NAME_MAX);
const description = text(2000).default('');

export const collectionSummary = z.object({
  id: z.number().int(),
  uid: z.string(),
  name: z.string(),
  description: z.string(),
  /** Its assets that are available to AI agents are tools of the MCP endpoint (an Owner's or administrator's switch). */
  mcpEnabled: z.boolean(),
  /** The caller's effective role; null for an administrator who sees it without one. */
  myRole: dataRole.nullable(),
  assetCount: z.number().int(),
  createdAt: isoDateTime,
  updatedAt: isoDateTime,
});
export type CollectionSummary = z.infer<typeof collectionSummary>;

export const collectionDetail = collectionSummary.extend({
  connectionCount: z.number().int(),
  createdBy: userRef.nullable(),
  /** Who owns it (direct Owners and groups holding Owner), shown to anyone who can read it. */
  owners: z.array(userRef),
  ownerGroups: z.array(groupRef),
  /** What the caller may do, so screens show only what works. */
  can: z.object({ edit: z.boolean(), manageRoles: z.boolean(), delete: z.boolean(), editAssets: z.boolean() }),
});
export type CollectionDetail = z.infer<typeof collectionDetail>;

export const createCollection = z.object({ name, description });
export const updateCollection = z.object({
  uid: z.string().trim().min(1),
  name,
  description,
  /** Left as it is when not sent. */
  mcpEnabled: z.boolean().optional(),
});

export const collectionSortColumns = ['name', 'createdAt', 'updatedAt'] as const;

export const getAllCollections = defineCall({
  method: 'GET',
  path: '/api/DataSourceCollection/GetAll',
  tag: 'DataSourceCollection',
  summary: 'The collections the caller can see, with their role on each; search by name or description',
  query: pageQuery.extend({ search: text(200).optional() }).extend(sortQuery(collectionSortColumns, 'name').shape),
  response: pageOf(collectionSummary),
});

export const postCollection = defineCall({
  method: 'POST',
  path: '/api/DataSourceCollection',
  tag: 'DataSourceCollection',
  summary:
    'Create a collection; the creator becomes its Owner (canManageUsers, or a member of a COLLECTION_CREATOR_GROUPS ' +
    'group)',
  body: createCollection,
  response: collectionDetail,
  status: 201,
});

export const putCollection = defineCall({
  method: 'PUT',
  path: '/api/DataSourceCollection',
  tag: 'DataSourceCollection',
  summary: "Change a collection's name and description (Owner)",
  body: updateCollection,
  response: collectionDetail,
});

export const deleteCollection = defineCall({
  method: 'DELETE',
  path: '/api/DataSourceCollection',
  tag: 'DataSourceCollection',
  summary: 'Delete a collection with everything it holds, revoking its tokens (Owner)',
  query: z.object({ uid: z.string().trim().min(1) }),
  response: z.object({ uid: z.string(), deleted: z.literal(true) }),
});

export const getCollectionByUid = defineCall({
  method: 'GET',
  path: '/api/DataSourceCollection/GetByUid/:uid',
  tag: 'DataSourceCollection',
  summary: 'One collection',
  params: z.object({ uid: z.string().min(1) }),
  response: collectionDetail,
});

export const getCollectionByDataAssetId = defineCall({
  method: 'GET',
  path: '/api/DataSourceCollection/GetByDataAssetId/:id',
  tag: 'DataSourceCollection',
  summary: 'The collection a data asset belongs to ({id} is the asset id or uid)',
  params: z.object({ id: z.string().min(1) }),
  response: collectionDetail,
});
