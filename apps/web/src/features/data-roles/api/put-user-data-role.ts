import { useMutation, useQueryClient } from '@tanstack/react-query';
import { putUserDataRoles, type DataRole } from '@datalab/contract/api/data-roles';
import { apiCall } from '../../../lib/api-client.ts';
import { invalidateScopes } from '../../../lib/query-scopes.ts';

export interface SetUserDataRole {
  userId: number;
  collectionUid: string;
  /** null withdraws the role. */
  role: DataRole | null;
}

export function setUserDataRole({ userId, collectionUid, role }: SetUserDataRole) {
  return apiCall(putUserDataRoles, { params: { id: userId }, body: { collectionUid, role } });
}

/** Grants, changes or withdraws a user's direct role; a collection may enter or leave their list. */
export function useSetUserDataRole() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setUserDataRole,
    onSuccess: () => invalidateScopes(queryClient, 'dataRoles', 'collections'),
  });
}
