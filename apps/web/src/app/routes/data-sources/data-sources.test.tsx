import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAuth, buildCurrentUser, buildUser, pageOfItems } from '../../../test/builders.ts';
import {
  buildDataSourceDetail,
  buildDataSourceSummary,
  callReply,
  countryOptions,
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

const assetRoutes = (callReplyFor?: (request: FakeRequest) => { status?: number; body?: unknown }) => ({
  'GET /api/DataSource/GetByUid/orders-by-country': { body: buildDataSourceDetail() },
  'GET /api/DataSource/ParameterData/101': { body: regionOptions },
  'GET /api/DataSource/ParameterData/102': (request: FakeRequest) => ({
    body: countryOptions(request.query.get('region')),
  }),
  'POST /data/v1/orders-by-country': callReplyFor ?? (() => ({ body: callReply })),
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
    expect(screen.getByText('mask (column: email, mode: partial)')).toBeTruthy();

    const snippets = screen.getByRole('region', { name: 'Call it from a program' });
    const text = snippets.textContent ?? '';
    expect(text).toContain(`${window.location.origin}/data/v1/orders-by-country`);
    expect(text).toContain('Authorization: Bearer $DATALAB_TOKEN');
    expect(text).toContain("os.environ['DATALAB_TOKEN']");
    expect(text).not.toContain('token-1');
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
    expect(screen.getByRole('group', { name: 'Download the whole result' }).textContent).toBe('CSVJSONNDJSONXLSX');
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

  it('in developer mode, shows the exact request without the token, the SQL, timings and the raw reply', async () => {
    fakeApi(assetRoutes());
    const user = userEvent.setup();
    renderApp({ path: '/data-source/orders-by-country/call-dev-mode?region=EU&country=FR', ...reader() });
    await screen.findByRole('heading', { name: 'Call Orders by country (developer mode)' });
    await user.click(screen.getByRole('button', { name: 'Call' }));
    const request = await screen.findByRole('region', { name: 'Request' });
    expect(request.textContent).toContain(`POST ${window.location.origin}/data/v1/orders-by-country?format=json`);
    expect(request.textContent).toContain('Authorization: Bearer <your access token>');
    expect(request.textContent).not.toContain('token-1');
    expect(screen.getByRole('region', { name: 'SQL' }).textContent).toContain('WHERE country = :country');
    expect(screen.getByRole('region', { name: 'Bound values' }).textContent).toContain(':country"FR"');
    expect(screen.getByRole('region', { name: 'Raw reply' }).textContent).toContain('"durationMs":12');
  });
});
