import { useMutation, useQueryClient } from '@tanstack/react-query';
import { removeGroupUser as removeGroupUserCall } from '@datalab/contract/api/user-groups';
import { apiCall } from '../../../lib/api-client.ts';
import { userGroupKeys } from '../keys.ts';
import { invalidateAfterGroupChange } from './invalidate.ts';

export function removeGroupUser(groupId: number, userId: number) {
  return apiCall(removeGroupUserCall, { params: { id: groupId, userId } });
}

export function useRemoveGroupUser(groupId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (userId: number) => removeGroupUser(groupId, userId),
    onSuccess: async (members) => {
      queryClient.setQueryData(userGroupKeys.members(groupId), members);
      await invalidateAfterGroupChange(queryClient);
    },
  });
}
