import type { UserGroupSummary } from '@datalab/contract/api/user-groups';
import type { groupsWithCounts } from './repository.ts';

export type GroupRow = Awaited<ReturnType<ReturnType<typeof groupsWithCounts>['execute']>>[number];

export const presentSummary = (row: GroupRow): UserGroupSummary => ({
  id: row.id,
  name: row.name,
  description: row.description,
  memberCount: Number(row.member_count),
  childCount: Number(row.child_count),
  parentCount: Number(row.parent_count),
  createdAt: new Date(row.created_at),
});
