import { useMutation, useQueryClient } from '@tanstack/react-query';
import { startDownload, type StartDownloadBody } from '@datalab/contract/api/downloads';
import { apiCall } from '../../../lib/api-client.ts';
import { downloadKeys } from '../keys.ts';

export function startDownloadJob(body: StartDownloadBody) {
  return apiCall(startDownload, { body });
}

/** Starts a job (202 with the job); a 400 shows product §8's toast through the API client. */
export function useStartDownload() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: startDownloadJob,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: downloadKeys.lists() }),
  });
}
