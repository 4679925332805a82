import { useQuery } from '@tanstack/react-query';
import { useCurrentUser } from '../../../features/account/api/get-current-user.ts';
import { userDataRolesQueryOptions } from '../../../features/data-roles/api/get-user-data-roles.ts';
import type { GrantableCollection } from '../../../features/tokens/model/roles.ts';

/**
 * The collections the signed-in user holds a role on, with their effective role: what their personal access tokens
 * may carry (the token screens compose the account and data-role features here, which may not import each other).
 */
export function useGrantableCollections() {
  const currentUser = useCurrentUser();
  const userId = currentUser.data?.id ?? 0;
  const roles = useQuery({ ...userDataRolesQueryOptions(userId), enabled: userId !== 0 });
  const collections: GrantableCollection[] =
    roles.data?.roles.map(({ collection, role }) => ({ uid: collection.uid, name: collection.name, role })) ?? [];
  return {
    currentUserId: currentUser.data?.id,
    collections,
    isPending: currentUser.isPending || (userId !== 0 && roles.isPending),
    error: currentUser.error ?? roles.error,
  };
}
