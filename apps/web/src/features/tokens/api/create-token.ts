import { useMutation, useQueryClient } from '@tanstack/react-query';
import { postToken, type CreateToken } from '@datalab/contract/api/tokens';
import { apiCall } from '../../../lib/api-client.ts';
import { tokenKeys } from '../keys.ts';

export function createToken(body: CreateToken) {
  // A name already in use is shown on the name field, not as a toast.
  return apiCall(postToken, { body, quietStatuses: [409] });
}

/** Creates a token; the reply carries its secret, this once. */
export function useCreateToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createToken,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: tokenKeys.all }),
  });
}
