import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { texts } from '@datalab/contract/texts';
import { buildAuth, buildCurrentUser, buildUser, pageOfItems } from '../../test/builders.ts';
import { fakeApi } from '../../test/fake-api.ts';
import { renderApp } from '../../test/render-app.tsx';
import { toastMessages } from '../../test/render-ui.tsx';
import { formatBytes } from '../../lib/format.ts';
import { formatSpan } from './format.ts';

// The cache screen against a fake API at the client's boundary: entries with their type, asset, size, age, time to
// live and hits; the type filter; a value in the result grid; removal and purge after a confirmation; the empty
// state and a failure.

const admin = () => ({
  auth: buildAuth({ user: buildUser() }),
  currentUser: buildCurrentUser({ id: 1, permissions: { canManageUsers: true } }),
});

// jsdom lays nothing out: the grid's scroller reports a height so its virtualiser renders rows.
const clientHeight = Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'clientHeight');
beforeAll(() => {
  Object.defineProperty(HTMLElement.prototype, 'clientHeight', { configurable: true, get: () => 480 });
});
afterAll(() => {
  if (clientHeight) Object.defineProperty(HTMLElement.prototype, 'clientHeight', clientHeight);
});

const entry = (overrides: Record<string, unknown> = {}) => ({
  key: 'results:7:1:{"region":1}',
  type: 'results',
  asset: { uid: 'asset-7', name: 'Countries by region' },
  size: 2_560,
  createdAt: '2026-11-23T10:00:00.000Z',
  ageMs: 95_000,
  ttlMs: 205_000,
  hits: 4,
  ...overrides,
});
const page = (items: ReturnType<typeof entry>[]) => ({
  ...pageOfItems(items),
  totalBytes: items.reduce((sum, item) => sum + item.size, 0),
});

describe('cache management', () => {
  it('lists entries with their type, asset, size, age, time to live and hits, and filters by type', async () => {
    const api = fakeApi({
      'GET /api/Caching/GetCacheKeys': ({ query }) => ({
        body: page(query.get('type') === 'metadata' ? [] : [entry()]),
      }),
    });
    const user = userEvent.setup();
    renderApp({ path: '/management/cache', ...admin() });

    const table = await screen.findByRole('table', { name: 'Cache entries' });
    const row = within(table).getAllByRole('row')[1]!;
    expect(within(row).getByText('Countries by region')).toBeDefined();
    expect(within(row).getByText('Results')).toBeDefined();
    expect(within(row).getByText(formatBytes(2_560))).toBeDefined();
    expect(within(row).getByText('1 min 35 s')).toBeDefined();
    expect(within(row).getByText(formatSpan(205_000))).toBeDefined();
    expect(within(row).getByText('4')).toBeDefined();
    expect(screen.getByText(`1 entry · ${formatBytes(2_560)}`)).toBeDefined();

    await user.selectOptions(screen.getByRole('combobox', { name: 'Type' }), 'Metadata');
    expect(await screen.findByText('No cached metadata')).toBeDefined();
    expect(api.requests.at(-1)?.query.get('type')).toBe('metadata');
  });

  it('shows a cached result in the result grid', async () => {
    fakeApi({
      'GET /api/Caching/GetCacheKeys': { body: page([entry()]) },
      'GET /api/Caching/GetCacheValueByType': ({ query }) => ({
        body: {
          type: 'results',
          key: query.get('key'),
          columns: [
            { name: 'id', type: 'integer' },
            { name: 'country', type: 'string' },
          ],
          rows: [
            { id: 1, country: 'Norway' },
            { id: 2, country: 'Peru' },
          ],
          rowCount: 2,
          capped: false,
        },
      }),
    });
    const user = userEvent.setup();
    renderApp({ path: '/management/cache', ...admin() });

    await user.click(await screen.findByRole('button', { name: 'View Countries by region' }));
    const drawer = await screen.findByRole('dialog', { name: 'Results of Countries by region' });
    const grid = await within(drawer).findByRole('region', { name: 'Cached result of Countries by region' });
    expect(within(grid).getByText('Norway')).toBeDefined();
    expect(within(grid).getByText('Peru')).toBeDefined();
  });

  it('removes one entry and purges all, each after a confirmation that names the consequence', async () => {
    let items = [entry(), entry({ key: 'results:8:1:{}', asset: { uid: 'asset-8', name: 'Regions' }, hits: 0 })];
    const api = fakeApi({
      'GET /api/Caching/GetCacheKeys': () => ({ body: page(items) }),
      'POST /api/Caching/RemoveFromCache': ({ query }) => {
        items = items.filter((item) => item.key !== query.get('key'));
        return { body: { removed: 1 } };
      },
      'POST /api/Caching/PurgeCache': () => {
        const removed = items.length;
        items = [];
        return { body: { removed } };
      },
    });
    const user = userEvent.setup();
    renderApp({ path: '/management/cache', ...admin() });

    await user.click(await screen.findByRole('button', { name: 'Remove Regions' }));
    const confirm = await screen.findByRole('dialog', { name: 'Remove cache entry' });
    expect(within(confirm).getByText(/next identical call runs against the data source again/)).toBeDefined();
    await user.click(within(confirm).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Remove Regions' })).toBeNull());
    const removal = api.requests.find((request) => request.path === '/api/Caching/RemoveFromCache');
    expect(removal?.query.get('key')).toBe('results:8:1:{}');

    await user.click(screen.getByRole('button', { name: 'Purge all' }));
    const purge = await screen.findByRole('dialog', { name: 'Purge the cache' });
    expect(
      within(purge).getByText(/Every entry in the cache \(1 entry\) will be removed, on every server/),
    ).toBeDefined();
    await user.click(within(purge).getByRole('button', { name: 'Purge all' }));
    expect(await screen.findByText('The cache is empty')).toBeDefined();
    expect(api.requests.find((request) => request.path === '/api/Caching/PurgeCache')?.body).toEqual({});
    expect(toastMessages()).toContain('Purged 1 cache entry');
  });

  it('says what went wrong when the list cannot be read', async () => {
    fakeApi({ 'GET /api/Caching/GetCacheKeys': { status: 500, body: { title: 'boom', status: 500 } } });
    renderApp({ path: '/management/cache', ...admin() });
    expect(await screen.findByText(new RegExp(texts.unknownErrorShort))).toBeDefined();
  });
});
