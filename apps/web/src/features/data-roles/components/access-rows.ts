import type { CollectionDataRoles } from '@datalab/contract/api/data-roles';
import type { AccessRow } from './AccessTable.tsx';

export interface RowOptions {
  /** Where a group's name links to (administrators only: group pages need canManageUsers). */
  groupHref?: (id: number) => string;
  currentUserId?: number;
}

export function userRows(roles: CollectionDataRoles, { currentUserId }: RowOptions = {}): AccessRow[] {
  return roles.users.map(({ user, role }) => ({
    id: user.id,
    name: user.id === currentUserId ? `${user.name} (you)` : user.name,
    detail: user.username,
    role,
    lockedReason: user.id === currentUserId ? 'Another owner changes your own role' : undefined,
  }));
}

export function groupRows(roles: CollectionDataRoles, { groupHref }: RowOptions = {}): AccessRow[] {
  return roles.groups.map(({ group, role }) => ({ id: group.id, name: group.name, role, href: groupHref?.(group.id) }));
}
