import type { CollectionDetail, CollectionSummary } from '@datalab/contract/api/collections';
import type { DataRole } from '@datalab/contract/api/data-roles';
import type { Collection } from '../../db/schema.ts';
import type { AuthUser } from '../../lib/auth-user.ts';
import { can } from '../access/policy.ts';

export function presentCollectionSummary(
  collection: Collection,
  role: DataRole | null,
  assetCount: number,
): CollectionSummary {
  return {
    id: collection.id,
    uid: collection.uid,
    name: collection.name,
    description: collection.description,
    mcpEnabled: collection.mcp_enabled === 1,
    myRole: role,
    assetCount,
    createdAt: new Date(collection.created_at),
    updatedAt: new Date(collection.updated_at),
  };
}

export function presentCollectionDetail(
  collection: Collection,
  user: AuthUser,
  role: DataRole | null,
  counts: { assetCount: number; connectionCount: number },
  createdBy: { id: number; name: string; username: string | null } | undefined,
  owners: { users: { id: number; name: string; username: string | null }[]; groups: { id: number; name: string }[] },
): CollectionDetail {
  return {
    ...presentCollectionSummary(collection, role, counts.assetCount),
    connectionCount: counts.connectionCount,
    createdBy: createdBy ?? null,
    owners: owners.users,
    ownerGroups: owners.groups,
    can: {
      edit: can(user, role, 'update'),
      manageRoles: can(user, role, 'manageRoles'),
      delete: can(user, role, 'delete'),
      editAssets: can(user, role, 'editAssets'),
    },
  };
}
