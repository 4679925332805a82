import { useMutation } from '@tanstack/react-query';
import { downloadFilePath, type DownloadJob } from '@datalab/contract/api/downloads';
import { apiFile } from '../../../lib/api-file.ts';
import { saveBlob } from '../../../lib/save-blob.ts';

/**
 * A Completed job's file, fetched with the bearer token. The path is built from the job's id rather than following
 * `job.link`, so the file always comes from the API client's own base URL.
 */
export function fetchDownloadFile(job: Pick<DownloadJob, 'id'>, signal?: AbortSignal) {
  return apiFile(downloadFilePath(job.id), { signal });
}

/** Fetches a Completed job's file and hands it to the browser under the job's file name. */
export function useSaveDownloadFile() {
  return useMutation({
    mutationFn: async (job: Pick<DownloadJob, 'id' | 'fileName'>) => {
      saveBlob(await fetchDownloadFile(job), job.fileName);
    },
  });
}
