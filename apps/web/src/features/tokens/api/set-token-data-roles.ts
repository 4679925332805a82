import { useMutation, useQueryClient } from '@tanstack/react-query';
import { putTokenDataRoles } from '@datalab/contract/api/tokens';
import type { DataRole } from '@datalab/contract/api/data-roles';
import { apiCall } from '../../../lib/api-client.ts';
import { tokenKeys } from '../keys.ts';

export interface SetTokenDataRoles {
  id: number;
  roles: { collectionUid: string; role: DataRole }[];
}

export function setTokenDataRoles({ id, roles }: SetTokenDataRoles) {
  return apiCall(putTokenDataRoles, { params: { id }, body: { roles } });
}

/** Replaces a personal access token's roles (its owner only; each at most the owner's own role). */
export function useSetTokenDataRoles() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setTokenDataRoles,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: tokenKeys.all }),
  });
}
