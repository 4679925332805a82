import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DOWNLOAD_POLL_INTERVAL_MS } from '@datalab/contract/api/downloads';
import { configureApiClient } from '../../lib/api-client.ts';
import { buildAuth, buildCurrentUser, buildUser, pageOfItems } from '../../test/builders.ts';
import { buildDownloadJob, completedJob, type WireDownloadJob } from '../../test/download-builders.ts';
import { fakeApi } from '../../test/fake-api.ts';
import { renderApp } from '../../test/render-app.tsx';

// /downloads against a fake API at the client's boundary: each state as the table shows it, the empty state, the
// file of a Completed job fetched with the bearer token, and the list refreshing only while a job is active.

const reader = () => ({ auth: buildAuth({ user: buildUser() }), currentUser: buildCurrentUser({ id: 1 }) });

const jobs: WireDownloadJob[] = [
  buildDownloadJob({ id: 'job-q', format: 'csv', fileName: 'queued.csv' }),
  buildDownloadJob({ id: 'job-r', state: 'Running', rows: 42_000, format: 'parquet', fileName: 'running.parquet' }),
  completedJob({ id: 'job-c', fileName: 'done.xlsx', size: 1536, rows: 2_500 }),
  buildDownloadJob({
    id: 'job-f',
    state: 'Failed',
    format: 'ndjson',
    message: 'The export limit of 0 rows was reached.',
    fileName: 'bad.ndjson',
  }),
  buildDownloadJob({
    id: 'job-e',
    state: 'Expired',
    format: 'json',
    fileName: 'old.json',
    expiresAt: '2026-11-20T10:00:00Z',
  }),
];

function rowOf(fileName: string) {
  const table = screen.getByRole('table', { name: 'My downloads' });
  const cell = within(table).getByText(fileName);
  return within(cell.closest('tr') as HTMLElement);
}

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('My downloads', () => {
  it('shows each job with its asset, format and state, and a Download button only for Completed ones', async () => {
    const api = fakeApi({ 'GET /api/Download': { body: pageOfItems(jobs) } });
    renderApp({ path: '/downloads', ...reader() });
    await screen.findByRole('table', { name: 'My downloads' });

    expect(api.requests.find((request) => request.path === '/api/Download')?.query.get('page')).toBe('1');
    const rows = within(screen.getByRole('table', { name: 'My downloads' }))
      .getAllByRole('row')
      .slice(1);
    expect(rows.map((row) => within(row).getAllByRole('cell')[2]?.textContent)).toEqual([
      'CSV',
      'Parquet',
      'XLSX',
      'NDJSON',
      'JSON',
    ]);
    const asset = rowOf('queued.csv').getByRole('link', { name: 'Orders by country' });
    expect(asset.getAttribute('href')).toBe('/data-source/orders-by-country');
    expect(rowOf('queued.csv').getByText('Waiting to start')).toBeTruthy();
    expect(rowOf('running.parquet').getByText('42,000 rows so far')).toBeTruthy();
    expect(rowOf('done.xlsx').getByText('2,500 rows · 1.5 kB')).toBeTruthy();
    expect(rowOf('bad.ndjson').getByText('The export limit of 0 rows was reached.')).toBeTruthy();
    expect(rowOf('old.json').getByText(/The file was removed/u)).toBeTruthy();

    const buttons = screen.getAllByRole('button', { name: /^Download / });
    expect(buttons.map((button) => button.getAttribute('aria-label'))).toEqual(['Download done.xlsx']);
    const cancels = screen.getAllByRole('button', { name: /^Cancel / });
    expect(cancels.map((button) => button.getAttribute('aria-label'))).toEqual([
      'Cancel queued.csv',
      'Cancel running.parquet',
    ]);
    expect(screen.getByText('5 downloads · 2 in progress, refreshing every few seconds')).toBeTruthy();
  });

  it('shows each job’s parameters, and cancels a queued job, which then shows Cancelled', async () => {
    const queued = buildDownloadJob({
      id: 'job-q',
      fileName: 'queued.csv',
      parameters: { region: 1, country: ['FR', 'DE'] },
    });
    const cancelled = { ...queued, state: 'Cancelled' as const, finishedAt: '2026-11-28T10:00:00Z' };
    let current: WireDownloadJob = queued;
    const api = fakeApi({
      'GET /api/Download': () => ({ body: pageOfItems([current]) }),
      'POST /api/Download/job-q/Cancel': () => {
        current = cancelled;
        return { body: cancelled };
      },
    });
    const user = userEvent.setup();
    renderApp({ path: '/downloads', ...reader() });
    await screen.findByRole('table', { name: 'My downloads' });
    expect(rowOf('queued.csv').getByText('region = 1 · country = FR, DE')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Cancel queued.csv' }));
    expect(await rowOf('queued.csv').findByText('You cancelled it; no file was kept.')).toBeTruthy();
    expect(
      api.requests.some((request) => request.method === 'POST' && request.path === '/api/Download/job-q/Cancel'),
    ).toBe(true);
    expect(screen.queryByRole('button', { name: 'Cancel queued.csv' })).toBeNull();
  });

  it('fetches a Completed job’s file with the bearer token and hands it over under its name', async () => {
    const api = fakeApi({ 'GET /api/Download': { body: pageOfItems([completedJob({ fileName: 'done.xlsx' })]) } });
    const seen: Headers[] = [];
    configureApiClient({
      baseUrl: '',
      getAccessToken: async () => 'token-1',
      goToErrorPage: api.goToErrorPage,
      fetch: async (input, init) => {
        if (String(input) === '/api/Download/job-1/File') {
          seen.push(new Headers(init?.headers));
          return new Response('PK-file', { headers: { 'Content-Type': 'application/octet-stream' } });
        }
        return api.fetchMock(input, init);
      },
    });
    const saved: { blob: Blob; name: string }[] = [];
    let blob: Blob | undefined;
    URL.createObjectURL = (value: Blob | MediaSource) => {
      blob = value as Blob;
      return 'blob:test/file';
    };
    URL.revokeObjectURL = () => undefined;
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      if (blob) saved.push({ blob, name: this.download });
    });
    const user = userEvent.setup();
    renderApp({ path: '/downloads', ...reader() });

    await user.click(await screen.findByRole('button', { name: 'Download done.xlsx' }));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]?.name).toBe('done.xlsx');
    expect(await saved[0]?.blob.text()).toBe('PK-file');
    expect(seen[0]?.get('Authorization')).toBe('Bearer token-1');
  });

  it('says which files were cut at the export limit, and only those', async () => {
    fakeApi({
      'GET /api/Download': {
        body: pageOfItems([
          completedJob({ id: 'job-t', fileName: 'cut.csv', format: 'csv', rows: 5_000_000, truncated: true }),
          completedJob({ id: 'job-w', fileName: 'whole.csv', format: 'csv', rows: 12 }),
        ]),
      },
    });
    renderApp({ path: '/downloads', ...reader() });
    await screen.findByRole('table', { name: 'My downloads' });

    const note = rowOf('cut.csv').getByRole('note', { name: 'Cut at the export limit' });
    expect(note.textContent).toBe(
      "Cut at the export limit: only the first 5,000,000 rows, as the file's last line says.",
    );
    expect(rowOf('whole.csv').queryByRole('note')).toBeNull();
  });

  it('says how to start a download when there is none', async () => {
    fakeApi({ 'GET /api/Download': { body: pageOfItems([]) } });
    renderApp({ path: '/downloads', ...reader() });
    expect(await screen.findByText('No downloads yet')).toBeTruthy();
    expect(screen.getByText(/open a data asset's call screen/u)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Find a data asset in Collections' }).getAttribute('href')).toBe(
      '/collection',
    );
  });

  it('refreshes while a job is active and stops once every job has settled', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let listed = 0;
    fakeApi({
      'GET /api/Download': () => {
        listed += 1;
        const job = listed < 3 ? buildDownloadJob({ state: 'Running', rows: listed * 10 }) : completedJob();
        return { body: pageOfItems([job]) };
      },
    });
    renderApp({ path: '/downloads', ...reader() });
    expect(await screen.findByText('10 rows so far')).toBeTruthy();

    await vi.advanceTimersByTimeAsync(DOWNLOAD_POLL_INTERVAL_MS);
    expect(await screen.findByText('20 rows so far')).toBeTruthy();
    await vi.advanceTimersByTimeAsync(DOWNLOAD_POLL_INTERVAL_MS);
    expect(await screen.findByText('100,000 rows · 4.2 MB')).toBeTruthy();
    expect(listed).toBe(3);
    await vi.advanceTimersByTimeAsync(DOWNLOAD_POLL_INTERVAL_MS * 4);
    expect(listed).toBe(3);
  });
});
