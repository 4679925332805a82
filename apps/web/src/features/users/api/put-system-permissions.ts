import { useMutation, useQueryClient } from '@tanstack/react-query';
import { putSystemPermissions, type UserListItem } from '@datalab/contract/api/users';
import { apiCall } from '../../../lib/api-client.ts';
import { invalidateScopes } from '../../../lib/query-scopes.ts';
import { userKeys } from '../keys.ts';

export interface SetSystemPermissions {
  userId: number;
  canManageUsers: boolean;
}

export function setSystemPermissions({ userId, canManageUsers }: SetSystemPermissions) {
  return apiCall(putSystemPermissions, { params: { id: userId }, body: { canManageUsers } });
}

type UserPage = { items: UserListItem[]; totalCount: number; page: number; pageSize: number };

/**
 * Grants or withdraws user management. The switch moves at once (optimistic); a refusal — the last
 * administrator — puts every cached list back as it was.
 */
export function useSetSystemPermissions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setSystemPermissions,
    onMutate: async ({ userId, canManageUsers }) => {
      await queryClient.cancelQueries({ queryKey: userKeys.lists() });
      const previous = queryClient.getQueriesData<UserPage>({ queryKey: userKeys.lists() });
      queryClient.setQueriesData<UserPage>({ queryKey: userKeys.lists() }, (page) =>
        page
          ? {
              ...page,
              items: page.items.map((user) =>
                user.id === userId ? { ...user, permissions: { ...user.permissions, canManageUsers } } : user,
              ),
            }
          : page,
      );
      return { previous };
    },
    onError: (_error, _input, context) => {
      for (const [key, page] of context?.previous ?? []) queryClient.setQueryData(key, page);
    },
    // The account query too: withdrawing your own permission closes the management pages.
    onSettled: () => invalidateScopes(queryClient, 'users', 'account'),
  });
}
