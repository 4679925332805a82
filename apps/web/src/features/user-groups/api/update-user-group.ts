import { useMutation, useQueryClient } from '@tanstack/react-query';
import { putUserGroup } from '@datalab/contract/api/user-groups';
import { apiCall } from '../../../lib/api-client.ts';
import { userGroupKeys } from '../keys.ts';
import { invalidateAfterGroupChange } from './invalidate.ts';

export interface UpdateUserGroup {
  id: number;
  name: string;
  description: string;
}

export function updateUserGroup({ id, ...body }: UpdateUserGroup) {
  // A taken name (409) is shown on the name field.
  return apiCall(putUserGroup, { params: { id }, body, quietStatuses: [409] });
}

/** Renames and describes a group; its name shows in other groups, users and roles too. */
export function useUpdateUserGroup() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateUserGroup,
    onSuccess: async (updated) => {
      queryClient.setQueryData(userGroupKeys.detail(updated.id), updated);
      await invalidateAfterGroupChange(queryClient);
    },
  });
}
