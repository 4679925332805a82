import { useMutation, useQueryClient } from '@tanstack/react-query';
import { postUserGroup } from '@datalab/contract/api/user-groups';
import { apiCall } from '../../../lib/api-client.ts';
import { userGroupKeys } from '../keys.ts';

const body = postUserGroup.body;
if (!body) throw new Error('postUserGroup must define its body');
/** The rules of a new group's name and description, for the form. */
export const userGroupBody = body;

export function createUserGroup(body: { name: string; description: string }) {
  // A taken name (409) is shown on the name field.
  return apiCall(postUserGroup, { body, quietStatuses: [409] });
}

export function useCreateUserGroup() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createUserGroup,
    onSuccess: async (created) => {
      queryClient.setQueryData(userGroupKeys.detail(created.id), created);
      await queryClient.invalidateQueries({ queryKey: userGroupKeys.lists() });
    },
  });
}
