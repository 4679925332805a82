import type { DownloadFormat, DownloadJob, DownloadState } from '@datalab/contract/api/downloads';
import { formatBytes, plural } from '../../lib/format.ts';

// How the download screens name formats, states and sizes.

export const formatLabels: Record<DownloadFormat, string> = {
  csv: 'CSV',
  json: 'JSON',
  ndjson: 'NDJSON',
  xlsx: 'XLSX',
  parquet: 'Parquet',
};

/** Badge colours chosen for AA contrast of the light variant's text on its background. */
export const stateColors: Record<DownloadState, string> = {
  Queued: 'gray',
  Running: 'blue',
  Completed: 'teal',
  Failed: 'red',
  Expired: 'gray',
  Cancelled: 'gray',
};

/** States after which a job changes no more (the polling stops). */
export function isSettled(job: Pick<DownloadJob, 'state'>): boolean {
  return job.state !== 'Queued' && job.state !== 'Running';
}

const rows = (count: number) => plural(count, 'row');

/** One line about where a job stands: 'Waiting to start', '12,000 rows so far', '100,000 rows · 4.2 MB', … */
export function progressText(job: DownloadJob): string {
  switch (job.state) {
    case 'Queued':
      return 'Waiting to start';
    case 'Running':
      return `${rows(job.rows)} so far`;
    case 'Completed': {
      const size = job.size === null ? '' : ` · ${formatBytes(job.size)}`;
      return `${rows(job.rows)}${size}`;
    }
    case 'Failed':
      return job.message ?? 'The download failed.';
    case 'Expired':
      return 'The file was removed after its retention period. Start the download again from the call screen.';
    case 'Cancelled':
      return 'You cancelled it; no file was kept.';
  }
}

/** A job's parameter values as one line: 'region = 1 · country = FR, DE'; 'No parameters' when none. */
export function parametersText(parameters: Record<string, unknown>): string {
  const entries = Object.entries(parameters);
  if (entries.length === 0) return 'No parameters';
  const shown = (value: unknown): string =>
    Array.isArray(value)
      ? value.map((item: unknown) => shown(item)).join(', ')
      : typeof value === 'string'
        ? value
        : JSON.stringify(value);
  return entries.map(([name, value]) => `${name} = ${shown(value)}`).join(' · ');
}

/** The title of a Completed job whose rows stopped at the export limit (its file ends with a line saying so). */
export const TRUNCATED_TITLE = 'Cut at the export limit';

/**
 * What a cut-off file holds and what to do about it (`short`: one line for a table); null when the job holds the
 * whole result.
 */
export function truncationText(job: Pick<DownloadJob, 'state' | 'truncated' | 'rows'>, short = false): string | null {
  if (!job.truncated || job.state !== 'Completed') return null;
  const count = job.rows.toLocaleString('en');
  if (short) return `${TRUNCATED_TITLE}: only the first ${count} rows, as the file's last line says.`;
  return (
    `The result has more rows than an export may hold: the file has the first ${count} and ends with a line ` +
    'saying it was cut. Narrow the parameters to get the rest.'
  );
}
