import { z } from 'zod';
import { defineCall } from '../call.ts';
import { isoDateTime } from '../dates.ts';
import { messages } from '../messages.ts';
import { pageOf, pageQuery } from '../paging.ts';
import { text } from '../text.ts';

// Downloads (product §7 "Download and reporting", product §15 "Downloads"): a job runs a data asset whole, beyond the
// interactive row cap, into a file of the format asked for; the caller polls its status and fetches the file.
// Only the job's owner sees or fetches it: another user's job answers 404, as an unknown one does.

export const downloadFormats = ['csv', 'json', 'ndjson', 'xlsx', 'parquet'] as const;
export type DownloadFormat = (typeof downloadFormats)[number];

export const downloadFormat = z.enum(downloadFormats, {
  error: (issue) => messages.unsupportedType(String(issue.input)),
});

export const downloadStates = ['Queued', 'Running', 'Completed', 'Failed', 'Expired', 'Cancelled'] as const;
export type DownloadState = (typeof downloadStates)[number];

/** product §9: the portal polls a job's status every 5000 ms, at most 12 times, then says where to find the file. */
export const DOWNLOAD_POLL_INTERVAL_MS = 5000;
export const DOWNLOAD_POLL_ATTEMPTS = 12;

export const startDownloadBody = z.object({
  /** The data asset's uid. */
  dataAssetUid: text(200).pipe(z.string().min(1, messages.required('dataAssetUid'))),
  /** Parameter values, as the calling layer's POST body takes them. */
  parameters: z.record(z.string(), z.unknown()).default({}),
  format: downloadFormat,
});
export type StartDownloadBody = z.input<typeof startDownloadBody>;

export const downloadJob = z.object({
  id: z.string(),
  state: z.enum(downloadStates),
  format: downloadFormat,
  asset: z.object({ uid: z.string(), name: z.string() }),
  /** The values the job runs with (normalised). */
  parameters: z.record(z.string(), z.unknown()),
  createdAt: isoDateTime,
  startedAt: isoDateTime.nullable(),
  finishedAt: isoDateTime.nullable(),
  /** Rows written so far (Running) or in all (Completed). */
  rows: z.number().int(),
  /** The file's size in bytes once Completed; null before. */
  size: z.number().int().nullable(),
  /**
   * True when the export limit stopped the file before the result's end; the file then says so itself (CSV and
   * NDJSON: a marked last line, XLSX: a note row, Parquet: footer metadata, JSON: its `truncated` member).
   */
  truncated: z.boolean(),
  /** Where the file is fetched (Completed only): GET with the bearer token, never a token in the URL. */
  link: z.string().nullable(),
  /** The file name the download is saved under. */
  fileName: z.string(),
  /** Why the job failed (Failed only), a text safe to show. */
  message: z.string().nullable(),
  /** When the file is removed (Completed), or was (Expired: from that instant, whether or not it is swept yet). */
  expiresAt: isoDateTime.nullable(),
});
export type DownloadJob = z.infer<typeof downloadJob>;

const jobParams = z.object({ id: text(64).pipe(z.string().min(1)) });

export const startDownload = defineCall({
  method: 'POST',
  path: '/api/Download',
  tag: 'Download',
  summary:
    'Start a download job of a data asset (Reader); an identical request of the same user while one runs answers that job',
  body: startDownloadBody,
  response: downloadJob,
  status: 202,
});

export const getDownloadStatus = defineCall({
  method: 'GET',
  path: '/api/Download/:id/Status',
  tag: 'Download',
  summary:
    "A download job's state: Queued, Running (rows so far), Completed (size, link), Failed (message), Expired " +
    "(its owner only, while they may call its collection's data)",
  params: jobParams,
  response: downloadJob,
});

/** Not in product §7 (product §16: calls the portal needs are added under the same conventions). */
export const getMyDownloads = defineCall({
  method: 'GET',
  path: '/api/Download',
  tag: 'Download',
  summary: "The caller's own download jobs of collections whose data they may call now, newest first",
  query: pageQuery,
  response: pageOf(downloadJob),
});

/** Added for the portal's My downloads: a job its owner no longer wants stops and keeps no file. */
export const cancelDownload = defineCall({
  method: 'POST',
  path: '/api/Download/:id/Cancel',
  tag: 'Download',
  summary:
    "Cancel a Queued or Running download job: it becomes Cancelled, its run stops and no file is kept (its owner only, while they may call its collection's data)",
  params: jobParams,
  response: downloadJob,
});

/** The file itself (not JSON): answered with the format's content type and a Content-Disposition. */
export const DOWNLOAD_FILE_PATH = '/api/Download/:id/File';
export const downloadFilePath = (id: string) => `/api/Download/${encodeURIComponent(id)}/File`;
