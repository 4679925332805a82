import { useMutation, useQueryClient } from '@tanstack/react-query';
import { revokeToken as revokeTokenCall } from '@datalab/contract/api/tokens';
import { apiCall } from '../../../lib/api-client.ts';
import { tokenKeys } from '../keys.ts';

export function revokeToken(id: number) {
  return apiCall(revokeTokenCall, { params: { id } });
}

/** Revokes a token at once, on every server; revoking twice is harmless. */
export function useRevokeToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revokeToken,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: tokenKeys.all }),
  });
}
