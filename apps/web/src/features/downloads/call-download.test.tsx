import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DOWNLOAD_POLL_ATTEMPTS, DOWNLOAD_POLL_INTERVAL_MS } from '@datalab/contract/api/downloads';
import { configureApiClient } from '../../lib/api-client.ts';
import { buildAuth, buildCurrentUser, buildUser } from '../../test/builders.ts';
import { buildDataSourceDetail, countryOptions, regionOptions } from '../../test/data-source-builders.ts';
import { buildDownloadJob, completedJob, type WireDownloadJob } from '../../test/download-builders.ts';
import { fakeApi, type FakeReply, type FakeRequest } from '../../test/fake-api.ts';
import { renderApp } from '../../test/render-app.tsx';
import { toastMessages } from '../../test/render-ui.tsx';

// The call screen's download against a fake API at the client's boundary, on fake timers: the job is started with
// the form's values, polled every DOWNLOAD_POLL_INTERVAL_MS at most DOWNLOAD_POLL_ATTEMPTS times (product §9), its file
// fetched with the bearer token and handed to the browser; a failure shows its message; a job that outlasts the
// polling sends the user to My downloads.

const reader = () => ({ auth: buildAuth({ user: buildUser() }), currentUser: buildCurrentUser({ id: 1 }) });
const CALL_PATH = '/data-source/orders-by-country/call?region=EU&country=FR';
const FILE_TEXT = 'order_id,total\n1,9.50\n2,12.00\n';

function assetRoutes(status: FakeReply, start: FakeReply = { status: 202, body: buildDownloadJob() }) {
  return {
    'GET /api/DataSource/GetByUid/orders-by-country': { body: buildDataSourceDetail() },
    'GET /api/DataSource/ParameterData/101': { body: regionOptions },
    'GET /api/DataSource/ParameterData/102': (request: FakeRequest) => ({
      body: countryOptions(request.query.get('region')),
    }),
    'POST /api/Download': start,
    'GET /api/Download/job-1/Status': status,
  };
}

/** The fake API, plus the job's file (not JSON) with the headers it was asked with. */
function serve(routes: Record<string, FakeReply>) {
  const api = fakeApi(routes);
  const fileRequests: { url: string; headers: Headers }[] = [];
  configureApiClient({
    baseUrl: '',
    getAccessToken: async () => 'token-1',
    goToErrorPage: api.goToErrorPage,
    fetch: async (input, init) => {
      if (String(input).endsWith('/api/Download/job-1/File')) {
        fileRequests.push({ url: String(input), headers: new Headers(init?.headers) });
        return new Response(FILE_TEXT, { headers: { 'Content-Type': 'text/csv' } });
      }
      return api.fetchMock(input, init);
    },
  });
  const statusCount = () => api.requests.filter((request) => request.path === '/api/Download/job-1/Status').length;
  return { ...api, fileRequests, statusCount };
}

/** What the page handed to the browser: the Blob behind each object URL, and each link clicked. */
function watchHandOver() {
  const blobs = new Map<string, Blob>();
  const revoked: string[] = [];
  const clicks: { href: string; download: string }[] = [];
  let next = 0;
  URL.createObjectURL = (blob: Blob | MediaSource) => {
    const url = `blob:test/${(next += 1)}`;
    blobs.set(url, blob as Blob);
    return url;
  };
  URL.revokeObjectURL = (url: string) => void revoked.push(url);
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    clicks.push({ href: this.getAttribute('href') ?? '', download: this.download });
  });
  return { blobs, revoked, clicks };
}

const tick = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));

/**
 * Testing Library's waitFor drains with a setTimeout, which the fake clock holds: this retries `check` while the
 * pending promises and real I/O settle, without moving the fake clock, so the polling schedule stays exact.
 */
async function until<T>(check: () => T): Promise<T> {
  for (let round = 0; ; round += 1) {
    try {
      return check();
    } catch (error) {
      if (round >= 200) throw error;
      await act(async () => {
        await vi.advanceTimersByTimeAsync(0);
        await new Promise((resolve) => setImmediate(resolve));
      });
    }
  }
}

/** Opens the call screen, then switches to fake timers and starts an XLSX download from the menu. */
async function startXlsxDownload(): Promise<void> {
  renderApp({ path: CALL_PATH, ...reader() });
  await screen.findByRole('heading', { name: 'Call Orders by country' });
  await waitFor(() => expect(screen.getByRole('combobox', { name: 'Country' }).hasAttribute('disabled')).toBe(false));
  // Only setTimeout is faked: the polling's waits, while Testing Library's checks (setInterval) keep running.
  // (user-event waits through Testing Library's async wrapper, whose setTimeout the fake clock would hold: the
  // clicks are plain events.)
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  fireEvent.click(screen.getByRole('button', { name: 'Download' }));
  fireEvent.click(await until(() => screen.getByRole('menuitem', { name: 'XLSX' })));
}

const panel = () => screen.getByRole('region', { name: 'Download' });

beforeEach(() => {
  vi.useRealTimers();
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('the call screen download', () => {
  it(`polls every ${DOWNLOAD_POLL_INTERVAL_MS} ms at most ${DOWNLOAD_POLL_ATTEMPTS} times, then points to My downloads`, async () => {
    let polls = 0;
    const api = serve(
      assetRoutes(() => {
        polls += 1;
        return { body: buildDownloadJob({ state: 'Running', rows: polls * 1000, startedAt: '2026-11-23T10:00:01Z' }) };
      }),
    );
    await startXlsxDownload();

    const start = await until(() => {
      const found = api.requests.find((request) => request.method === 'POST' && request.path === '/api/Download');
      if (!found) throw new Error('the download was not started');
      return found;
    });
    expect(start.body).toEqual({
      dataAssetUid: 'orders-by-country',
      parameters: { region: 'EU', country: 'FR' },
      format: 'xlsx',
    });
    await until(() => expect(within(panel()).getByText('Waiting to start')).toBeTruthy());
    expect(api.statusCount()).toBe(0);

    for (let attempt = 1; attempt <= DOWNLOAD_POLL_ATTEMPTS; attempt += 1) {
      await tick(DOWNLOAD_POLL_INTERVAL_MS - 1);
      expect(api.statusCount()).toBe(attempt - 1);
      await tick(1);
      await until(() => expect(api.statusCount()).toBe(attempt));
      if (attempt < DOWNLOAD_POLL_ATTEMPTS) {
        await until(() =>
          expect(within(panel()).getByText(`${(attempt * 1000).toLocaleString('en')} rows so far`)).toBeTruthy(),
        );
      }
    }

    await until(() => expect(within(panel()).getByText(/The download continues on the server/u)).toBeTruthy());
    expect(within(panel()).getByText(/12,000 rows so far/u)).toBeTruthy();
    expect(within(panel()).getByRole('link', { name: 'My downloads' }).getAttribute('href')).toBe('/downloads');
    await tick(DOWNLOAD_POLL_INTERVAL_MS * 5);
    expect(api.statusCount()).toBe(DOWNLOAD_POLL_ATTEMPTS);
    expect(screen.getByRole('button', { name: 'Download' }).hasAttribute('data-loading')).toBe(false);
  });

  it('fetches a Completed job’s file with the bearer token and hands it to the browser under its name', async () => {
    const replies: WireDownloadJob[] = [
      buildDownloadJob({ state: 'Running', rows: 52_000 }),
      completedJob({ fileName: 'Orders by country 2026-11-23.xlsx' }),
    ];
    const api = serve(assetRoutes(() => ({ body: replies.shift() ?? completedJob() })));
    const handOver = watchHandOver();
    await startXlsxDownload();

    await tick(DOWNLOAD_POLL_INTERVAL_MS);
    await until(() => expect(within(panel()).getByText('52,000 rows so far')).toBeTruthy());
    expect(api.fileRequests).toEqual([]);
    await tick(DOWNLOAD_POLL_INTERVAL_MS);
    await until(() => expect(within(panel()).getByText(/The file was handed to your browser/u)).toBeTruthy());
    expect(within(panel()).getByText(/100,000 rows · 4.2 MB/u)).toBeTruthy();

    expect(api.fileRequests).toHaveLength(1);
    expect(api.fileRequests[0]?.headers.get('Authorization')).toBe('Bearer token-1');
    expect(api.fileRequests[0]?.url).not.toMatch(/token/iu);
    expect(handOver.clicks).toEqual([{ href: 'blob:test/1', download: 'Orders by country 2026-11-23.xlsx' }]);
    expect(await handOver.blobs.get('blob:test/1')?.text()).toBe(FILE_TEXT);
    // The object URL goes on the next task (a timer started inside a fake tick fires 1 ms later).
    await tick(1);
    expect(handOver.revoked).toEqual(['blob:test/1']);
    // Polling stopped at the terminal state.
    await tick(DOWNLOAD_POLL_INTERVAL_MS * 3);
    expect(api.statusCount()).toBe(2);
  });

  it('says, once the file is handed over, that it was cut at the export limit', async () => {
    serve(assetRoutes({ body: completedJob({ rows: 1_000_000, truncated: true }) }));
    watchHandOver();
    await startXlsxDownload();

    await tick(DOWNLOAD_POLL_INTERVAL_MS);
    await until(() => expect(within(panel()).getByText(/The file was handed to your browser/u)).toBeTruthy());
    const note = within(panel()).getByRole('note', { name: 'Cut at the export limit' });
    expect(note.textContent).toContain('the file has the first 1,000,000 and ends with a line saying it was cut');
    expect(note.textContent).toContain('Narrow the parameters to get the rest.');
  });

  it('says nothing of a cut when the file holds the whole result', async () => {
    serve(assetRoutes({ body: completedJob() }));
    watchHandOver();
    await startXlsxDownload();

    await tick(DOWNLOAD_POLL_INTERVAL_MS);
    await until(() => expect(within(panel()).getByText(/The file was handed to your browser/u)).toBeTruthy());
    expect(within(panel()).queryByRole('note')).toBeNull();
  });

  it('shows a Failed job’s message and fetches no file', async () => {
    const message = 'The data source did not answer within 30 seconds.';
    const api = serve(assetRoutes({ body: buildDownloadJob({ state: 'Failed', message }) }));
    const handOver = watchHandOver();
    await startXlsxDownload();

    await tick(DOWNLOAD_POLL_INTERVAL_MS);
    const alert = await until(() => within(panel()).getByRole('alert'));
    expect(alert.textContent).toContain('The download failed');
    expect(alert.textContent).toContain(message);
    expect(api.fileRequests).toEqual([]);
    expect(handOver.clicks).toEqual([]);
    await tick(DOWNLOAD_POLL_INTERVAL_MS * 3);
    expect(api.statusCount()).toBe(1);
  });

  it('shows the 400 of the start call as product §8’s toast and starts nothing', async () => {
    const errors = { country: ['Country must be one of FR, DE'] };
    const api = serve(
      assetRoutes({ body: buildDownloadJob() }, { status: 400, body: { title: 'Invalid', status: 400, errors } }),
    );
    await startXlsxDownload();

    await until(() => expect(toastMessages()).toContain('Country: Country must be one of FR, DE'));
    expect(screen.queryByRole('region', { name: 'Download' })).toBeNull();
    await tick(DOWNLOAD_POLL_INTERVAL_MS * 2);
    expect(api.statusCount()).toBe(0);
  });
});
