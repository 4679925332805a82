import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { formatDateTime } from '../../../lib/format.ts';
import {
  buildAuth,
  buildCollectionDetail,
  buildCurrentUser,
  buildEffectiveRole,
  buildUser,
  buildUserDataRoles,
  buildViaGroup,
  pageOfItems,
} from '../../../test/builders.ts';
import { buildDataSourceSummary } from '../../../test/data-source-builders.ts';
import { fakeApi } from '../../../test/fake-api.ts';
import { renderApp } from '../../../test/render-app.tsx';
import { toastMessages } from '../../../test/render-ui.tsx';

const owner = () => ({ auth: buildAuth({ user: buildUser() }), currentUser: buildCurrentUser({ id: 1 }) });

const roles = {
  collection: { uid: 'col-1', name: 'Sales' },
  users: [
    { user: { id: 1, name: 'Ada Lovelace', username: 'ada' }, role: 'Owner' },
    { user: { id: 2, name: 'Grace Hopper', username: 'grace' }, role: 'Reader' },
  ],
  groups: [{ group: { id: 7, name: 'Analysts' }, role: 'Editor' }],
  indirectUsers: [],
};

const selectedTab = () =>
  screen.getAllByRole('tab').find((tab) => tab.getAttribute('aria-selected') === 'true')?.textContent;

describe('the collection screen', () => {
  it('opens the tab the URL names and puts the tab chosen into the URL', async () => {
    fakeApi({
      'GET /api/DataSourceCollection/GetByUid/col-1': { body: buildCollectionDetail({ assetCount: 3 }) },
      'GET /api/DataRole/col-1/DataSourceCollectionDataRoles': { body: roles },
      'GET /api/DataSource': { body: [buildDataSourceSummary()] },
    });
    const user = userEvent.setup();
    const { location } = renderApp({ path: '/collection/col-1/access', ...owner() });
    expect(await screen.findByRole('table', { name: 'Groups with a role' })).toBeTruthy();
    expect(selectedTab()).toBe('Access');
    expect(screen.getByText('Grace Hopper')).toBeTruthy();

    await user.click(screen.getByRole('tab', { name: /Data assets/ }));
    await waitFor(() => expect(location()).toBe('/collection/col-1'));
    expect(await screen.findByRole('link', { name: 'Orders by country' })).toBeTruthy();

    await user.click(screen.getByRole('tab', { name: /Overview/ }));
    await waitFor(() => expect(location()).toBe('/collection/col-1/overview'));
    expect(selectedTab()).toBe('Overview');
    // The reply's ISO text arrives as a Date and is shown for people.
    expect(
      await screen.findByText(`${formatDateTime(new Date('2026-01-05T09:30:00.000Z'))} by Ada Lovelace (ada)`),
    ).toBeTruthy();
    expect(screen.getByText(formatDateTime(new Date('2026-01-06T10:00:00.000Z')))).toBeTruthy();
  });

  it('opens on the data assets, and replaces a tab it does not know with them', async () => {
    fakeApi({
      'GET /api/DataSourceCollection/GetByUid/col-1': { body: buildCollectionDetail({ assetCount: 1 }) },
      'GET /api/DataSource': { body: [buildDataSourceSummary()] },
    });
    const { location } = renderApp({ path: '/collection/col-1/nonsense', ...owner() });
    await waitFor(() => expect(location()).toBe('/collection/col-1'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Sales' })).toBeTruthy();
    expect(selectedTab()).toMatch(/^Data assets/);
    expect(await screen.findByRole('link', { name: 'Orders by country' })).toBeTruthy();
  });

  it('shows a not-found state, without a toast, for a collection that is gone or hidden', async () => {
    fakeApi({});
    renderApp({ path: '/collection/secret', ...owner() });
    expect(await screen.findByRole('heading', { name: 'The requested resource was not found' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'All collections' }).getAttribute('href')).toBe('/collection');
    expect(toastMessages()).toEqual([]);
  });

  it("shows a Reader their own access instead of asking for everyone's", async () => {
    const reader = buildCollectionDetail({
      myRole: 'Reader',
      can: { edit: false, manageRoles: false, delete: false, editAssets: false },
    });
    const api = fakeApi({
      'GET /api/DataSourceCollection/GetByUid/col-1': { body: reader },
      'GET /api/DataRole/1/UserDataRoles': {
        body: buildUserDataRoles({ roles: [buildEffectiveRole({ viaGroups: [buildViaGroup()] })] }),
      },
    });
    renderApp({ path: '/collection/col-1/access', ...owner() });
    expect(await screen.findByText('Group Staff: Reader')).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Edit collection' })).toBeNull();
    expect(api.requests.map((r) => r.path)).not.toContain('/api/DataRole/col-1/DataSourceCollectionDataRoles');
  });

  it('shows a Reader who owns the collection, and the path of a role that comes through nested groups', async () => {
    const reader = buildCollectionDetail({
      myRole: 'Reader',
      owners: [{ id: 1, name: 'Ada Lovelace', username: 'ada' }],
      ownerGroups: [{ id: 9, name: 'Data team' }],
      can: { edit: false, manageRoles: false, delete: false, editAssets: false },
    });
    fakeApi({
      'GET /api/DataSourceCollection/GetByUid/col-1': { body: reader },
      'GET /api/DataRole/1/UserDataRoles': {
        body: buildUserDataRoles({
          roles: [
            buildEffectiveRole({
              viaGroups: [
                buildViaGroup({
                  path: [
                    { id: 3, name: 'Staff' },
                    { id: 7, name: 'Analysts' },
                  ],
                }),
              ],
            }),
          ],
        }),
      },
    });
    const user = userEvent.setup();
    renderApp({ path: '/collection/col-1/overview', ...owner() });
    expect(await screen.findByText('Ada Lovelace (ada), group Data team')).toBeTruthy();
    await user.click(screen.getByRole('tab', { name: /Access/ }));
    expect(await screen.findByText('Group Staff: Reader')).toBeTruthy();
    expect(screen.getByText('through Staff › Analysts')).toBeTruthy();
  });

  it('lists, for an Owner, the people who hold a role through groups with the path', async () => {
    fakeApi({
      'GET /api/DataSourceCollection/GetByUid/col-1': { body: buildCollectionDetail() },
      'GET /api/DataRole/col-1/DataSourceCollectionDataRoles': {
        body: {
          ...roles,
          indirectUsers: [
            {
              user: { id: 3, name: 'Alan Analyst', username: 'analyst' },
              role: 'Editor',
              path: [{ id: 7, name: 'Analysts' }],
            },
            {
              user: { id: 3, name: 'Alan Analyst', username: 'analyst' },
              role: 'Reader',
              path: [
                { id: 8, name: 'Staff' },
                { id: 7, name: 'Analysts' },
              ],
            },
          ],
        },
      },
    });
    renderApp({ path: '/collection/col-1/access', ...owner() });
    const table = await screen.findByRole('table', { name: 'People with a role through groups' });
    const rows = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((row) => row.textContent);
    expect(rows).toEqual(['Alan AnalystanalystEditorAnalysts', 'Alan AnalystanalystReaderStaff › Analysts']);
    expect(screen.getByRole('heading', { name: 'Through groups (2)' })).toBeTruthy();
  });

  it('sends someone who may not change the collection from its edit page to the error page', async () => {
    const reader = buildCollectionDetail({
      myRole: 'Editor',
      can: { edit: false, manageRoles: false, delete: false, editAssets: true },
    });
    fakeApi({ 'GET /api/DataSourceCollection/GetByUid/col-1': { body: reader } });
    renderApp({ path: '/collection/col-1/edit', ...owner() });
    expect(await screen.findByRole('heading', { name: 'Unauthorised' })).toBeTruthy();
  });
});

describe('the collection edit screen', () => {
  it('grants a role to a user found with the picker, and shows the last-Owner refusal as a toast', async () => {
    const api = fakeApi({
      'GET /api/DataSourceCollection/GetByUid/col-1': { body: buildCollectionDetail() },
      'GET /api/DataRole/col-1/DataSourceCollectionDataRoles': { body: roles },
      'GET /api/User/Autocomplete': { body: [{ id: 5, name: 'Linus Torvalds', username: 'linus', email: null }] },
      'PUT /api/DataRole/5/UserDataRoles': {
        body: buildUserDataRoles({ user: { id: 5, name: 'Linus Torvalds', username: 'linus' } }),
      },
      'PUT /api/DataRole/7/UserGroupDataRoles': {
        status: 400,
        body: {
          title: 'At least one Owner is required',
          status: 400,
          errors: { role: ['At least one Owner is required'] },
        },
      },
    });
    const user = userEvent.setup();
    renderApp({ path: '/collection/col-1/edit/access', ...owner() });

    await user.click(await screen.findByRole('combobox', { name: 'User' }));
    // One letter asks nothing (the server answers 400 below two characters) and says what is needed.
    await user.keyboard('l');
    expect(await screen.findByText('Type at least 2 characters')).toBeTruthy();
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(api.requests.filter((r) => r.path === '/api/User/Autocomplete')).toEqual([]);
    await user.keyboard('in');
    // The picker asks the server (after a short pause in typing) rather than filtering itself.
    await waitFor(() =>
      expect(
        api.requests.filter((r) => r.path === '/api/User/Autocomplete').map((r) => r.query.get('search')),
      ).toContain('lin'),
    );
    await user.click(await screen.findByRole('option', { name: /Linus Torvalds/ }));
    await user.click(screen.getByRole('combobox', { name: 'Role' }));
    await user.click(await screen.findByRole('option', { name: 'Owner' }));
    await user.click(screen.getByRole('button', { name: 'Grant' }));

    await waitFor(() => expect(api.requests.some((r) => r.method === 'PUT')).toBe(true));
    const put = api.requests.find((r) => r.method === 'PUT');
    expect(put?.path).toBe('/api/DataRole/5/UserDataRoles');
    expect(put?.body).toEqual({ collectionUid: 'col-1', role: 'Owner' });

    // Your own row cannot be changed here; others can be withdrawn with a confirmation.
    const people = screen.getByRole('table', { name: 'People with a role' });
    expect(within(people).queryByRole('button', { name: 'Withdraw the role of Ada Lovelace (you)' })).toBeNull();
    await user.click(
      within(screen.getByRole('table', { name: 'Groups with a role' })).getByRole('button', {
        name: 'Withdraw the role of Analysts',
      }),
    );
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Withdraw role' })).getByRole('button', { name: 'Withdraw' }),
    );
    await waitFor(() => expect(toastMessages()).toContain('Role: At least one Owner is required'));
    expect(screen.getByRole('dialog', { name: 'Withdraw role' })).toBeTruthy();
  });
});

describe('changing a role', () => {
  it('gives a stronger role at once, but asks before a weaker one, naming what is lost', async () => {
    const api = fakeApi({
      'GET /api/DataSourceCollection/GetByUid/col-1': { body: buildCollectionDetail() },
      'GET /api/DataRole/col-1/DataSourceCollectionDataRoles': { body: roles },
      'PUT /api/DataRole/7/UserGroupDataRoles': { body: { group: { id: 7, name: 'Analysts' }, roles: [] } },
    });
    const user = userEvent.setup();
    renderApp({ path: '/collection/col-1/edit/access', ...owner() });
    const groups = await screen.findByRole('table', { name: 'Groups with a role' });
    const puts = () => api.requests.filter((r) => r.method === 'PUT');

    await user.click(within(groups).getByRole('combobox', { name: 'Role of Analysts' }));
    await user.click(await screen.findByRole('option', { name: 'Reader' }));
    let dialog = await screen.findByRole('dialog', { name: 'Lower the role' });
    expect(dialog.textContent).toContain('Analysts goes from Editor to Reader on Sales');
    expect(dialog.textContent).toContain('can no longer create and change its data assets');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(puts()).toEqual([]);

    await user.click(within(groups).getByRole('combobox', { name: 'Role of Analysts' }));
    await user.click(await screen.findByRole('option', { name: 'Reader' }));
    dialog = await screen.findByRole('dialog', { name: 'Lower the role' });
    await user.click(within(dialog).getByRole('button', { name: 'Lower to Reader' }));
    await waitFor(() => expect(puts().map((r) => r.body)).toEqual([{ collectionUid: 'col-1', role: 'Reader' }]));

    await user.click(within(groups).getByRole('combobox', { name: 'Role of Analysts' }));
    await user.click(await screen.findByRole('option', { name: 'Owner' }));
    await waitFor(() => expect(puts()).toHaveLength(2));
    expect(screen.queryByRole('dialog', { name: 'Lower the role' })).toBeNull();
  });
});

describe('creating a collection', () => {
  it('is offered only to those who may create one; others reaching the page get Unauthorised', async () => {
    fakeApi({ 'GET /api/DataSourceCollection/GetAll': { body: pageOfItems([]) } });
    renderApp({ path: '/collection', ...owner() });
    expect(await screen.findByText('No collections yet')).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'New collection' })).toBeNull();
    cleanup();

    fakeApi({});
    renderApp({ path: '/collection/create', ...owner() });
    expect(await screen.findByRole('heading', { name: 'Unauthorised' })).toBeTruthy();
    expect(screen.queryByRole('textbox', { name: 'Name' })).toBeNull();
  });

  it('checks the name as it is typed, puts a taken name on the field, and opens the new collection', async () => {
    const taken = 'Collection with name Sales already exists';
    fakeApi({
      'POST /api/DataSourceCollection': (request) =>
        JSON.stringify(request.body) === JSON.stringify({ name: 'Sales', description: '' })
          ? { status: 409, body: { title: taken, status: 409, code: 'conflict', errors: { name: [taken] } } }
          : { status: 201, body: buildCollectionDetail({ uid: 'new-1', name: 'Sales 2' }) },
      'GET /api/DataSourceCollection/GetByUid/new-1': {
        body: buildCollectionDetail({ uid: 'new-1', name: 'Sales 2' }),
      },
    });
    const user = userEvent.setup();
    const { location } = renderApp({
      path: '/collection/create',
      auth: buildAuth({ user: buildUser() }),
      currentUser: buildCurrentUser({ id: 1, canCreateCollections: true }),
    });
    const name = await screen.findByRole('textbox', { name: 'Name' });

    await user.type(name, 'x');
    await user.clear(name);
    expect(screen.getByText('Name is required')).toBeTruthy();
    // The field knows the server's limit: a 101st character is not taken.
    await user.type(name, 'a'.repeat(101));
    expect((name as HTMLInputElement).value).toBe('a'.repeat(100));

    await user.clear(name);
    await user.type(name, 'Sales');
    await user.click(screen.getByRole('button', { name: 'Create collection' }));
    expect(await screen.findByText(taken)).toBeTruthy();
    expect(toastMessages()).toEqual([]);

    await user.type(name, ' 2');
    expect(screen.queryByText(taken)).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Create collection' }));
    await waitFor(() => expect(location()).toBe('/collection/new-1'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Sales 2' })).toBeTruthy();
  });
});
