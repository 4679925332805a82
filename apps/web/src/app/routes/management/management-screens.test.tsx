import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { messages } from '@datalab/contract/messages';
import {
  buildAuth,
  buildCurrentUser,
  buildEffectiveRole,
  buildUser,
  buildUserDataRoles,
  buildUserGroupDetail,
  buildUserListItem,
  buildViaGroup,
  pageOfItems,
} from '../../../test/builders.ts';
import { fakeApi } from '../../../test/fake-api.ts';
import { renderApp } from '../../../test/render-app.tsx';
import { toastMessages } from '../../../test/render-ui.tsx';
import { formatDateTime } from '../../../lib/format.ts';

const admin = () => ({
  auth: buildAuth({ user: buildUser() }),
  currentUser: buildCurrentUser({ id: 1, permissions: { canManageUsers: true } }),
});
const lastAdministrator = messages.atLeastOne('user with canManageUsers');

describe('user management', () => {
  it('switches user management once confirmed and puts the switch back when the server refuses', async () => {
    let refuse: (() => void) | undefined;
    const grace = buildUserListItem({ id: 2, name: 'Grace Hopper', permissions: { canManageUsers: true } });
    const api = fakeApi({ 'GET /api/User': { body: pageOfItems([grace]) } });
    // The PUT answers only when the test says so, to see the switch before the server's word.
    api.fetchMock.mockImplementation(async (input, init) => {
      if (init?.method === 'PUT') {
        await new Promise<void>((resolve) => (refuse = resolve));
        return Response.json(
          { title: lastAdministrator, status: 400, errors: { canManageUsers: [lastAdministrator] } },
          { status: 400 },
        );
      }
      return Response.json(String(input).startsWith('/api/User?') ? pageOfItems([grace]) : {}, { status: 200 });
    });
    const user = userEvent.setup();
    renderApp({ path: '/management/user', ...admin() });

    const toggle = await screen.findByRole('switch', { name: 'User management for Grace Hopper' });
    expect(toggle).toHaveProperty('checked', true);
    await user.click(toggle);
    const dialog = await screen.findByRole('dialog', { name: 'Withdraw user management' });
    await user.click(within(dialog).getByRole('button', { name: 'Withdraw' }));
    await waitFor(() =>
      expect(screen.getByRole('switch', { name: 'User management for Grace Hopper' })).toHaveProperty('checked', false),
    );

    refuse?.();
    await waitFor(() =>
      expect(screen.getByRole('switch', { name: 'User management for Grace Hopper' })).toHaveProperty('checked', true),
    );
    expect(toastMessages()).toContain(`Can manage users: ${lastAdministrator}`);
    const put = api.fetchMock.mock.calls.find(([, init]) => init?.method === 'PUT');
    expect(String(put?.[0])).toBe('/api/User/2/SystemPermissions');
    expect(JSON.parse(String(put?.[1]?.body))).toEqual({ canManageUsers: false });
  });

  it('asks before granting the administrator permission, naming what it gives, and sends nothing on Cancel', async () => {
    const grace = buildUserListItem({ id: 2, name: 'Grace Hopper', permissions: { canManageUsers: false } });
    const api = fakeApi({
      'GET /api/User': { body: pageOfItems([grace]) },
      'PUT /api/User/2/SystemPermissions': { body: { ...grace, permissions: { canManageUsers: true } } },
    });
    const user = userEvent.setup();
    renderApp({ path: '/management/user', ...admin() });

    await user.click(await screen.findByRole('switch', { name: 'User management for Grace Hopper' }));
    let dialog = await screen.findByRole('dialog', { name: 'Grant user management' });
    expect(dialog.textContent).toContain('Grace Hopper will manage every user and group');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.fetchMock.mock.calls.some(([, init]) => init?.method === 'PUT')).toBe(false);
    expect(screen.getByRole('switch', { name: 'User management for Grace Hopper' })).toHaveProperty('checked', false);

    await user.click(screen.getByRole('switch', { name: 'User management for Grace Hopper' }));
    dialog = await screen.findByRole('dialog', { name: 'Grant user management' });
    await user.click(within(dialog).getByRole('button', { name: 'Grant' }));
    await waitFor(() => expect(api.fetchMock.mock.calls.some(([, init]) => init?.method === 'PUT')).toBe(true));
    const put = api.fetchMock.mock.calls.find(([, init]) => init?.method === 'PUT');
    expect(JSON.parse(String(put?.[1]?.body))).toEqual({ canManageUsers: true });
  });

  it("opens a user's details with their groups and where each role comes from", async () => {
    const alan = buildUserListItem({ id: 3, name: 'Alan Analyst', groups: [{ id: 7, name: 'Analysts' }] });
    fakeApi({
      'GET /api/User': { body: pageOfItems([alan]) },
      'GET /api/User/3/Groups': {
        body: {
          user: { id: 3, name: 'Alan Analyst', username: 'analyst' },
          groups: [
            { group: { id: 7, name: 'Analysts' }, direct: true, path: [{ id: 7, name: 'Analysts' }] },
            {
              group: { id: 8, name: 'Staff' },
              direct: false,
              path: [
                { id: 8, name: 'Staff' },
                { id: 7, name: 'Analysts' },
              ],
            },
          ],
        },
      },
      'GET /api/DataRole/3/UserDataRoles': {
        body: buildUserDataRoles({
          user: { id: 3, name: 'Alan Analyst', username: 'analyst' },
          roles: [
            buildEffectiveRole({
              role: 'Editor',
              viaGroups: [
                buildViaGroup({ id: 7, name: 'Analysts', role: 'Editor' }),
                buildViaGroup({
                  id: 8,
                  name: 'Staff',
                  path: [
                    { id: 8, name: 'Staff' },
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
    renderApp({ path: '/management/user', ...admin() });
    await user.click(await screen.findByRole('button', { name: 'Details of Alan Analyst' }));
    const drawer = await screen.findByRole('dialog');
    const roles = await within(drawer).findByRole('table', { name: 'Effective roles' });
    expect(within(roles).getByRole('link', { name: 'Sales' }).getAttribute('href')).toBe('/collection/col-1/access');
    expect(within(roles).getByText('Group Analysts: Editor')).toBeTruthy();
    expect(within(roles).getByText('Group Staff: Reader')).toBeTruthy();
    const groups = within(drawer).getByRole('table', { name: 'Groups of the user' });
    expect(within(groups).getByRole('link', { name: 'Analysts' }).getAttribute('href')).toBe(
      '/management/user-group/7/members',
    );
    const rows = within(groups)
      .getAllByRole('row')
      .slice(1)
      .map((row) => row.textContent);
    expect(rows).toEqual(['AnalystsDirect', 'StaffThrough Staff › Analysts']);
  });

  it('shows when each user was last seen, and deactivates one after a confirmation that names the consequence', async () => {
    const grace = buildUserListItem({ id: 2, name: 'Grace Hopper', lastSeenAt: '2026-03-04T08:15:00.000Z' });
    const linus = buildUserListItem({ id: 5, name: 'Linus Torvalds', lastSeenAt: null });
    const api = fakeApi({
      'GET /api/User': { body: pageOfItems([grace, linus]) },
      'GET /api/User/2/Groups': { body: { user: { id: 2, name: 'Grace Hopper', username: 'grace' }, groups: [] } },
      'GET /api/DataRole/2/UserDataRoles': {
        body: buildUserDataRoles({ user: { id: 2, name: 'Grace Hopper', username: 'grace' } }),
      },
      'PUT /api/User/2/Active': { body: { ...grace, isActive: false } },
    });
    const user = userEvent.setup();
    renderApp({ path: '/management/user', ...admin() });
    const table = await screen.findByRole('table', { name: 'Users' });
    expect(within(table).getByText(formatDateTime(new Date('2026-03-04T08:15:00.000Z')))).toBeTruthy();
    expect(within(table).getByText('Never')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Details of Grace Hopper' }));
    const drawer = await screen.findByRole('dialog');
    await user.click(within(drawer).getByRole('button', { name: 'Deactivate' }));
    const confirm = await screen.findByRole('dialog', { name: 'Deactivate user' });
    expect(confirm.textContent).toContain('Grace Hopper can no longer sign in');
    expect(confirm.textContent).toContain('roles and group memberships are kept');
    await user.click(within(confirm).getByRole('button', { name: 'Deactivate' }));
    await waitFor(() => expect(api.requests.some((r) => r.method === 'PUT')).toBe(true));
    const put = api.requests.find((r) => r.method === 'PUT');
    expect(put?.path).toBe('/api/User/2/Active');
    expect(put?.body).toEqual({ active: false });
  });
});

describe('a user group', () => {
  const group = buildUserGroupDetail({ id: 12, name: 'Analysts', parents: [{ id: 3, name: 'Staff' }] });

  it('opens the tab the URL names, and shows why a nesting was refused', async () => {
    const detail = 'Staff already contains Analysts: nesting it there would make a cycle.';
    fakeApi({
      'GET /api/UserGroup/12': { body: group },
      'GET /api/UserGroup/12/UserGroups': { body: [] },
      'GET /api/UserGroup/12/NestingCandidates': { body: [{ id: 3, name: 'Staff' }] },
      'POST /api/UserGroup/12/UserGroup/3': {
        status: 400,
        body: { title: messages.maxDepthReached, status: 400, detail, errors: { childId: [messages.maxDepthReached] } },
      },
    });
    const user = userEvent.setup();
    const { location } = renderApp({ path: '/management/user-group/12/groups', ...admin() });
    expect(await screen.findByText('No nested groups')).toBeTruthy();
    expect(
      screen.getAllByRole('tab').find((tab) => tab.getAttribute('aria-selected') === 'true')?.textContent,
    ).toContain('Child groups');

    await user.click(screen.getByRole('combobox', { name: 'Nest a group in this one' }));
    await user.click(await screen.findByRole('option', { name: 'Staff' }));
    await user.click(screen.getByRole('button', { name: 'Add group' }));
    expect(await screen.findByText(`Max depth reached: ${detail}`)).toBeTruthy();
    expect(toastMessages()).toContain('Child ID: Max depth reached');

    await user.click(screen.getByRole('tab', { name: /Hierarchy/ }));
    await waitFor(() => expect(location()).toBe('/management/user-group/12/hierarchy'));
  });

  it('offers for nesting only the candidates the server names (no cycle, within the depth)', async () => {
    const api = fakeApi({
      'GET /api/UserGroup/12': { body: group },
      'GET /api/UserGroup/12/UserGroups': { body: [] },
      'GET /api/UserGroup/Autocomplete': {
        body: [
          { id: 3, name: 'Staff' },
          { id: 30, name: 'Team B' },
        ],
      },
      'GET /api/UserGroup/12/NestingCandidates': { body: [{ id: 30, name: 'Team B' }] },
    });
    const user = userEvent.setup();
    renderApp({ path: '/management/user-group/12/groups', ...admin() });
    await user.click(await screen.findByRole('combobox', { name: 'Nest a group in this one' }));
    await user.keyboard('t');
    expect(await screen.findByRole('option', { name: 'Team B' })).toBeTruthy();
    expect(screen.queryByRole('option', { name: 'Staff' })).toBeNull();
    expect(api.requests.map((r) => r.path)).not.toContain('/api/UserGroup/Autocomplete');
  });

  it('renames and describes the group on its Details tab', async () => {
    let current = group;
    const api = fakeApi({
      'GET /api/UserGroup/12': () => ({ body: current }),
      'PUT /api/UserGroup/12': (request) => {
        current = { ...group, ...(request.body as { name: string; description: string }) };
        return { body: current };
      },
    });
    const user = userEvent.setup();
    renderApp({ path: '/management/user-group/12/details', ...admin() });
    const name = await screen.findByRole('textbox', { name: 'Name' });
    expect(screen.getByRole('button', { name: 'Save changes' })).toHaveProperty('disabled', true);
    await user.clear(name);
    await user.type(name, 'Data team');
    await user.clear(screen.getByRole('textbox', { name: 'Description' }));
    await user.type(screen.getByRole('textbox', { name: 'Description' }), 'All analysts');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(api.requests.some((r) => r.method === 'PUT')).toBe(true));
    expect(api.requests.find((r) => r.method === 'PUT')?.body).toEqual({
      name: 'Data team',
      description: 'All analysts',
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Data team' })).toBeTruthy();
  });

  it('draws the groups above and below it', async () => {
    fakeApi({
      'GET /api/UserGroup/12': { body: group },
      'GET /api/UserGroup/12/Hierarchy': {
        body: {
          group: { id: 12, name: 'Analysts' },
          ancestors: [{ id: 3, name: 'Staff', children: [{ id: 1, name: 'Company', children: [] }] }],
          descendants: [{ id: 20, name: 'Team A', children: [{ id: 21, name: 'Team A1', children: [] }] }],
        },
      },
    });
    renderApp({ path: '/management/user-group/12/hierarchy', ...admin() });
    const below = await screen.findByRole('navigation', { name: 'Groups below' });
    expect(within(below).getByRole('link', { name: 'Team A1' }).getAttribute('href')).toBe(
      '/management/user-group/21/hierarchy',
    );
    const above = screen.getByRole('navigation', { name: 'Groups above' });
    expect(above.textContent).toBe('Company›Staff›Analysts');
  });

  it('creates a group and opens its members', async () => {
    fakeApi({
      'POST /api/UserGroup': { status: 201, body: buildUserGroupDetail({ id: 40, name: 'Finance' }) },
      'GET /api/UserGroup/40': { body: buildUserGroupDetail({ id: 40, name: 'Finance' }) },
      'GET /api/UserGroup/40/Users': { body: [] },
    });
    const user = userEvent.setup();
    const { location } = renderApp({ path: '/management/user-group/create', ...admin() });
    await user.type(await screen.findByRole('textbox', { name: 'Name' }), 'Finance');
    await user.click(screen.getByRole('button', { name: 'Create group' }));
    await waitFor(() => expect(location()).toBe('/management/user-group/40/members'));
    expect(await screen.findByText('No members yet')).toBeTruthy();
  });
});
