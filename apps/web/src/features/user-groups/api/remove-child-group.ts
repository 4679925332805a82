import { useMutation, useQueryClient } from '@tanstack/react-query';
import { removeChildGroup as removeChildGroupCall } from '@datalab/contract/api/user-groups';
import { apiCall } from '../../../lib/api-client.ts';
import { userGroupKeys } from '../keys.ts';
import { invalidateAfterGroupChange } from './invalidate.ts';

export function removeChildGroup(groupId: number, childId: number) {
  return apiCall(removeChildGroupCall, { params: { id: groupId, childId } });
}

export function useRemoveChildGroup(groupId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (childId: number) => removeChildGroup(groupId, childId),
    onSuccess: async (children) => {
      queryClient.setQueryData(userGroupKeys.children(groupId), children);
      await invalidateAfterGroupChange(queryClient);
    },
  });
}
