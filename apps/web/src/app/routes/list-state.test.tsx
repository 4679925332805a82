import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import {
  buildAuth,
  buildCollectionSummary,
  buildCurrentUser,
  buildUser,
  buildUserListItem,
  pageOfItems,
} from '../../test/builders.ts';
import { fakeApi, type FakeRequest } from '../../test/fake-api.ts';
import { renderApp } from '../../test/render-app.tsx';

// Lists sort by column on the server, search as you type, and keep search, page and sort in their
// URL, so Back, Forward and shared links show the same list.

const admin = () => ({
  auth: buildAuth({ user: buildUser() }),
  currentUser: buildCurrentUser({ id: 1, permissions: { canManageUsers: true } }),
});
const lastListQuery = (requests: FakeRequest[], path: string) =>
  Object.fromEntries(requests.filter((r) => r.path === path).at(-1)?.query ?? []);

describe('the user list', () => {
  it('sorts by a column on the server, reverses on a second click, and keeps the order in the URL', async () => {
    const api = fakeApi({ 'GET /api/User': { body: pageOfItems([buildUserListItem()]) } });
    const user = userEvent.setup();
    const { location } = renderApp({ path: '/management/user', ...admin() });
    const table = await screen.findByRole('table', { name: 'Users' });
    expect(within(table).getByRole('columnheader', { name: /Name/ }).getAttribute('aria-sort')).toBe('ascending');
    expect(lastListQuery(api.requests, '/api/User')).toMatchObject({ sortBy: 'name', sortDirection: 'asc' });

    await user.click(within(table).getByRole('button', { name: /Last seen/ }));
    await waitFor(() => expect(location()).toBe('/management/user?sort=lastSeenAt'));
    await waitFor(() =>
      expect(lastListQuery(api.requests, '/api/User')).toMatchObject({ sortBy: 'lastSeenAt', sortDirection: 'asc' }),
    );
    await user.click(within(screen.getByRole('table', { name: 'Users' })).getByRole('button', { name: /Last seen/ }));
    await waitFor(() => expect(location()).toBe('/management/user?sort=lastSeenAt&dir=desc'));
    await waitFor(() =>
      expect(lastListQuery(api.requests, '/api/User')).toMatchObject({ sortBy: 'lastSeenAt', sortDirection: 'desc' }),
    );
    expect(screen.getByRole('columnheader', { name: /Last seen/ }).getAttribute('aria-sort')).toBe('descending');
    expect(screen.getByRole('columnheader', { name: /Name/ }).getAttribute('aria-sort')).toBe('none');
  });

  it('opens a shared link with its search, page and sort, and ignores a sort the server does not allow', async () => {
    const api = fakeApi({
      'GET /api/User': { body: pageOfItems([buildUserListItem()], { totalCount: 45, page: 2, pageSize: 20 }) },
    });
    renderApp({ path: '/management/user?search=gr&page=2&sort=email&dir=desc', ...admin() });
    await screen.findByRole('table', { name: 'Users' });
    expect(lastListQuery(api.requests, '/api/User')).toMatchObject({
      search: 'gr',
      page: '2',
      sortBy: 'email',
      sortDirection: 'desc',
    });

    renderApp({ path: '/management/user?sort=password', ...admin() });
    await waitFor(() => expect(lastListQuery(api.requests, '/api/User')).toMatchObject({ sortBy: 'name' }));
  });
});

describe('searching a list', () => {
  it('filters as you type after a pause, without an entry in the history per word, and Back restores the list', async () => {
    const api = fakeApi({
      'GET /api/DataSourceCollection/GetAll': { body: pageOfItems([buildCollectionSummary()], { totalCount: 30 }) },
    });
    const user = userEvent.setup();
    const { location, router } = renderApp({
      path: '/collection',
      auth: buildAuth({ user: buildUser() }),
      currentUser: buildCurrentUser(),
    });
    await screen.findByRole('link', { name: 'Sales' });
    await act(() => router.navigate('/collection?page=2'));
    await user.type(screen.getByRole('combobox', { name: 'Search' }), 'ord');
    // Nothing yet while typing…
    expect(location()).toBe('/collection?page=2');
    // …then the list follows, from page 1, without Enter.
    await waitFor(() => expect(location()).toBe('/collection?search=ord'));
    await waitFor(() =>
      expect(lastListQuery(api.requests, '/api/DataSourceCollection/GetAll')).toMatchObject({
        search: 'ord',
        page: '1',
      }),
    );
    expect(api.requests.filter((r) => r.query.get('search') === 'o')).toEqual([]);
    // Refining the search replaces its entry rather than adding one per pause.
    await user.type(screen.getByRole('combobox', { name: 'Search' }), 'ers');
    await waitFor(() => expect(location()).toBe('/collection?search=orders'));

    // Back goes to where the list was before the search, with its page.
    await act(() => router.navigate(-1));
    await waitFor(() => expect(location()).toBe('/collection?page=2'));
    await waitFor(() => expect(screen.getByRole('combobox', { name: 'Search' })).toHaveProperty('value', ''));
  });

  it('sorts the collections with the sort menu, kept in the URL', async () => {
    const api = fakeApi({ 'GET /api/DataSourceCollection/GetAll': { body: pageOfItems([buildCollectionSummary()]) } });
    const user = userEvent.setup();
    const { location } = renderApp({
      path: '/collection',
      auth: buildAuth({ user: buildUser() }),
      currentUser: buildCurrentUser(),
    });
    await screen.findByRole('link', { name: 'Sales' });
    await user.click(screen.getByRole('combobox', { name: 'Sort by' }));
    await user.click(await screen.findByRole('option', { name: 'Recently changed' }));
    await waitFor(() => expect(location()).toBe('/collection?sort=updatedAt&dir=desc'));
    await waitFor(() =>
      expect(lastListQuery(api.requests, '/api/DataSourceCollection/GetAll')).toMatchObject({
        sortBy: 'updatedAt',
        sortDirection: 'desc',
      }),
    );
  });
});
