import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { texts } from '@datalab/contract/texts';
import { buildAuth, buildCurrentUser, buildUser, pageOfItems } from '../../../test/builders.ts';
import {
  buildDataSourceDetail,
  buildDataSourceSummary,
  boundValuesReply,
  callReply,
  countryOptions,
  recentCallsReply,
  regionOptions,
} from '../../../test/data-source-builders.ts';
import { fakeApi, type FakeRequest } from '../../../test/fake-api.ts';
import { renderApp } from '../../../test/render-app.tsx';
import { toastMessages } from '../../../test/render-ui.tsx';

const reader = () => ({ auth: buildAuth({ user: buildUser() }), currentUser: buildCurrentUser({ id: 1 }) });

// jsdom lays nothing out: the grid's scroller reports the height it would have.
const clientHeight = Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'clientHeight');
beforeAll(() => {
  Object.defineProperty(HTMLElement.prototype, 'clientHeight', { configurable: true, get: () => 480 });
});
afterAll(() => {
  if (clientHeight) Object.defineProperty(HTMLElement.prototype, 'clientHeight', clientHeight);
});

const serverTiming = 'authz;dur=0.100, queue;dur=0.250, database;dur=4.500, transform;dur=1.250, write;dur=0.750';

const assetRoutes = (callReplyFor?: (request: FakeRequest) => { status?: number; body?: unknown }) => ({
  'GET /api/DataSource/GetByUid/orders-by-country': { body: buildDataSourceDetail() },
  'GET /api/DataSource/orders-by-country/RecentCalls': { body: recentCallsReply() },
  'POST /api/DataSource/orders-by-country/BoundValues': (request: FakeRequest) => ({
    body: boundValuesReply(request.body as Record<string, unknown>),
  }),
  'GET /api/DataSource/ParameterData/101': { body: regionOptions },
  'GET /api/DataSource/ParameterData/102': (request: FakeRequest) => ({
    body: countryOptions(request.query.get('region')),
  }),
  'POST /data/v1/orders-by-country':
    callReplyFor ?? (() => ({ body: callReply, headers: { 'server-timing': serverTiming } })),
});

async function pick(user: ReturnType<typeof userEvent.setup>, label: string, option: string) {
  await user.click(screen.getByRole('combobox', { name: label }));
  await user.click(await screen.findByRole('option', { name: option }));
}

describe('the data asset list', () => {
  it('lists the assets the caller can call and filters them by type, in the URL', async () => {
    const api = fakeApi({
      'GET /api/DataSource/GetAll': (request) => ({
        body: pageOfItems(request.query.get('kind') === 'webapi' ? [] : [buildDataSourceSummary()]),
      }),
      'GET /api/DataSourceCollection/GetAll': { body: pageOfItems([]) },
    });
    const user = userEvent.setup();
    const { location } = renderApp({ path: '/data-source', ...reader() });
    const link = await screen.findByRole('link', { name: 'Orders by country' });
    expect(link.getAttribute('href')).toBe('/data-source/orders-by-country');
    expect(screen.getByText('2 parameters')).toBeTruthy();

    await user.click(screen.getByRole('combobox', { name: 'Type' }));
    await user.click(await screen.findByRole('option', { name: 'Web API' }));
    await waitFor(() => expect(location()).toBe('/data-source?kind=webapi'));
    expect(await screen.findByText('No data assets match these filters')).toBeTruthy();
    expect(api.requests.some((request) => request.query.get('kind') === 'webapi')).toBe(true);
  });
});

describe('the data asset screen', () => {
  it('shows parameters, transformations and calls to paste, with a token placeholder and no token', async () => {
    fakeApi(assetRoutes());
    renderApp({ path: '/data-source/orders-by-country', ...reader() });
    expect(await screen.findByRole('heading', { name: 'Orders by country' })).toBeTruthy();
    const parameters = screen.getByRole('region', { name: 'Parameters' });
    expect(within(parameters).getByText('country')).toBeTruthy();
    expect(within(parameters).getByText('From a parameter data source, after region')).toBeTruthy();
    // The reply is decoded with the contract's rule schema: its defaults are shown as the server sends them.
    expect(
      screen.getByText('mask (column: email, mode: partial, keepFirst: 0, keepLast: 0, maskChar: *, salt: )'),
    ).toBeTruthy();

    const snippets = screen.getByRole('region', { name: 'Call it from a program' });
    const text = snippets.textContent ?? '';
    expect(text).toContain(`${window.location.origin}/data/v1/orders-by-country`);
    expect(text).toContain("-H 'Authorization: Bearer <YOUR_TOKEN>'");
    expect(text).toContain('TOKEN = "<YOUR_TOKEN>"');
    expect(text).not.toContain('token-1');
  });

  it("lists the caller's own recent calls", async () => {
    const api = fakeApi(assetRoutes());
    renderApp({ path: '/data-source/orders-by-country', ...reader() });
    const recent = await screen.findByRole('table', { name: 'Recent calls' });
    expect(within(recent).queryByRole('columnheader', { name: 'Caller' })).toBeNull();
    const [, first] = within(recent).getAllByRole('row');
    expect(
      within(first as HTMLElement)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual([expect.any(String), '200', '2', '1.5 kB', '12.0 ms', 'No', 'JSON']);
    expect(within(recent).getByText('400')).toBeTruthy();
    expect(api.requests.find((request) => request.path.endsWith('/RecentCalls'))?.query.get('take')).toBe('20');
  });

  it('shows who called to those who see everyone’s calls', async () => {
    fakeApi({
      ...assetRoutes(),
      'GET /api/DataSource/orders-by-country/RecentCalls': { body: recentCallsReply('everyone') },
    });
    renderApp({ path: '/data-source/orders-by-country', ...reader() });
    const recent = await screen.findByRole('table', { name: 'Recent calls' });
    expect(within(recent).getByRole('columnheader', { name: 'Caller' })).toBeTruthy();
    expect(within(recent).getByText('Ann Analyst')).toBeTruthy();
    expect(within(recent).getByText('Ann Analyst (token)')).toBeTruthy();
  });

  it('says so when the asset does not exist or is not shared', async () => {
    fakeApi({});
    renderApp({ path: '/data-source/missing', ...reader() });
    expect(await screen.findByText(/This data asset does not exist/)).toBeTruthy();
    expect(toastMessages()).toEqual([]);
  });
});

describe('calling a data asset', () => {
  it('reloads a dependent dropdown when its parent changes and clears a value no longer allowed', async () => {
    const api = fakeApi(assetRoutes());
    const user = userEvent.setup();
    const { location } = renderApp({ path: '/data-source/orders-by-country/call', ...reader() });
    expect(await screen.findByRole('heading', { name: 'Call Orders by country' })).toBeTruthy();
    expect(screen.getByRole('combobox', { name: 'Country' }).hasAttribute('disabled')).toBe(true);

    await pick(user, 'Region', 'Europe');
    await waitFor(() => expect(screen.getByRole('combobox', { name: 'Country' }).hasAttribute('disabled')).toBe(false));
    await pick(user, 'Country', 'France');
    await waitFor(() => expect(location()).toBe('/data-source/orders-by-country/call?region=EU&country=FR'));

    await pick(user, 'Region', 'Asia');
    await waitFor(() => expect(location()).toBe('/data-source/orders-by-country/call?region=AS'));
    await waitFor(() => expect(screen.getByRole('combobox', { name: 'Country' })).toHaveProperty('value', ''));
    const countryCalls = api.requests.filter((request) => request.path === '/api/DataSource/ParameterData/102');
    expect(countryCalls.map((request) => request.query.get('region'))).toEqual(['EU', 'AS']);
  });

  it('calls with the values in the URL and shows the result, its notices and the grid', async () => {
    const api = fakeApi(assetRoutes());
    const user = userEvent.setup();
    renderApp({ path: '/data-source/orders-by-country/call?region=EU&country=FR', ...reader() });
    await screen.findByRole('heading', { name: 'Call Orders by country' });
    await user.click(screen.getByRole('button', { name: 'Call' }));

    expect(await screen.findByText('The result was cut at the row cap')).toBeTruthy();
    const call = api.requests.find((request) => request.path === '/data/v1/orders-by-country');
    expect(call?.body).toEqual({ region: 'EU', country: 'FR' });
    expect(call?.query.get('format')).toBe('json');
    const init = api.fetchMock.mock.calls.find(([url]) => String(url).includes('/data/v1/'))?.[1];
    expect(new Headers(init?.headers).get('Authorization')).toBe('Bearer token-1');

    const grid = await screen.findByRole('region', { name: 'Result of Orders by country' });
    expect(within(grid).getByText('b***@shop.test')).toBeTruthy();
    expect(within(grid).getByText('None')).toBeTruthy();
    expect(screen.getByText('in 12 ms')).toBeTruthy();
    // The whole result is a download job (features/downloads/call-download.test.tsx), offered beside Call.
    expect(screen.getByRole('button', { name: 'Download' })).toBeTruthy();
  });

  it('says No Data found when a call returns no rows', async () => {
    fakeApi(assetRoutes(() => ({ body: { ...callReply, rows: [], truncated: false } })));
    const user = userEvent.setup();
    renderApp({ path: '/data-source/orders-by-country/call?region=EU&country=FR', ...reader() });
    await screen.findByRole('heading', { name: 'Call Orders by country' });
    await user.click(screen.getByRole('button', { name: 'Call' }));
    expect(await screen.findByText(/^No Data found: the call succeeded/)).toBeTruthy();
  });

  it('shows the texts of 502 and 429 replies, not the unknown-error text', async () => {
    const replies = [
      { status: 502, body: { title: texts.badGateway, status: 502, code: 'upstream', requestId: 'r-1' } },
      { status: 429, body: { title: texts.tooManyRequests, status: 429, code: 'rate_limited', requestId: 'r-2' } },
    ];
    fakeApi(assetRoutes(() => replies.shift() ?? { status: 500, body: {} }));
    const user = userEvent.setup();
    renderApp({ path: '/data-source/orders-by-country/call?region=EU&country=FR', ...reader() });
    await screen.findByRole('heading', { name: 'Call Orders by country' });
    await user.click(screen.getByRole('button', { name: 'Call' }));
    expect((await screen.findAllByText(texts.badGateway, { exact: false })).length).toBeGreaterThan(0);
    await user.click(screen.getByRole('button', { name: 'Call' }));
    expect((await screen.findAllByText(texts.tooManyRequests, { exact: false })).length).toBeGreaterThan(0);
    expect(toastMessages()).not.toContain(texts.unknownError);
  });

  it("shows the server's messages under the fields", async () => {
    const errors = { country: ['Country is required'] };
    fakeApi(assetRoutes(() => ({ status: 400, body: { title: 'Invalid', status: 400, errors } })));
    const user = userEvent.setup();
    renderApp({ path: '/data-source/orders-by-country/call?region=EU', ...reader() });
    await screen.findByRole('heading', { name: 'Call Orders by country' });
    await user.click(screen.getByRole('button', { name: 'Call' }));
    const country = screen.getByRole('combobox', { name: 'Country' });
    await waitFor(() => expect(country.getAttribute('aria-invalid')).toBe('true'));
    expect(screen.getAllByText('Country is required').length).toBeGreaterThan(0);
  });

  it('in developer mode, shows the exact request without the token, the SQL, bound values, timings and the reply', async () => {
    const api = fakeApi(assetRoutes());
    const user = userEvent.setup();
    renderApp({ path: '/data-source/orders-by-country/call-dev-mode?region=EU&country=FR', ...reader() });
    await screen.findByRole('heading', { name: 'Call Orders by country (developer mode)' });
    await user.click(screen.getByRole('button', { name: 'Call' }));
    const request = (await screen.findByRole('region', { name: 'Request' })).textContent ?? '';
    expect(request).toContain(`POST ${window.location.origin}/data/v1/orders-by-country?format=json`);
    expect(request).toContain('Content-Type: application/json');
    expect(request).toContain('Authorization: Bearer <your access token>');
    expect(request).toContain('"country": "FR"');
    expect(request).not.toContain('token-1');

    // The SQL as stored, placeholders and all; the values apart, as the server typed them.
    const sql = screen.getByRole('region', { name: 'SQL' }).textContent ?? '';
    expect(sql).toContain('WHERE country = :country');
    expect(sql).not.toMatch(/'FR'|"FR"/u);
    const bound = await screen.findByRole('region', { name: 'Bound values' });
    const country = (await within(bound).findByText(':country')).closest('tr') as HTMLElement;
    expect(
      within(country)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual([':country', '"FR"', 'string', '']);
    const binding = api.requests.find((call) => call.path === '/api/DataSource/orders-by-country/BoundValues');
    expect(binding?.body).toEqual({ region: 'EU', country: 'FR' });

    const timings = screen.getByRole('region', { name: 'Timings' });
    const timeOf = (label: string) => within(timings).getByRole('rowheader', { name: new RegExp(`^${label}`) });
    const rowText = (label: string) => timeOf(label).closest('tr')?.textContent;
    expect(rowText('Authorization')).toBe('Authorization authz0.10 ms');
    expect(rowText('Waiting for a connection')).toBe('Waiting for a connection queue0.25 ms');
    expect(rowText('Database')).toBe('Database database4.50 ms');
    expect(rowText('Transformations')).toBe('Transformations transform1.25 ms');
    expect(rowText('Writing the reply')).toBe('Writing the reply write0.75 ms');

    const raw = screen.getByRole('region', { name: 'Raw reply' }).textContent ?? '';
    expect(raw).toContain('HTTP 200');
    expect(raw).toContain(`Server-Timing: ${serverTiming}`);
    expect(raw).toContain('"durationMs":12');
  });
});
