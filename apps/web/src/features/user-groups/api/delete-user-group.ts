import { useMutation, useQueryClient } from '@tanstack/react-query';
import { deleteUserGroup as deleteUserGroupCall } from '@datalab/contract/api/user-groups';
import { apiCall } from '../../../lib/api-client.ts';
import { userGroupKeys } from '../keys.ts';
import { invalidateAfterGroupChange } from './invalidate.ts';

export function deleteUserGroup(id: number) {
  return apiCall(deleteUserGroupCall, { params: { id } });
}

/** Deletes a group with its memberships, nesting and roles. */
export function useDeleteUserGroup() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteUserGroup,
    onSuccess: async (_result, id) => {
      queryClient.removeQueries({ queryKey: userGroupKeys.detail(id) });
      await invalidateAfterGroupChange(queryClient);
    },
  });
}
