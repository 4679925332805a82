import { useMutation, useQueryClient } from '@tanstack/react-query';
import { putUserGroupDataRoles, type DataRole } from '@datalab/contract/api/data-roles';
import { apiCall } from '../../../lib/api-client.ts';
import { invalidateScopes } from '../../../lib/query-scopes.ts';

export interface SetGroupDataRole {
  groupId: number;
  collectionUid: string;
  /** null withdraws the role. */
  role: DataRole | null;
}

export function setGroupDataRole({ groupId, collectionUid, role }: SetGroupDataRole) {
  return apiCall(putUserGroupDataRoles, { params: { id: groupId }, body: { collectionUid, role } });
}

/** Grants, changes or withdraws a group's role: every member (through nesting too) gains or loses it. */
export function useSetGroupDataRole() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setGroupDataRole,
    onSuccess: () => invalidateScopes(queryClient, 'dataRoles', 'collections'),
  });
}
