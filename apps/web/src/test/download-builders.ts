import type { z } from 'zod';
import type { downloadJob } from '@datalab/contract/api/downloads';

// Download jobs as the server sends them (wire form: date-times as ISO text), for the fake API to serve.

export type WireDownloadJob = z.input<typeof downloadJob>;

export function buildDownloadJob(overrides: Partial<WireDownloadJob> = {}): WireDownloadJob {
  return {
    id: 'job-1',
    state: 'Queued',
    format: 'xlsx',
    asset: { uid: 'orders-by-country', name: 'Orders by country' },
    parameters: { region: 'EU', country: 'FR' },
    createdAt: '2026-11-23T10:00:00.000Z',
    startedAt: null,
    finishedAt: null,
    rows: 0,
    size: null,
    truncated: false,
    link: null,
    fileName: 'orders-by-country.xlsx',
    message: null,
    expiresAt: null,
    ...overrides,
  };
}

/** A Completed job: its rows, size, link and expiry filled in. */
export function completedJob(overrides: Partial<WireDownloadJob> = {}): WireDownloadJob {
  return buildDownloadJob({
    state: 'Completed',
    startedAt: '2026-11-23T10:00:01.000Z',
    finishedAt: '2026-11-23T10:00:09.000Z',
    rows: 100_000,
    size: 4_404_019,
    link: '/api/Download/job-1/File',
    expiresAt: '2026-11-24T10:00:09.000Z',
    ...overrides,
  });
}
