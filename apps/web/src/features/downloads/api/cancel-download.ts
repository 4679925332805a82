import { useMutation, useQueryClient } from '@tanstack/react-query';
import { cancelDownload } from '@datalab/contract/api/downloads';
import { apiCall } from '../../../lib/api-client.ts';
import { downloadKeys } from '../keys.ts';

/** Cancels one of the caller's queued or running download jobs; the list shows it Cancelled. */
export function useCancelDownload() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (job: { id: string }) => apiCall(cancelDownload, { params: { id: job.id } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: downloadKeys.all }),
  });
}
