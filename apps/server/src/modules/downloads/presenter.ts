import { downloadFilePath, type DownloadFormat, type DownloadJob } from '@datalab/contract/api/downloads';
import type { JobRow } from './repository.ts';

// A job row as the contract's DownloadJob (dates as Dates; the serializer encodes them). The link is the file
// route, fetched with the bearer token: never a token or a signed secret in the URL.

const date = (value: string | null) => (value === null ? null : new Date(value));

export function presentJob(row: JobRow): DownloadJob {
  return {
    id: row.id,
    state: row.state,
    format: row.format as DownloadFormat,
    asset: { uid: row.data_source_uid, name: row.asset_name },
    parameters: JSON.parse(row.parameters) as Record<string, unknown>,
    createdAt: new Date(row.created_at),
    startedAt: date(row.started_at),
    finishedAt: date(row.finished_at),
    rows: Number(row.row_count),
    size: row.size === null ? null : Number(row.size),
    truncated: Boolean(row.truncated),
    link: row.state === 'Completed' ? downloadFilePath(row.id) : null,
    fileName: row.file_name,
    message: row.state === 'Failed' ? row.message : null,
    expiresAt: row.state === 'Completed' || row.state === 'Expired' ? date(row.expires_at) : null,
  };
}
