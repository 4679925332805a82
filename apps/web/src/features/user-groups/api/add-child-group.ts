import { useMutation, useQueryClient } from '@tanstack/react-query';
import { addChildGroup as addChildGroupCall } from '@datalab/contract/api/user-groups';
import { apiCall } from '../../../lib/api-client.ts';
import { userGroupKeys } from '../keys.ts';
import { invalidateAfterGroupChange } from './invalidate.ts';

export function addChildGroup(groupId: number, childId: number) {
  return apiCall(addChildGroupCall, { params: { id: groupId, childId } });
}

/** Nests a group in this one; a cycle or too deep a chain is refused with 'Max depth reached' (400). */
export function useAddChildGroup(groupId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (childId: number) => addChildGroup(groupId, childId),
    onSuccess: async (children) => {
      queryClient.setQueryData(userGroupKeys.children(groupId), children);
      await invalidateAfterGroupChange(queryClient);
    },
  });
}
