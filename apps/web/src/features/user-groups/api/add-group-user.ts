import { useMutation, useQueryClient } from '@tanstack/react-query';
import { addGroupUser as addGroupUserCall } from '@datalab/contract/api/user-groups';
import { apiCall } from '../../../lib/api-client.ts';
import { userGroupKeys } from '../keys.ts';
import { invalidateAfterGroupChange } from './invalidate.ts';

export function addGroupUser(groupId: number, userId: number) {
  return apiCall(addGroupUserCall, { params: { id: groupId, userId } });
}

export function useAddGroupUser(groupId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (userId: number) => addGroupUser(groupId, userId),
    onSuccess: async (members) => {
      queryClient.setQueryData(userGroupKeys.members(groupId), members);
      await invalidateAfterGroupChange(queryClient);
    },
  });
}
