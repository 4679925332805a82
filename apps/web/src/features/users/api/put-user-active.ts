import { useMutation, useQueryClient } from '@tanstack/react-query';
import { putUserActive } from '@datalab/contract/api/users';
import { apiCall } from '../../../lib/api-client.ts';
import { invalidateScopes } from '../../../lib/query-scopes.ts';

export interface SetUserActive {
  userId: number;
  active: boolean;
}

export function setUserActive({ userId, active }: SetUserActive) {
  return apiCall(putUserActive, { params: { id: userId }, body: { active } });
}

/** Deactivates (sign-in and tokens refused, roles kept) or reactivates a user. */
export function useSetUserActive() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setUserActive,
    onSuccess: () => invalidateScopes(queryClient, 'users'),
  });
}
