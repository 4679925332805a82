import { getDownloadStatus } from '@datalab/contract/api/downloads';
import { apiCall } from '../../../lib/api-client.ts';

/**
 * One poll of a job's state. Only a fetcher: the call screen polls on product §9's schedule (model/poll-download.ts),
 * which a query's refetch interval cannot bound to a number of attempts.
 */
export function fetchDownloadStatus(id: string, signal?: AbortSignal) {
  return apiCall(getDownloadStatus, { params: { id }, signal });
}
