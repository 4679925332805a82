import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { buildAuth, buildCollectionDetail, buildCurrentUser, buildUser, pageOfItems } from '../../test/builders.ts';
import { buildDataSourceDetail, recentCallsReply } from '../../test/data-source-builders.ts';
import { fakeApi, type FakeRequest } from '../../test/fake-api.ts';
import { renderApp } from '../../test/render-app.tsx';

// The usage screens against a fake API at the client's boundary: the period picker's query (from, to,
// granularity), the totals from a reply, the empty state, who is shown the Usage tab and panel, and the
// administrators' overview of top data sources and users.

const NOW = new Date('2026-11-23T10:30:00.000Z');
const SOURCES = '/api/Reporting/GetDataSourceMetricsSummaries';
const USERS = '/api/Reporting/GetUserMetricsSummaries';

const signedIn = (isAdministrator = false) => ({
  auth: buildAuth({ user: buildUser() }),
  currentUser: buildCurrentUser({ id: 1, permissions: { canManageUsers: isAdministrator } }),
});

const metrics = (overrides: Record<string, number> = {}) => ({
  calls: 0,
  errors: 0,
  rows: 0,
  bytes: 0,
  p50Ms: 0,
  p95Ms: 0,
  cacheHitRatio: 0,
  distinctUsers: 0,
  ...overrides,
});

const busy = () =>
  metrics({
    calls: 1234,
    errors: 37,
    rows: 98_765,
    bytes: 3 * 1024 * 1024,
    p50Ms: 20,
    p95Ms: 500,
    cacheHitRatio: 0.25,
    distinctUsers: 6,
  });

const channelFigures = ({ distinctUsers: _users, ...figures }: ReturnType<typeof metrics>) => figures;

/** The calls split by channel: of the busy day's 1,230, 1,000 over the Data API and 230 from AI agents (MCP). */
function channels(from: string, totals: ReturnType<typeof metrics>) {
  const split = { 'data-api': [totals.calls - 234, 4], mcp: [230, 0], download: [0, 0] } as const;
  return (['data-api', 'mcp', 'download'] as const).map((channel) => {
    const [first, second] = totals.calls === 0 ? [0, 0] : split[channel];
    return {
      channel,
      totals: channelFigures(metrics({ calls: first + second })),
      series: [
        { start: from, ...channelFigures(metrics({ calls: first })) },
        { start: '2026-11-23T00:00:00.000Z', ...channelFigures(metrics({ calls: second })) },
      ],
    };
  });
}

/** A reply as the server sends it, with the period of the request and a series of one bucket per day. */
function summaries(request: FakeRequest, items: unknown[], totals = busy()) {
  const from = request.query.get('from') ?? NOW.toISOString();
  return {
    ...pageOfItems(items, { pageSize: Number(request.query.get('pageSize') ?? 20) }),
    from,
    to: request.query.get('to') ?? NOW.toISOString(),
    granularity: request.query.get('granularity') ?? 'day',
    totals,
    series: [
      { start: from, ...metrics({ calls: totals.calls - 4, errors: totals.errors, p50Ms: 20, p95Ms: 500 }) },
      { start: '2026-11-23T00:00:00.000Z', ...metrics({ calls: 4, p50Ms: 10, p95Ms: 50 }) },
    ],
    channels: channels(from, totals),
  };
}

const sourceItem = (overrides: Record<string, unknown> = {}) => ({
  dataSource: { uid: 'orders', name: 'Orders by country', collection: { uid: 'col-1', name: 'Sales' } },
  totals: busy(),
  series: [],
  ...overrides,
});

const userItem = (overrides: Record<string, unknown> = {}) => ({
  user: { id: 3, name: 'Ann Analyst', username: 'analyst' },
  totals: metrics({ calls: 1200, errors: 30 }),
  series: [],
  ...overrides,
});

function reportingRoutes(sources: unknown[] = [sourceItem()], users: unknown[] = [userItem()], totals = busy()) {
  return {
    [`GET ${SOURCES}`]: (request: FakeRequest) => ({ body: summaries(request, sources, totals) }),
    [`GET ${USERS}`]: (request: FakeRequest) => ({ body: summaries(request, users, totals) }),
  };
}

/** The value shown beside a figure's name in the totals. */
function kpi(name: string): string {
  const term = screen.getByText(name, { selector: 'dt' });
  return term.nextElementSibling?.textContent ?? '';
}

/** Waits for the period's totals to show. */
const findTotals = () => screen.findByText('Calls', { selector: 'dt' });

const lastQuery = (requests: FakeRequest[], path = SOURCES) =>
  requests.filter((request) => request.path === path).at(-1)?.query;

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(NOW);
});
afterEach(() => {
  vi.useRealTimers();
});

describe('the period picker', () => {
  it('asks for the period picked, ending at the next bucket boundary (UTC), and keeps it in the URL', async () => {
    const api = fakeApi(reportingRoutes());
    const user = userEvent.setup();
    const { location } = renderApp({ path: '/management/usage', ...signedIn(true) });
    await findTotals();

    // The default: the last 7 days, by day, today included.
    let query = lastQuery(api.requests);
    expect([query?.get('from'), query?.get('to'), query?.get('granularity')]).toEqual([
      '2026-11-17T00:00:00.000Z',
      '2026-11-24T00:00:00.000Z',
      'day',
    ]);
    expect(query?.get('collectionUid')).toBeNull();
    expect(query?.get('dataAssetUid')).toBeNull();

    await user.click(screen.getByRole('radio', { name: 'By hour' }));
    await waitFor(() => expect(lastQuery(api.requests)?.get('granularity')).toBe('hour'));
    query = lastQuery(api.requests);
    expect([query?.get('from'), query?.get('to')]).toEqual(['2026-11-16T11:00:00.000Z', '2026-11-23T11:00:00.000Z']);
    expect(location()).toBe('/management/usage?granularity=hour');

    await user.click(screen.getByRole('radio', { name: 'Last 24 hours' }));
    await waitFor(() => expect(lastQuery(api.requests)?.get('from')).toBe('2026-11-22T11:00:00.000Z'));
    expect(lastQuery(api.requests)?.get('to')).toBe('2026-11-23T11:00:00.000Z');
    expect(screen.queryByRole('radio', { name: 'By day' })).toBeNull();

    await user.click(screen.getByRole('radio', { name: 'Last 30 days' }));
    await waitFor(() => expect(lastQuery(api.requests)?.get('from')).toBe('2026-10-25T00:00:00.000Z'));
    expect(lastQuery(api.requests)?.get('granularity')).toBe('day');

    await user.click(screen.getByRole('radio', { name: 'Last 90 days' }));
    await waitFor(() => expect(lastQuery(api.requests)?.get('granularity')).toBe('week'));
    query = lastQuery(api.requests);
    expect([query?.get('from'), query?.get('to')]).toEqual(['2026-08-26T00:00:00.000Z', '2026-11-24T00:00:00.000Z']);
    expect(location()).toBe('/management/usage?period=90d');
    // The users' table asks for the same period.
    await waitFor(() => expect(lastQuery(api.requests, USERS)?.get('granularity')).toBe('week'));
  });

  it('opens on the period a link names', async () => {
    const api = fakeApi(reportingRoutes());
    renderApp({ path: '/management/usage?period=24h', ...signedIn(true) });
    await findTotals();
    expect(lastQuery(api.requests)?.get('granularity')).toBe('hour');
    expect(screen.getByRole('radio', { name: 'Last 24 hours' })).toHaveProperty('checked', true);
  });
});

describe('a usage report', () => {
  it('shows the totals of the reply: calls, errors with their rate, rows, bytes, p50/p95, cache hits, users', async () => {
    fakeApi(reportingRoutes());
    renderApp({ path: '/management/usage', ...signedIn(true) });
    await findTotals();
    expect(kpi('Calls')).toBe('1,234');
    expect(kpi('Errors')).toBe('37');
    expect(screen.getByText('3% of calls')).toBeTruthy();
    expect(kpi('Rows')).toBe('98,765');
    expect(kpi('Data sent')).toBe('3 MB');
    expect(kpi('Duration p50 / p95')).toBe('≤ 20 ms / ≤ 500 ms');
    expect(kpi('Cache hits')).toBe('25%');
    expect(kpi('Distinct users')).toBe('6');
  });

  it('gives each chart a text alternative: a summary and the data as a table', async () => {
    fakeApi(reportingRoutes());
    renderApp({ path: '/management/usage', ...signedIn(true) });
    const calls = await screen.findByRole('figure', { name: 'Calls and errors' });
    expect(
      within(calls).getByText(/1,234 calls, 37 errors \(3%\)\. The busiest day was Nov 17 with 1,230\./),
    ).toBeTruthy();
    const table = within(calls).getByRole('table', { name: 'Calls and errors: data', hidden: true });
    const rows = within(table).getAllByRole('row', { hidden: true });
    expect(rows.map((row) => row.textContent)).toEqual(['PeriodCallsErrors', 'Nov 171,23037', 'Nov 2340']);
    const duration = screen.getByRole('figure', { name: 'Duration' });
    expect(within(duration).getByText(/The slowest day was Nov 17: p95 ≤ 500 ms\./)).toBeTruthy();
  });

  it('shows the calls of AI agents (MCP) apart from the Data API and downloads, chart and table', async () => {
    fakeApi(reportingRoutes());
    renderApp({ path: '/management/usage', ...signedIn(true) });
    const figure = await screen.findByRole('figure', { name: 'Calls by channel' });
    expect(
      within(figure).getByText(
        'Calls per day (UTC) by channel. Data API: 1,004 calls; AI agents (MCP): 230 calls; Downloads: 0 calls.',
      ),
    ).toBeTruthy();
    const table = within(figure).getByRole('table', { name: 'Calls by channel: data', hidden: true });
    const rows = within(table).getAllByRole('row', { hidden: true });
    expect(rows.map((row) => row.textContent)).toEqual([
      'PeriodData APIAI agents (MCP)Downloads',
      'Nov 171,0002300',
      'Nov 23400',
    ]);
  });

  it('says there were no calls in the period, and what to do', async () => {
    fakeApi(reportingRoutes([], [], metrics()));
    renderApp({ path: '/management/usage', ...signedIn(true) });
    expect(await screen.findByText('No calls in this period')).toBeTruthy();
    expect(
      screen.getByText(/No data asset was called in this period\. .*a longer period may show older ones/),
    ).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Browse data assets' }).getAttribute('href')).toBe('/data-source');
    expect(screen.queryByText('Calls', { selector: 'dt' })).toBeNull();
    // The period stays pickable.
    expect(screen.getByRole('radio', { name: 'Last 90 days' })).toBeTruthy();
  });
});

describe("the administrators' overview", () => {
  it('lists the top data sources and users, linked to their pages', async () => {
    const api = fakeApi(
      reportingRoutes(
        [
          sourceItem(),
          sourceItem({ dataSource: { uid: 'gone-1', name: null, collection: null }, totals: metrics({ calls: 3 }) }),
        ],
        [userItem(), userItem({ user: null, totals: metrics({ calls: 34 }) })],
      ),
    );
    renderApp({ path: '/management/usage', ...signedIn(true) });
    expect(await screen.findByRole('heading', { level: 1, name: 'Usage' })).toBeTruthy();

    const sources = await screen.findByRole('table', { name: 'Top data sources' });
    const [, first, second] = within(sources).getAllByRole('row');
    expect(within(first!).getByRole('link', { name: 'Orders by country' }).getAttribute('href')).toBe(
      '/data-source/orders',
    );
    expect(within(first!).getByRole('link', { name: 'Sales' }).getAttribute('href')).toBe('/collection/col-1/usage');
    expect(within(first!).getByText('1,234')).toBeTruthy();
    expect(within(first!).getByText('37 (3%)')).toBeTruthy();
    expect(within(second!).getByText('Deleted asset (gone-1)')).toBeTruthy();

    const users = await screen.findByRole('table', { name: 'Top users' });
    const [, ann, tokens] = within(users).getAllByRole('row');
    expect(within(ann!).getByRole('link', { name: 'Ann Analyst (analyst)' }).getAttribute('href')).toBe(
      '/management/user?search=analyst',
    );
    expect(within(ann!).getByText('1,200')).toBeTruthy();
    expect(within(tokens!).getByText('Collection tokens')).toBeTruthy();
    expect(lastQuery(api.requests, USERS)?.get('pageSize')).toBe('10');
  });

  it('pages the top data sources', async () => {
    const api = fakeApi({
      ...reportingRoutes(),
      [`GET ${SOURCES}`]: (request: FakeRequest) => ({
        body: { ...summaries(request, [sourceItem()]), totalCount: 25 },
      }),
    });
    const user = userEvent.setup();
    renderApp({ path: '/management/usage', ...signedIn(true) });
    const section = await screen.findByRole('region', { name: 'Top data sources' });
    await user.click(within(section).getByRole('button', { name: 'Next page' }));
    await waitFor(() => expect(lastQuery(api.requests)?.get('page')).toBe('2'));
  });
});

describe('who sees usage', () => {
  const collectionRoutes = (role: 'Owner' | 'Editor' | 'Reader' | null) => ({
    'GET /api/DataSourceCollection/GetByUid/col-1': {
      body: buildCollectionDetail({
        myRole: role,
        can: {
          edit: role === 'Owner',
          manageRoles: role === 'Owner' || role === null,
          delete: role === 'Owner',
          editAssets: role === 'Owner' || role === 'Editor',
        },
      }),
    },
    ...reportingRoutes(),
  });

  it("does not show a collection's Reader the Usage tab, nor let a link open it", async () => {
    const api = fakeApi(collectionRoutes('Reader'));
    const { location } = renderApp({ path: '/collection/col-1/usage', ...signedIn() });
    await waitFor(() => expect(location()).toBe('/collection/col-1'));
    await screen.findByRole('tab', { name: /Overview/ });
    expect(screen.queryByRole('tab', { name: /Usage/ })).toBeNull();
    expect(api.requests.some((request) => request.path.startsWith('/api/Reporting/'))).toBe(false);
  });

  it("shows an Editor the collection's usage in its Usage tab", async () => {
    const api = fakeApi(collectionRoutes('Editor'));
    const user = userEvent.setup();
    const { location } = renderApp({ path: '/collection/col-1', ...signedIn() });
    await user.click(await screen.findByRole('tab', { name: /Usage/ }));
    await waitFor(() => expect(location()).toBe('/collection/col-1/usage'));
    expect(await screen.findByRole('table', { name: 'Top data sources' })).toBeTruthy();
    expect(lastQuery(api.requests)?.get('collectionUid')).toBe('col-1');
    expect(lastQuery(api.requests, USERS)?.get('collectionUid')).toBe('col-1');
  });

  it('shows an administrator without a role the Usage tab', async () => {
    fakeApi(collectionRoutes(null));
    renderApp({ path: '/collection/col-1/usage', ...signedIn(true) });
    expect(await findTotals()).toBeTruthy();
    expect(screen.getByRole('tab', { name: /Usage/ }).getAttribute('aria-selected')).toBe('true');
  });

  it("shows a data asset's usage to those who may edit it, and not to its Readers", async () => {
    const asset = (canEdit: boolean) => ({
      'GET /api/DataSource/GetByUid/orders': { body: buildDataSourceDetail({ uid: 'orders', can: { edit: canEdit } }) },
      'GET /api/DataSource/orders/RecentCalls': { body: recentCallsReply() },
    });
    const api = fakeApi({ ...asset(true), ...reportingRoutes() });
    const view = renderApp({ path: '/data-source/orders', ...signedIn() });
    const panel = await screen.findByRole('region', { name: 'Usage' });
    expect(await within(panel).findByRole('table', { name: 'Top users' })).toBeTruthy();
    expect(within(panel).queryByRole('table', { name: 'Top data sources' })).toBeNull();
    expect(lastQuery(api.requests)?.get('dataAssetUid')).toBe('orders');
    view.unmount();

    const readerApi = fakeApi({ ...asset(false), ...reportingRoutes() });
    renderApp({ path: '/data-source/orders', ...signedIn() });
    await screen.findByRole('region', { name: 'Parameters' });
    expect(screen.queryByRole('region', { name: 'Usage' })).toBeNull();
    expect(readerApi.requests.some((request) => request.path.startsWith('/api/Reporting/'))).toBe(false);
  });
});
