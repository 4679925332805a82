import { downloadFilePath, type DownloadFormat, type DownloadJob } from '@datalab/contract/api/downloads';
import type { JobRow } from './repository.ts';

// A job row as the contract's DownloadJob (dates as Dates; the serializer encodes them). The link is the file
// route, fetched with the bearer token: never a token or a signed secret in the URL. A Completed job past its
// expiry is Expired from that instant, whether or not the sweeper has removed its file yet.

const date = (value: string | null) => (value === null ? null : new Date(value));

/** Whether a Completed job's file has run out its retention at `now` (ms), swept or not. */
export function isPastExpiry(row: Pick<JobRow, 'state' | 'expires_at'>, now: number): boolean {
  return row.state === 'Completed' && row.expires_at !== null && Date.parse(row.expires_at) <= now;
}

/** The job's state at `now`: the stored one, or Expired for a Completed job past its expiry. */
export const stateAt = (row: JobRow, now: number) => (isPastExpiry(row, now) ? 'Expired' : row.state);

export function presentJob(row: JobRow, now: number): DownloadJob {
  const state = stateAt(row, now);
  return {
    id: row.id,
    state,
    format: row.format as DownloadFormat,
    asset: { uid: row.data_source_uid, name: row.asset_name },
    parameters: JSON.parse(row.parameters) as Record<string, unknown>,
    createdAt: new Date(row.created_at),
    startedAt: date(row.started_at),
    finishedAt: date(row.finished_at),
    rows: Number(row.row_count),
    size: row.size === null ? null : Number(row.size),
    truncated: Boolean(row.truncated),
    link: state === 'Completed' ? downloadFilePath(row.id) : null,
    fileName: row.file_name,
    message: state === 'Failed' ? row.message : null,
    expiresAt: state === 'Completed' || state === 'Expired' ? date(row.expires_at) : null,
  };
}
