import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAuth, buildCurrentUser, buildUser } from '../../../test/builders.ts';
import { buildDataSourceDetail, recentCallsReply } from '../../../test/data-source-builders.ts';
import { fakeApi } from '../../../test/fake-api.ts';
import { renderApp } from '../../../test/render-app.tsx';
import { buildExchange } from '../../../test/web-api-builders.ts';

// A Web API asset's developer-mode call: the stored request instead of SQL, the bound values against the request's
// placeholders, the upstream stage named as such, and the call's upstream exchanges (asked for with the exchange
// header, secrets masked by the server). The plain call screen does not ask for them.

const clientHeight = Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'clientHeight');
beforeAll(() => {
  Object.defineProperty(HTMLElement.prototype, 'clientHeight', { configurable: true, get: () => 480 });
});
afterAll(() => {
  if (clientHeight) Object.defineProperty(HTMLElement.prototype, 'clientHeight', clientHeight);
});

const reader = () => ({ auth: buildAuth({ user: buildUser() }), currentUser: buildCurrentUser({ id: 1 }) });
const asset = buildDataSourceDetail({
  uid: 'rates',
  name: 'Exchange rates',
  kind: 'webapi',
  sql: '',
  connection: { id: 7, name: 'rates api', kind: 'webapi' },
  parameters: [
    { id: 1, position: 0, name: 'base', label: 'Base currency', type: 'string', required: true, list: false },
    { id: 2, position: 1, name: 'note', type: 'string', required: false, list: false },
  ],
  transformations: [],
  webApi: {
    request: {
      method: 'GET',
      path: '/rates/{base}',
      query: {},
      headers: {},
      rowsPath: 'items',
      paging: { kind: 'next', path: 'links.next' },
    },
    credential: { id: 31, name: 'demo key', kind: 'api-key' },
  },
});
const result = {
  columns: [{ name: 'currency', type: 'string' }],
  rows: [{ currency: 'USD' }],
  truncated: false,
  durationMs: 30,
  cached: false,
};
const exchange = buildExchange({
  url: 'https://rates.example.test/v1/rates/EUR',
  requestHeaders: { 'x-api-key': '********' },
});
const routes = {
  'GET /api/DataSource/GetByUid/rates': { body: asset },
  'GET /api/DataSource/rates/RecentCalls': { body: recentCallsReply() },
  'POST /api/DataSource/rates/BoundValues': {
    body: {
      bindings: [
        { name: 'base', type: 'string', list: false, value: 'EUR', inSql: false },
        { name: 'note', type: 'string', list: false, value: null, inSql: false },
      ],
    },
  },
  'POST /data/v1/rates': {
    body: { ...result, exchanges: [exchange], exchangesOmitted: 2 },
    headers: { 'server-timing': 'authz;dur=0.1, database;dur=25.0' },
  },
};
const sentHeaders = (api: ReturnType<typeof fakeApi>) =>
  new Headers(api.fetchMock.mock.calls.find(([url]) => String(url).includes('/data/v1/'))?.[1]?.headers);

describe('calling a Web API asset', () => {
  it('in developer mode, shows the request definition, the upstream timing and the exchanges', async () => {
    const api = fakeApi(routes);
    const user = userEvent.setup();
    renderApp({ path: '/data-source/rates/call-dev-mode?base=EUR', ...reader() });
    await screen.findByRole('heading', { name: 'Call Exchange rates (developer mode)' });
    await user.click(screen.getByRole('button', { name: 'Call' }));

    const definition = (await screen.findByRole('region', { name: 'Request definition' })).textContent ?? '';
    expect(definition).toContain('GET /rates/{base}');
    expect(definition).toContain('Credential: demo key (api-key)');
    expect(screen.queryByRole('region', { name: 'SQL' })).toBeNull();
    expect(sentHeaders(api).get('x-datalab-exchange')).toBe('1');

    const bound = await screen.findByRole('region', { name: 'Bound values' });
    expect(within(bound).getByText('{base}')).toBeTruthy();
    const note = within(bound).getByText('{note}').closest('tr') as HTMLElement;
    expect(within(note).getByText('Not used by the request')).toBeTruthy();
    const base = within(bound).getByText('{base}').closest('tr') as HTMLElement;
    expect(within(base).queryByText(/Not used/u)).toBeNull();

    const timings = screen.getByRole('region', { name: 'Timings' });
    expect(within(timings).getByRole('rowheader', { name: /^Web API \(upstream requests\)/u })).toBeTruthy();

    const upstream = screen.getByRole('region', { name: 'Upstream exchanges' });
    expect(within(upstream).getByText('HTTP 200')).toBeTruthy();
    expect(within(upstream).getByText(/X-Api-Key: \*{8}/u)).toBeTruthy();
    expect(within(upstream).getByText('2 more exchanges not shown.')).toBeTruthy();
  });

  it('does not ask for the exchanges on the plain call screen', async () => {
    const api = fakeApi(routes);
    const user = userEvent.setup();
    renderApp({ path: '/data-source/rates/call?base=EUR', ...reader() });
    await screen.findByRole('heading', { name: 'Call Exchange rates' });
    await user.click(screen.getByRole('button', { name: 'Call' }));
    expect((await screen.findAllByText(/^1 row/u)).length).toBeGreaterThan(0);
    expect(sentHeaders(api).has('x-datalab-exchange')).toBe(false);
    expect(screen.queryByRole('region', { name: 'Upstream exchanges' })).toBeNull();
  });
});
