import { queryOptions, useQuery } from '@tanstack/react-query';
import { getCurrentUser } from '@datalab/contract/api/account';
import { apiCall } from '../../../lib/api-client.ts';
import { useSession } from '../../../lib/auth/session.ts';
import { accountKeys } from '../keys.ts';

export function fetchCurrentUser(signal?: AbortSignal) {
  return apiCall(getCurrentUser, { signal });
}

export function currentUserQueryOptions(enabled: boolean) {
  return queryOptions({
    queryKey: accountKeys.currentUser(),
    queryFn: ({ signal }) => fetchCurrentUser(signal),
    enabled,
    staleTime: 5 * 60_000,
  });
}

/** product §4: the current user is loaded when authenticated (and cleared otherwise, see SessionSync). */
export function useCurrentUser() {
  const { isSignedIn } = useSession();
  return useQuery(currentUserQueryOptions(isSignedIn));
}
